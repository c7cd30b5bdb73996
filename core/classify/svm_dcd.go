package classify

import (
	"math"

	"sparsefs/core/internal/rng"
)

// dcdSeed seeds the permutations of solveDCD: the solver is deterministic,
// and its answer does not depend on the order beyond the tolerance.
const dcdSeed = 0x5eed

// solveDCD solves the dual of the linear L1-loss SVM with the bias as a
// regularised constant-1 feature x̂_i = [x_i; 1] (LIBLINEAR -s 3 -B 1),
//
//	min_α ½ αᵀQ̂α − eᵀα   s.t.  0 ≤ α_i ≤ C,   Q̂_ij = y_i y_j x̂_iᵀx̂_j,
//
// by dual coordinate descent, Algorithm 1 of Hsieh, Chang, Lin, Keerthi &
// Sundararajan (ICML 2008): each outer iteration visits the coordinates in
// a random order and sets α_i to the minimiser of the dual along it,
// α_i ← min(max(α_i − G_i/Q̂_ii, 0), C) with G_i = y_i ŵᵀx̂_i − 1, keeping
// ŵ = Σ α_i y_i x̂_i up to date. It stops when the spread of the projected
// gradient, max PG − min PG over one pass, is at most tol (Eq. 12 of the
// paper), or after maxIter passes (0 means 1000). It returns w and b.
func solveDCD(x [][]float64, y []float64, C, tol float64, maxIter int) ([]float64, float64, solverStatus) {
	w, b, _, st := solveDCDDual(x, y, C, tol, maxIter)
	return w, b, st
}

// solveDCDDual is solveDCD returning the dual solution α as well.
func solveDCDDual(x [][]float64, y []float64, C, tol float64, maxIter int) ([]float64, float64, []float64, solverStatus) {
	l := len(x)
	d := 0
	if l > 0 {
		d = len(x[0])
	}
	if maxIter <= 0 {
		maxIter = 1000
	}
	w := make([]float64, d+1) // the bias weight last
	qd := make([]float64, l)
	for i := range x {
		qd[i] = dot(x[i], x[i]) + 1
	}
	alpha := make([]float64, l)
	r := rng.New(dcdSeed, uint64(l))
	perm := make([]int, l)
	for i := range perm {
		perm[i] = i
	}
	st := solverStatus{}
	for st.iterations < maxIter {
		st.iterations++
		r.Shuffle(perm)
		pgMax, pgMin := math.Inf(-1), math.Inf(1)
		for _, i := range perm {
			g := y[i]*(dot(w[:d], x[i])+w[d]) - 1
			pg := g
			switch {
			case alpha[i] <= 0:
				pg = math.Min(g, 0)
			case alpha[i] >= C:
				pg = math.Max(g, 0)
			}
			pgMax, pgMin = math.Max(pgMax, pg), math.Min(pgMin, pg)
			if math.Abs(pg) <= 1e-12 {
				continue
			}
			old := alpha[i]
			alpha[i] = math.Min(math.Max(old-g/qd[i], 0), C)
			if delta := (alpha[i] - old) * y[i]; delta != 0 {
				for k, v := range x[i] {
					w[k] += delta * v
				}
				w[d] += delta
			}
		}
		if pgMax-pgMin <= tol {
			st.converged = true
			break
		}
	}
	return w[:d], w[d], alpha, st
}
