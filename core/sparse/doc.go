// Package sparse holds the row-norm family of sparsefs: the norms of the
// rows of a weight matrix W (n features × c classes) that the embedded
// selectors penalise or constrain, their proximal maps and projections
// (the ℓ1² prox of the exclusive ℓ2,1 model, the prox of ℓ2,1 − ℓK,21 and
// the projection onto K nonzero rows of the ℓ2,0 model), all tested against
// brute force.
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
// no ½). The matrix norms follow docs/methods.md#norms:
// ‖W‖_{2,1} = Σ_j ‖w^j‖₂, ‖W‖_{1,2}² = Σ_j ‖w^j‖₁², ‖W‖_{2,p}^p = Σ_j ‖w^j‖₂^p.
//
// Functions write their result into a destination slice given by the caller
// (which may alias the input where the comment says so) and allocate nothing,
// so that the solvers can call them in their inner loops; where sorting is
// needed the caller lends a scratch slice. Shape mistakes panic.
package sparse
