package job

import (
	"encoding/json"
	"strings"
	"testing"

	"sparsefs/api"
)

// The ensemble methods are evaluated like any selector: stabsel refits
// its base on half-samples of each training part and consensus ranks by
// its members' rankings there. The report is the same with one worker or
// several, and the same when its units run as parts, two and four at a
// time on five workers (the spare workers going to the half-sample and
// member fits), and are merged; every selector's row has
// its stability across the splits.
func TestEnsemblesInAnEvaluation(t *testing.T) {
	req := &api.Request{Op: api.OpEval, Data: api.Data{Name: "t.csv"}}
	if err := json.Unmarshal([]byte(`{"methods":[{"method":"stabsel","params":{"base":"fstat","pairs":5}},
		{"method":"consensus","params":{"m2":"ttest","m3":"fisher"}}],
		"k":[1,2],"protocol":{"kind":"cv","folds":3},"seed":4}`), &req.Eval); err != nil {
		t.Fatal(err)
	}
	whole := noTimes(runJSON(t, req, evalCSV()))
	req.Workers = 5
	if got := noTimes(runJSON(t, req, evalCSV())); got != whole {
		t.Error("the report changes with the number of workers")
	}
	var parts []*api.EvalPart
	for _, units := range [][]int{{0, 5}, {1, 2, 3, 4}} {
		req.Units = units
		var p api.EvalPart
		if err := json.Unmarshal(runJSON(t, req, evalCSV()), &p); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, &p)
	}
	merged := noTimes(runJSON(t, &api.Request{Op: api.OpMerge, Parts: parts}, nil))
	if merged != whole {
		t.Error("the merged parts differ from the whole report")
	}
	req.Units = nil
	var rep api.EvalReport
	if err := json.Unmarshal(runJSON(t, req, evalCSV()), &rep); err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Kind != api.Ensemble || r.Stability == nil || len(r.Stability.Index) != 2 {
			t.Errorf("%s: kind %s, stability %+v", r.Method, r.Kind, r.Stability)
		}
	}
	if s := rep.Results[0].Units[0].Fits[0].StabilitySelection; s == nil || s.Base != "fstat" || s.Pairs != 5 {
		t.Errorf("stabsel's fit records %+v", s)
	}
	if !strings.Contains(whole, `"m2":"ttest"`) {
		t.Errorf("consensus's parameters are not in the report")
	}
}
