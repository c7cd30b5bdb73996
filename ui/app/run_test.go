package app_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/ui/app/apptest"
	"sparsefs/ui/lab"
)

// A cancel keeps the units done (shown as partial, the report not yet
// savable, every worker idle); Run with the same settings takes them over
// and runs only the others, to the report of one run; other settings run
// afresh.
func TestCancelAndResume(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	configure(t, f, a)
	a.Run()
	if !a.Running() || a.CanRun() || f.Tick() != 1 {
		t.Fatal("not running")
	}
	// The keyboard focus follows the run: to its progress when it starts,
	// to Run when it is cancelled (and to the results' summary when it
	// finishes, below).
	f.Render()
	if f.Focused != "progress-area" {
		t.Errorf("focus %q when the run starts", f.Focused)
	}
	if s := a.ProgressText(); s != "Planning the evaluation…" {
		t.Errorf("progress %q", s)
	}
	f.Pump(1) // the plan
	f.Pump(4) // four units
	if s := a.ProgressText(); !strings.HasPrefix(s, "4 of 9 units done · 2 running · 3 waiting · ") {
		t.Errorf("progress %q", s)
	}
	busy := 0
	for _, line := range a.WorkerLines() {
		if !strings.HasSuffix(line, "idle") {
			busy++
		}
	}
	if busy != 2 {
		t.Errorf("worker lines %q", a.WorkerLines())
	}
	a.Cancel()
	f.Pump(-1)
	f.Tick()
	f.Render()
	if f.Focused != "run" {
		t.Errorf("focus %q after cancel", f.Focused)
	}
	want := "Cancelled. The 4 units already finished are kept (the charts show them); Run with the same settings finishes the other 5."
	if a.Notice() != want || a.Announce() != want || a.Running() {
		t.Fatalf("after cancel: %q, running %v", a.Notice(), a.Running())
	}
	if s := a.ProgressText(); !strings.HasPrefix(s, "4 of 9 units done · 5 cancelled · ") {
		t.Errorf("progress %q", s)
	}
	if a.CanSaveReport() || !strings.Contains(a.Eval.Summary(), "partial: 4 of 9 units, the means are over the splits done") {
		t.Errorf("partial results: can save %v, %q", a.CanSaveReport(), a.Eval.Summary())
	}
	if len(a.Charts()) == 0 || !a.Eval.DetailReady() {
		t.Error("the units done are not shown")
	}
	for _, line := range a.WorkerLines() {
		if !strings.HasSuffix(line, "idle") {
			t.Errorf("a worker is busy after the cancel: %q", line)
		}
	}
	if f.Tick() != 0 {
		t.Error("the page still ticks after the cancel")
	}

	from := len(f.Tasks)
	plan, report := evaluate(t, f, a, data)
	if a.Notice() != "4 units taken over from the cancelled run." {
		t.Errorf("notice %q", a.Notice())
	}
	f.Tick()
	f.Render()
	if f.Focused != "results-summary" {
		t.Errorf("focus %q when the run has finished", f.Focused)
	}
	if n := len(f.RunsOf(api.OpEval, from)); n != 5 {
		t.Errorf("the resumed run ran %d units, not 5", n)
	}
	if a, b := noTimes(report), noTimes(oneRun(t, plan, data)); a != b {
		t.Errorf("the resumed run's report differs from one run:\n%s\n%s", a, b)
	}

	// Another seed: a run afresh.
	a.Config.Protocol.SetSeed("10")
	from = len(f.Tasks)
	plan, report = evaluate(t, f, a, data)
	if a.Notice() != "" || len(f.RunsOf(api.OpEval, from)) != 9 || plan.Eval.Seed != 10 {
		t.Errorf("another seed: notice %q, %d units", a.Notice(), len(f.RunsOf(api.OpEval, from)))
	}
	if a, b := noTimes(report), noTimes(oneRun(t, plan, data)); a != b {
		t.Error("the report of another seed differs from one run")
	}
}

