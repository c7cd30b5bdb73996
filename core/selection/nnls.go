package selection

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// nnlsSolver minimises ‖Eu − f‖₂ over u ≥ 0 by the active-set algorithm
// NNLS of Lawson & Hanson (Solving Least Squares Problems, 1974, ch. 23):
// variables enter the passive (positive) set one at a time by the largest
// component of the negative gradient w = Eᵀ(f − Eu), and the least-squares
// solution on the passive set is kept positive by interpolating back to the
// last feasible point. As in the book, the QR factorisation of the passive
// columns is updated rather than recomputed: the whole of E and f are kept
// premultiplied by Qᵀ, a column enters by one Householder reflection and
// leaves by Givens rotations that restore the triangle, so a step costs
// O(k·n) for E k×n instead of a new factorisation.
//
// solve takes a starting point u ≥ 0 whose positive entries are a
// warm-start guess of the passive set (pruned until the least-squares
// solution on it is positive) and returns the solution in u; it returns
// false if the iteration limit (3n outer steps) was reached. At the solution
// the Karush–Kuhn–Tucker conditions hold to rounding: u ≥ 0, w ≤ tol and
// w_j = 0 where u_j > 0.
type nnlsSolver struct {
	k, n     int
	a        []float64 // k×n, Qᵀ E
	b        []float64 // Qᵀ f
	colNorm  []float64 // column norms of E
	order    []int     // passive columns, in the order of the triangle
	passive  []bool
	excluded []bool // entered with a non-positive solution or dependent
	z, w, r  []float64
}

func newNNLS(k, n int) *nnlsSolver {
	return &nnlsSolver{k: k, n: n, a: make([]float64, k*n), b: make([]float64, k),
		colNorm: make([]float64, n), order: make([]int, 0, min(k, n)), passive: make([]bool, n),
		excluded: make([]bool, n), z: make([]float64, n), w: make([]float64, n), r: make([]float64, k)}
}

// load copies E and f and empties the passive set.
func (s *nnlsSolver) load(e *mat.Dense, f []float64) {
	ed := e.RawMatrix()
	clear(s.colNorm)
	for i := 0; i < s.k; i++ {
		row := ed.Data[i*ed.Stride : i*ed.Stride+s.n]
		copy(s.a[i*s.n:(i+1)*s.n], row)
		for j, x := range row {
			s.colNorm[j] += x * x
		}
	}
	for j := range s.colNorm {
		s.colNorm[j] = math.Sqrt(s.colNorm[j])
	}
	copy(s.b, f)
	s.order = s.order[:0]
	clear(s.passive)
}

// add brings column j into the triangle by a Householder reflection of rows
// p… (p = the passive count). It returns false, changing nothing, if the
// column is (numerically) dependent on the passive ones.
func (s *nnlsSolver) add(j int) bool {
	p, n := len(s.order), s.n
	if p >= s.k {
		return false
	}
	norm := 0.0
	for i := p; i < s.k; i++ {
		x := s.a[i*n+j]
		norm += x * x
	}
	norm = math.Sqrt(norm)
	if norm <= 1e-12*s.colNorm[j] || norm == 0 {
		return false
	}
	x0 := s.a[p*n+j]
	alpha := -math.Copysign(norm, x0)
	// v = x − αe₁ (stored implicitly: v_p = x0 − α, v_i = a[i][j] below);
	// H = I − vvᵀ/(αv_p), since vᵀv = −2αv_p.
	vp := x0 - alpha
	scale := 1 / (alpha * vp)
	v := s.r[:s.k]
	v[p] = vp
	for i := p + 1; i < s.k; i++ {
		v[i] = s.a[i*n+j]
	}
	// Apply H to columns c ≠ j of rows p…, row by row for contiguous
	// access: dot_c = Σ_i v_i a_ic, then a_ic += scale·dot_c·v_i.
	dot := s.z // scratch (leastSquares overwrites z before use)
	clear(dot)
	for i := p; i < s.k; i++ {
		vi := v[i]
		if vi == 0 {
			continue
		}
		for c, x := range s.a[i*n : (i+1)*n] {
			dot[c] += vi * x
		}
	}
	dot[j] = 0
	for c := range dot {
		dot[c] *= scale
	}
	for i := p; i < s.k; i++ {
		vi := v[i]
		if vi == 0 {
			continue
		}
		row := s.a[i*n : (i+1)*n]
		for c, t := range dot {
			row[c] += t * vi
		}
	}
	db := 0.0
	for i := p; i < s.k; i++ {
		db += v[i] * s.b[i]
	}
	db *= scale
	for i := p; i < s.k; i++ {
		s.b[i] += db * v[i]
	}
	s.a[p*n+j] = alpha
	for i := p + 1; i < s.k; i++ {
		s.a[i*n+j] = 0
	}
	s.order = append(s.order, j)
	s.passive[j] = true
	return true
}

