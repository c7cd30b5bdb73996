package lab

import (
	"encoding/xml"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"sparsefs/api"
)

// viewReport is a report worked by hand: four features f1…f4 (with the
// ground truth of SynthSpec{D1: 1, D2: 1}: f1, f2 informative, f3
// redundant, f4 irrelevant), K = 1, 2, two splits, a filter and an
// embedded method that selects per class.
func viewReport() *api.EvalReport {
	nz := func(v int) *int { return &v }
	obj := api.Float(1.5)
	unit := func(v, s int, ranking []int, scores []float64, acc1, acc2 float64) *api.UnitResult {
		f := api.Fit{Ranking: ranking, Scores: scores, FitRecord: api.FitRecord{Trace: api.Floats{}}}
		u := &api.UnitResult{Unit: 2*v + s, Variant: v, Split: s, Selected: [][]int{ranking[:1], ranking[:2]},
			Accuracy: []api.Floats{{acc1, acc2}}, Redundancy: api.Floats{math.NaN(), 0.5}, Sparsity: []*int{nil, nil}}
		if v == 1 {
			f.Objective, f.NonzeroRows, f.Trace = &obj, nz(3), api.Floats{3, 2, 1.5}
			f.Weights = &api.FitWeights{Rows: ranking[:2], Abs: []api.Floats{{1, 0}, {0, 2}}}
			f.PerClass = [][]int{{ranking[0], ranking[2]}, {ranking[1], ranking[3]}}
			u.Sparsity = []*int{nz(3), nz(3)}
		}
		u.Fits = []api.Fit{f}
		return u
	}
	rep := &api.EvalReport{Features: []string{"f1", "f2", "f3", "f4"}, Report: &api.Report{K: []int{1, 2}, Classifiers: []string{"svm(C=1,ovo,free bias)"},
		Splits: []api.SplitInfo{{Train: 3, Test: []int{0}}, {Train: 3, Test: []int{1}}}},
		Dataset: api.DatasetInfo{Classes: []string{"a", "b"}},
		Request: &api.Request{Eval: &api.Plan{Protocol: api.Protocol{Kind: "cv", Folds: 2}}}}
	units := [][]*api.UnitResult{
		{unit(0, 0, []int{0, 3, 1, 2}, []float64{4, 2, 1, 3}, 0.5, 1), unit(0, 1, []int{3, 0, 2, 1}, []float64{3, 0, 1, 4}, 0.75, 1)},
		{unit(1, 0, []int{1, 0, 2, 3}, []float64{2, 3, 1, 0}, 1, 1), unit(1, 1, []int{1, 2, 0, 3}, []float64{1, 2, 1.5, 0}, 0.5, 0.5)},
	}
	for v, us := range units {
		info := api.VariantInfo{Method: []string{"fisher", "rfs"}[v], Kind: []string{api.Filter, api.Embedded}[v], Params: map[string]any{}}
		vr := api.VariantResult{VariantInfo: info, Units: us}
		vr.Accuracy = []api.Summary{summarize(2, us, func(u *api.UnitResult) []float64 { return u.Accuracy[0] })}
		vr.Redundancy = summarize(2, us, func(u *api.UnitResult) []float64 { return u.Redundancy })
		vr.FitSeconds = api.Scalar{Mean: 0.002, Std: 0.001}
		if v == 1 {
			vr.Sparsity = &api.Summary{Mean: api.Floats{3, 3}, Std: api.Floats{0, 0}}
		}
		rep.Results = append(rep.Results, vr)
	}
	return rep
}

