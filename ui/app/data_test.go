package app_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/ui/app"
	"sparsefs/ui/app/apptest"
	"sparsefs/ui/lab"
)

// A bundled demo opens; another label column reads the file again; the
// workers prepare the data with the plan to warm up for, again when a
// preset changes what would run, never during a run.
func TestDemoLabelAndWarmUp(t *testing.T) {
	f := apptest.New(t, 2)
	csv, err := os.ReadFile("../../assets/demo/breast-cancer-wisconsin.csv")
	if err != nil {
		t.Fatal(err)
	}
	f.URLs[app.Demos[0].URL] = csv
	a := f.App()
	d := a.Data
	if d.Demo() != "breast-cancer" {
		t.Errorf("demo chosen %q", d.Demo())
	}
	d.SetDemo("digits")
	d.LoadDemo()
	f.Pump(-1)
	if !strings.HasPrefix(a.Error(), "cannot load demo/digits.csv.gz: ") || d.Open() || d.Busy() {
		t.Errorf("a missing demo: %q", a.Error())
	}
	d.SetDemo("breast-cancer")
	from := len(f.Tasks)
	d.LoadDemo()
	if !d.Busy() || a.Error() != "" {
		t.Error("not loading")
	}
	f.Pump(-1)
	if d.Name() != "breast-cancer-wisconsin.csv (demo)" || !strings.HasPrefix(d.Summary(), "569 samples × 30 features · comma-separated · header row · ") {
		t.Fatalf("demo: %q %q", d.Name(), a.Error())
	}
	ps := f.Prepares(from)
	if len(ps) != 2 || ps[0].Eval == nil || len(ps[0].Eval.Methods) != 1 || ps[0].Eval.Methods[0].Method != "fisher" {
		t.Fatalf("prepare %+v", ps)
	}
	if d.LabelName() != "diagnosis" || len(d.LabelChoices()) != 10 || d.MoreColumns() != 22 {
		t.Errorf("label %q of %v; %d more columns", d.LabelName(), d.LabelChoices(), d.MoreColumns())
	}
	// A label column that is not there: the error says so, and the data
	// stay open, read as before.
	d.SetLabel("nosuch")
	f.Pump(-1)
	if !d.Open() || a.Config.Current().Label != "" || d.LabelName() != "diagnosis" || !strings.Contains(a.Error(), `no column is named "nosuch"`) {
		t.Errorf("label %q (config %q): %q", d.LabelName(), a.Config.Current().Label, a.Error())
	}
	d.SetLabel("diagnosis")
	f.Pump(-1)
	if d.LabelName() != "diagnosis" || a.Error() != "" {
		t.Errorf("label %q: %q", d.LabelName(), a.Error())
	}

	// A preset: the workers warm up for its methods.
	from = len(f.Tasks)
	a.Config.ChoosePreset("rfs-nie-2010")
	if !a.Config.CanApplyPreset() {
		t.Fatal("cannot apply the preset")
	}
	a.Config.ApplyPreset()
	p := a.Config.Protocol
	if info := a.Config.PresetInfo(); info == nil || p.Folds != "5" || p.K != "20, 80" || len(a.Config.Chosen()) != 6 || a.Config.TopKText() != "80" {
		t.Errorf("preset applied: %+v, %d methods", p, len(a.Config.Chosen()))
	}
	if line, ok := a.Plan(); !ok || !strings.Contains(line, "= 30 units on 2 workers.") || !strings.Contains(line, "80") {
		t.Errorf("plan %q", line)
	}
	ps = f.Prepares(from)
	if len(ps) != 2 || ps[0].Eval == nil || len(ps[0].Eval.Methods) != 6 {
		t.Errorf("the workers did not warm up for the preset: %+v", ps)
	}
	// Nothing new to warm up for: nothing sent; during a run, nothing.
	from = len(f.Tasks)
	a.Config.SetBias(false)
	a.Config.SetPreprocess("zscore")
	if n := len(f.Prepares(from)); n != 0 {
		t.Errorf("%d prepares for no change", n)
	}
	a.Config.SetPreprocess("minmax")
	f.Pump(-1)
	if n := len(f.Prepares(from)); n != 2 {
		t.Errorf("%d prepares for another preprocessing", n)
	}
	a.Config.Protocol.SetKList("5")
	a.Run()
	from = len(f.Tasks)
	a.Config.SetKNN(true)
	if a.Config.CanApplyPreset() {
		t.Error("a preset can be applied during a run")
	}
	f.Pump(-1)
	if n := len(f.Prepares(from)); n != 0 || a.Error() != "" {
		t.Errorf("%d prepares during a run; error %q", n, a.Error())
	}
}

