// Package sparse holds the row-norm family of sparsefs: the norms of the
// rows of a weight matrix W (n features × c classes) that the embedded
// selectors penalise or constrain, and their proximal maps.
//
// # Conventions
//
// A row is a plain []float64 (one feature's weights across the classes).
// A proximal map of a penalty h with step t is
//
//	prox_{t·h}(v) = argmin_w ½‖w − v‖² + t·h(w),
//
// except where a paper states its own form, which the function's comment
// then gives (ProxL1Sq follows exclusive-l21-ming-ding-2019, Eq. 3, which has
// no ½). The matrix norms follow METHODS.md: ‖W‖_{2,1} = Σ_j ‖w^j‖₂,
// ‖W‖_{1,2}² = Σ_j ‖w^j‖₁², ‖W‖_{2,p}^p = Σ_j ‖w^j‖₂^p.
//
// Functions write their result into a destination slice given by the caller
// (which may alias the input where the comment says so) and allocate nothing,
// so that the solvers can call them in their inner loops; where sorting is
// needed the caller lends a scratch slice. Shape mistakes panic.
package sparse