// remove takes the column at triangle position q out and restores the
// triangle with Givens rotations of rows q, q+1, ….
func (s *nnlsSolver) remove(q int) {
	n := s.n
	s.passive[s.order[q]] = false
	s.order = append(s.order[:q], s.order[q+1:]...)
	for t := q; t < len(s.order); t++ {
		c := s.order[t]
		x, y := s.a[t*n+c], s.a[(t+1)*n+c]
		if y == 0 {
			continue
		}
		h := math.Hypot(x, y)
		cs, sn := x/h, y/h
		rt, rt1 := s.a[t*n:(t+1)*n], s.a[(t+1)*n:(t+2)*n]
		for col := range rt {
			u, v := rt[col], rt1[col]
			rt[col] = cs*u + sn*v
			rt1[col] = -sn*u + cs*v
		}
		rt1[c] = 0
		u, v := s.b[t], s.b[t+1]
		s.b[t] = cs*u + sn*v
		s.b[t+1] = -sn*u + cs*v
	}
}

// leastSquares sets s.z on the passive set to the minimiser of ‖E_P z − f‖
// by back substitution in the triangle (0 elsewhere).
func (s *nnlsSolver) leastSquares() {
	n := s.n
	clear(s.z)
	for t := len(s.order) - 1; t >= 0; t-- {
		v := s.b[t]
		for q := t + 1; q < len(s.order); q++ {
			v -= s.a[t*n+s.order[q]] * s.z[s.order[q]]
		}
		s.z[s.order[t]] = v / s.a[t*n+s.order[t]]
	}
}

// gradient sets s.w = Eᵀ(f − Eu) (computed as (QᵀE)ᵀ(Qᵀf − QᵀEu)) and
// returns ‖f − Eu‖.
func (s *nnlsSolver) gradient(u []float64) float64 {
	n := s.n
	norm := 0.0
	for i := 0; i < s.k; i++ {
		row := s.a[i*n : (i+1)*n]
		v := s.b[i]
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
		v := s.r[i]
		if v == 0 {
			continue
		}
		for j, x := range s.a[i*n : (i+1)*n] {
			s.w[j] += x * v
		}
	}
	return math.Sqrt(norm)
}

// position returns the triangle position of passive column j.
func (s *nnlsSolver) position(j int) int {
	for q, c := range s.order {
		if c == j {
			return q
		}
	}
	return -1
}

func (s *nnlsSolver) solve(e *mat.Dense, f, u []float64) bool {
	n := s.n
	s.load(e, f)
	clear(s.excluded)
	// Warm start: the positive entries of u, pruned until the
	// least-squares solution on them is positive.
	for j, x := range u {
		if x > 0 {
			s.add(j)
		}
	}
	for len(s.order) > 0 {
		s.leastSquares()
		q := -1
		for t, j := range s.order {
			if !(s.z[j] > 0) {
				q = t
				break
			}
		}
		if q < 0 {
			break
		}
		s.remove(q)
	}
	s.leastSquares()
	for j := range u {
		u[j] = 0
		if s.passive[j] {
			u[j] = s.z[j]
		}
	}
	colMax := 0.0
	for _, c := range s.colNorm {
		colMax = math.Max(colMax, c)
	}
	fnorm := 0.0
	for _, x := range f {
		fnorm += x * x
	}
	fnorm = math.Sqrt(fnorm)
	for outer := 0; outer < 3*n+3; outer++ {
		rnorm := s.gradient(u)
		tol := 1e-13 * colMax * math.Max(rnorm, 1e-3*fnorm)
		best, jmax := tol, -1
		for j, wj := range s.w {
			if !s.passive[j] && !s.excluded[j] && wj > best {
				best, jmax = wj, j
			}
		}
		if jmax < 0 {
			return true
		}
		if !s.add(jmax) {
			s.excluded[jmax] = true
			continue
		}
		for inner := 0; inner < 3*n+3; inner++ {
			s.leastSquares()
			if s.z[jmax] <= 0 && u[jmax] == 0 {
				// Rounding: the entering variable is not positive on
				// its own least-squares solution; leave it out.
				s.remove(s.position(jmax))
				s.excluded[jmax] = true
				break
			}
			alpha, feasible := 1.0, true
			for _, j := range s.order {
				if s.z[j] <= 0 {
					feasible = false
					if a := u[j] / (u[j] - s.z[j]); a < alpha {
						alpha = a
					}
				}
			}
			if feasible {
				for _, j := range s.order {
					u[j] = s.z[j]
				}
				clear(s.excluded)
				break
			}
			for _, j := range s.order {
				u[j] += alpha * (s.z[j] - u[j])
			}
			for q := len(s.order) - 1; q >= 0; q-- {
				j := s.order[q]
				if u[j] <= 0 || (s.z[j] <= 0 && u[j] <= 1e-15*math.Abs(s.z[j])) {
					u[j] = 0
					s.remove(q)
				}
			}
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
	// r = Eu − f, computed directly (s.r holds it in the rotated basis).
	r := make([]float64, n+1)
	for i := 0; i <= n; i++ {
		v := -f[i]
		for j, x := range u {
			v += e.At(i, j) * x
		}
		r[i] = v
	}
	rn := r[n]
	if !(rn < 0) || math.Abs(rn) < 1e-300 {
		return false
	}
	for j := 0; j < n; j++ {
		z[j] = -r[j] / rn
	}
	return ok
}
