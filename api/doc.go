// Package api is sparsefs' job format: every type that crosses a boundary
// between its parts, defined once. The command line reads and prints it,
// the Web Worker receives and answers it, the page builds and draws it,
// and the reports saved by either hold it.
//
//   - request.go: a Request (what to compute, on which data) and its
//     operations;
//   - response.go: the answers — a Selection, an Inspection, the list of
//     methods with their parameters (param.go), a Reduced file;
//   - plan.go: an evaluation's Plan (methods, K list, classifiers,
//     protocol, tuning) and the vocabulary it is written in;
//   - evaluation.go: an evaluation's units, parts and report;
//   - worker.go: the messages between the page and its workers;
//   - float.go: how numbers are written (±Inf and NaN included).
//
// It imports the standard library only, so that the page can use it
// without linking a solver. Behaviour lives with the packages that own it:
// core/plan checks and completes a Plan (for the command line and the page
// alike), core/job runs a Request, core/evaluate runs a Plan.
//
// # JSON
//
// Field names are snake_case. Every float that may be infinite or NaN is a
// Float or Floats: ±Inf is written as ±1.7976931348623157e308 (the largest
// finite double) and NaN as null. A parameter's value is a number or text
// (a number, or the name of a categorical parameter's choice); a list of
// values is a sweep (one variant per value).
package api
