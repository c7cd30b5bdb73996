package selection

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// The p-values of the filters that are hypothesis tests
// (docs/methods.md#pvalues), from the regularised incomplete beta function
// I_x(a, b) (gonum's mathext.RegIncBeta, a port of Cephes' incbet), each
// evaluated on the side that keeps small p-values accurate to the last
// digits rather than as 1 − CDF.

// studentP returns the two-sided p-value of a Student t statistic with df
// degrees of freedom, P(|T| ≥ |t|) = I_{ν/(ν+t²)}(ν/2, 1/2) — the p-value of
// scipy.stats.ttest_ind(equal_var=False) with Welch's ν. t = 0 gives 1 and
// |t| = +Inf gives 0 (the groups differ without spread) whatever ν; an
// undefined ν otherwise gives NaN.
func studentP(t, df float64) float64 {
	t = math.Abs(t)
	switch {
	case t == 0:
		return 1
	case math.IsInf(t, 1):
		return 0
	case !(df > 0) || math.IsNaN(t):
		return math.NaN()
	}
	return mathext.RegIncBeta(df/2, 0.5, df/(df+t*t))
}

// fisherP returns the p-value of an F statistic with d1 and d2 degrees of
// freedom, P(F ≥ f) = I_{d2/(d2+d1·f)}(d2/2, d1/2) — the p-value of
// scipy.stats.f_oneway and scikit-learn's f_classif. f = 0 gives 1 and
// f = +Inf gives 0; without degrees of freedom on either side (one class,
// or as many classes as samples) it is NaN.
func fisherP(f, d1, d2 float64) float64 {
	switch {
	case !(d1 > 0 && d2 > 0) || math.IsNaN(f):
		return math.NaN()
	case f == 0:
		return 1
	case math.IsInf(f, 1):
		return 0
	}
	return mathext.RegIncBeta(d2/2, d1/2, d2/(d2+d1*f))
}
