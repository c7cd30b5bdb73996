package selection

import "math"

// entropyTerms holds, for a sample of m observations, the contribution
// t[n] = (n/m)·log2(m/n) of a cell holding n of them to a Shannon entropy
// in bits (t[0] = 0), so that the entropy of a table of counts is
// H = Σ_cells t[n] — a sum of non-negative terms, with no cancellation and
// no logarithm per evaluation. The information-theoretic filters (infogain,
// mrmr) evaluate thousands to millions of entropies of the same m samples.
type entropyTerms []float64

func newEntropyTerms(m int) entropyTerms {
	t := make(entropyTerms, m+1)
	for n := 1; n <= m; n++ {
		t[n] = float64(n) / float64(m) * math.Log2(float64(m)/float64(n))
	}
	return t
}

// entropy returns the entropy in bits of the distribution whose counts are
// given (they must sum to m). Tables whose counts are permutations of each
// other (a feature and its mirror image, a table and its transpose) give
// the same entropy up to the rounding of the summation order, which the
// filters' tie tolerance absorbs (see tieTolerance).
func (t entropyTerms) entropy(counts []int) float64 {
	h := 0.0
	for _, n := range counts {
		h += t[n]
	}
	return h
}

// mutualInfo returns I(A;B) = H(A) + H(B) − H(A,B) in bits, given the two
// entropies of the margins and the counts of the joint table. A rounding
// residue below zero — the true value is never negative — is returned as
// 0.
func (t entropyTerms) mutualInfo(ha, hb float64, joint []int) float64 {
	i := (ha + hb) - t.entropy(joint)
	if i < 0 {
		return 0
	}
	return i
}
