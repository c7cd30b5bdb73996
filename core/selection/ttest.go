package selection

import (
	"context"
	"math"

	"sparsefs/api"
)

// TTest is the two-sample t-test filter of docs/methods.md#ttest: the score
// of feature j is Welch's statistic in absolute value,
//
//	t_j = |μ₁j − μ₂j| / √(s₁j²/m₁ + s₂j²/m₂),   s² the sample variance (m − 1),
//
// between the two classes when c = 2, and for c > 2 the largest one-vs-rest
// statistic, max_k t_j(class k, all other classes). Reference: B. L. Welch,
// Biometrika 34 (1947) 28–35; it equals |scipy.stats.ttest_ind(a, b,
// equal_var=False).statistic|.
//
// Its p-value (docs/methods.md#pvalues), computed when Settings.PValues
// asks for it, is the two-sided p-value of Welch's test with the
// Welch–Satterthwaite degrees of freedom, scipy's ttest_ind(equal_var=
// False).pvalue, for two classes; for c > 2 it is the smallest of the c
// one-vs-rest p-values times c (Bonferroni, capped at 1), a p-value for
// "the feature's mean is the same in every class". Without spread on
// either side the p-value is 1 for equal means and 0 otherwise (studentP).
//
// Only the classes present count (a training part may lack one). A class of
// a single sample has sample variance 0/0 = 0 (the zero rule of
// docs/methods.md#zero-denominators; scipy would return NaN); a constant
// feature scores 0 and one constant within both groups but with different
// means +Inf.
//
// Cost: O(mn) for the class means and sums of squares (two passes, so that
// a large mean does not swamp the spread), then O(c²n) to pool the other
// classes of each one-vs-rest split by the parallel-variance formula
// ss_rest = Σ_{l≠k} [ss_l + m_l (μ_l − μ_rest)²] (Chan, Golub & LeVeque,
// "Algorithms for computing the sample variance", Am. Stat. 37, 1983),
// which has no cancellation.
type TTest struct{}

var _ Selector = TTest{}

// Fit scores every feature; it ignores s except for progress reports.
func (TTest) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m, n := p.X.Dims()
	c := p.C
	if err := p.CheckMemory("ttest", Need{What: "the per-class sums, means and sums of squares", Rows: c, RowsOf: "classes", Cols: n, ColsOf: "features", Copies: 3}); err != nil {
		return nil, err
	}
	counts := make([]int, c)
	sums := make([]float64, c*n) // class k's sums in sums[k*n:(k+1)*n]
	for i := 0; i < m; i++ {
		k := p.Y[i]
		counts[k]++
		acc := sums[k*n : (k+1)*n]
		for j, v := range p.X.RawRowView(i) {
			acc[j] += v
		}
	}
	means := make([]float64, c*n)
	for k, mk := range counts {
		if mk == 0 {
			continue
		}
		for j := 0; j < n; j++ {
			means[k*n+j] = sums[k*n+j] / float64(mk)
		}
	}
	ss := make([]float64, c*n)
	for i := 0; i < m; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: float64(i) / float64(m)})
		}
		k := p.Y[i]
		mu, acc := means[k*n:(k+1)*n], ss[k*n:(k+1)*n]
		for j, v := range p.X.RawRowView(i) {
			d := v - mu[j]
			acc[j] += d * d
		}
	}
	var present []int
	for k, mk := range counts {
		if mk > 0 {
			present = append(present, k)
		}
	}
	// With two classes the two one-vs-rest splits are the same split.
	splits := present
	if len(present) == 2 {
		splits = present[:1]
	}
	scores := make([]float64, n)
	var pvalues []float64
	if s.wantPValues() {
		pvalues = make([]float64, n)
	}
	for j := 0; j < n; j++ {
		minP := math.Inf(1)
		for _, k := range splits {
			one := group{n: counts[k], mean: means[k*n+j], ss: ss[k*n+j]}
			rest := group{n: m - counts[k]}
			sum := 0.0
			for _, l := range present {
				if l != k {
					sum += sums[l*n+j]
				}
			}
			rest.mean = sum / float64(rest.n)
			for _, l := range present {
				if l != k {
					d := means[l*n+j] - rest.mean
					rest.ss += ss[l*n+j] + float64(counts[l])*d*d
				}
			}
			t, df := welch(one, rest)
			scores[j] = math.Max(scores[j], t)
			if pvalues != nil {
				minP = math.Min(minP, studentP(t, df))
			}
		}
		if pvalues != nil {
			// The smallest one-vs-rest p-value, Bonferroni-corrected for
			// the comparisons made (docs/methods.md#pvalues).
			pvalues[j] = math.Min(1, float64(len(splits))*minP)
		}
	}
	res := tiedFilterResult(scores)
	res.PValues = pvalues
	return res, nil
}

func init() {
	Register(&Spec{
		Name:    "ttest",
		Title:   "Welch t-test",
		Doc:     "Welch's two-sample |t| of each feature; with more than two classes the largest one-vs-rest |t|",
		Paper:   "Welch, Biometrika 34 (1947); scipy.stats.ttest_ind(equal_var=False)",
		Kind:    Filter,
		PValues: true,
		New:     func(Params) (Selector, error) { return TTest{}, nil },
	})
}
