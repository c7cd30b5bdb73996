package dataset

import (
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

const tol = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// Fitted on a training part and applied to a test part: the test part is
// transformed with the training statistics, derived here by hand.
func TestScalerFitApply(t *testing.T) {
	// Training column 0: {1, 3, 5} → mean 3, population sd √(8/3),
	// range [1, 5]. Column 1 is constant (7) and column 2 has a missing
	// value: observed {2, 6} → mean 4, imputed cell = 4, sd √(8/3).
	train := mat.NewDense(3, 3, []float64{
		1, 7, 2,
		3, 7, math.NaN(),
		5, 7, 6,
	})
	test := mat.NewDense(2, 3, []float64{
		9, 8, math.NaN(),
		3, -1, 0,
	})
	sd := math.Sqrt(8.0 / 3)
	for _, c := range []struct {
		kind  Scaling
		train []float64
		test  []float64
	}{
		{ZScore,
			[]float64{-2 / sd, 0, -2 / sd, 0, 0, 0, 2 / sd, 0, 2 / sd},
			[]float64{6 / sd, 0, 0, 0, 0, -4 / sd}},
		{MinMax,
			[]float64{0, 0, 0, 0.5, 0, 0.5, 1, 0, 1},
			[]float64{2, 0, 0.5, 0.5, 0, -0.5}},
		{None,
			[]float64{1, 7, 2, 3, 7, 4, 5, 7, 6},
			[]float64{9, 8, 4, 3, -1, 0}},
	} {
		s := FitScaler(c.kind, train)
		if !reflect.DeepEqual(s.Constant, []int{1}) {
			t.Errorf("%s: constant %v, want [1]", c.kind, s.Constant)
		}
		for name, pair := range map[string][2][]float64{
			"train": {s.Transform(train).RawMatrix().Data, c.train},
			"test":  {s.Transform(test).RawMatrix().Data, c.test},
		} {
			for i := range pair[1] {
				if !near(pair[0][i], pair[1][i]) {
					t.Errorf("%s %s: got %v, want %v", c.kind, name, pair[0], pair[1])
					break
				}
			}
		}
	}
}

// z-scored training data have mean 0 and population variance 1 in every
// non-constant column, even with a large offset (two-pass accuracy).
func TestZScoreMoments(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{1e9 + 1, 1, 1e9 + 2, 2, 1e9 + 3, 3, 1e9 + 4, 5})
	z := FitScaler(ZScore, x).Transform(x)
	for j := 0; j < 2; j++ {
		col := mat.Col(nil, j, z)
		var s, ss float64
		for _, v := range col {
			s += v
			ss += v * v
		}
		if math.Abs(s) > 1e-9 || math.Abs(ss/4-1) > 1e-9 {
			t.Errorf("column %d: sum %g, mean square %g", j, s, ss/4)
		}
	}
}

func TestParseScaling(t *testing.T) {
	for in, want := range map[string]Scaling{"": ZScore, "zscore": ZScore, "MinMax": MinMax, " none ": None} {
		if got, err := ParseScaling(in); err != nil || got != want {
			t.Errorf("ParseScaling(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseScaling("log"); err == nil {
		t.Error("ParseScaling(log) accepted")
	}
}
