// Package plan checks what people ask for — an evaluation's plan, a
// method's parameters, the lists they type — and completes it with the
// defaults, for the command line and the page alike: both build an
// api.Plan (from flags, from a form), and this package is the one place
// that says whether it is valid and, if not, what to fix. The same mistake
// gets the same message wherever it is made.
//
// It imports only package api (the standard library besides), so that the
// page uses it without linking a solver. The methods it checks against
// are a catalogue of api.MethodInfo: the core's registry
// (selection.Catalog) on the command line and in the workers, the list a
// worker sent (api.OpMethods) in the page.
//
// # Lists
//
// One grammar for every list a person types (a K list, a sweep of a
// parameter, a tuning grid, a feature subset), on the command line and in
// the page: items separated by commas, semicolons or white space, each a
// value or a range.
// A range a:b is a, a+1, …, b; a:b:step is a, a+step, … up to b
// (inclusive); an ellipsis continues the step of the two values before it:
// "10, 20, ..., 100". Ranges go upwards; a range whose step is larger than
// its span is refused as a likely a:step:b (MATLAB's order), with the
// reading it probably meant.
package plan
