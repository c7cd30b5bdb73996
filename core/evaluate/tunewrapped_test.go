package evaluate

import (
	"context"
	"reflect"
	"testing"

	"sparsefs/api"
)

// A wrapped method's parameter (stabsel's base.gamma) can be tuned like a
// method's own: a grid of one value gives exactly the evaluation with that
// value given, and with two values each split keeps the one whose inner
// score is the highest (the rule of tune, checked on the recorded grid).
func TestTuningAWrappedParameter(t *testing.T) {
	d := twoClass(4, 48, 12, 3, 1.5)
	base := map[string]any{"base": "rfs", "pairs": 3.0}
	with := func(extra map[string]any, tune []api.Grid) *api.Report {
		params := map[string]any{}
		for k, v := range base {
			params[k] = v
		}
		for k, v := range extra {
			params[k] = v
		}
		p := api.Plan{Methods: []api.Variant{{Method: "stabsel", Params: params}}, K: []int{2, 4}, Classifiers: []api.Classifier{{Name: "svm"}},
			Protocol: api.Protocol{Kind: api.CV, Folds: 3}, Tune: tune}
		rep, err := mustNew(t, p, d).Run(context.Background(), 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	given := with(map[string]any{"base.gamma": 10.0}, nil)
	tuned := with(nil, []api.Grid{{Param: "base.gamma", Values: []any{10.0}}})
	if !reflect.DeepEqual(tuned.Results[0].Tuned, []string{"base.gamma"}) {
		t.Fatalf("tuned %v", tuned.Results[0].Tuned)
	}
	for i, u := range tuned.Results[0].Units {
		if !reflect.DeepEqual(u.Selected, given.Results[0].Units[i].Selected) || u.Tuning.Chosen["base.gamma"] != 10.0 {
			t.Errorf("split %d: tuned to the one value %v, selected %v; given it, %v", i, u.Tuning.Chosen, u.Selected, given.Results[0].Units[i].Selected)
		}
	}
	two := with(nil, []api.Grid{{Param: "base.gamma", Values: []any{0.001, 10.0}}})
	for i, u := range two.Results[0].Units {
		best, score := any(nil), -1.0
		for _, g := range u.Tuning.Grid {
			if float64(g.Score) > score {
				best, score = g.Params["base.gamma"], float64(g.Score)
			}
		}
		if len(u.Tuning.Grid) != 2 || u.Tuning.Chosen["base.gamma"] != best {
			t.Errorf("split %d: chose %v, the best inner score is %v's (grid %+v)", i, u.Tuning.Chosen, best, u.Tuning.Grid)
		}
	}
	// A method that wraps none cannot take it.
	p := api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{2}, Protocol: api.Protocol{Kind: api.CV, Folds: 3},
		Tune: []api.Grid{{Param: "base.gamma", Values: []any{1.0}}}}
	if _, err := New(p, d); err == nil {
		t.Error("fisher tuned a base.gamma")
	}
}