// Missing values are reported, Run says it cannot start until the user
// chooses what to do with them, and each choice reads the data so: the
// column means filled in, or the features or the samples with missing
// cells left out (the file's own cells say which: b and a have one each,
// in rows 1 and 4).
func TestMissingChoice(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	f.Open(a, "gaps.csv", []byte("a,b,c,label\n1,,3,x\n2,2,3,x\n3,4,3,y\n,5,3,y\n5,6,3,y\n"))
	d := a.Data
	w := strings.Join(d.Warnings(), "|")
	if !strings.Contains(w, "2 missing value(s) in 2 column(s)") || !strings.Contains(w, `1 constant feature(s), e.g. "c"`) || d.Missing() != "" || !d.MissingChoice() {
		t.Errorf("warnings %q", w)
	}
	// Run cannot start, and says why in words.
	a.Config.SetMode(lab.ModeRank)
	a.Config.ToggleMethod("fisher", true)
	if line, ok := a.Plan(); a.CanRun() || ok || !strings.HasPrefix(line, "The data have 2 missing values: choose under the preview what to do with them") {
		t.Errorf("plan with missing values: %q, %v", line, ok)
	}
	from := len(f.Tasks)
	d.SetMissing(api.MissingMean)
	if line, ok := a.Plan(); !a.CanRun() || !ok {
		t.Errorf("plan with imputation: %q", line)
	}
	ps := f.Prepares(from)
	if d.Missing() != api.MissingMean || len(ps) != 2 || ps[0].Data.Missing != "mean" {
		t.Errorf("impute: %+v", ps)
	}
	f.Pump(-1)
	d.SetMissing(api.MissingDropFeatures)
	f.Pump(-1)
	if ds := d.Inspection().Dataset; ds.Features != 1 || ds.Samples != 5 || !a.CanRun() || !d.MissingChoice() {
		t.Errorf("drop features: %d × %d, error %q", ds.Samples, ds.Features, a.Error())
	}
	d.SetMissing(api.MissingDropSamples)
	f.Pump(-1)
	if ds := d.Inspection().Dataset; ds.Features != 3 || ds.Samples != 3 || !a.CanRun() {
		t.Errorf("drop samples: %d × %d, error %q", ds.Samples, ds.Features, a.Error())
	}
	d.SetMissing("")
	f.Pump(-1)
	if ds := d.Inspection().Dataset; ds.Samples != 5 || ds.Missing != 2 || a.CanRun() || a.Config.Current().Missing != "" {
		t.Errorf("nothing chosen: %d samples, %d missing, missing %q", ds.Samples, ds.Missing, a.Config.Current().Missing)
	}
}

// A clinic's export: sample IDs, a diagnosis, a text column and
// measurements. The page reads it as the worker proposes, every request
// says so, and the user can change each role.
func TestClinicFile(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	f.Open(a, "clinic.csv", []byte("patient,diagnosis,site,age,marker\nP1,tumor,north,61,2.5\nP2,normal,south,45,1.0\nP3,tumor,south,61,3.1\nP4,normal,north,38,0.9\nP5,tumor,north,66,2.9\nP6,normal,south,45,1.2\n"))
	d := a.Data
	cfg := a.Config.Current()
	if a.Error() != "" || d.LabelName() != "diagnosis" || d.IDName() != "patient" || d.IgnoreText() != "site" || cfg.ID != "patient" || len(cfg.Ignore) != 1 {
		t.Fatalf("proposed roles: error %q label %q id %q ignore %q", a.Error(), d.LabelName(), d.IDName(), d.IgnoreText())
	}
	if cols := d.PreviewCols(); cols[0] != 0 || cols[len(cols)-1] != 1 {
		t.Errorf("preview columns %v: want the IDs first and the label last", cols)
	}
	from := len(f.Tasks)
	d.SetIgnoreText("site, age")
	d.ApplyIgnore()
	f.Pump(-1)
	if ds := d.Inspection().Dataset; ds.Features != 1 || a.Error() != "" {
		t.Errorf("left out site, age: %d features, error %q", ds.Features, a.Error())
	}
	if ps := f.Prepares(from); len(ps) == 0 || ps[0].Data.ID != "patient" || len(ps[0].Data.Ignore) != 2 {
		t.Errorf("prepares %+v", ps)
	}
	// No sample IDs: the column of IDs is then left out, as text.
	d.SetID("")
	f.Pump(-1)
	if d.IDName() != "" || a.Error() != "" || !strings.Contains(d.IgnoreText(), "patient") {
		t.Errorf("no IDs: id %q, left out %q, error %q", d.IDName(), d.IgnoreText(), a.Error())
	}
	// A numeric label read as a measurement (a regression target), and
	// back as classes.
	d.SetLabel("age")
	f.Pump(-1)
	if !d.CanMeasure() || d.Measured() {
		t.Errorf("label age: can measure %v, measured %v, error %q", d.CanMeasure(), d.Measured(), a.Error())
	}
	d.SetMeasured(true)
	f.Pump(-1)
	if !d.Measured() || d.HasLabel() || a.Error() != "" || d.LabelName() != "age" || d.Inspection().Dataset.Targets[0] != "age" {
		t.Errorf("measured: error %q", a.Error())
	}
	d.SetMeasured(false)
	f.Pump(-1)
	if d.Measured() || !d.HasLabel() || d.LabelName() != "age" {
		t.Errorf("classes again: label %q, error %q", d.LabelName(), a.Error())
	}
}

