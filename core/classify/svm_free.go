package classify

import "math"

// tau replaces a non-positive curvature in the two-variable sub-problem
// (LIBSVM's TAU).
const tau = 1e-12

// gramLimit is the largest number of samples for which solveFree keeps the
// whole Gram matrix (2048² doubles, 32 MiB); above it, kernel columns are
// computed when needed.
const gramLimit = 2048

// solveFree solves the dual of the linear C-SVC with an unregularised bias,
//
//	min_α ½ αᵀQα − eᵀα   s.t.  0 ≤ α_i ≤ C,  yᵀα = 0,   Q_ij = y_i y_j x_iᵀx_j,
//
// by two-coordinate descent: each step picks the pair (i, j) by the
// second-order working-set selection of Fan, Chen & Lin (JMLR 6, 2005,
// WSS 2, as LIBSVM's Solver::select_working_set), minimises the dual
// exactly over that pair within the box, and updates the gradient
// G = Qα − e. It stops when the maximal violation m(α) − M(α) of the KKT
// conditions is below tol (LIBSVM's −e), or after maxIter updates (0 means
// max(10⁷, 100·l) as LIBSVM). Shrinking is not used: it changes the speed,
// not the answer. The bias is b = −ρ with ρ the average of y_iG_i over the
// free α_i (the midpoint of the feasible interval when none is free), as
// LIBSVM's calculate_rho; the primal weights are w = Σ α_i y_i x_i.
func solveFree(x [][]float64, y []float64, C, tol float64, maxIter int) ([]float64, float64, solverStatus) {
	w, b, _, st := solveFreeDual(x, y, C, tol, maxIter)
	return w, b, st
}

// solveFreeDual is solveFree returning the dual solution α as well.
func solveFreeDual(x [][]float64, y []float64, C, tol float64, maxIter int) ([]float64, float64, []float64, solverStatus) {
	l := len(x)
	d := 0
	if l > 0 {
		d = len(x[0])
	}
	if maxIter <= 0 {
		maxIter = max(10000000, 100*l)
	}
	qd := make([]float64, l) // K_ii
	for i := range x {
		qd[i] = dot(x[i], x[i])
	}
	var gram []float64
	if l <= gramLimit {
		gram = make([]float64, l*l)
		for i := 0; i < l; i++ {
			for j := 0; j <= i; j++ {
				v := dot(x[i], x[j])
				gram[i*l+j], gram[j*l+i] = v, v
			}
		}
	}
	bufI, bufJ := make([]float64, l), make([]float64, l)
	// kcol returns row i of the Gram matrix K (not Q).
	kcol := func(i int, buf []float64) []float64 {
		if gram != nil {
			return gram[i*l : (i+1)*l]
		}
		for t := range buf {
			buf[t] = dot(x[i], x[t])
		}
		return buf
	}
	alpha := make([]float64, l)
	grad := make([]float64, l)
	for i := range grad {
		grad[i] = -1
	}
	upper := func(t int) bool { return alpha[t] >= C }
	lower := func(t int) bool { return alpha[t] <= 0 }
	st := solverStatus{}
	for st.iterations < maxIter {
		// i = argmax over I_up of −y_t G_t (ties to the last, as LIBSVM).
		gmax, i := math.Inf(-1), -1
		for t := 0; t < l; t++ {
			if y[t] > 0 {
				if !upper(t) && -grad[t] >= gmax {
					gmax, i = -grad[t], t
				}
			} else if !lower(t) && grad[t] >= gmax {
				gmax, i = grad[t], t
			}
		}
		if i < 0 {
			st.converged = true
			break
		}
		ki := kcol(i, bufI)
		// j by the second-order rule among I_low; gmax2 = max over I_low
		// of y_t G_t gives the violation gmax + gmax2.
		gmax2, j, best := math.Inf(-1), -1, math.Inf(1)
		for t := 0; t < l; t++ {
			var diff float64
			if y[t] > 0 {
				if lower(t) {
					continue
				}
				diff = gmax + grad[t]
				gmax2 = math.Max(gmax2, grad[t])
			} else {
				if upper(t) {
					continue
				}
				diff = gmax - grad[t]
				gmax2 = math.Max(gmax2, -grad[t])
			}
			if diff > 0 {
				// K_ii + K_tt − 2 K_it (y_i y_t Q_it = K_it).
				quad := qd[i] + qd[t] - 2*ki[t]
				if quad <= 0 {
					quad = tau
				}
				if obj := -diff * diff / quad; obj <= best {
					best, j = obj, t
				}
			}
		}
		if gmax+gmax2 < tol || j < 0 {
			st.converged = true
			break
		}
		st.iterations++
		kj := kcol(j, bufJ)
		// Minimise over (α_i, α_j) keeping y_iα_i + y_jα_j fixed, then
		// clip to the box (LIBSVM's Solver::Solve update).
		oldI, oldJ := alpha[i], alpha[j]
		qij := y[i] * y[j] * ki[j]
		if y[i] != y[j] {
			quad := qd[i] + qd[j] + 2*qij
			if quad <= 0 {
				quad = tau
			}
			delta := (-grad[i] - grad[j]) / quad
			diff := alpha[i] - alpha[j]
			alpha[i] += delta
			alpha[j] += delta
			if diff > 0 {
				if alpha[j] < 0 {
					alpha[j], alpha[i] = 0, diff
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, -diff
			}
			if diff > 0 {
				if alpha[i] > C {
					alpha[i], alpha[j] = C, C-diff
				}
			} else if alpha[j] > C {
				alpha[j], alpha[i] = C, C+diff
			}
		} else {
			quad := qd[i] + qd[j] - 2*qij
			if quad <= 0 {
				quad = tau
			}
			delta := (grad[i] - grad[j]) / quad
			sum := alpha[i] + alpha[j]
			alpha[i] -= delta
			alpha[j] += delta
			if sum > C {
				if alpha[i] > C {
					alpha[i], alpha[j] = C, sum-C
				}
			} else if alpha[j] < 0 {
				alpha[j], alpha[i] = 0, sum
			}
			if sum > C {
				if alpha[j] > C {
					alpha[j], alpha[i] = C, sum-C
				}
			} else if alpha[i] < 0 {
				alpha[i], alpha[j] = 0, sum
			}
		}
		// G_t += Q_ti Δα_i + Q_tj Δα_j.
		di, dj := (alpha[i]-oldI)*y[i], (alpha[j]-oldJ)*y[j]
		for t := 0; t < l; t++ {
			grad[t] += y[t] * (ki[t]*di + kj[t]*dj)
		}
	}
	// ρ (LIBSVM's calculate_rho).
	ub, lb := math.Inf(1), math.Inf(-1)
	sumFree, nFree := 0.0, 0
	for t := 0; t < l; t++ {
		yg := y[t] * grad[t]
		switch {
		case upper(t):
			if y[t] < 0 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		case lower(t):
			if y[t] > 0 {
				ub = math.Min(ub, yg)
			} else {
				lb = math.Max(lb, yg)
			}
		default:
			nFree++
			sumFree += yg
		}
	}
	rho := (ub + lb) / 2
	if nFree > 0 {
		rho = sumFree / float64(nFree)
	}
	w := make([]float64, d)
	for t := 0; t < l; t++ {
		if a := alpha[t] * y[t]; a != 0 {
			for k, v := range x[t] {
				w[k] += a * v
			}
		}
	}
	return w, -rho, alpha, st
}
