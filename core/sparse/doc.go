// Package sparse holds the row-norm family used by the sparsity-based
// selectors of sparsefs: norms taken over the rows of a weight matrix W (one
// row per feature), their proximal maps and projections.
//
// These are small, allocation-free kernels on plain row-major slices, tested
// against brute force; the selectors in sparsefs/core/select build their
// solvers from them.
package sparse
