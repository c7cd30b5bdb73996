package selection

import (
	"math"
	"slices"
)

// tieTolerance is the relative width within which two filter scores count
// as tied: |a − b| ≤ tieTolerance·max(1, |a|).
//
// Scores that are equal in exact arithmetic often differ in the last bits
// once computed: the mutual information of two different contingency
// tables can be the same number (a row proportional to another merges
// with it), a feature and its affine image have the same t or F, and the
// order of a sum changes its rounding. docs/methods.md#ranking breaks ties
// by the lower column index; without a tolerance that rule would be decided
// by rounding noise (about 1e−16 relative), which no independent computation
// could reproduce. 1e−12 is four orders of magnitude above that noise and
// far below any difference that means something.
const tieTolerance = 1e-12

// tied reports whether the score lo (ranked after hi) ties with hi.
func tied(hi, lo float64) bool {
	return hi == lo || hi-lo <= tieTolerance*math.Max(1, math.Abs(hi))
}

// rankTied returns the features by score descending, as RankByScore does,
// with every run of scores each tied with the next (tied) put in
// increasing column order.
func rankTied(scores []float64) []int {
	idx := RankByScore(scores)
	for a := 0; a < len(idx); {
		b := a + 1
		for b < len(idx) && tied(scores[idx[b-1]], scores[idx[b]]) {
			b++
		}
		slices.Sort(idx[a:b])
		a = b
	}
	return idx
}

// tiedFilterResult is FilterResult with the ranking of rankTied.
func tiedFilterResult(scores []float64) *Result {
	r := FilterResult(scores)
	r.Ranking = rankTied(scores)
	return r
}
