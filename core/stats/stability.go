package stats

import "math"

// Stability is the stability of a feature selector across M runs (the
// splits of an evaluation), by the index of S. Nogueira, K. Sechidis and
// G. Brown, "On the stability of feature selection algorithms", JMLR
// 18(174) (2018): the estimate Φ̂, its asymptotic variance and the
// (1 − α) confidence interval Φ̂ ± z_{1−α/2}·√variance (their Theorem 8 and
// Corollary 9). All are NaN where undefined (fewer than two runs, or every
// run choosing no feature or every feature).
type Stability struct {
	Index, Variance, Low, High float64
}

// z95 is the 0.975 quantile of the standard normal distribution, √2·erf⁻¹(0.95).
var z95 = math.Sqrt2 * math.Erfinv(0.95)

// NogueiraStability returns the stability index of M subsets of d features
// (each a list of distinct 0-based features; a nil subset is empty) with
// its 95% confidence interval. With Z the M×d matrix of the subsets
// (Z_if = 1 when run i chose feature f), p̂_f the share of runs choosing f,
// k_i = |subset i| and k̄ their mean:
//
//	Φ̂ = 1 − [M/(M−1) · (1/d) Σ_f p̂_f(1 − p̂_f)] / [(k̄/d)(1 − k̄/d)],
//
// 1 when every run chooses the same features, about 0 when they overlap
// no more than subsets drawn at random would (it is corrected for chance:
// for subsets of one size K it is the mean over pairs of Kuncheva's
// consistency index (r − K²/d)/(K − K²/d), r the overlap), and negative
// when they overlap less. The variance is (4/M²) Σ_i (φ_i − φ̄)² with
//
//	φ_i = [ (1/d) Σ_f Z_if p̂_f − k_i k̄/d² + (Φ̂/2)(2 k_i k̄/d² − k_i/d − k̄/d + 1) ] / [(k̄/d)(1 − k̄/d)],
//
// the definitions of the authors' code (github.com/nogueirs/JMLR2018,
// python/stability), which the report and the page both follow.
func NogueiraStability(sets [][]int, d int) Stability {
	nan := math.NaN()
	undefined := Stability{nan, nan, nan, nan}
	M := len(sets)
	if M < 2 || d < 1 {
		return undefined
	}
	count := make([]float64, d)
	kbar := 0.0
	for _, s := range sets {
		for _, f := range s {
			count[f]++
		}
		kbar += float64(len(s))
	}
	kbar /= float64(M)
	fd, fm := float64(d), float64(M)
	denom := (kbar / fd) * (1 - kbar/fd)
	if !(denom > 0) {
		return undefined
	}
	pf := make([]float64, d)
	spread := 0.0
	for f, c := range count {
		pf[f] = c / fm
		spread += pf[f] * (1 - pf[f])
	}
	index := 1 - fm/(fm-1)*(spread/fd)/denom
	phi := make([]float64, M)
	for i, s := range sets {
		k := float64(len(s))
		shared := 0.0
		for _, f := range s {
			shared += pf[f]
		}
		phi[i] = (shared/fd - k*kbar/(fd*fd) + index/2*(2*k*kbar/(fd*fd)-k/fd-kbar/fd+1)) / denom
	}
	// (4/M²) Σ_i (φ_i − φ̄)², from the sample standard deviation of φ.
	_, sd := MeanStd(phi)
	variance := 4 / (fm * fm) * sd * sd * (fm - 1)
	half := z95 * math.Sqrt(variance)
	return Stability{Index: index, Variance: variance, Low: index - half, High: index + half}
}

// StabilityPerK returns, for each of nk subset sizes, NogueiraStability of
// the runs' subsets of that size: sets[r][i] is run r's subset for the
// i-th size (an evaluation unit's Selected), d the number of features.
func StabilityPerK(sets [][][]int, nk, d int) []Stability {
	out := make([]Stability, nk)
	col := make([][]int, len(sets))
	for i := range out {
		for r, s := range sets {
			col[r] = nil
			if i < len(s) {
				col[r] = s[i]
			}
		}
		out[i] = NogueiraStability(col, d)
	}
	return out
}
