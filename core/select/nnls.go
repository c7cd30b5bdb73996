package selection

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// nnls minimises ‖Eu − f‖₂ over u ≥ 0 by the active-set algorithm NNLS of
// Lawson & Hanson (Solving Least Squares Problems, 1974, ch. 23): variables
// enter the passive (positive) set one at a time by the largest component
// of the negative gradient w = Eᵀ(f − Eu), and the least-squares solution on
// the passive set is kept positive by interpolating back to the last
// feasible point. E is k×n; each least-squares subproblem is solved by a
// Householder QR of the passive columns.
//
// u holds a starting point on entry (any u ≥ 0; its positive entries are a
// warm-start guess of the passive set, pruned until the least-squares
// solution on it is positive) and the solution on return. It returns false
// if the iteration limit (3n outer steps) was reached.
//
// At the solution the Karush–Kuhn–Tucker conditions hold: u ≥ 0, w ≤ tol and
// w_j = 0 where u_j > 0 (up to rounding).
type nnlsSolver struct {
	k, n    int
	passive []bool
	idx     []int
	z, w, r []float64
	sub     *mat.Dense
	qr      mat.QR
}

func newNNLS(k, n int) *nnlsSolver {
	return &nnlsSolver{k: k, n: n, passive: make([]bool, n), idx: make([]int, 0, n),
		z: make([]float64, n), w: make([]float64, n), r: make([]float64, k)}
}

// leastSquares sets s.z[j] for j in the passive set to the minimiser of
// ‖E_P z − f‖ (and 0 elsewhere).
func (s *nnlsSolver) leastSquares(e *mat.Dense, f []float64) {
	s.idx = s.idx[:0]
	for j, p := range s.passive {
		s.z[j] = 0
		if p {
			s.idx = append(s.idx, j)
		}
	}
	np := len(s.idx)
	if np == 0 {
		return
	}
	rows := max(s.k, np)
	sub := mat.NewDense(rows, np, nil) // zero rows pad an underdetermined system
	ed := e.RawMatrix()
	for i := 0; i < s.k; i++ {
		row := ed.Data[i*ed.Stride:]
		out := sub.RawRowView(i)
		for a, j := range s.idx {
			out[a] = row[j]
		}
	}
	rhs := mat.NewVecDense(rows, nil)
	for i := 0; i < s.k; i++ {
		rhs.SetVec(i, f[i])
	}
	s.qr.Factorize(sub)
	var sol mat.VecDense
	if err := s.qr.SolveVecTo(&sol, false, rhs); err != nil {
		// A numerically singular passive set: solve with the
		// columns kept so far, the last one set to zero.
		for a := range s.idx {
			s.z[s.idx[a]] = 0
		}
		return
	}
	for a, j := range s.idx {
		s.z[j] = sol.AtVec(a)
	}
}

// gradient sets s.w = Eᵀ(f − Eu) and s.r = f − Eu; it returns ‖f − Eu‖.
func (s *nnlsSolver) gradient(e *mat.Dense, f, u []float64) float64 {
	ed := e.RawMatrix()
	norm := 0.0
	for i := 0; i < s.k; i++ {
		row := ed.Data[i*ed.Stride : i*ed.Stride+s.n]
		v := f[i]
		for j, x := range u {
			if x != 0 {
				v -= row[j] * x
			}
		}
		s.r[i] = v
		norm += v * v
	}
	clear(s.w)
	for i := 0; i < s.k; i++ {
		row := ed.Data[i*ed.Stride : i*ed.Stride+s.n]
		v := s.r[i]
		if v == 0 {
			continue
		}
		for j, x := range row {
			s.w[j] += x * v
		}
	}
	return math.Sqrt(norm)
}

