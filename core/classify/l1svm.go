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
// weights (LIBLINEAR's -B 1). The caller drives the iterations with Sweep.
//
// Shrinking, as LIBLINEAR: a zero weight whose derivative lies well inside
// the subdifferential (|∂_jL| < 1 − Gmax_old/m, Gmax_old the largest
// violation of the previous pass) leaves the active set; all coordinates
// are reactivated when the active ones have made enough progress (see
// shrinkRecheck), and the stopping rule is only tested on a pass over every
// coordinate, so the answer is the one without shrinking.
type L1SVM struct {
	xt   [][]float64 // columns of x: xt[j][i] = x_ij
	y    []float64
	c    float64
	w    []float64
	b    []float64 // b_i = 1 − y_i wᵀx_i
	xjSq []float64 // C Σ_i x_ij², the curvature bound of the line search
	perm []int     // perm[:active] are the active coordinates
	r    *rng.Source

	active    int
	gmaxOld   float64
	gnormInit float64 // Gnorm1 of the first pass
	gnormFull float64 // Gnorm1 of the latest pass over every coordinate
	sweeps    int
}

// shrinkRecheck: a shrunk solver reactivates every coordinate once the
// active ones' Gnorm1 falls below this fraction of the latest full pass's
// (or below the stopping threshold). LIBLINEAR waits for the stopping
// threshold itself, which with a small eps can leave wrongly shrunk
// coordinates out for thousands of passes (measured on GLIOMA: stuck 7%
// above the optimum after 2000 passes with eps = 1e−9).
const shrinkRecheck = 0.1

// Line-search constants of solve_l1r_l2_svc.
const (
	l1Sigma         = 0.01
	l1MaxLineSearch = 20
)

// NewL1SVM prepares the solver for the rows of x with labels y (±1), cost
// C > 0, starting from w = 0. seed fixes the order in which coordinates are
// visited.
func NewL1SVM(x *mat.Dense, y []float64, C float64, seed uint64) *L1SVM {
	return NewL1SVMColumns(Columns(x), y, C, seed)
}

// Columns returns copies of the columns of x (cols[j][i] = x_ij), the
// layout the solver reads.
func Columns(x *mat.Dense) [][]float64 {
	m, d := x.Dims()
	cols := make([][]float64, d)
	for j := range cols {
		cols[j] = make([]float64, m)
		mat.Col(cols[j], j, x)
	}
	return cols
}

// NewL1SVMColumns is NewL1SVM for the data whose columns are cols (see
// Columns), which the solver reads and never changes: the machines of a
// one-vs-rest fit share them.
func NewL1SVMColumns(cols [][]float64, y []float64, C float64, seed uint64) *L1SVM {
	d, m := len(cols), len(y)
	s := &L1SVM{xt: cols, y: y, c: C, w: make([]float64, d), b: make([]float64, m),
		xjSq: make([]float64, d), perm: make([]int, d), r: rng.New(seed, uint64(d)), active: d, gmaxOld: math.Inf(1)}
	for j, col := range s.xt {
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

// Sweep performs one outer iteration: every active coordinate once, in a
// random order. It returns the 1-norm of the minimum-norm subgradient met
// along the way (LIBLINEAR's Gnorm1) and whether the solver has converged:
// that norm has fallen to eps times its value in the first pass with every
// coordinate active.
func (s *L1SVM) Sweep(eps float64) (gnorm float64, converged bool) {
	s.r.Shuffle(s.perm[:s.active])
	gmax := 0.0
	m := float64(len(s.b))
	for k := 0; k < s.active; k++ {
		j := s.perm[k]
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
		viol := 0.0
		switch {
		case wj == 0:
			if gp < 0 {
				viol = -gp
			} else if gn > 0 {
				viol = gn
			} else if gp > s.gmaxOld/m && gn < -s.gmaxOld/m {
				// Shrink: j is very likely to stay at zero.
				s.active--
				s.perm[k], s.perm[s.active] = s.perm[s.active], s.perm[k]
				k--
				continue
			}
		case wj > 0:
			viol = math.Abs(gp)
		default:
			viol = math.Abs(gn)
		}
		gmax = math.Max(gmax, viol)
		gnorm += viol
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
	if s.sweeps == 0 {
		s.gnormInit = gnorm
	}
	s.sweeps++
	if s.active == len(s.w) {
		if gnorm <= eps*s.gnormInit {
			return gnorm, true
		}
		s.gnormFull = gnorm
	} else if gnorm <= math.Max(eps*s.gnormInit, shrinkRecheck*s.gnormFull) {
		// The active coordinates are solved well past the last full
		// pass's violation: check every coordinate again.
		s.Unshrink()
		return gnorm, false
	}
	s.gmaxOld = gmax
	return gnorm, false
}

// Shrunk reports whether some coordinates are out of the active set.
func (s *L1SVM) Shrunk() bool { return s.active < len(s.w) }

// Unshrink returns every coordinate to the active set.
func (s *L1SVM) Unshrink() { s.active, s.gmaxOld = len(s.w), math.Inf(1) }

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
func (s *L1SVM) Gradient() []float64 { return s.gradientInto(make([]float64, len(s.w))) }

// gradientInto is Gradient written into g (len(g) = len(w)).
func (s *L1SVM) gradientInto(g []float64) []float64 {
	clear(g)
	for j, col := range s.xt {
		for i, v := range col {
			if s.b[i] > 0 {
				g[j] -= 2 * s.c * s.y[i] * v * s.b[i]
			}
		}
	}
	return g
}
