package selection

import "math"

// The bounds of stability selection on E[V], the expected number of
// features selected with probability at least π that the base selector
// picks no more often than chance (docs/methods.md#stabsel), for q
// features taken from each half-sample out of p.

// boundMB is the bound of N. Meinshausen and P. Bühlmann, "Stability
// selection", J. R. Stat. Soc. B 72 (2010), Theorem 1, which R. D. Shah and
// R. J. Samworth, "Variable selection with error control: another look at
// stability selection", J. R. Stat. Soc. B 75 (2013), Theorem 1 with
// θ = q/p, show to hold for complementary pairs too, for the features
// whose own selection probability by the base on a half-sample is at most
// q/p:
//
//	E[V] ≤ q² / ((2π − 1)·p),   1/2 < π ≤ 1.
func boundMB(q, p int, pi float64) float64 {
	if !(pi > 0.5 && pi <= 1) {
		return math.NaN()
	}
	return float64(q*q) / ((2*pi - 1) * float64(p))
}

// boundUnimodal is Shah and Samworth's sharper bound (2013, §3) under
// their assumption that the estimated selection probabilities of those
// low-probability features have unimodal distributions, with θ = q/p and
// B pairs, in the form of the R package stabs (B. Hofner and T. Hothorn;
// its um_const):
//
//	E[V] ≤ (q²/p) / (2(2π − 1 − 1/(2B)))           for π ≤ 3/4, when
//	                                                  π ≥ 1/2 + min(θ², 1/(2B) + 3θ²/4);
//	E[V] ≤ (q²/p) · 4(1 − π + 1/(2B)) / (1 + 1/B)   for 3/4 < π ≤ 1;
//
// NaN where it does not apply.
func boundUnimodal(q, p, pairs int, pi float64) float64 {
	theta, b := float64(q)/float64(p), float64(pairs)
	base := float64(q*q) / float64(p)
	switch {
	case pi > 0.75 && pi <= 1:
		return base * 4 * (1 - pi + 1/(2*b)) / (1 + 1/b)
	case pi >= 0.5+math.Min(theta*theta, 1/(2*b)+0.75*theta*theta) && 2*pi-1-1/(2*b) > 0 && pi <= 0.75:
		return base / (2 * (2*pi - 1 - 1/(2*b)))
	}
	return math.NaN()
}

// autoQ is the q chosen when none is given: the largest whose
// Meinshausen–Bühlmann bound at π is at most one falsely selected
// feature, ⌊√((2π − 1)·p)⌋ (at least 1, at most p).
func autoQ(p int, pi float64) int {
	return min(p, max(1, int(math.Floor(math.Sqrt((2*pi-1)*float64(p))))))
}
