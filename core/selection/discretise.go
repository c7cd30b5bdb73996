package selection

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// column copies column j of x into dst (of length m) and returns it.
func column(dst []float64, x *mat.Dense, j int) []float64 {
	raw := x.RawMatrix()
	for i := range dst {
		dst[i] = raw.Data[i*raw.Stride+j]
	}
	return dst
}

// equalFrequencyBins writes into bins the equal-frequency bin of every value
// of v, as docs/methods.md#infogain defines it: sort the values; the bin of
// a value is ⌊r·B/m⌋ (0 … B−1) with r the 0-based position of that value's
// first occurrence in the sorted order, so equal values share a bin and a
// bin holds about m/B values. order (of length m) receives the sorting
// permutation: v[order[0]] ≤ v[order[1]] ≤ …, so the bins of order[0],
// order[1], … are non-decreasing. The cut points are those of the values
// given (the training part); they are monotone in the values, so any
// increasing transformation of a feature (z-scoring, min-max scaling) gives
// the same bins.
func equalFrequencyBins(v []float64, nbins int, bins, order []int) {
	m := len(v)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	first := 0
	for r, i := range order {
		if r > 0 && v[i] != v[order[r-1]] {
			first = r
		}
		bins[i] = first * nbins / m
	}
}

// threeStateCuts returns the cut points of the 3-state discretisation of
// mRMR (Peng, Long & Ding 2005, §4; docs/methods.md#mrmr): with μ the mean
// and σ the population standard deviation of v (the training part), a value
// is in state −1 when x < μ − σ, +1 when x > μ + σ, and 0 otherwise; the
// state is −1 for x < lo and +1 for x > hi.
//
// The cuts are widened by δ = 1e−9·(|μ| + σ): a value on a cut in exact
// arithmetic — the two values of a balanced binary feature lie exactly on
// μ ± σ, and a constant feature on μ — is in state 0 as the strict
// inequalities of the definition say, instead of falling on either side
// by the rounding of μ and σ (which would also make the states depend on
// whether the data were z-scored first).
func threeStateCuts(v []float64) (lo, hi float64) {
	m := float64(len(v))
	mu := 0.0
	for _, x := range v {
		mu += x
	}
	mu /= m
	ss := 0.0
	for _, x := range v {
		d := x - mu
		ss += d * d
	}
	sigma := math.Sqrt(ss / m)
	delta := 1e-9 * (math.Abs(mu) + sigma)
	return mu - sigma - delta, mu + sigma + delta
}