// Generated data: the form, the line saying what Generate makes, the data
// opened with their ground truth, saved as the worker wrote them.
func TestSynth(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	s := a.Synth
	if s.IsOpen() {
		t.Error("the generator is open")
	}
	s.Toggle()
	if !s.IsOpen() {
		t.Error("the generator did not open")
	}
	s.Form.SetM("x")
	if line, ok := s.Form.Line(); ok || line != `samples m must be a whole number, not "x"` {
		t.Errorf("line %q", line)
	}
	s.Generate()
	if a.Error() != `samples m must be a whole number, not "x"` {
		t.Errorf("error %q", a.Error())
	}
	s.Form.SetM("60")
	s.Form.SetD1("2")
	s.Form.SetD2("5")
	s.Form.SetC("2")
	s.Form.SetSeed("4")
	line, ok := s.Form.Line()
	if !ok || !strings.HasPrefix(line, "60 samples × 11 features (4 informative, 2 redundant, 5 irrelevant), 2 classes. The same file: sparsefs synth ") {
		t.Errorf("line %q", line)
	}
	s.Generate()
	f.Pump(-1)
	d := a.Data
	if a.Error() != "" || !d.Generated() || d.Name() != "synthetic-m60-d1_2-d2_5-c2-out0-seed4.csv" || !strings.HasPrefix(d.Summary(), "60 samples × 11 features") {
		t.Fatalf("generated: %q %q", d.Name(), a.Error())
	}
	s.Save()
	if dl := f.LastDownload(); dl.Name != d.Name() || !strings.HasPrefix(dl.Text, "f1,f2,") || strings.Count(dl.Text, "\n") != 61 {
		t.Errorf("saved %q: %.100s", dl.Name, dl.Text)
	}
	// Evaluated, the results know which features are informative.
	a.Config.Protocol.SetKList("2, 4")
	a.Run()
	f.Pump(-1)
	f.Render()
	if !a.Eval.HasTruth() || a.Eval.Ranking()[0].Truth == "" {
		t.Errorf("no ground truth: %q", a.Error())
	}
	// Regression: no label, targets.
	s.Form.SetTask(lab.Regression)
	s.Form.SetOutliers("0.1")
	s.Generate()
	f.Pump(-1)
	if d.HasLabel() || len(d.Inspection().Dataset.Targets) != 2 || !strings.Contains(d.Summary(), "regression targets") {
		t.Errorf("regression data: %q", d.Summary())
	}
}

