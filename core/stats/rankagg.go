package stats

import (
	"math"
	"sort"
)

// Rank aggregation: the statistics of R. Kolde, S. Laur, P. Adler and
// J. Vilo, "Robust rank aggregation for gene list integration and
// meta-analysis", Bioinformatics 28(4) (2012) 573–580, as their R package
// RobustRankAggreg (aggregateRanks with method "RRA" and "mean", full
// rankings) computes them. A feature's normalised ranks are its positions
// in each of L rankings of the same N features divided by N, in (0, 1];
// under the null hypothesis that the rankings are random they are
// independent and uniform.

// OrderStatCDF returns P(U₍ₖ₎ ≤ x), the probability that the k-th smallest
// of n independent uniform variables on [0, 1] is at most x (1 ≤ k ≤ n):
// the regularised incomplete beta function I_x(k, n − k + 1), summed as the
// binomial tail Σ_{j=k}^{n} C(n, j) xʲ (1 − x)ⁿ⁻ʲ (positive terms, no
// cancellation).
func OrderStatCDF(x float64, k, n int) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lx, l1x := math.Log(x), math.Log1p(-x)
	lgn, _ := math.Lgamma(float64(n + 1))
	s := 0.0
	for j := k; j <= n; j++ {
		lj, _ := math.Lgamma(float64(j + 1))
		lnj, _ := math.Lgamma(float64(n - j + 1))
		s += math.Exp(lgn - lj - lnj + float64(j)*lx + float64(n-j)*l1x)
	}
	return math.Min(s, 1)
}

// RRA returns the ρ score of a feature's normalised ranks r (one per
// ranking) and its p-value: with r₍₁₎ ≤ … ≤ r₍L₎ sorted,
//
//	ρ = min over k of β_{k,L}(r₍ₖ₎),   β_{k,L}(x) = P(U₍ₖ₎ ≤ x),
//
// how much better the feature's k-th best rank is than the k-th best of L
// random ranks, at the k where that is most striking; and
// p = min(1, L·ρ), ρ corrected for the L order statistics tried
// (Bonferroni; RobustRankAggreg's rhoScores with exact = FALSE).
func RRA(r []float64) (rho, p float64) {
	s := append([]float64(nil), r...)
	sort.Float64s(s)
	L := len(s)
	rho = 1
	for k, x := range s {
		rho = math.Min(rho, OrderStatCDF(x, k+1, L))
	}
	return rho, math.Min(1, float64(L)*rho)
}

// MeanRank returns the mean of a feature's normalised ranks r and its
// p-value under the normal approximation RobustRankAggreg uses for its
// "mean" method: the mean of L uniform ranks has mean 1/2 and variance
// 1/(12L), so p = Φ((mean − 1/2)·√(12L)), small for a feature ranked high
// everywhere.
func MeanRank(r []float64) (mean, p float64) {
	for _, x := range r {
		mean += x
	}
	L := float64(len(r))
	mean /= L
	return mean, NormalCDF((mean - 0.5) * math.Sqrt(12*L))
}

// NormalCDF is the standard normal distribution function,
// Φ(z) = erfc(−z/√2)/2.
func NormalCDF(z float64) float64 { return math.Erfc(-z/math.Sqrt2) / 2 }

// Aggregate makes one ranking of n features (0 … n−1) out of several
// rankings of them (each best first; a feature a ranking leaves out takes
// no part in it): a feature's normalised rank in a ranking is its
// position (from 1) divided by n, and
//
//   - with mean false, robust rank aggregation: features ordered by ρ
//     (RRA), scored −log₁₀ ρ, with RRA's p-value;
//   - with mean true, the mean normalised rank: features ordered by it,
//     scored 1 − mean, with MeanRank's p-value.
//
// Ties go to the lower mean rank (under RRA), then to the lower index.
// The consensus method (core/selection) and the page's comparison of the
// selectors of an evaluation both aggregate with it.
func Aggregate(rankings [][]int, n int, mean bool) (order []int, scores, pvalues []float64) {
	norm := make([][]float64, n) // norm[j]: feature j's normalised ranks
	for _, r := range rankings {
		for pos, j := range r {
			if j >= 0 && j < n {
				norm[j] = append(norm[j], float64(pos+1)/float64(n))
			}
		}
	}
	order, scores, pvalues = make([]int, n), make([]float64, n), make([]float64, n)
	key, avg := make([]float64, n), make([]float64, n)
	for j, r := range norm {
		order[j] = j
		if mean {
			avg[j], pvalues[j] = MeanRank(r)
			key[j], scores[j] = avg[j], 1-avg[j]
		} else {
			avg[j], _ = MeanRank(r)
			key[j], pvalues[j] = RRA(r)
			scores[j] = -math.Log10(key[j])
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		ja, jb := order[a], order[b]
		if key[ja] != key[jb] {
			return key[ja] < key[jb]
		}
		return avg[ja] < avg[jb]
	})
	return order, scores, pvalues
}