func TestEvalView(t *testing.T) {
	truth := &SynthSpec{M: 10, D1: 1, D2: 1, C: 2, Task: Classification}
	v := NewEvalView(viewReport(), truth)
	head, rows := v.Table()
	if want := []string{"selector", "measure", "K = 1", "K = 2", "best", "fit time"}; !reflect.DeepEqual(head, want) {
		t.Errorf("head %q", head)
	}
	// fisher: K = 1 accuracies 0.5 and 0.75: mean 62.5, sample deviation
	// 0.25/√2 = 17.7 points; K = 2: 1 and 1.
	got := [][]string{append(append([]string{rows[0].Label, rows[0].Measure}, rows[0].Cells...), rows[0].Best, rows[0].Time),
		append(append([]string{rows[1].Label}, rows[1].Cells...), rows[1].Best)}
	want := [][]string{{"fisher", "accuracy % · svm", "62.5 ± 17.7", "100.0 ± 0.0", "100.0 at K = 2", "2 ms ± 1 ms"},
		{"rfs", "75.0 ± 35.4", "75.0 ± 35.4", "75.0 at K = 1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("table %q", got)
	}
	// fisher's top 2 are {f1, f4} and {f4, f1}: both twice; mean ranks f1
	// (1+2)/2, f4 (2+1)/2 — a tie, broken by column; f3 (4+3)/2 before f2
	// (3+4)/2 by column again. Mean scores (Scores are by column): f1
	// (4+3)/2, f4 (3+4)/2, f2 (2+0)/2, f3 (1+1)/2.
	fr := v.Frequency(0, 1)
	var names []string
	for _, r := range fr {
		names = append(names, fmt.Sprintf("%s:%d/%d:%.1f:%.1f:%s", r.Name, r.Count, r.Splits, r.MeanRank, r.MeanScore, r.Truth))
	}
	if w := []string{"f1:2/2:1.5:3.5:informative", "f4:2/2:1.5:3.5:irrelevant", "f2:0/2:3.5:1.0:informative", "f3:0/2:3.5:1.0:redundant"}; !reflect.DeepEqual(names, w) {
		t.Errorf("frequency %q", names)
	}
	csvText := FrequencyCSV(fr[:1], 2, true)
	if csvText != "rank,feature,index,in_top_2_of_splits,splits,mean_rank,mean_score,truth\n1,f1,0,2,2,1.5,3.5,informative\n" {
		t.Errorf("csv %q", csvText)
	}
	sr := v.SplitRanking(1, 1, 0)
	if len(sr) != 4 || sr[0].Name != "f2" || !sr[0].InTopK || sr[1].InTopK || sr[1].Score != "1.5" {
		t.Errorf("split ranking %+v", sr)
	}
	// The share of informative features among the top K: fisher's top 1
	// are f1, f4 (1/2 on average), top 2 {f1,f4} both times (1/2); rfs's
	// top 1 f2, f2 (1), top 2 {f2,f1} and {f2,f3} (3/4).
	fig, ok := v.TruthChart()
	if !ok {
		t.Fatal("no truth chart")
	}
	for _, mark := range []string{"fisher: K 1, share informative 0.5 (band 0 to 1)", "rfs: K 2, share informative 0.75 (band 0.3964 to 1)",
		"the best possible: K 2, share informative 1"} {
		if !strings.Contains(fig.SVG, mark) {
			t.Errorf("truth chart lacks %q", mark)
		}
	}
	if _, ok := NewEvalView(viewReport(), nil).TruthChart(); ok {
		t.Error("a truth chart without a ground truth")
	}
	acc := v.AccuracyCharts()
	if len(acc) != 1 || acc[0].ID != "accuracy-svm" || strings.Count(acc[0].SVG, `class="mark`) != 4 {
		t.Errorf("accuracy charts %d, %q", len(acc), acc[0].ID)
	}
	if f, ok := v.SparsityChart(); !ok || !strings.Contains(f.SVG, "rfs") || strings.Contains(f.SVG, "fisher") {
		t.Errorf("sparsity chart %v", ok)
	}
	conv := v.ConvergenceCharts()
	if len(conv) != 1 || conv[0].ID != "conv-rfs" || strings.Count(conv[0].SVG, `class="line`) != 2 {
		t.Errorf("convergence %+v", conv)
	}
	w, ok := v.WeightsChart(1, 0, 0)
	if !ok || !strings.Contains(w.SVG, "★ f2 × a: 1") || !strings.Contains(w.SVG, "★ f1 × b: 2") {
		t.Errorf("weights %v %s", ok, w.SVG)
	}
	if _, ok := v.WeightsChart(0, 0, 0); ok {
		t.Error("a filter has a heat map")
	}
	classes, pc := v.PerClass(1, 0, 0, 5)
	if !reflect.DeepEqual(classes, []string{"a", "b"}) || !reflect.DeepEqual(pc, [][]string{{"f2", "f1"}, {"f3", "f4"}}) {
		t.Errorf("per class %v %v", classes, pc)
	}
	// A long K list shows six columns, its ends included: round(i·19/5).
	long := &EvalView{Rep: &api.EvalReport{Report: &api.Report{K: make([]int, 20)}}}
	if got := long.tableKs(); !reflect.DeepEqual(got, []int{0, 4, 8, 11, 15, 19}) {
		t.Errorf("columns of K %v", got)
	}
	for _, f := range append(append(acc, conv...), fig, w, v.RedundancyChart(), v.TimeChart()) {
		if err := xmlCheck(f.SVG); err != nil {
			t.Errorf("%s: %v", f.ID, err)
		}
	}
}

// xmlCheck parses a chart as XML.
func xmlCheck(markup string) error { return xml.Unmarshal([]byte(markup), new(struct{})) }
