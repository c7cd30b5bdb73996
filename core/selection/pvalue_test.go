package selection

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fitPValues fits a registered filter with its defaults, asking for its
// p-values.
func fitPValues(t *testing.T, name string, p *Problem) []float64 {
	t.Helper()
	sel, s := newSelector(t, name, nil)
	s.PValues = true
	res, err := sel.Fit(context.Background(), p, &s)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PValues) != p.X.RawMatrix().Cols {
		t.Fatalf("%s: %d p-values for %d features", name, len(res.PValues), p.X.RawMatrix().Cols)
	}
	return res.PValues
}

// Welch's p-values against scipy 1.10.1 (Debian's python3-scipy):
//
//	stats.ttest_ind(a, b, equal_var=False).pvalue
//
// on the Wikipedia "Welch's t-test" Example 1 (0.021378001462866985); for
// the three groups of TestTTestOneVsRest the one-vs-rest p-values are
// 0.03287605313306443, 0.038600533743118705 and 0.0003106352228149366,
// so the feature's p-value is 3 × 0.0003106352228149366 =
// 0.0009319056684448098; the first and third groups alone give
// 0.003189203888286782 (no correction: one comparison). Two tight groups
// far apart test the tail: 4.374968500143383e-24.
func TestTTestPValuesScipy(t *testing.T) {
	for _, c := range []struct {
		groups [][]float64
		want   float64
	}{
		{[][]float64{
			{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4},
			{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}}, 0.021378001462866985},
		{[][]float64{{1, 2, 4, 7}, {3, 3.5, 5}, {10, 11, 15, 9, 12}}, 0.0009319056684448098},
		{[][]float64{{1, 2, 4, 7}, {10, 11, 15, 9, 12}}, 0.003189203888286782},
		{[][]float64{{0, 0.1, -0.1, 0.05, -0.05}, {100, 100.1, 99.9, 100.05, 99.95}}, 4.374968500143383e-24},
	} {
		if got := fitPValues(t, "ttest", groupsProblem(c.groups...))[0]; !relClose(got, c.want, 1e-12) {
			t.Errorf("%v: p = %.17g, want %.17g", c.groups, got, c.want)
		}
	}
}

// The F test's p-values against scipy.stats.f_oneway(*groups).pvalue
// (scipy 1.10.1): 0.0007418197856190117 for the three groups above and
// 0.0019745238473076435 for the first and third. For the tight groups
// f_oneway's one-pass sums of squares lose digits (its F is
// 4000000.000349246 where the exact value is 4·10⁶, and the tail moves as
// F⁻⁴), so the reference is the equal-variance t-test, whose square is F
// for two groups: ttest_ind(a, b).pvalue = 4.374968500143383e-24. For
// scikit-learn's example (F = 50 and 16 with 1
// and 2 degrees of freedom) F(1, 2) is the square of Student's t with 2
// degrees of freedom, whose tail is closed-form: P(|T₂| ≥ t) =
// 1 − t/√(t² + 2), so p = 1 − √(50/52) and 1 − 4/√18 by hand
// (f_classif prints 0.019419324309079847 and 0.057190958417936644).
func TestFStatPValues(t *testing.T) {
	for _, c := range []struct {
		groups [][]float64
		want   float64
	}{
		{[][]float64{{1, 2, 4, 7}, {3, 3.5, 5}, {10, 11, 15, 9, 12}}, 0.0007418197856190117},
		{[][]float64{{1, 2, 4, 7}, {10, 11, 15, 9, 12}}, 0.0019745238473076435},
		{[][]float64{{0, 0.1, -0.1, 0.05, -0.05}, {100, 100.1, 99.9, 100.05, 99.95}}, 4.374968500143383e-24},
	} {
		if got := fitPValues(t, "fstat", groupsProblem(c.groups...))[0]; !relClose(got, c.want, 1e-12) {
			t.Errorf("%v: p = %.17g, want %.17g", c.groups, got, c.want)
		}
	}
	got := fitPValues(t, "fstat", sklearnExample)
	for j, want := range []float64{1 - math.Sqrt(50.0/52), 1 - 4/math.Sqrt(18)} {
		if !relClose(got[j], want, 1e-13) {
			t.Errorf("f_classif example: p[%d] = %.17g, want %.17g", j, got[j], want)
		}
	}
}

// The zero rule's cases: a constant feature (t = F = 0) has p = 1; one
// constant within each class but not overall (+Inf) has p = 0; with one
// sample per class the F test has no within-class degrees of freedom
// (NaN), while Welch's test of two single samples is 0 or 1 like its |t|.
// Without Settings.PValues no p-value is computed.
func TestPValuesEdges(t *testing.T) {
	p := &Problem{X: mat.NewDense(4, 2, []float64{3, 1, 3, 1, 3, 2, 3, 2}), Y: []int{0, 0, 1, 1}, C: 2}
	for _, name := range []string{"ttest", "fstat"} {
		if got := fitPValues(t, name, p); got[0] != 1 || got[1] != 0 {
			t.Errorf("%s: p = %v, want [1 0]", name, got)
		}
		if fit(t, name, p).PValues != nil {
			t.Errorf("%s computed p-values unasked", name)
		}
	}
	single := &Problem{X: mat.NewDense(2, 2, []float64{1, 4, 2, 4}), Y: []int{0, 1}, C: 2}
	if got := fitPValues(t, "fstat", single); !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
		t.Errorf("fstat with m = c: p = %v, want NaN", got)
	}
	if got := fitPValues(t, "ttest", single); got[0] != 0 || got[1] != 1 {
		t.Errorf("ttest of single samples: p = %v, want [0 1]", got)
	}
}