// Cancelling while the plan is asked for says so.
func TestCancelBeforePlan(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	f.Open(a, "t.csv", evalCSV())
	configure(t, f, a)
	a.Run()
	a.Cancel()
	f.Pump(-1)
	if a.Notice() != "Cancelled before the evaluation started." || a.Running() || !a.CanRun() {
		t.Errorf("notice %q", a.Notice())
	}
	if s := a.ProgressText(); s != "The evaluation did not start." {
		t.Errorf("progress %q", s)
	}
}

// The ranking mode: every setting fitted once on all the data, as
// core/job selects; its table, ranking, report and exports; the report
// loaded back shows the same jobs and restores the configuration.
func TestRank(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	c := a.Config
	c.SetMode(lab.ModeRank)
	c.ToggleMethod("l1svm", true)
	c.SetParam("l1svm", "C", "0.5, 2")
	c.SetTopK("3")
	if line, ok := a.Plan(); !ok || line != "Run will fit 3 jobs on 2 workers." {
		t.Fatalf("plan %q", line)
	}
	c.SetTopK("0")
	if line, ok := a.Plan(); ok || line != `the number of top features must be a whole number of at least 1, not "0"` || a.CanRun() {
		t.Errorf("plan with K 0: %q", line)
	}
	c.SetTopK("3")
	a.Run()
	if a.ProgressText() == "Nothing has run yet." || !a.Running() {
		t.Error("not running")
	}
	f.Pump(-1)
	if a.Running() || a.Error() != "" || a.Announce() != "Run finished: 3 of 3 done." {
		t.Fatalf("running %v, error %q, announce %q", a.Running(), a.Error(), a.Announce())
	}
	rk := a.Rank
	rows := rk.Rows()
	focused := 0
	for _, r := range rows {
		if r.Focus {
			focused++
		}
	}
	if a.Showing() != lab.ModeRank || len(rows) != 3 || rows[0].State != "done" || focused != 1 || !rows[2].OK || rk.MoreRows() != 0 {
		t.Fatalf("rows %+v", rows)
	}
	rk.Focus(0)
	// The job shown is fisher's: the ranking of core/job.
	sels := f.RunsOf(api.OpSelect, 0)
	if len(sels) != 3 {
		t.Fatalf("%d select jobs", len(sels))
	}
	var want api.Selection
	if err := jsonOf(t, sels[0], data, &want); err != nil {
		t.Fatal(err)
	}
	got := rk.Ranked()
	if len(got) != 8 || rk.FocusFeatures() != 8 || rk.TopK() != 3 {
		t.Fatalf("ranked %+v", got)
	}
	for i, r := range got {
		if r.Column != want.Ranking[i] || r.Name != want.Features[want.Ranking[i]] {
			t.Errorf("rank %d: %+v, want column %d", i+1, r, want.Ranking[i])
		}
	}
	if !strings.HasPrefix(rk.FocusSummary(), "fisher on 45 samples × 8 features in ") {
		t.Errorf("summary %q", rk.FocusSummary())
	}
	rk.Focus(2)
	if !rk.Rows()[2].Focus || !strings.Contains(rk.FocusSummary(), "objective") {
		t.Errorf("focus on l1svm: %q", rk.FocusSummary())
	}
	ids := map[string]bool{}
	for _, ch := range a.Charts() {
		ids[ch.ID] = true
	}
	if !ids["overlap"] || len(ids) < 4 {
		t.Errorf("charts %v", ids)
	}

	a.ExportRanking()
	if dl := f.LastDownload(); !strings.HasSuffix(dl.Name, "-ranking.csv") || strings.Count(dl.Text, "\n") != 9 {
		t.Errorf("ranking %s:\n%s", dl.Name, dl.Text)
	}
	if !a.CanReduce() || a.ReducedText() != "Data with the top 3 features (CSV)" {
		t.Errorf("reduce %v %q", a.CanReduce(), a.ReducedText())
	}
	a.ExportReduced()
	f.Pump(-1)
	if dl := f.LastDownload(); strings.Count(strings.SplitN(dl.Text, "\n", 2)[0], ",") != 3 {
		t.Errorf("reduced data %s: %.100s", dl.Name, dl.Text)
	}
	if !a.CanSaveReport() {
		t.Fatal("no report to save")
	}
	a.ExportReport()
	saved := f.LastDownload()
	if saved.Name != "sparsefs-t-report.json" {
		t.Errorf("report saved as %q", saved.Name)
	}
	rep, err := lab.DecodeReport([]byte(saved.Text))
	if err != nil || len(rep.Jobs) != 3 || rep.App != "test" || rep.Config.TopK != 3 || rep.Data.SHA256 == "" {
		t.Fatalf("report: %v %+v", err, rep)
	}

	// Loaded back in a new page.
	f2 := apptest.New(t, 1)
	b := f2.App()
	b.OpenReport()("report.json", saved.Text, nil)
	if b.Error() != "" || b.Showing() != lab.ModeRank || len(b.Rank.Rows()) != 3 || !b.Rank.HasFocus() {
		t.Fatalf("loaded: error %q, showing %q", b.Error(), b.Showing())
	}
	if !strings.HasPrefix(b.Notice(), "Report loaded: 3 jobs on t.csv, saved ") || b.ProgressText() != "Results loaded from a report." {
		t.Errorf("notice %q", b.Notice())
	}
	if cfg := b.Config.Current(); b.Config.EvalMode() || !cfg.Has("l1svm") || b.Config.ParamText("l1svm", "C") != "0.5, 2" || b.Config.TopKText() != "3" {
		t.Errorf("configuration not restored: %+v", cfg)
	}
	if !strings.HasPrefix(b.ReportNote(), "This report was computed on t.csv (45 samples × 8 features, SHA-256 ") || b.CanReduce() {
		t.Errorf("report note %q", b.ReportNote())
	}
	f2.Open(b, "t.csv", data)
	if !strings.HasSuffix(b.ReportNote(), "The data now open are the same file: Run repeats it.") {
		t.Errorf("report note %q", b.ReportNote())
	}
}

