package plan_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/plan"
	"sparsefs/core/selection"
)

// Normalising fills every default and is idempotent; bad plans are refused
// with a message naming the problem.
func TestNormalize(t *testing.T) {
	catalog := selection.Catalog()
	sh := api.Shape{Samples: 50, Features: 200, Classes: 3}
	p := api.Plan{Methods: []api.Variant{{Method: "L1SVM", Params: map[string]any{"C": "2"}}}}
	if _, err := plan.Normalize(&p, sh, catalog); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.K, []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}) || p.Protocol.Kind != api.CV || p.Protocol.Folds != 5 ||
		p.Preprocess != "zscore" || !*p.Bias || len(p.Classifiers) != 1 || p.Classifiers[0].C != 1 || p.Methods[0].Method != "l1svm" ||
		p.Methods[0].Params["C"] != 2.0 || p.Methods[0].Params["max_iter"] != 1000.0 {
		t.Errorf("defaults: %+v %+v", p, p.Methods)
	}
	b1, _ := json.Marshal(p)
	var q api.Plan
	json.Unmarshal(b1, &q)
	if _, err := plan.Normalize(&q, sh, catalog); err != nil {
		t.Fatal(err)
	}
	if b2, _ := json.Marshal(q); string(b1) != string(b2) {
		t.Errorf("normalising twice changes the plan:\n%s\n%s", b1, b2)
	}
	small := api.Plan{Methods: []api.Variant{{Method: "fisher"}}}
	plan.Normalize(&small, api.Shape{Samples: 10, Features: 4, Classes: 2}, catalog)
	if !reflect.DeepEqual(small.K, []int{1, 2, 3, 4}) {
		t.Errorf("K for 4 features: %v", small.K)
	}
	for _, c := range []struct {
		p    api.Plan
		frag string
	}{
		{api.Plan{}, "no methods"},
		{api.Plan{Methods: []api.Variant{{Method: "lasso"}}}, `unknown method "lasso"`},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{0}}, "k = 0 is out of range"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{201}}, "every K of the list (201) exceeds the 200 features"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher", Params: map[string]any{"x": 1}}}}, "fisher takes no parameters"},
		{api.Plan{Methods: []api.Variant{{Method: "l1svm", Params: map[string]any{"C": -1}}}}, "parameter C = -1 is invalid"},
		{api.Plan{Methods: []api.Variant{{Method: "l1svm", Params: map[string]any{"C": 1}}}, Tune: []api.Grid{{Param: "C", Values: []any{1}}}}, "both given and tuned"},
		{api.Plan{Methods: []api.Variant{{Method: "l1svm"}}, Tune: []api.Grid{{Param: "C", Values: []any{-1}}}}, "tuning: l1svm: parameter C = -1"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Tune: []api.Grid{{Param: "knn.neighbors", Values: []any{1}}}}, "knn is not evaluated"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Tune: []api.Grid{{Param: "svm.gamma", Values: []any{1}}}}, "cannot tune svm.gamma"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Protocol: api.Protocol{Kind: api.CV, Folds: 51}}, "51-fold cross-validation is impossible"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Protocol: api.Protocol{Kind: api.Holdout, Train: 1.2}}, "strictly between 0 and 1"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Protocol: api.Protocol{Kind: api.Folds, Assignment: []int{1, 2}}}, "2 entries for 50 samples"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Protocol: api.Protocol{Kind: "loo"}}, `unknown protocol "loo"`},
		{api.Plan{Features: []int{3, 200}}, "feature 200 is out of range"},
		{api.Plan{Features: []int{3, 3}}, "feature 3 is listed twice"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Seed: 1 << 60}, "seed"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Classifiers: []api.Classifier{{Name: "svm"}, {Name: "svm", C: 2}}}, "listed twice"},
		{api.Plan{Methods: []api.Variant{{Method: "fisher"}}, Preprocess: "log"}, "unknown preprocessing"},
	} {
		if _, err := plan.Normalize(&c.p, sh, catalog); err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%+v: error %v, want %q", c.p, err, c.frag)
		}
	}
	// A sweep expands into one variant per value.
	sw := api.Plan{Methods: []api.Variant{{Method: "l1svm", Params: map[string]any{"C": []any{0.1, 1.0, 10.0}}}}}
	if _, err := plan.Normalize(&sw, sh, catalog); err != nil || len(sw.Methods) != 3 || sw.Methods[2].Params["C"] != 10.0 {
		t.Errorf("sweep: %v %+v", err, sw.Methods)
	}
}

// Values of K above the number of features are left out, and said so,
// when some K remains.
func TestNormalizeDropsLargeK(t *testing.T) {
	p := api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{50, 10, 300, 250, 10}}
	notes, err := plan.Normalize(&p, api.Shape{Samples: 50, Features: 200, Classes: 3}, selection.Catalog())
	if err != nil || !reflect.DeepEqual(p.K, []int{10, 50}) || len(notes) != 1 || notes[0] != "K = 250, 300 left out: the data have 200 features" {
		t.Errorf("K %v, notes %q, %v", p.K, notes, err)
	}
}
