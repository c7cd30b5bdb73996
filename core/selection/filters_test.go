package selection

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fit runs a registered method with its default parameters.
func fit(t *testing.T, name string, p *Problem) *Result {
	t.Helper()
	return fitWith(t, name, p, nil)
}

func relClose(a, b, tol float64) bool {
	if math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(b), 1e-300)
}

// sklearnExample is a 4×2 problem whose f_classif scores are F = [50, 16]
// (checked with scikit-learn 1.2.1, Debian's python3-sklearn:
// f_classif([[1,0],[2,2],[6,5],[7,5]], [0,0,1,1])[0] == [50., 16.]).
// By hand: feature 1 has class means 1.5 and 6.5 around 4, so SSB = 25 and
// SSW = 4·0.25 = 1; feature 2 has class means 1 and 5 around 3, SSB = 16 and
// SSW = 1+1+0+0 = 2. With c−1 = 1 and m−c = 2: F = 2·SSB/SSW = [50, 16] and
// the Fisher score SSB/SSW = [25, 8].
var sklearnExample = &Problem{
	X: mat.NewDense(4, 2, []float64{1, 0, 2, 2, 6, 5, 7, 5}),
	Y: []int{0, 0, 1, 1}, C: 2,
}

func TestFStatSklearnExample(t *testing.T) {
	res := fit(t, "fstat", sklearnExample)
	for j, want := range []float64{50, 16} {
		if !relClose(res.Scores[j], want, 1e-14) {
			t.Errorf("F[%d] = %v, want %v", j, res.Scores[j], want)
		}
	}
	if !reflect.DeepEqual(res.Ranking, []int{0, 1}) || res.Status != ClosedForm || !math.IsNaN(res.Objective) || res.W != nil {
		t.Errorf("ranking %v status %v objective %v", res.Ranking, res.Status, res.Objective)
	}
}

func TestFisherHand(t *testing.T) {
	res := fit(t, "fisher", sklearnExample)
	for j, want := range []float64{25, 8} {
		if !relClose(res.Scores[j], want, 1e-14) {
			t.Errorf("Fisher[%d] = %v, want %v", j, res.Scores[j], want)
		}
	}
}

// Three classes of unequal sizes, worked by hand. Feature 1 takes
// {0, 2 | 4, 4, 7 | 10} for classes 0, 1, 2: class means 1, 5, 10, overall
// mean 27/6 = 4.5; SSB = 2(3.5)² + 3(0.5)² + 1(5.5)² = 24.5 + 0.75 + 30.25
// = 55.5; SSW = (1+1) + (1+1+4) + 0 = 8. Fisher = 55.5/8 = 6.9375;
// F = (55.5/2)/(8/3) = 10.40625.
func TestThreeClassesHand(t *testing.T) {
	p := &Problem{X: mat.NewDense(6, 1, []float64{0, 2, 4, 4, 7, 10}), Y: []int{0, 0, 1, 1, 1, 2}, C: 3}
	if got := fit(t, "fisher", p).Scores[0]; !relClose(got, 6.9375, 1e-14) {
		t.Errorf("Fisher = %v, want 6.9375", got)
	}
	if got := fit(t, "fstat", p).Scores[0]; !relClose(got, 10.40625, 1e-14) {
		t.Errorf("F = %v, want 10.40625", got)
	}
}

// Zero denominators (docs/methods.md#zero-denominators): a constant feature
// scores 0, a feature constant within each class but not overall scores
// +Inf; never NaN.
func TestFilterZeroDenominators(t *testing.T) {
	p := &Problem{
		X: mat.NewDense(4, 3, []float64{
			5, 1, 0,
			5, 1, 1,
			5, 2, 3,
			5, 2, 2,
		}),
		Y: []int{0, 0, 1, 1}, C: 2,
	}
	for _, name := range []string{"fisher", "fstat"} {
		res := fit(t, name, p)
		if res.Scores[0] != 0 || !math.IsInf(res.Scores[1], 1) || !(res.Scores[2] > 0) {
			t.Errorf("%s scores %v, want [0 +Inf >0]", name, res.Scores)
		}
		if !reflect.DeepEqual(res.Ranking, []int{1, 2, 0}) {
			t.Errorf("%s ranking %v", name, res.Ranking)
		}
	}
}

// A class with no samples (possible in a training fold) does not count in
// the degrees of freedom, as in f_classif on the classes present.
func TestFStatAbsentClass(t *testing.T) {
	p := *sklearnExample
	p.C = 3
	if got := fit(t, "fstat", &p).Scores; !relClose(got[0], 50, 1e-14) || !relClose(got[1], 16, 1e-14) {
		t.Errorf("F = %v, want [50 16]", got)
	}
}

func TestFilterCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Fisher{}).Fit(ctx, sklearnExample, nil); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestProblemValidate(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{1, 2})
	for _, p := range []*Problem{
		{X: x, Y: []int{0}, C: 2},
		{X: x, Y: []int{0, 0}, C: 2},
		{X: x, Y: []int{0, 2}, C: 2},
		{X: x, Y: []int{0, 1}, C: 1},
	} {
		if err := p.Validate(); err == nil {
			t.Errorf("Validate accepted %+v", p)
		}
	}
}

func TestRankByScore(t *testing.T) {
	got := RankByScore([]float64{1, 3, math.NaN(), 3, math.Inf(1), 0})
	if want := []int{4, 1, 3, 0, 5, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("RankByScore = %v, want %v (ties by lower index, NaN last)", got, want)
	}
}

// filterNames lists the registered filters (all six of
// docs/methods.md#filters).
func filterNames(t *testing.T) []string {
	var names []string
	for _, s := range Specs() {
		if s.Kind == Filter {
			names = append(names, s.Name)
		}
	}
	if want := []string{"fisher", "fstat", "infogain", "mrmr", "relieff", "ttest"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("filters %v, want %v", names, want)
	}
	return names
}

// cyclic returns an m×n problem of pseudo-random values (lcg) whose sample
// i is of class i mod c.
func cyclic(m, n, c int, seed uint64) *Problem {
	y := make([]int, m)
	for i := range y {
		y[i] = i % c
	}
	return &Problem{X: lcg(m, n, seed), Y: y, C: c}
}

// lcg fills an m×n matrix with reproducible pseudo-random values in [0, 1).
func lcg(m, n int, seed uint64) *mat.Dense {
	x := mat.NewDense(m, n, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			x.Set(i, j, float64(seed>>11)/(1<<53))
		}
	}
	return x
}

// Edge cases with a defined answer, for every filter: a constant feature
// scores exactly 0 and nothing is ever NaN; a duplicated feature ties with
// its original to the last bit and follows it in the ranking; a class of
// a single sample is accepted; two classes and many classes both work; and
// the ranking is a permutation of the features.
func TestFiltersEdgeCases(t *testing.T) {
	for _, c := range []struct {
		name string
		y    []int
		cls  int
	}{
		{"two classes", []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0}, 2},
		{"five classes", []int{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}, 5},
		{"a class of one sample", []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2}, 3},
	} {
		const m = 12
		x := lcg(m, 5, uint64(len(c.name)))
		for i := 0; i < m; i++ {
			x.Set(i, 1, 2.5)                        // feature 1 constant
			x.Set(i, 3, x.At(i, 0))                 // feature 3 duplicates feature 0
			x.Set(i, 4, x.At(i, 4)+float64(c.y[i])) // feature 4 informative
		}
		p := &Problem{X: x, Y: c.y, C: c.cls}
		for _, name := range filterNames(t) {
			res := fit(t, name, p)
			for j, v := range res.Scores {
				if math.IsNaN(v) {
					t.Errorf("%s, %s: score[%d] is NaN", c.name, name, j)
				}
			}
			if res.Scores[1] != 0 {
				t.Errorf("%s, %s: constant feature scores %v", c.name, name, res.Scores[1])
			}
			if name != "mrmr" && res.Scores[0] != res.Scores[3] {
				// mRMR's score is the criterion when chosen: the
				// duplicate is chosen later with its redundancy.
				t.Errorf("%s, %s: duplicate scores %v and %v", c.name, name, res.Scores[0], res.Scores[3])
			}
			pos := make([]int, 5)
			seen := make([]bool, 5)
			for r, j := range res.Ranking {
				pos[j] = r
				seen[j] = true
			}
			if len(res.Ranking) != 5 || slices.Contains(seen, false) {
				t.Fatalf("%s, %s: ranking %v is not a permutation", c.name, name, res.Ranking)
			}
			if pos[0] > pos[3] {
				t.Errorf("%s, %s: duplicate ranked before its original: %v", c.name, name, res.Ranking)
			}
			// Scores are non-negative except ReliefF's (a feature
			// closer across classes than within scores below 0) and
			// mRMR's criteria, so the constant feature ranks last.
			if name != "mrmr" && name != "relieff" && pos[1] != 4 {
				t.Errorf("%s, %s: constant feature not last: %v (scores %v)", c.name, name, res.Ranking, res.Scores)
			}
		}
	}
}
