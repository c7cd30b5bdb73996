package sparse

import "math"

// TopKRows is reusable workspace for the operations that single out the K
// rows of largest Euclidean norm of an r×c matrix: the norm ||W||_{K,21},
// the penalty ||W||_{2,1} − ||W||_{K,21}, its proximal map, and the
// projection onto {W : ||W||_{2,0} ≤ K}. Matrices are row-major slices of
// length r·c holding r rows of c entries. The zero value is ready to use; it
// grows to the largest r it has seen and then allocates nothing.
//
// "The K largest rows" is made unique by a total order: larger norm first,
// equal norms by lower row index. Any choice among tied rows is correct for
// the maps below (they are set-valued at ties); this one is deterministic.
type TopKRows struct {
	norms []float64
	order []int
	keep  []bool
}

// reset sizes the workspace for r rows.
func (t *TopKRows) reset(r int) {
	if cap(t.norms) < r {
		t.norms = make([]float64, r)
		t.order = make([]int, r)
		t.keep = make([]bool, r)
		for i := range t.order {
			t.order[i] = i
		}
	}
	t.norms, t.keep = t.norms[:r], t.keep[:r]
	if len(t.order) != r {
		t.order = t.order[:r]
		for i := range t.order {
			t.order[i] = i
		}
	}
}

// rowNorms fills t.norms with the Euclidean norms of the rows of w.
func (t *TopKRows) rowNorms(w []float64, c int) {
	r := len(w) / c
	t.reset(r)
	for i := 0; i < r; i++ {
		s := 0.0
		for _, v := range w[i*c : (i+1)*c] {
			s += v * v
		}
		t.norms[i] = math.Sqrt(s)
	}
}

// Select computes the row norms of w (r×c) and marks the k rows of largest
// norm. It returns the norms and the marks, both of length r and owned by
// t (valid until its next use). k ≤ 0 marks none; k ≥ r marks all.
func (t *TopKRows) Select(w []float64, c, k int) (norms []float64, keep []bool) {
	checkShape(w, c)
	t.rowNorms(w, c)
	t.mark(k)
	return t.norms, t.keep
}

// mark sets t.keep for the k largest of t.norms.
func (t *TopKRows) mark(k int) {
	r := len(t.norms)
	for i := range t.keep {
		t.keep[i] = k >= r
	}
	if k <= 0 || k >= r {
		return
	}
	t.selectK(k)
	for _, i := range t.order[:k] {
		t.keep[i] = true
	}
}

// before reports whether row i comes before row j in the total order.
func (t *TopKRows) before(i, j int) bool {
	a, b := t.norms[i], t.norms[j]
	return a > b || (a == b && i < j)
}

// selectK permutes t.order so that its first k entries are the k first rows
// in the total order (in no particular order among themselves): Hoare's
// quickselect with a median-of-three pivot, O(r) on average. Keys are
// distinct under the total order, so a two-way partition is exact.
func (t *TopKRows) selectK(k int) {
	o := t.order
	lo, hi := 0, len(o)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// Median of three into o[mid].
		if t.before(o[mid], o[lo]) {
			o[mid], o[lo] = o[lo], o[mid]
		}
		if t.before(o[hi], o[lo]) {
			o[hi], o[lo] = o[lo], o[hi]
		}
		if t.before(o[hi], o[mid]) {
			o[hi], o[mid] = o[mid], o[hi]
		}
		pivot := o[mid]
		i, j := lo, hi
		for i <= j {
			for t.before(o[i], pivot) {
				i++
			}
			for t.before(pivot, o[j]) {
				j--
			}
			if i <= j {
				o[i], o[j] = o[j], o[i]
				i++
				j--
			}
		}
		// Now o[lo..j] ⪯ pivot ⪯ o[i..hi], and o[j+1..i-1] = pivot.
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}

// KNorm returns ||W||_{K,21}, the sum of the k largest row norms of w (r×c).
func (t *TopKRows) KNorm(w []float64, c, k int) float64 {
	norms, keep := t.Select(w, c, k)
	s := 0.0
	for i, v := range norms {
		if keep[i] {
			s += v
		}
	}
	return s
}

// Gap returns ||W||_{2,1} − ||W||_{K,21}, the sum of the row norms of w
// (r×c) outside its k largest: zero exactly when w has at most k nonzero
// rows (An, Dong, Qin 2021, Proposition 3.1(i)).
func (t *TopKRows) Gap(w []float64, c, k int) float64 {
	norms, keep := t.Select(w, c, k)
	s := 0.0
	for i, v := range norms {
		if !keep[i] {
			s += v
		}
	}
	return s
}

// Prox writes into dst (r×c, may be u itself) the proximal map of
// alpha·(||·||_{2,1} − ||·||_{K,21}) at u,
//
//	argmin_W ½||W − U||_F² + α(||W||_{2,1} − ||W||_{K,21}),
//
// and returns the value of the penalty ||W||_{2,1} − ||W||_{K,21} at the
// result. The k rows of u of largest norm are kept as they are and every
// other row is shrunk towards zero by α: w^i = max(0, 1 − α/||u^i||)·u^i.
//
// This is Theorem 5.1 of An, Dong and Qin (2021) with one correction: the
// theorem writes (1 − α/||u^i||)·u^i without the max, which for a row with
// ||u^i|| < α flips the row and is not a minimiser (its proof assumes every
// row of the minimiser is nonzero, which Proposition 5.2 does not give when
// ||u^i|| ≤ α). The derivation behind the formula used here: −||W||_{K,21}
// is the minimum over K-sets S of −Σ_{i∈S}||w^i||, so the problem is
// min_S Σ_{i∉S} min_w ½||w − u^i||² + α||w|| (rows in S are free and
// copy u^i); the inner minimum is the block soft threshold, its value is
// increasing in ||u^i||, so the best S holds the k largest rows of u.
func (t *TopKRows) Prox(dst, u []float64, c, k int, alpha float64) float64 {
	if len(dst) != len(u) {
		panic("sparse: Prox: dst and u differ in size")
	}
	norms, keep := t.Select(u, c, k)
	gap := 0.0
	for i, s := range norms {
		d, v := dst[i*c:(i+1)*c], u[i*c:(i+1)*c]
		switch {
		case keep[i]:
			copy(d, v)
		case s > alpha:
			f := 1 - alpha/s
			for j := range d {
				d[j] = f * v[j]
			}
			gap += s - alpha
		default:
			clear(d)
		}
	}
	return gap
}

// Project writes into dst (r×c, may be u itself) the Euclidean projection
// of u onto {W : ||W||_{2,0} ≤ k}: the k rows of largest norm are kept and
// the others set to zero. It returns the indicator of the kept rows (owned
// by t).
func (t *TopKRows) Project(dst, u []float64, c, k int) []bool {
	if len(dst) != len(u) {
		panic("sparse: Project: dst and u differ in size")
	}
	_, keep := t.Select(u, c, k)
	for i, kp := range keep {
		d := dst[i*c : (i+1)*c]
		if kp {
			copy(d, u[i*c:(i+1)*c])
		} else {
			clear(d)
		}
	}
	return keep
}

func checkShape(w []float64, c int) {
	if c <= 0 || len(w)%c != 0 {
		panic("sparse: matrix length is not a multiple of the row length")
	}
}
