package selection

import (
	"context"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fit runs a registered method with its default parameters.
func fit(t *testing.T, name string, p *Problem) *Result {
	t.Helper()
	spec, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	params, err := spec.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := spec.New(params)
	if err != nil {
		t.Fatal(err)
	}
	s := params.Settings()
	res, err := sel.Fit(context.Background(), p, &s)
	if err != nil {
		t.Fatal(err)
	}
	return res
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

// Zero denominators (METHODS.md): a constant feature scores 0, a feature
// constant within each class but not overall scores +Inf; never NaN.
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
