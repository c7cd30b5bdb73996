package classify

import "math"

// tau replaces a non-positive curvature in the two-variable sub-problem
// (LIBSVM's TAU).
const tau = 1e-12

// kernelCacheBytes bounds the memory of the kernel columns solveFree keeps
// (LIBSVM keeps such a cache too; scikit-learn's default is 200 MB). With
// l samples it holds min(l, kernelCacheBytes/(8l)) columns.
var kernelCacheBytes = 64 << 20

// kernelCache holds the most recently used columns of the Gram matrix
// K_ij = x_iᵀx_j, computing a column when it is missing.
type kernelCache struct {
	x     [][]float64
	slot  []int       // slot of column i, or −1
	owner []int       // column held by each slot
	data  [][]float64 // the slots' columns
	// A doubly linked LRU list of slots; head is the most recent.
	prev, next []int
	head, tail int
}

func newKernelCache(x [][]float64) *kernelCache {
	l := len(x)
	n := max(2, min(l, kernelCacheBytes/(8*max(l, 1))))
	c := &kernelCache{x: x, slot: make([]int, l), owner: make([]int, 0, n), data: make([][]float64, 0, n),
		prev: make([]int, 0, n), next: make([]int, 0, n), head: -1, tail: -1}
	for i := range c.slot {
		c.slot[i] = -1
	}
	return c
}

func (c *kernelCache) unlink(s int) {
	if c.prev[s] >= 0 {
		c.next[c.prev[s]] = c.next[s]
	} else {
		c.head = c.next[s]
	}
	if c.next[s] >= 0 {
		c.prev[c.next[s]] = c.prev[s]
	} else {
		c.tail = c.prev[s]
	}
}

func (c *kernelCache) pushFront(s int) {
	c.prev[s], c.next[s] = -1, c.head
	if c.head >= 0 {
		c.prev[c.head] = s
	}
	c.head = s
	if c.tail < 0 {
		c.tail = s
	}
}