// A workbook that opens with a sheet of notes: the first sheet with a
// table is read, the note says why the other was skipped, and the picker
// reads any sheet; a sheet that does not read leaves the table open.
func TestWorkbookSheets(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "core", "dataset", "testdata", "formats", "table.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	f := apptest.New(t, 2)
	a := f.App()
	d := a.Data
	f.Open(a, "table.xlsx", raw)
	if a.Error() != "" || !d.Open() || d.SheetName() != "Data" || !reflect.DeepEqual(d.Sheets(), []string{"Notes", "Data"}) {
		t.Fatalf("workbook: %q, sheet %q of %q", a.Error(), d.SheetName(), d.Sheets())
	}
	if !strings.Contains(d.Summary(), `Excel workbook, sheet "Data"`) || len(d.Inspection().Warnings) == 0 || !strings.HasPrefix(d.Inspection().Warnings[0], `sheet "Notes"`) {
		t.Errorf("summary %q, warnings %q", d.Summary(), d.Inspection().Warnings)
	}
	samples := d.Inspection().Dataset.Samples
	d.SetSheet("Notes")
	f.Pump(-1)
	if !strings.HasPrefix(a.Error(), `table.xlsx: sheet "Notes", row 1: `) || !d.Open() || d.SheetName() != "Data" || a.Config.Current().Sheet != "" {
		t.Errorf("sheet Notes: %q, sheet %q, config %q", a.Error(), d.SheetName(), a.Config.Current().Sheet)
	}
	// Chosen by name, the sheet goes with the workers' requests.
	from := len(f.Tasks)
	d.SetSheet("Data")
	f.Pump(-1)
	if a.Error() != "" || d.SheetName() != "Data" || d.Inspection().Dataset.Samples != samples || a.Config.Current().Sheet != "Data" {
		t.Fatalf("sheet Data: %q", a.Error())
	}
	if ps := f.Prepares(from); len(ps) != 2 || ps[0].Data.Sheet != "Data" {
		t.Errorf("prepare %+v", ps)
	}
}

// A clinic's export with the diagnosis (text) first opens: the column is
// read as the label, the page says so, and every request names it.
func TestTextLabelFirst(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	f.Open(a, "clinic.csv", []byte("diagnosis,age,marker\ntumor,61,2.5\nnormal,45,1.0\ntumor,70,3.1\nnormal,38,0.9\n"))
	d := a.Data
	if a.Error() != "" || !d.Open() || d.LabelName() != "diagnosis" || a.Config.Current().Label != "diagnosis" {
		t.Fatalf("clinic file: %q, label %q (config %q)", a.Error(), d.LabelName(), a.Config.Current().Label)
	}
	if w := d.Inspection().Warnings; len(w) == 0 || !strings.Contains(w[0], "it is read as the class label") {
		t.Errorf("warnings %q", w)
	}
	if ps := f.Prepares(0); len(ps) != 2 || ps[0].Data.Label != "diagnosis" {
		t.Errorf("prepare %+v", ps)
	}
}

