// Package selection holds the feature selectors of sparsefs and the machinery
// they share. (The directory is core/selection; the package is named selection
// because select is a Go keyword.)
//
// # The shape of every selector
//
// A Selector is fitted to a Problem — a preprocessed m×n matrix X and a class
// per sample — and returns a Result: one score per feature, the ranking
// (best first), and for the embedded (sparsity-based) methods the weight
// matrix W, the exact objective of the method's model at W, the number of
// iterations, a per-iteration trace of that objective and the reason it
// stopped (Status). Filters have no objective: it is NaN, the trace is empty
// and the status is ClosedForm.
//
// Every method is described by a Spec held in a registry (Lookup, Specs):
// its name as used by the CLI, the worker and the UI, its paper, and its
// parameters with their documented defaults and valid ranges. Resolve turns
// the parameters a user gave into the complete set actually used, which
// results report so that a run can be repeated.
//
// # The iteration loop
//
// Iterative selectors do not write their own loop: they hand one iteration to
// Iterate, which enforces the iteration limit, applies the default stopping
// rule (relative change of the objective below the tolerance), records the
// trace, reports progress and honours cancellation of the context. This is
// the pattern of gonum/optimize: the methods differ only in their step.
//
// # Memory
//
// Before it allocates, a fit checks the matrices it will need against
// Problem.MemoryBudget (DefaultMemoryBudget, 1 GiB, unless set): Validate
// checks the per-class statistics (c × n); the regression-based methods
// their design, coded labels, weights and Gram systems; the filters and
// l1svm their own arrays (ttest's three c × n tables, relieff's c × c
// heap layout and heaps, mrmr's bit sets, infogain's bins × classes
// table, l1svm's copy of the design per machine) — each with CheckMemory.
// Fits run side by side (stabsel, consensus) each get their share of the
// budget. A fit that would exceed it is refused with a message naming the
// total, the largest need and its cause in the data (as many classes as
// samples, say), never left to run out of memory. The estimates are
// tested against runtime.MemStats within a factor of 2.
//
// # Conventions (see docs/methods.md)
//
// Features are ranked by score descending, ties by lower column index; the
// filters count scores within 1e−12 relative of each other as tied (see
// tieTolerance), so that ties in exact arithmetic are not decided by
// rounding.
// With Bias, a constant-1 column is appended to X for the embedded models;
// its row of W is regularised like any other but is never ranked. Zero
// denominators in a filter score give 0 for 0/0 and +Inf for x/0.
package selection