func (s *nnlsSolver) solve(e *mat.Dense, f, u []float64) bool {
	n := s.n
	// Warm start: the positive entries of u, pruned until the
	// least-squares solution on them is positive.
	any := false
	for j, x := range u {
		s.passive[j] = x > 0
		any = any || x > 0
	}
	for any {
		s.leastSquares(e, f)
		any = false
		bad := false
		for j, p := range s.passive {
			if p && !(s.z[j] > 0) {
				s.passive[j] = false
				bad = true
			} else if p {
				any = true
			}
		}
		if !bad {
			break
		}
	}
	for j := range u {
		u[j] = 0
		if s.passive[j] {
			u[j] = s.z[j]
		}
	}
	colMax := 0.0
	ed := e.RawMatrix()
	for i := 0; i < s.k; i++ {
		for _, x := range ed.Data[i*ed.Stride : i*ed.Stride+n] {
			colMax = math.Max(colMax, math.Abs(x))
		}
	}
	fnorm := 0.0
	for _, x := range f {
		fnorm += x * x
	}
	fnorm = math.Sqrt(fnorm)
	excluded := make([]bool, n) // entered with a non-positive solution: skip
	for outer := 0; outer < 3*n+3; outer++ {
		rnorm := s.gradient(e, f, u)
		tol := 1e-13 * colMax * math.Sqrt(float64(s.k)) * math.Max(rnorm, 1e-3*fnorm)
		best, jmax := tol, -1
		for j, wj := range s.w {
			if !s.passive[j] && !excluded[j] && wj > best {
				best, jmax = wj, j
			}
		}
		if jmax < 0 {
			return true
		}
		s.passive[jmax] = true
		for inner := 0; inner < 3*n+3; inner++ {
			s.leastSquares(e, f)
			if s.z[jmax] <= 0 && u[jmax] == 0 {
				// Rounding: the entering variable is not positive on
				// its own least-squares solution; leave it out.
				s.passive[jmax] = false
				excluded[jmax] = true
				break
			}
			alpha, feasible := 1.0, true
			for j, p := range s.passive {
				if p && s.z[j] <= 0 {
					feasible = false
					if a := u[j] / (u[j] - s.z[j]); a < alpha {
						alpha = a
					}
				}
			}
			if feasible {
				for j, p := range s.passive {
					if p {
						u[j] = s.z[j]
					}
				}
				break
			}
			for j, p := range s.passive {
				if p {
					u[j] += alpha * (s.z[j] - u[j])
					if u[j] <= 0 || (s.z[j] <= 0 && u[j] <= 1e-15*math.Abs(s.z[j])) {
						u[j] = 0
						s.passive[j] = false
					}
				}
			}
		}
		if !excluded[jmax] {
			clear(excluded)
		}
	}
	return false
}

// ldp solves the least-distance problem min ‖z‖₂ s.t. Gz ≥ h (G k×n) by
// its reduction to NNLS (Lawson & Hanson 1974, ch. 23, §3): with
// E = [Gᵀ; hᵀ] ((n+1)×k) and f = (0,…,0,1), the NNLS solution u gives the
// residual r = Eu − f and z = −r_{1:n}/r_{n+1}, with multipliers
// λ = u/(1 − hᵀu) ≥ 0 of the constraints (z = Gᵀλ). It returns false if the
// constraints are inconsistent (r = 0) or NNLS hit its limit. u (length k)
// is the warm start and holds the NNLS solution on return; e is (n+1)×k
// scratch filled here.
func ldp(s *nnlsSolver, e *mat.Dense, g *mat.Dense, h, z, u []float64) bool {
	k, n := g.Dims()
	for i := 0; i < k; i++ {
		row := g.RawRowView(i)
		for j := 0; j < n; j++ {
			e.Set(j, i, row[j])
		}
		e.Set(n, i, h[i])
	}
	f := make([]float64, n+1)
	f[n] = 1
	ok := s.solve(e, f, u)
	// r = Eu − f = −s.r after the last gradient evaluation; recompute.
	s.gradient(e, f, u)
	rn := -s.r[n]
	if !(rn < 0) || math.Abs(rn) < 1e-300 {
		return false
	}
	for j := 0; j < n; j++ {
		z[j] = s.r[j] / rn
	}
	return ok
}