// col returns column i. It stays valid until two more columns are asked
// for (the cache holds at least two).
func (c *kernelCache) col(i int) []float64 {
	if s := c.slot[i]; s >= 0 {
		c.unlink(s)
		c.pushFront(s)
		return c.data[s]
	}
	var s int
	if len(c.data) < cap(c.data) {
		s = len(c.data)
		c.data = append(c.data, make([]float64, len(c.x)))
		c.owner = append(c.owner, i)
		c.prev, c.next = append(c.prev, -1), append(c.next, -1)
	} else {
		s = c.tail
		c.unlink(s)
		c.slot[c.owner[s]] = -1
		c.owner[s] = i
	}
	col := c.data[s]
	xi := c.x[i]
	for t, xt := range c.x {
		col[t] = dot(xi, xt)
	}
	c.slot[i] = s
	c.pushFront(s)
	return col
}

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
// max(10⁷, 100·l) as LIBSVM). The bias is b = −ρ with ρ the average of
// y_iG_i over the free α_i (the midpoint of the feasible interval when none
// is free), as LIBSVM's calculate_rho; the primal weights are
// w = Σ α_i y_i x_i.
//
// Shrinking follows LIBSVM (Solver::do_shrinking, every min(l, 1000)
// steps): a variable at a bound whose gradient says it will stay there
// leaves the active set, and the gradients are then updated on the active
// set only. With a linear kernel a stale gradient is rebuilt from the
// weights kept up to date, G_t = y_t wᵀx_t − 1, in O(d) — so LIBSVM's
// Ḡ bookkeeping is not needed. The optimality test is always passed on the
// full set before stopping, so shrinking changes the speed, not the answer.
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
	cache := newKernelCache(x)
	alpha := make([]float64, l)
	grad := make([]float64, l)
	for i := range grad {
		grad[i] = -1
	}
	w := make([]float64, d) // Σ α_t y_t x_t
	active := make([]int, l)
	for i := range active {
		active[i] = i
	}
	upper := func(t int) bool { return alpha[t] >= C }
	lower := func(t int) bool { return alpha[t] <= 0 }
	// rebuild recomputes the gradient of every variable from w and makes
	// them all active again.
	rebuild := func() {
		if len(active) == l {
			return
		}
		inactive := make([]bool, l)
		for i := range inactive {
			inactive[i] = true
		}
		for _, t := range active {
			inactive[t] = false
		}
		for t, in := range inactive {
			if in {
				grad[t] = y[t]*dot(w, x[t]) - 1
			}
		}
		active = active[:l]
		for i := range active {
			active[i] = i
		}
	}
	// violations returns m(α) = max over I_up of −y_tG_t and
	// −M(α) = max over I_low of y_tG_t, on the active set.
	violations := func() (float64, float64) {
		g1, g2 := math.Inf(-1), math.Inf(-1)
		for _, t := range active {
			if y[t] > 0 {
				if !upper(t) {
					g1 = math.Max(g1, -grad[t])
				}
				if !lower(t) {
					g2 = math.Max(g2, grad[t])
				}
			} else {
				if !lower(t) {
					g1 = math.Max(g1, grad[t])
				}
				if !upper(t) {
					g2 = math.Max(g2, -grad[t])
				}
			}
		}
		return g1, g2
	}
	unshrunk := false
	counter := min(l, 1000) + 1
	st := solverStatus{}
	for st.iterations < maxIter {
		if counter--; counter == 0 {
			counter = min(l, 1000)
			g1, g2 := violations()
			if !unshrunk && g1+g2 <= 10*tol {
				unshrunk = true
				rebuild()
				g1, g2 = violations()
			}
			kept := active[:0]
			for _, t := range active {
				// LIBSVM's be_shrunk: at a bound, and its gradient beyond
				// the current extreme violations.
				shrink := false
				switch {
				case upper(t):
					shrink = (y[t] > 0 && -grad[t] > g1) || (y[t] < 0 && -grad[t] > g2)
				case lower(t):
					shrink = (y[t] > 0 && grad[t] > g2) || (y[t] < 0 && grad[t] > g1)
				}
				if !shrink {
					kept = append(kept, t)
				}
			}
			active = kept
		}
		i, j, gap := selectPair(active, y, grad, qd, cache, upper, lower)
		if gap < tol || j < 0 {
			if len(active) == l {
				st.converged = true
				break
			}
			// Optimal on the active set: check everything (and shrink
			// again at the next step, as LIBSVM).
			rebuild()
			if i, j, gap = selectPair(active, y, grad, qd, cache, upper, lower); gap < tol || j < 0 {
				st.converged = true
				break
			}
			counter = 1
		}
		st.iterations++
		ki, kj := cache.col(i), cache.col(j)
		oldI, oldJ := alpha[i], alpha[j]
		updatePair(alpha, grad, qd, y, ki[j], i, j, C)
		// G_t += Q_ti Δα_i + Q_tj Δα_j on the active set; w follows.
		di, dj := (alpha[i]-oldI)*y[i], (alpha[j]-oldJ)*y[j]
		for _, t := range active {
			grad[t] += y[t] * (ki[t]*di + kj[t]*dj)
		}
		for k := range w {
			w[k] += di*x[i][k] + dj*x[j][k]
		}
	}
	rebuild()
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
	// w from α afresh (the running w has accumulated rounding).
	for k := range w {
		w[k] = 0
	}
	for t := 0; t < l; t++ {
		if a := alpha[t] * y[t]; a != 0 {
			for k, v := range x[t] {
				w[k] += a * v
			}
		}
	}
	return w, -rho, alpha, st
}

// selectPair is LIBSVM's WSS 2 on the active set: i maximises −y_tG_t over
// I_up (ties to the last), j minimises −(b_it)²/a_it over I_low with
// b_it = m(α) + y_tG_t > 0 and a_it = K_ii + K_tt − 2K_it. It returns the
// violation m(α) − M(α), and j = −1 when no pair can decrease the dual.
func selectPair(active []int, y, grad, qd []float64, cache *kernelCache, upper, lower func(int) bool) (int, int, float64) {
	gmax, i := math.Inf(-1), -1
	for _, t := range active {
		if y[t] > 0 {
			if !upper(t) && -grad[t] >= gmax {
				gmax, i = -grad[t], t
			}
		} else if !lower(t) && grad[t] >= gmax {
			gmax, i = grad[t], t
		}
	}
	if i < 0 {
		return -1, -1, math.Inf(-1)
	}
	ki := cache.col(i)
	gmax2, j, best := math.Inf(-1), -1, math.Inf(1)
	for _, t := range active {
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
			quad := qd[i] + qd[t] - 2*ki[t]
			if quad <= 0 {
				quad = tau
			}
			if obj := -diff * diff / quad; obj <= best {
				best, j = obj, t
			}
		}
	}
	return i, j, gmax + gmax2
}

// updatePair minimises the dual over (α_i, α_j) keeping y_iα_i + y_jα_j
// fixed, then clips to the box (LIBSVM's Solver::Solve update); kij is
// x_iᵀx_j.
func updatePair(alpha, grad, qd, y []float64, kij float64, i, j int, C float64) {
	qij := y[i] * y[j] * kij
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
		return
	}
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