// jsonOf runs a request through core/job and reads its answer into v.
func jsonOf(t *testing.T, req *api.Request, data []byte, v any) error {
	t.Helper()
	r := *req
	return json.Unmarshal(runOp(t, &r, data), v)
}

// The report of an evaluation loaded back shows its results and restores
// the configuration; with the same data open, Run repeats the same report.
func TestEvalReportRoundTrip(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	configure(t, f, a)
	_, report := evaluate(t, f, a, data)
	_, rows := a.Eval.Table()

	g := apptest.New(t, 2)
	b := g.App()
	b.OpenReport()("saved.json", string(report), nil)
	if b.Error() != "" || b.Showing() != lab.ModeEval || !b.Eval.HasResults() || !b.CanSaveReport() {
		t.Fatalf("loaded: %q", b.Error())
	}
	want := "Evaluation report loaded: 3 settings × 3 splits on t.csv. Its configuration is restored; open the same data and Run repeats it."
	if b.Notice() != want || b.ProgressText() != "Results loaded from a report." || b.ProgressValue() != "1.000" {
		t.Errorf("notice %q", b.Notice())
	}
	if _, got := b.Eval.Table(); fmt.Sprint(got) != fmt.Sprint(rows) {
		t.Errorf("table\n%v\nwant\n%v", got, rows)
	}
	p := b.Config.Protocol
	if p.Folds != "3" || p.K != "1, 2, 4" || p.Seed != "9" || !p.SVM || !p.KNN || p.Neighbors != "1" || b.Config.ParamText("l1svm", "C") != "0.5, 2" || !b.Config.Has("fisher") {
		t.Errorf("configuration not restored: %+v", p)
	}
	if b.CanReduce() || b.CanRun() {
		t.Error("no data are open, yet")
	}
	g.Open(b, "t.csv", data)
	_, again := evaluate(t, g, b, data)
	if noTimes(again) != noTimes(report) {
		t.Error("Run after loading the report gave another report")
	}
}