// Errors reach the error line, in words for people.
func TestErrors(t *testing.T) {
	f := apptest.New(t, 2)
	a := f.App()
	f.Open(a, "ragged.csv", []byte("a,b,label\n1,2,x\n3,4\n5,6,y\n"))
	if !strings.Contains(a.Error(), "ragged.csv: line 3: this row has 2 fields but the header has 3") || a.Data.Open() {
		t.Errorf("ragged file: %q", a.Error())
	}
	// The error shows in the data section, next to the picker, and takes
	// the focus once drawn.
	f.Render()
	if a.ErrorAt(app.AtData) != a.Error() || a.ErrorAt(app.Elsewhere) != "" || f.Focused != "error" {
		t.Errorf("the ragged file's error at data %q, elsewhere %q; focus on %q", a.ErrorAt(app.AtData), a.ErrorAt(app.Elsewhere), f.Focused)
	}
	f.Open(a, "good.csv", []byte("a,b,label\n1,0,x\n2,2,x\n6,5,y\n7,5,y\n"))
	if a.Error() != "" || !a.Data.Open() {
		t.Fatalf("good file: %q", a.Error())
	}
	// Another that does not read leaves the good one open.
	f.Open(a, "bad.csv", []byte("a,b,label\n1,x,y\n"))
	if a.Error() == "" || !a.Data.Open() || a.Data.Name() != "good.csv" {
		t.Fatalf("a bad file after a good one: %q, open %v, %q", a.Error(), a.Data.Open(), a.Data.Name())
	}
	f.Open(a, "good.csv", []byte("a,b,label\n1,0,x\n2,2,x\n6,5,y\n7,5,y\n"))
	// The protocol's fields.
	p := &a.Config.Protocol
	for _, c := range []struct {
		set  func()
		want string
	}{
		// The messages of core/plan: the command line gives the same for
		// the same values (-cv 1, -holdout 1.5x3, -C -1, -inner 1).
		{func() { p.SetFolds("1") }, "1-fold cross-validation is impossible: use at least 2 folds"},
		{func() { p.SetScheme("holdout"); p.SetTrain("1.5") }, "the holdout's training fraction 1.5 must be strictly between 0 and 1 (e.g. 0.7)"},
		{func() { p.SetTrain("0.5"); p.SetRepeats("0") }, "0 holdout repeats: use 1 to 10000"},
		{func() { p.SetRepeats("3"); p.SetC("-1") }, "svm: C = -1 is invalid: it must be a positive number"},
		{func() { p.SetC("1"); a.Config.SetKNN(true); p.SetNeighbors("k") }, `k of k-NN must be a whole number, not "k"`},
		{func() { p.SetNeighbors("1"); p.SetSeed("-2") }, `the seed must be a whole number of at least 0, not "-2"`},
		{func() { p.SetSeed("2"); p.SetInner("1") }, "inner_folds = 1: use 0 (automatic) or at least 2"},
	} {
		c.set()
		if line, ok := a.Plan(); ok || line != c.want || a.CanRun() {
			t.Errorf("plan %q, want %q", line, c.want)
		}
	}
	p.SetInner("")
	p.SetScheme("cv")
	p.SetFolds("2")
	p.SetKList("1, 2")
	if line, ok := a.Plan(); !ok {
		t.Errorf("the form is right again, yet: %q", line)
	}
	a.Config.ToggleMethod("fisher", false)
	if line, ok := a.Plan(); ok || line != "choose at least one selector" {
		t.Errorf("no selector: %q", line)
	}
	a.Config.ToggleMethod("fisher", true)

	// A file that is not a report; a file that could not be read.
	a.OpenReport()("notes.json", `{"hello":1}`, nil)
	if !strings.HasPrefix(a.Error(), "notes.json: ") {
		t.Errorf("not a report: %q", a.Error())
	}
	a.OpenReport()("", "", errors.New("cannot read x.json: gone"))
	if a.Error() != "cannot read x.json: gone" {
		t.Errorf("unreadable: %q", a.Error())
	}
	// A dropped file during a run is refused.
	a.Run()
	if a.Data.DropFile() != nil || a.Error() != "A run is going on: cancel it before opening another file." {
		t.Errorf("drop during a run: %q", a.Error())
	}
	// A worker that dies while running a unit: its error shows, it is
	// replaced.
	a.Cancel()
	f.Pump(-1)
	a.Run()
	f.Pump(1) // the plan
	f.Deliver()
	f.Fatal(0, "out of memory")
	f.Pump(-1)
	if !strings.Contains(a.Error(), "the computing worker stopped (out of memory); it has been restarted") || a.Running() {
		t.Errorf("worker died: %q", a.Error())
	}
	if len(a.WorkerLines()) != 2 {
		t.Errorf("workers %q", a.WorkerLines())
	}
	// A message no job owns.
	f.Message(1, &api.FromWorker{Failed: &api.Failed{ID: -1, Message: "bad message"}})
	if a.Error() != "A computing worker reported: bad message" {
		t.Errorf("unreadable message: %q", a.Error())
	}
}

// Data too large for every worker's memory go to as many workers as the
// memory holds: only they prepare and compute on them, the summary says
// so, and an evaluation runs on them.
func TestWorkersFitTheMemory(t *testing.T) {
	f := apptest.New(t, 3)
	f.MemoryMiB = 250 // two workers of 100 MiB and a little data
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	d := a.Data
	if s := d.Summary(); !strings.Contains(s, " · 2 of the 3 workers compute on these data (about 100.0 MB each)") {
		t.Errorf("summary %q", s)
	}
	if ps := f.Prepares(0); len(ps) != 2 {
		t.Errorf("%d workers prepared the data", len(ps))
	}
	if line, _ := a.Plan(); !strings.Contains(line, " units on 2 workers.") {
		t.Errorf("plan line %q", line)
	}
	a.Run()
	f.Pump(-1)
	if a.Running() || a.Error() != "" || !strings.HasPrefix(a.Announce(), "Evaluation finished: 5 units in ") {
		t.Fatalf("the run did not end: %q %q", a.Error(), a.Announce())
	}
	if n := f.Holders(f.LastData()); n != 2 {
		t.Errorf("%d workers hold the data", n)
	}
}
