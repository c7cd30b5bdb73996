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
	t, _ := welch(a, b)
	return t
}

// welch returns |t| (welchT) and the Welch–Satterthwaite degrees of
// freedom of its Student approximation,
//
//	ν = (v₁ + v₂)² / (v₁²/(n₁ − 1) + v₂²/(n₂ − 1)),   vᵢ = sᵢ²/nᵢ,
//
// where a group of one observation contributes v = 0 and a zero term (the
// zero rule again). ν is NaN when neither group has any spread.
func welch(a, b group) (t, df float64) {
	va := ratio(a.ss, float64(a.n-1)) / float64(a.n)
	vb := ratio(b.ss, float64(b.n-1)) / float64(b.n)
	t = ratio(math.Abs(a.mean-b.mean), math.Sqrt(va+vb))
	den := ratio(va*va, float64(a.n-1)) + ratio(vb*vb, float64(b.n-1))
	df = math.NaN()
	if den > 0 {
		df = (va + vb) * (va + vb) / den
	}
	return t, df
}
