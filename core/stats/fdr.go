package stats

import (
	"math"
	"sort"
)

// BH returns the Benjamini–Hochberg adjusted p-values (the q-values) of p,
// in the order of p: with the m defined p-values sorted increasingly,
// p₍₁₎ ≤ … ≤ p₍ₘ₎,
//
//	q₍ᵢ₎ = min over j ≥ i of min(1, m·p₍ⱼ₎ / j),
//
// the step-up rule of Y. Benjamini and Y. Hochberg, "Controlling the false
// discovery rate: a practical and powerful approach to multiple testing",
// J. R. Stat. Soc. B 57 (1995) 289–300, written as adjusted values (as R's
// p.adjust(method = "BH") and scipy.stats.false_discovery_control). The
// features with q ≤ α are those the procedure rejects at false discovery
// rate α. q is monotone in p and never below it. A NaN p-value (a test
// that could not be made) stays NaN and is not counted in m.
func BH(p []float64) []float64 {
	q := make([]float64, len(p))
	var idx []int
	for i, v := range p {
		q[i] = math.NaN()
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	m := float64(len(idx))
	running := 1.0
	for r := len(idx) - 1; r >= 0; r-- {
		running = math.Min(running, m*p[idx[r]]/float64(r+1))
		q[idx[r]] = running
	}
	return q
}

// QCut returns the features of ranking whose q-value is at most q, in
// ranking order: the features the Benjamini–Hochberg procedure rejects at
// false discovery rate q. They need not be the first ones of the ranking
// when the ranking's score is not the test's (docs/statistics.md). The
// command line's -k q0.05 and the page's q-value cut both use it.
func QCut(ranking []int, qvalues []float64, q float64) []int {
	var out []int
	for _, j := range ranking {
		if j < len(qvalues) && !math.IsNaN(qvalues[j]) && qvalues[j] <= q {
			out = append(out, j)
		}
	}
	return out
}
