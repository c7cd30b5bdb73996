package selection

import (
	"context"
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// ranked is a selector whose ranking is given.
type ranked []int

func (r ranked) Fit(context.Context, *Problem, *Settings) (*Result, error) {
	return &Result{Ranking: r, Scores: make([]float64, len(r)), Objective: math.NaN(), Status: ClosedForm}, nil
}

func rankedMember(r ranked) member {
	return member{spec: &Spec{Name: "ranked", Kind: Filter, New: func(Params) (Selector, error) { return r, nil }}, params: Params{}}
}

// Three rankings of four features, aggregated by hand. The normalised
// ranks are f0: 1/4, 2/4, 1/4; f1: 2/4, 1/4, 3/4; f2: 3/4, 3/4, 2/4;
// f3: 1, 1, 1. Robust rank aggregation (β_{k,3}(x) = P(U₍ₖ₎ ≤ x)):
//
//	f0: β₁(1/4) = 1 − (3/4)³ = 0.578125, β₂(1/4) = 0.15625, β₃(1/2) = 0.125: ρ = 0.125, p = 0.375;
//	f1: 0.578125, β₂(1/2) = 0.5, β₃(3/4) = 0.421875: ρ = 0.421875, p = min(1, 1.265625) = 1;
//	f2: β₁(1/2) = 0.875, β₂(3/4) = 0.84375, β₃(3/4) = 0.421875: ρ = 0.421875, p = 1;
//	f3: ρ = 1, p = 1;
//
// f1 and f2 tie on ρ and f1's mean rank is lower, so the ranking is 0, 1,
// 2, 3. The mean ranks are 1/3, 1/2, 2/3, 1, and their p-values
// Φ((mean − 1/2)·√36) = Φ(−1), Φ(0), Φ(1), Φ(3) (scipy.stats.norm.cdf:
// 0.15865525393145707, 0.5, 0.8413447460685429, 0.9986501019683699).
func TestConsensusByHand(t *testing.T) {
	p := &Problem{X: mat.NewDense(2, 4, nil), Y: []int{0, 1}, C: 2}
	members := []member{rankedMember(ranked{0, 1, 2, 3}), rankedMember(ranked{1, 0, 2, 3}), rankedMember(ranked{0, 2, 1, 3})}
	for _, c := range []struct {
		mean        bool
		pvalues     []float64
		scores      []float64
		ranking     []int
		aggregation string
	}{
		{false, []float64{0.375, 1, 1, 1}, []float64{-math.Log10(0.125), -math.Log10(0.421875), -math.Log10(0.421875), 0}, []int{0, 1, 2, 3}, "rra"},
		{true, []float64{0.15865525393145707, 0.5, 0.8413447460685429, 0.9986501019683699}, []float64{2.0 / 3, 0.5, 1.0 / 3, 0}, []int{0, 1, 2, 3}, "mean"},
	} {
		res, err := (&Consensus{members: members, mean: c.mean}).Fit(context.Background(), p, &Settings{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for j := range c.pvalues {
			if math.Abs(res.PValues[j]-c.pvalues[j]) > 1e-15 || math.Abs(res.Scores[j]-c.scores[j]) > 1e-15 {
				t.Errorf("%s: feature %d: p %v score %v, want %v, %v", c.aggregation, j, res.PValues[j], res.Scores[j], c.pvalues[j], c.scores[j])
			}
		}
		if !reflect.DeepEqual(res.Ranking, c.ranking) || res.Consensus.Aggregation != c.aggregation || len(res.Consensus.Rankings) != 3 {
			t.Errorf("%s: ranking %v, consensus %+v", c.aggregation, res.Ranking, res.Consensus)
		}
	}
}

// The registered consensus needs two methods at least, and its default
// members (fstat, relieff, l1svm) run on a real problem.
func TestConsensusRegistered(t *testing.T) {
	spec, err := Lookup("consensus")
	if err != nil {
		t.Fatal(err)
	}
	params, err := spec.Resolve(map[string]any{"m2": "none", "m3": "none"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.New(params); err == nil {
		t.Error("a consensus of one method was accepted")
	}
	res := fitWith(t, "consensus", cyclic(30, 8, 3, 2), map[string]any{"m3": "ttest"})
	if len(res.PValues) != 8 || !reflect.DeepEqual(res.Consensus.Methods, []string{"fstat", "relieff", "ttest"}) {
		t.Errorf("consensus: p-values %v, methods %v", res.PValues, res.Consensus.Methods)
	}
}
