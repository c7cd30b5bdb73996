package classify

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/rng"
)

// L1SVM holds the state of LIBLINEAR's solver 5 (-s 5) on one binary
// problem: the L1-regularised squared-hinge (L2-loss) linear SVM
//
//	min_w  f(w) = ‖w‖₁ + C Σ_i max(0, 1 − y_i wᵀx_i)²,   y_i ∈ {−1, +1},
//
// minimised by coordinate descent with a Newton direction and a line
// search on each coordinate: the method CDN of Yuan, Chang, Hsieh & Lin,
// "A comparison of optimization methods and software for large-scale
// L1-regularized linear classification", JMLR 11 (2010), §4.1.2 and
// Algorithm 3 with the sufficient-decrease rule (40) (σ = 0.01, step
// halving, at most 20 trials), as LIBLINEAR's solve_l1r_l2_svc. A bias,
// when wanted, is a constant-1 column of x, regularised like the other
// weights (LIBLINEAR's -B 1). The caller drives the iterations with Sweep;
// shrinking is not used (it changes the speed, not the answer).
type L1SVM struct {
	xt   [][]float64 // columns of x: xt[j][i] = x_ij
	y    []float64
	c    float64
	w    []float64
	b    []float64 // b_i = 1 − y_i wᵀx_i
	xjSq []float64 // C Σ_i x_ij², the curvature bound of the line search
	perm []int
	r    *rng.Source
}

// Line-search constants of solve_l1r_l2_svc.
const (
	l1Sigma         = 0.01
	l1MaxLineSearch = 20
)

// NewL1SVM prepares the solver for the rows of x with labels y (±1), cost
// C > 0, starting from w = 0. seed fixes the order in which coordinates are
// visited.
func NewL1SVM(x *mat.Dense, y []float64, C float64, seed uint64) *L1SVM {
	m, d := x.Dims()
	s := &L1SVM{xt: make([][]float64, d), y: y, c: C, w: make([]float64, d), b: make([]float64, m),
		xjSq: make([]float64, d), perm: make([]int, d), r: rng.New(seed, uint64(d))}
	for j := range s.xt {
		col := make([]float64, m)
		mat.Col(col, j, x)
		s.xt[j] = col
		sq := 0.0
		for _, v := range col {
			sq += v * v
		}
		s.xjSq[j] = C * sq
		s.perm[j] = j
	}
	for i := range s.b {
		s.b[i] = 1
	}
	return s
}

// Sweep performs one outer iteration: every coordinate once, in a random
// order. It returns the 1-norm of the minimum-norm subgradient met along
// the way (LIBLINEAR's Gnorm1), whose decrease to eps times its first value
// is the solver's stopping rule.
func (s *L1SVM) Sweep() float64 {
	s.r.Shuffle(s.perm)
	gnorm := 0.0
	for _, j := range s.perm {
		col := s.xt[j]
		// First and (generalised) second derivatives of the loss along w_j.
		g, h := 0.0, 0.0
		for i, v := range col {
			if s.b[i] > 0 && v != 0 {
				yv := s.y[i] * v
				g -= s.c * yv * s.b[i]
				h += s.c * yv * yv
			}
		}
		g *= 2
		h = math.Max(2*h, 1e-12)
		gp, gn := g+1, g-1
		wj := s.w[j]
		// Violation of the optimality conditions of f at w along j.
		switch {
		case wj == 0:
			if gp < 0 {
				gnorm += -gp
			} else if gn > 0 {
				gnorm += gn
			}
		case wj > 0:
			gnorm += math.Abs(gp)
		default:
			gnorm += math.Abs(gn)
		}
		// Newton direction of the second-order model with |·| (Eq. 29).
		var dir float64
		switch {
		case gp < h*wj:
			dir = -gp / h
		case gn > h*wj:
			dir = -gn / h
		default:
			dir = -wj
		}
		if math.Abs(dir) < 1e-12 {
			continue
		}
		delta := math.Abs(wj+dir) - math.Abs(wj) + g*dir
		dOld := 0.0
		lossOld := math.NaN()
		trials := 0
		for ; trials < l1MaxLineSearch; trials++ {
			dDiff := dOld - dir
			cond := math.Abs(wj+dir) - math.Abs(wj) - l1Sigma*delta
			// An upper bound of the loss change: if it already gives
			// sufficient decrease, accept without evaluating the loss.
			if s.xjSq[j]*dir*dir+g*dir+cond <= 0 {
				for i, v := range col {
					s.b[i] += dDiff * s.y[i] * v
				}
				break
			}
			if math.IsNaN(lossOld) {
				lossOld = 0
				for _, bi := range s.b {
					if bi > 0 {
						lossOld += s.c * bi * bi
					}
				}
			}
			lossNew := 0.0
			for i, v := range col {
				bi := s.b[i] + dDiff*s.y[i]*v
				s.b[i] = bi
				if bi > 0 {
					lossNew += s.c * bi * bi
				}
			}
			if cond+lossNew-lossOld <= 0 {
				break
			}
			dOld = dir
			dir *= 0.5
			delta *= 0.5
		}
		if trials == l1MaxLineSearch {
			// No acceptable step: leave w_j as it is and undo the last
			// trial (b holds w + dOld). LIBLINEAR instead takes the last
			// halved step and recomputes b; staying put keeps f monotone.
			for i, v := range col {
				s.b[i] += dOld * s.y[i] * v
			}
			continue
		}
		s.w[j] += dir
	}
	return gnorm
}

// Objective returns f at the current w.
func (s *L1SVM) Objective() float64 {
	f := 0.0
	for _, v := range s.w {
		f += math.Abs(v)
	}
	for _, bi := range s.b {
		if bi > 0 {
			f += s.c * bi * bi
		}
	}
	return f
}

// Refresh recomputes the margins b_i = 1 − y_i wᵀx_i from w, discarding
// the rounding accumulated by the incremental updates.
func (s *L1SVM) Refresh() {
	for i := range s.b {
		s.b[i] = 1
	}
	for j, wj := range s.w {
		if wj == 0 {
			continue
		}
		for i, v := range s.xt[j] {
			s.b[i] -= s.y[i] * wj * v
		}
	}
}

// W returns the current weights (shared with the solver).
func (s *L1SVM) W() []float64 { return s.w }

// Gradient returns the gradient of the loss C Σ max(0, b_i)² at w (to check
// the optimality conditions: |g_j| ≤ 1 where w_j = 0, g_j = −sign(w_j)
// elsewhere).
func (s *L1SVM) Gradient() []float64 {
	g := make([]float64, len(s.w))
	for j, col := range s.xt {
		for i, v := range col {
			if s.b[i] > 0 {
				g[j] -= 2 * s.c * s.y[i] * v * s.b[i]
			}
		}
	}
	return g
}
