package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/job"
	"sparsefs/ui/app"
	"sparsefs/ui/app/apptest"
	"sparsefs/ui/lab"
)

// evalCSV is a small labelled table: three classes, the first two of
// eight features informative.
func evalCSV() []byte {
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	b.WriteString("g1,g2,g3,g4,g5,g6,g7,g8,class\n")
	for i := 0; i < 45; i++ {
		c := i % 3
		for j := 0; j < 8; j++ {
			v := r.NormFloat64()
			if j < 2 {
				v += 1.5 * float64(c)
			}
			fmt.Fprintf(&b, "%.6f,", v)
		}
		fmt.Fprintf(&b, "c%d\n", c)
	}
	return []byte(b.String())
}

var timings = regexp.MustCompile(`"(seconds|fit_seconds)":(\{[^}]*\}|[-0-9.e+]+|null)`)

// noTimes blanks a report's timings.
func noTimes(b []byte) string { return timings.ReplaceAllString(string(b), `"$1":0`) }

// oneRun is `sparsefs eval`'s report for the request the page planned:
// core/job run once with op eval.
func oneRun(t *testing.T, plan *api.Request, data []byte) []byte {
	t.Helper()
	req := *plan
	req.Op = api.OpEval
	return runOp(t, &req, data)
}

// runOp runs a request through core/job, as a worker does, and returns
// its answer's JSON.
func runOp(t *testing.T, req *api.Request, data []byte) []byte {
	t.Helper()
	resp, err := job.Run(context.Background(), req, job.Input{Raw: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameAsOneRun fails t when the page's report differs from one run of
// the request it planned (timings aside).
func sameAsOneRun(t *testing.T, plan *api.Request, report, data []byte) {
	t.Helper()
	if a, b := noTimes(report), noTimes(oneRun(t, plan, data)); a != b {
		t.Errorf("the page's report differs from one run of the request:\n%s\n%s", a, b)
	}
}

// evaluateAsOneRun runs the evaluation configured (Run possible, the
// workers warmed up first), checks its report against one run of the
// request, and returns it.
func evaluateAsOneRun(t *testing.T, f *apptest.Backend, a *app.App, data []byte) *api.EvalReport {
	t.Helper()
	if line, ok := a.Plan(); !ok {
		t.Fatalf("plan %q", line)
	}
	f.Pump(-1)
	plan, report := evaluate(t, f, a, data)
	sameAsOneRun(t, plan, report, data)
	var r api.EvalReport
	if err := json.Unmarshal(report, &r); err != nil {
		t.Fatalf("report: %v", err)
	}
	return &r
}

// configure sets up the evaluation of the tests: fisher and l1svm at two
// values of C, 3 folds, K = 1, 2, 4, SVM and 1-NN, seed 9: 9 units.
func configure(t *testing.T, f *apptest.Backend, a *app.App) {
	t.Helper()
	c := a.Config
	c.ToggleMethod("l1svm", true)
	c.SetParam("l1svm", "C", "0.5, 2")
	c.Protocol.SetFolds("3")
	c.Protocol.SetKList("1, 2, 4")
	c.SetKNN(true)
	c.Protocol.SetSeed("9")
	if line, ok := a.Plan(); !ok || line != "Run will evaluate 3 settings × 3 folds = 9 units on 2 workers." {
		t.Fatalf("plan line %q (%v)", line, ok)
	}
	if !a.CanRun() {
		t.Fatal("Run is not possible")
	}
	f.Pump(-1) // the workers warm up for the plan meanwhile
}

// evaluate runs the configured evaluation to its end and returns the
// request the page planned and the report it saved.
func evaluate(t *testing.T, f *apptest.Backend, a *app.App, data []byte) (*api.Request, []byte) {
	t.Helper()
	from := len(f.Tasks)
	a.Run()
	f.Pump(-1)
	if a.Running() {
		t.Fatalf("the evaluation still runs: %s", a.ProgressText())
	}
	if msg := a.Error(); msg != "" {
		t.Fatalf("error: %s", msg)
	}
	plans := f.RunsOf(api.OpEvalPlan, from)
	if len(plans) != 1 {
		t.Fatalf("%d plans", len(plans))
	}
	if !a.CanSaveReport() {
		t.Fatal("the report cannot be saved")
	}
	n := len(f.Downloads)
	a.ExportReport()
	if len(f.Downloads) != n+1 {
		t.Fatal("the report was not saved")
	}
	return plans[0], []byte(f.LastDownload().Text)
}

// The whole way of an evaluation through the page's state: the methods
// listed, a file opened and inspected, the evaluation planned, its units
// on two workers, the parts collected by the merging worker, the report
// merged there — the report `sparsefs eval` writes for the same request,
// but the timings; then the results' views and the exports.
func TestEvaluation(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	if line, _ := a.Plan(); line != "Load data first." {
		t.Errorf("plan line before data: %q", line)
	}
	data := evalCSV()
	f.Open(a, "t.csv", data)
	d := a.Data
	if !d.Open() || d.Busy() || d.Name() != "t.csv" || d.LabelName() != "class" || !d.HasLabel() {
		t.Fatalf("data open: %v busy %v name %q label %q; error %q", d.Open(), d.Busy(), d.Name(), d.LabelName(), a.Error())
	}
	if s := d.Summary(); !strings.HasPrefix(s, "45 samples × 8 features · comma-separated · header row · ") {
		t.Errorf("summary %q", s)
	}
	if cols := d.PreviewCols(); len(cols) != 9 || cols[8] != 8 || d.MoreColumns() != 0 || !d.IsLabel(8) {
		t.Errorf("preview columns %v", cols)
	}
	if got := d.Inspection().Dataset.Classes; len(got) != 3 {
		t.Errorf("classes %v", got)
	}
	prepared := 0
	for _, task := range f.Tasks {
		if task.Prepare != nil {
			prepared++
		}
	}
	if prepared != 2 {
		t.Errorf("%d workers prepared the data", prepared)
	}

	configure(t, f, a)
	plan, report := evaluate(t, f, a, data)
	// The request is the configuration's.
	ev := plan.Eval
	if len(ev.Methods) != 3 || ev.Methods[2].Method != "l1svm" || fmt.Sprint(ev.Methods[2].Params["C"]) != "2" || ev.Protocol.Folds != 3 || ev.Seed != 9 || fmt.Sprint(ev.K) != "[1 2 4]" || len(ev.Classifiers) != 2 {
		t.Errorf("the page planned %s", mustJSON(t, plan))
	}
	sameAsOneRun(t, plan, report, data)
	if !f.Marked("sparsefs-eval-report") || f.Marked("sparsefs-eval-merge-all") {
		t.Errorf("the report was not merged by the collecting worker: %v", f.Marks)
	}
	if got := len(f.RunsOf(api.OpEval, 0)); got != 9 {
		t.Errorf("%d unit jobs", got)
	}
	if s := a.ProgressText(); !strings.HasPrefix(s, "9 of 9 units done · report merged · ") || a.ProgressValue() != "1.000" {
		t.Errorf("progress %q %s", s, a.ProgressValue())
	}
	if !strings.HasPrefix(a.Announce(), "Evaluation finished: 9 units in ") {
		t.Errorf("announce %q", a.Announce())
	}
	for _, line := range a.WorkerLines() {
		if !strings.HasSuffix(line, " · idle") {
			t.Errorf("worker line %q", line)
		}
	}
	if f.Tick() != 0 {
		t.Error("the page still ticks after the run")
	}
	if len(f.Paces) < 2 || !f.Paces[0] || f.Paces[len(f.Paces)-1] {
		t.Errorf("paces %v", f.Paces)
	}

	// The results.
	e := a.Eval
	if a.Showing() != lab.ModeEval || !e.HasResults() {
		t.Fatalf("showing %q", a.Showing())
	}
	head, rows := e.Table()
	if len(rows) != 6 || len(head) != 7 {
		t.Errorf("table %v, %d rows", head, len(rows))
	}
	if s := e.Summary(); !strings.Contains(s, "t.csv (45 samples × 8 features) · 3-fold cross-validation · seed 9 · ") || strings.Contains(s, "partial") {
		t.Errorf("summary %q", s)
	}
	ids := map[string]bool{}
	for _, ch := range a.Charts() {
		ids[ch.ID] = true
	}
	if !ids["accuracy-svm"] || !ids["accuracy-knn"] || !ids["redundancy"] {
		t.Errorf("charts %v", ids)
	}
	// The details wait until the results are drawn.
	if e.DetailReady() {
		t.Error("details ready before the results were drawn")
	}
	f.Render()
	if !e.DetailReady() || e.DetailK() != 4 || e.Splits() != 3 || e.Features() != 8 {
		t.Fatalf("details: ready %v, K %d", e.DetailReady(), e.DetailK())
	}
	e.SetVariant(1)
	rk := e.Ranking()
	if len(rk) != 8 || rk[0].Freq == "" || rk[0].MeanRnk == "" {
		t.Errorf("ranking across the splits %+v", rk)
	}
	if got := e.VariantLabels()[1]; got != "l1svm · C 0.5" {
		t.Errorf("variant %q", got)
	}
	if len(e.DetailCharts()) != 1 {
		t.Errorf("%d detail charts (the |W| heat map expected)", len(e.DetailCharts()))
	}
	e.SetSplit(2)
	if sr := e.Ranking(); len(sr) != 8 || sr[0].MeanRnk != "" {
		t.Errorf("split ranking %+v", sr)
	}
	a.SetShown("3")
	if len(e.Ranking()) != 3 {
		t.Error("Shown ignored")
	}
	a.SetShown("x")
	if a.Shown() != 3 {
		t.Error("a bad Shown was taken")
	}
	if e.UnitCount() != 9 || len(e.Units()) != 9 || e.LastKText() != "4" || e.Units()[0].State != "done" {
		t.Errorf("units %d %+v", e.UnitCount(), e.Units())
	}

	// The exports.
	a.ExportRanking()
	if dl := f.LastDownload(); dl.Name != "l1svm-C-0.5-split-3-ranking.csv" || !strings.HasPrefix(dl.Text, "rank,feature,index,score\n") || strings.Count(dl.Text, "\n") != 9 {
		t.Errorf("ranking %s:\n%s", dl.Name, dl.Text)
	}
	if !a.CanReduce() || a.ReducedText() != "Data with these top 4 features (CSV)" {
		t.Errorf("reduce: %v %q", a.CanReduce(), a.ReducedText())
	}
	a.ExportReduced()
	f.Pump(-1)
	if dl := f.LastDownload(); dl.Mime != "text/csv" || strings.Count(strings.SplitN(dl.Text, "\n", 2)[0], ",") != 4 {
		t.Errorf("reduced data %s: %.200s", dl.Name, dl.Text)
	}
	ch := a.Charts()[0]
	a.SaveChart(ch, app.SVG)
	if dl := f.LastDownload(); dl.Name != "sparsefs-"+ch.ID+".svg" || !strings.HasPrefix(dl.Text, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<svg") {
		t.Errorf("chart saved as %s: %.80s", dl.Name, dl.Text)
	}
	a.SaveChart(ch, app.PNG)
	if len(f.PNGs) != 1 || f.PNGs[0] != "sparsefs-"+ch.ID+".png" {
		t.Errorf("PNG %v", f.PNGs)
	}
}

// When the merging worker cannot merge (it was started afresh), the page
// sends every part to a worker to merge: the same report.
func TestEvaluationMergeFallback(t *testing.T) {
	f := apptest.New(t, 2)
	f.FailMerge = true
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	configure(t, f, a)
	plan, report := evaluate(t, f, a, data)
	sameAsOneRun(t, plan, report, data)
	if !f.Marked("sparsefs-eval-merge-all") || len(f.RunsOf(api.OpMerge, 0)) != 1 {
		t.Errorf("no merge of every part: %v", f.Marks)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The combined selectors (stability selection around a base, a consensus
// of two selectors) evaluate in the page as sparsefs eval evaluates the
// same request.
func TestEnsembleEvaluation(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	c := a.Config
	c.ToggleMethod("fisher", false)
	c.ToggleMethod("stabsel", true)
	c.SetParam("stabsel", "pairs", "5")
	c.ToggleMethod("consensus", true)
	c.Protocol.SetFolds("3")
	c.Protocol.SetKList("1, 2")
	c.Protocol.SetSeed("4")
	if r := evaluateAsOneRun(t, f, a, data); len(r.Results) != 2 {
		t.Fatalf("%d results", len(r.Results))
	}
}

// A measurement read from the user's own file (the label column read as a
// regression target) is evaluated by the RMSE of least squares, as
// sparsefs eval evaluates the same request.
func TestMeasurementFromAFile(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	var b strings.Builder
	b.WriteString("g1,g2,g3,g4,level\n")
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 40; i++ {
		x := []float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		fmt.Fprintf(&b, "%.5f,%.5f,%.5f,%.5f,%.5f\n", x[0], x[1], x[2], x[3], 2*x[0]-x[2]+0.1*r.NormFloat64())
	}
	data := []byte(b.String())
	f.Open(a, "level.csv", data)
	if !a.Data.Measured() {
		t.Fatalf("the last column, a different number in every row, is not read as a measurement: %q", a.Error())
	}
	c := a.Config
	c.ToggleMethod("fisher", false)
	c.ToggleMethod("rfs", true)
	c.Protocol.SetFolds("4")
	c.Protocol.SetKList("1, 2")
	rep := evaluateAsOneRun(t, f, a, data)
	if rep.Results[0].RMSE == nil || len(rep.Results[0].RMSE.Mean) != 2 {
		t.Fatalf("report: %+v", rep.Results)
	}
	// rfs keeps g1 and g3 at K = 2: least squares on them leaves the noise.
	if m := rep.Results[0].RMSE.Mean[1]; !(m < 0.3) {
		t.Errorf("RMSE at K = 2: %v", m)
	}
}
