package lab

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"sparsefs/api"
)

// tenKReport is a report worked by hand: ten features, K = 1 … 10, two
// folds, two filters A and B whose accuracies are 0.6 (A) and 0.5 (B) at
// every K but A's K = 2 (0.9 and 0.8: 85.0 ± 7.1, the sample deviation
// 0.05·√2) and B's K = 4 (0.95 and 0.85: 90.0 ± 7.1), and 0.7 (A) at
// K = 10. B's stability at K = 4: 0.8 in [0.6, 1.2] (cut at 1).
func tenKReport() *api.EvalReport {
	ks := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	feats := []string{"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10"}
	acc := func(base float64, at int, v float64) api.Floats {
		out := make(api.Floats, 10)
		for i := range out {
			out[i] = base
		}
		out[at] = v
		return out
	}
	rep := &api.EvalReport{Features: feats, Report: &api.Report{K: ks, Classifiers: []string{"svm(C=1,ovo,free bias)"},
		Splits: []api.SplitInfo{{Train: 5}, {Train: 5}}},
		Request: &api.Request{Eval: &api.Plan{Protocol: api.Protocol{Kind: "cv", Folds: 2}}}}
	for v, m := range []string{"A", "B"} {
		units := make([]*api.UnitResult, 2)
		for s := range units {
			a := []api.Floats{acc(0.6, 1, []float64{0.9, 0.8}[s]), acc(0.5, 3, []float64{0.95, 0.85}[s])}[v]
			if v == 0 {
				a[9] = 0.7
			}
			units[s] = &api.UnitResult{Variant: v, Split: s, Accuracy: []api.Floats{a}}
		}
		vr := api.VariantResult{VariantInfo: api.VariantInfo{Method: m, Kind: api.Filter, Params: map[string]any{}}, Units: units}
		vr.Accuracy = []api.Summary{summarize(10, units, func(u *api.UnitResult) []float64 { return u.Accuracy[0] })}
		if v == 1 {
			nan := math.NaN()
			vr.Stability = &api.Stability{Index: api.Floats{nan, nan, nan, 0.8, nan, nan, nan, nan, nan, nan},
				CILow: api.Floats{nan, nan, nan, 0.6, nan, nan, nan, nan, nan, nan}, CIHigh: api.Floats{nan, nan, nan, 1.2, nan, nan, nan, nan, nan, nan}}
		}
		rep.Results = append(rep.Results, vr)
	}
	return rep
}

// The table of ten K: six spread over the list (1, 3, 5, 6, 8, 10) and
// each row's best (A's 2, B's 4); a note names 7 and 9.
func TestTableShowsEveryBestK(t *testing.T) {
	v := NewEvalView(tenKReport(), nil)
	head, rows := v.Table()
	want := []string{"selector", "measure", "K = 1", "K = 2", "K = 3", "K = 4", "K = 5", "K = 6", "K = 8", "K = 10", "best", "fit time"}
	if !reflect.DeepEqual(head, want) {
		t.Errorf("head %q", head)
	}
	if rows[0].Best != "85.0 at K = 2" || rows[1].Best != "90.0 at K = 4" || rows[1].Cells[3] != "90.0 ± 7.1" {
		t.Errorf("best %q, %q; B at K = 4 %q", rows[0].Best, rows[1].Best, rows[1].Cells[3])
	}
	if got := v.TableNote(); got != "The table shows 8 of the 10 values of K; K = 7, 9 are in the charts, the report and the CSV." {
		t.Errorf("note %q", got)
	}
	// A short list is shown whole, without a note.
	if got := NewEvalView(viewReport(), nil).TableNote(); got != "" {
		t.Errorf("note of a short list %q", got)
	}
}

// The summary names B at K = 4 with its accuracy, the accuracy with all
// ten features (K = 10) and B's stability there, read on Fleiss' scale.
func TestSummary(t *testing.T) {
	got := NewEvalView(tenKReport(), nil).Summary()
	want := "Best accuracy with the linear SVM: B, keeping 4 of 10 features — 90.0% ± 7.1% (mean ± standard deviation over the 2 folds)." +
		" With all 10 features: 50.0% ± 0.0%." +
		" How alike its 4 features are from split to split: stability 0.80 (95% interval 0.60 to 1.00), excellent."
	if len(got) != 1 || got[0].Text != want || got[0].Variant != 1 || got[0].KIndex != 3 {
		t.Errorf("summary %+v\nwant %q", got, want)
	}
	// A's 99% with all ten features is no selection: B at K = 4 stays the
	// headline.
	rep10 := tenKReport()
	rep10.Results[0].Accuracy[0].Mean[9] = 0.99
	if got := NewEvalView(rep10, nil).Summary(); len(got) != 1 || got[0].Variant != 1 || got[0].KIndex != 3 {
		t.Errorf("summary with all features best %+v", got)
	}
	// Without K = every feature, the summary says it was not measured.
	rep := viewReport()
	rep.Results[1].Stability = nil
	got = NewEvalView(rep, nil).Summary()
	// fisher's best: 100.0 ± 0.0 at K = 2 (viewReport's hand-worked
	// numbers); rfs reaches 75.0 only.
	if len(got) != 1 || !strings.HasPrefix(got[0].Text, "Best accuracy with the linear SVM: fisher, keeping 2 of 4 features — 100.0% ± 0.0%") ||
		!strings.Contains(got[0].Text, "All 4 features together were not measured (add K = 4") {
		t.Errorf("summary %+v", got)
	}
}
