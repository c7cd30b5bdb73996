package selection

import "math"

// group summarises one group of observations of a feature: its size, its
// mean and its sum of squared deviations from that mean, ss = Σ (x − μ)².
type group struct {
	n        int
	mean, ss float64
}

// welchT returns Welch's two-sample statistic in absolute value,
//
//	|t| = |μ₁ − μ₂| / √(s₁²/n₁ + s₂²/n₂),   s² = ss/(n − 1),
//
// B. L. Welch, "The generalization of 'Student's' problem when several
// different population variances are involved", Biometrika 34 (1947); it is
// scipy.stats.ttest_ind(a, b, equal_var=False). Zero denominators follow
// docs/methods.md#zero-denominators: the sample variance of a single
// observation is 0/0 = 0 (it contributes no spread), and |t| is 0/0 = 0 for
// equal means with no spread and x/0 = +Inf for different means with no
// spread.
func welchT(a, b group) float64 {
	v := ratio(a.ss, float64(a.n-1))/float64(a.n) + ratio(b.ss, float64(b.n-1))/float64(b.n)
	return ratio(math.Abs(a.mean-b.mean), math.Sqrt(v))
}
