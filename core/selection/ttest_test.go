package selection

import (
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// groupsProblem builds a one-feature problem from groups of values, group
// k being class k.
func groupsProblem(groups ...[]float64) *Problem {
	var x []float64
	var y []int
	for k, g := range groups {
		x = append(x, g...)
		for range g {
			y = append(y, k)
		}
	}
	return &Problem{X: mat.NewDense(len(x), 1, x), Y: y, C: len(groups)}
}

// Welch's t on the data of Example 1 of the Wikipedia article "Welch's
// t-test" (which prints t = −2.46). The reference value is scipy's:
//
//	/usr/bin/python3 -c "from scipy import stats; print(repr(stats.ttest_ind(
//	  [27.5,21.0,19.0,23.6,17.0,17.9,16.9,20.1,21.9,22.6,23.1,19.6,19.0,21.7,21.4],
//	  [27.1,22.0,20.8,23.4,23.4,23.5,25.8,22.0,24.8,20.2,21.9,22.1,22.9,20.5,24.4],
//	  equal_var=False).statistic))"
//	-2.455356398286006   (scipy 1.10.1, Debian)
func TestTTestWelchExample(t *testing.T) {
	p := groupsProblem(
		[]float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4},
		[]float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4},
	)
	if got := fit(t, "ttest", p).Scores[0]; !relClose(got, 2.455356398286006, 1e-13) {
		t.Errorf("|t| = %.17g, want 2.455356398286006", got)
	}
}

// Three classes: the score is the largest one-vs-rest |t|. scipy gives the
// three statistics
//
//	/usr/bin/python3 -c "from scipy import stats
//	g=[[1.0,2.0,4.0,7.0],[3.0,3.5,5.0],[10.0,11.0,15.0,9.0,12.0]]
//	for k in range(3): print(repr(stats.ttest_ind(g[k], sum([g[l] for l in range(3) if l!=k], []), equal_var=False).statistic))"
//	-2.5050025096672046, -2.392478367507287, 6.101893988032902
//
// so the score is 6.101893988032902; with the third class left out the two
// remaining classes give the plain two-sample |t| (the one-vs-rest split of
// either class is the same split).
func TestTTestOneVsRest(t *testing.T) {
	a, b, c := []float64{1, 2, 4, 7}, []float64{3, 3.5, 5}, []float64{10, 11, 15, 9, 12}
	if got := fit(t, "ttest", groupsProblem(a, b, c)).Scores[0]; !relClose(got, 6.101893988032902, 1e-13) {
		t.Errorf("3 classes: |t| = %.17g, want 6.101893988032902", got)
	}
	// Two classes: Welch between a and c directly (scipy's ttest_ind(a, c,
	// equal_var=False).statistic = −4.71274489154796, computed as above).
	if got := fit(t, "ttest", groupsProblem(a, c)).Scores[0]; !relClose(got, 4.71274489154796, 1e-13) {
		t.Errorf("2 classes: |t| = %.17g, want 4.71274489154796", got)
	}
	// A class absent from the training part does not count.
	p := groupsProblem(a, c)
	p.C = 3
	for i := range p.Y {
		p.Y[i] *= 2 // classes 0 and 2; class 1 absent
	}
	if got := fit(t, "ttest", p).Scores[0]; !relClose(got, 4.71274489154796, 1e-13) {
		t.Errorf("absent class: |t| = %.17g, want 4.71274489154796", got)
	}
}

// A class of one sample has sample variance 0/0 = 0
// (docs/methods.md#zero-denominators), so {5} against {1, 2, 3} gives
// |t| = |5 − 2| / √(0 + 1/3) = 3√3 by hand; two single samples give +Inf
// when they differ and 0 when they are equal.
func TestTTestSingleSampleClass(t *testing.T) {
	if got := fit(t, "ttest", groupsProblem([]float64{1, 2, 3}, []float64{5})).Scores[0]; !relClose(got, 3*math.Sqrt(3), 1e-14) {
		t.Errorf("|t| = %v, want 3√3", got)
	}
	p := &Problem{X: mat.NewDense(2, 2, []float64{1, 4, 2, 4}), Y: []int{0, 1}, C: 2}
	if got := fit(t, "ttest", p).Scores; !math.IsInf(got[0], 1) || got[1] != 0 {
		t.Errorf("scores %v, want [+Inf 0]", got)
	}
}

// A feature and its mirror image have the same |t| to the last bit, and
// rank by lower index.
func TestTTestMirrorTie(t *testing.T) {
	x := []float64{1, -1, 3, -3, 2, -2, 7, -7, 5, -5}
	p := &Problem{X: mat.NewDense(5, 2, x), Y: []int{0, 0, 1, 1, 1}, C: 2}
	res := fit(t, "ttest", p)
	if res.Scores[0] != res.Scores[1] || !reflect.DeepEqual(res.Ranking, []int{0, 1}) {
		t.Errorf("scores %v ranking %v", res.Scores, res.Ranking)
	}
}

// referenceTTest computes the score literally, one feature at a time: the
// groups as slices, their means and sample variances by the textbook
// two-pass formulas, Welch's t for every one-vs-rest split of the classes
// present, the largest in absolute value.
func referenceTTest(p *Problem) []float64 {
	m, n := p.X.Dims()
	out := make([]float64, n)
	present := map[int]bool{}
	for _, y := range p.Y {
		present[y] = true
	}
	moments := func(v []float64) (mean, variance float64) {
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		if len(v) == 1 {
			return mean, 0
		}
		for _, x := range v {
			variance += (x - mean) * (x - mean)
		}
		return mean, variance / float64(len(v)-1)
	}
	for j := 0; j < n; j++ {
		for k := range present {
			var in, rest []float64
			for i := 0; i < m; i++ {
				if p.Y[i] == k {
					in = append(in, p.X.At(i, j))
				} else {
					rest = append(rest, p.X.At(i, j))
				}
			}
			ma, va := moments(in)
			mb, vb := moments(rest)
			num, den := math.Abs(ma-mb), math.Sqrt(va/float64(len(in))+vb/float64(len(rest)))
			var tk float64
			switch {
			case den > 0:
				tk = num / den
			case num > 0:
				tk = math.Inf(1)
			}
			out[j] = math.Max(out[j], tk)
		}
	}
	return out
}

// On real data the selector (on the z-scored data, as the CLI runs it)
// agrees with the reference on the raw data to 1e−9 relative: |t| is
// invariant under the affine z-scoring, so this also checks that the
// preprocessing changes nothing but rounding.
func TestTTestMatchesReferenceOnRealData(t *testing.T) {
	for _, c := range []struct {
		file             string
		rowStep, colStep int
	}{
		{"GLIOMA.csv.gz", 1, 1},        // 4 classes, 50 × 4434
		{"ALLAML.csv.gz", 1, 3},        // 2 classes
		{"lymphoma.csv.gz", 1, 4},      // 9 classes, some of 2 samples
		{"lung_discrete.csv.gz", 1, 1}, // 7 classes, discrete values
		{"USPS.csv.gz", 7, 1},          // 10 classes, 1329 × 256
	} {
		t.Run(c.file, func(t *testing.T) {
			raw, zs := realProblem(t, c.file, c.rowStep, c.colStep)
			res, want := fit(t, "ttest", zs), referenceTTest(raw)
			worst := agree(t, "ttest", res.Scores, want, 1e-9, 1e-12)
			checkRanking(t, "ttest", res.Ranking, want)
			t.Logf("worst relative difference %.2g", worst)
		})
	}
}
