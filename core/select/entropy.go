package selection

import (
	"math"
	"slices"
)

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
// given (they must sum to m). It sorts counts in place: the terms are added
// in ascending order, so that tables whose counts are permutations of each
// other (a feature and its mirror image, a table and its transpose) give
// bit-identical entropies, and ties between such features stay exact ties.
func (t entropyTerms) entropy(counts []int) float64 {
	sortSmall(counts)
	h := 0.0
	for _, n := range counts {
		h += t[n]
	}
	return h
}

// mutualInfo returns I(A;B) = H(A) + H(B) − H(A,B) in bits, given the two
// entropies of the margins and the counts of the joint table (sorted in
// place). It is symmetric in A and B to the last bit (the margins are added
// first, and addition commutes), and a rounding residue below zero — the
// true value is never negative — is returned as 0.
func (t entropyTerms) mutualInfo(ha, hb float64, joint []int) float64 {
	i := (ha + hb) - t.entropy(joint)
	if i < 0 {
		return 0
	}
	return i
}

// sortSmall sorts counts in ascending order without allocating: by
// insertion for the short tables of mrmr (9 cells), by slices.Sort for
// longer ones.
func sortSmall(a []int) {
	if len(a) > 16 {
		slices.Sort(a)
		return
	}
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for ; j > 0 && a[j-1] > v; j-- {
			a[j] = a[j-1]
		}
		a[j] = v
	}
}
