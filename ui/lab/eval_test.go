package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/job"
)

// registry is the worker's list of methods, as the page receives it.
func registry(t *testing.T) []api.MethodInfo {
	t.Helper()
	b, err := json.Marshal(job.Methods())
	if err != nil {
		t.Fatal(err)
	}
	var list api.MethodList
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	return list.Methods
}

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

// runJob runs a page request through core/job on data, as a worker does,
// and returns the response's JSON.
func runJob(t *testing.T, request []byte, data []byte) []byte {
	t.Helper()
	var req api.Request
	if err := json.Unmarshal(request, &req); err != nil {
		t.Fatalf("the page's request does not read as an api.Request: %v\n%s", err, request)
	}
	resp, err := job.Run(context.Background(), &req, job.Input{Raw: data}, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, request)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var timings = regexp.MustCompile(`"(seconds|fit_seconds)":(\{[^}]*\}|[-0-9.e+]+|null)`)

func noTimes(b []byte) string { return timings.ReplaceAllString(string(b), `"$1":0`) }

func TestEvalRequest(t *testing.T) {
	reg := registry(t)
	cfg := DefaultConfig()
	cfg.Toggle("fisher", true)
	cfg.Toggle("l1svm", true)
	cfg.SetValue("l1svm", "C", "0.5, 2")
	cfg.Toggle("l20", true)
	cfg.SetValue("l20", "tol", "1e-5")
	cfg.Protocol = Protocol{Scheme: "holdout", Train: 0.7, Repeats: 4, K: "2, 4, 12", Classifiers: []string{"svm", "knn"}, C: 3, Neighbors: 5,
		Tune: "svm.C = 0.1,1 ; gamma=1:3", Seed: 42}
	cfg.Label, cfg.Missing = "class", "mean"
	req, size, err := EvalRequest(&cfg, reg, api.Data{Name: "t.csv"}, api.Shape{Samples: 45, Features: 8, Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	// fisher 1 + l1svm 2 + l20 1 settings, × 4 holdouts; K = 12 > 8
	// features is left out.
	if want := (EvalSize{Variants: 4, Splits: 4, Units: 16, Notes: []string{"K = 12 left out: the data have 8 features"}}); !reflect.DeepEqual(size, want) {
		t.Errorf("size %+v, want %+v", size, want)
	}
	// The request is the plan as plan.Normalize completes it: the sweep
	// of C is two variants, every default written in, the tuned gamma
	// left out of l20's parameters, K = 12 dropped, the classifiers with
	// their defaults.
	var names []string
	for _, v := range req.Eval.Methods {
		names = append(names, fmt.Sprint(v.Method, " C=", v.Params["C"], " tol=", v.Params["tol"], " gamma=", v.Params["gamma"]))
	}
	if want := []string{"fisher C=<nil> tol=<nil> gamma=<nil>", "l1svm C=0.5 tol=1e-06 gamma=<nil>", "l1svm C=2 tol=1e-06 gamma=<nil>",
		"l20 C=<nil> tol=1e-05 gamma=<nil>"}; !reflect.DeepEqual(names, want) {
		t.Errorf("methods %q, want %q", names, want)
	}
	rest := *req.Eval
	rest.Methods = nil
	got, _ := json.Marshal(api.Request{Op: req.Op, Data: req.Data, Eval: &rest})
	want := `{"op":"eval-plan","data":{"name":"t.csv","label":"class","missing":"mean"},"eval":{"methods":null,"k":[2,4],` +
		`"classifiers":[{"name":"svm","C":3,"multiclass":"ovo","bias":"free"},{"name":"knn","neighbors":5}],"protocol":{"kind":"holdout","train":0.7,"repeats":4},` +
		`"seed":42,"preprocess":"zscore","bias":true,"tune":[{"param":"svm.C","values":[0.1,1]},{"param":"gamma","values":[1,2,3]}],"weight_rows":4}}`
	if string(got) != want {
		t.Errorf("request\n got %s\nwant %s", got, want)
	}
	// Each error names what to fix.
	for _, tc := range []struct {
		edit     func(c *Config)
		fragment string
	}{
		{func(c *Config) { c.SetValue("l20", "k", "5") }, "l20: leave k out — the evaluation sets it"},
		{func(c *Config) { c.Protocol.K = "9:20" }, "every K of the list (9:20) exceeds the 8 features"},
		{func(c *Config) { c.Protocol.K = "" }, "list the numbers of features K"},
		{func(c *Config) { c.Protocol.K = "0, 2" }, "every K must be at least 1"},
		{func(c *Config) { c.Protocol.Classifiers = nil }, "choose a classifier"},
		{func(c *Config) { c.Protocol.Scheme = "cv"; c.Protocol.Folds = 46 }, "46-fold cross-validation is impossible with 45 samples: use 2 to 45 folds"},
		{func(c *Config) { c.Protocol.Train = 1 }, "the holdout's training fraction 1 must be strictly between 0 and 1"},
		{func(c *Config) { c.Protocol.Tune = "svm.C" }, `tuning: "svm.C" is not NAME=VALUES`},
		{func(c *Config) { c.Protocol.Repeats = 5000 }, "at most 5000 fit in a page"},
		{func(c *Config) { c.SetValue("l1svm", "C", "-1") }, "l1svm: parameter C = -1 is invalid"},
		{func(c *Config) { c.Methods = nil }, "choose at least one selector"},
	} {
		c := cfg
		c.Methods = append([]MethodConfig(nil), cfg.Methods...)
		for i := range c.Methods {
			vals := map[string]string{}
			for k, v := range cfg.Methods[i].Values {
				vals[k] = v
			}
			c.Methods[i].Values = vals
		}
		tc.edit(&c)
		if _, _, err := EvalRequest(&c, reg, api.Data{}, api.Shape{Samples: 45, Features: 8, Classes: 3}); err == nil || !strings.Contains(err.Error(), tc.fragment) {
			t.Errorf("error %v, want %q", err, tc.fragment)
		}
	}
	// Regression data: no classifier, whatever the form says.
	cfg.Targets = []string{"y1"}
	req, _, err = EvalRequest(&cfg, reg, api.Data{}, api.Shape{Samples: 45, Features: 8, Targets: 1})
	if err != nil || len(req.Eval.Classifiers) != 0 || !reflect.DeepEqual(req.Data.Targets, []string{"y1"}) {
		t.Errorf("regression request %+v, %v", req, err)
	}
}

// The whole way of the page, through core/job as the workers run it: the
// plan, every unit as a job of its own (in a scrambled order), the summary
// of the units done so far, the merge — and the merged report is, but for
// the timings, byte for byte the report of one `sparsefs eval` run of the
// same request. The page's own summaries of the units equal the merged
// report's; the configuration read back from the report makes the same
// request; and a cancelled run's units are taken over by the next.
func TestEvalRunEqualsOneRun(t *testing.T) {
	reg := registry(t)
	data := evalCSV()
	cfg := DefaultConfig()
	cfg.Toggle("fisher", true)
	cfg.Toggle("l1svm", true)
	cfg.SetValue("l1svm", "C", "0.5, 2")
	cfg.Protocol = Protocol{Scheme: "cv", Folds: 3, K: "1, 2, 4", Classifiers: []string{"svm", "knn"}, C: 1, Neighbors: 1, Seed: 9}
	req, size, err := EvalRequest(&cfg, reg, api.Data{Name: "t.csv"}, api.Shape{Samples: 45, Features: 8, Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	run, err := NewEvalRun(runJob(t, mustJSON(t, req), data))
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Parts) != size.Units || size.Units != 9 {
		t.Fatalf("%d units, the page expected %d", len(run.Parts), size.Units)
	}
	order := []int{7, 2, 4, 0, 8, 5, 1, 3, 6}
	for i, u := range order {
		if i == 4 {
			// Units 7, 2, 4, 0 are done: variant 0 (fisher) has splits 0
			// and 2, variant 1 split 1, variant 2 split 1.
			partial := run.View()
			if got := len(partial.Results[0].Units); got != 2 {
				t.Errorf("fisher has %d units so far", got)
			}
			a := [2]float64{run.Units[0].Accuracy[0][1], run.Units[2].Accuracy[0][1]}
			m, s := partial.Results[0].Accuracy[0].Mean[1], partial.Results[0].Accuracy[0].Std[1]
			if m != (a[0]+a[1])/2 || math.Abs(s-math.Abs(a[0]-a[1])/math.Sqrt2) > 1e-15 {
				t.Errorf("partial mean %v ± %v of %v", m, s, a)
			}
			if sd := partial.Results[1].Accuracy[0].Std[0]; !math.IsNaN(sd) {
				t.Errorf("a single split has deviation %v", sd)
			}
			// Cancel here: a new run of the same request takes over the
			// four units.
			again, err := NewEvalRun(runJob(t, mustJSON(t, req), data))
			if err != nil {
				t.Fatal(err)
			}
			if n := again.Reuse(run); n != 4 || again.Done() != 4 || !reflect.DeepEqual(again.Missing(), []int{1, 3, 5, 6, 8}) {
				t.Errorf("reused %d, missing %v", n, again.Missing())
			}
			other := *req
			other.Eval = &api.Plan{}
			*other.Eval = *req.Eval
			other.Eval.Seed = 10
			changed, _ := NewEvalRun(runJob(t, mustJSON(t, &other), data))
			if n := changed.Reuse(run); n != 0 {
				t.Errorf("reused %d units of another seed", n)
			}
		}
		if err := run.AddPart(u, runJob(t, mustJSON(t, run.UnitTask(u, 0).Run), data), nil); err != nil {
			t.Fatal(err)
		}
	}
	if !run.Complete() {
		t.Fatal("not complete")
	}
	// A part's collect: the part's JSON, and the worker's digest of it or
	// (none came) the unit as the page read it.
	for _, digest := range [][]byte{nil, mustJSON(t, map[string]any{"units": []any{run.Units[4]}})} {
		if err := run.AddPart(4, run.Parts[4], digest); err != nil {
			t.Fatal(err)
		}
		task, err := run.CollectTask(4, 3)
		var d api.UnitDigest
		if err != nil || task.Collect == nil || task.Collect.Session != 3 || !bytes.Equal(task.Collect.Part, run.Parts[4]) ||
			json.Unmarshal(task.Collect.Digest, &d) != nil || len(d.Units) != 1 || d.Units[0].Unit != 4 || d.Units[0].Fits[0].Ranking != nil {
			t.Errorf("collect %+v: %v", task.Collect, err)
		}
	}
	mine := run.View()
	mergeTask, err := run.MergeTask()
	if err != nil {
		t.Fatal(err)
	}
	merged := runJob(t, mustJSON(t, mergeTask.Run), nil)
	full := *req
	full.Op = api.OpEval
	whole := runJob(t, mustJSON(t, &full), data)
	if noTimes(merged) != noTimes(whole) {
		t.Errorf("merged report differs from one run:\n%s\n%s", noTimes(merged), noTimes(whole))
	}
	if err := run.SetReport(merged, true); err != nil {
		t.Fatal(err)
	}
	var want api.EvalReport
	if err := json.Unmarshal(merged, &want); err != nil {
		t.Fatal(err)
	}
	summaries := func(r *api.EvalReport) string {
		var out []any
		for _, vr := range r.Results {
			out = append(out, vr.VariantInfo, vr.Accuracy, vr.Redundancy, vr.Sparsity, vr.RMSE, len(vr.Units))
		}
		return noTimes(mustJSON(t, out))
	}
	if a, b := summaries(mine), summaries(&want); a != b {
		t.Errorf("the page's summaries differ from the merge's:\n%s\n%s", a, b)
	}
	if a, b := summaries(run.View()), summaries(&want); a != b || run.View() != run.Report {
		t.Errorf("the merged report read lightly differs:\n%s\n%s", a, b)
	}
	// The units are read without their rankings until Full reads a
	// variant's in full: then they are the report's.
	if f := run.Report.Results[1].Units[0].Fits[0]; f.Ranking != nil || f.Scores != nil || len(f.Trace) == 0 || f.Iterations == 0 {
		t.Errorf("a unit read lightly: %+v", f)
	}
	if !run.Full(1) || run.Full(1) {
		t.Error("Full reads a variant once")
	}
	if got, w := noTimes(mustJSON(t, run.Report.Results[1].Units)), noTimes(mustJSON(t, want.Results[1].Units)); got != w {
		t.Errorf("units attached to the report differ:\n%s\n%s", got, w)
	}
	// The report read back: a complete run, its configuration, the same
	// request again.
	back, err := RunFromReport(merged)
	if err != nil || !back.Complete() || back.Report == nil || len(back.Units) != 9 {
		t.Fatalf("report read back: %v", err)
	}
	if !IsEvalReport(merged) || IsEvalReport([]byte(`{"format":"sparsefs-lab-report","version":1}`)) || IsEvalReport([]byte(`{"request":{}}`)) {
		t.Error("IsEvalReport")
	}
	cfg2, err := ConfigFromRequest(want.Request, reg)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cfg2.Value("l1svm", "C"); v != "0.5, 2" || len(cfg2.Methods) != 2 || len(cfg2.Methods[0].Values) != 0 {
		t.Errorf("configuration read back %+v", cfg2.Methods)
	}
	if cfg2.Protocol.K != "1, 2, 4" || cfg2.Protocol.Folds != 3 || cfg2.Protocol.Seed != 9 || !reflect.DeepEqual(cfg2.Protocol.Classifiers, []string{"svm", "knn"}) {
		t.Errorf("protocol read back %+v", cfg2.Protocol)
	}
	req2, _, err := EvalRequest(&cfg2, reg, api.Data{Name: "t.csv"}, api.Shape{Samples: 45, Features: 8, Classes: 3})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := NewEvalRun(runJob(t, mustJSON(t, req2), data))
	if string(again.Request) != string(run.Request) {
		t.Errorf("the configuration read back makes another request:\n%s\n%s", again.Request, run.Request)
	}
	// Damaged reports say so.
	for text, fragment := range map[string]string{
		`{"request":{"eval":{}},"k":[1],"splits":[{"train":1,"test":[0]}],"results":[{"method":"x","units":[]}]}`: "x has 0 units for 1 splits",
		`{"k":[1]}`: "not an evaluation report",
		`[`:         "damaged",
	} {
		if _, err := DecodeEvalReport([]byte(text)); err == nil || !strings.Contains(err.Error(), fragment) {
			t.Errorf("%s: %v, want %q", text, err, fragment)
		}
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

func TestUnitOrder(t *testing.T) {
	h := &api.Header{Splits: make([]api.SplitInfo, 2), Variants: []api.VariantInfo{{Kind: api.Filter}, {Kind: api.Embedded}, {Kind: api.Filter}, {Kind: api.Embedded}}}
	if got := UnitOrder(h); !reflect.DeepEqual(got, []int{2, 3, 6, 7, 0, 1, 4, 5}) {
		t.Errorf("order %v", got)
	}
}

func TestVariantLabels(t *testing.T) {
	vs := []api.VariantInfo{
		{Method: "fisher", Params: map[string]any{}},
		{Method: "rfs", Params: map[string]any{"gamma": 0.1, "max_iter": 1000.0}},
		{Method: "rfs", Params: map[string]any{"gamma": 1.0, "max_iter": 1000.0}, Tuned: []string{"svm.C"}},
		{Method: "features", Params: map[string]any{"features": []any{1.0, 2.0}}},
	}
	want := []string{"fisher", "rfs · gamma 0.1", "rfs · gamma 1 (tuned: svm.C)", "fixed features"}
	if got := VariantLabels(vs); !reflect.DeepEqual(got, want) {
		t.Errorf("labels %q", got)
	}
}

func TestSynthSpec(t *testing.T) {
	s := SynthSpec{M: 300, D1: 4, D2: 20, C: 3, Outliers: 0.05, Seed: 7, Task: Regression}
	if s.Name() != "synthetic-regression-m300-d1_4-d2_20-c3-out0.05-seed7.csv" {
		t.Errorf("name %q", s.Name())
	}
	if back, ok := ParseSynthName(s.Name()); !ok || back != s {
		t.Errorf("read back %+v", back)
	}
	d := DefaultSynth
	if back, ok := ParseSynthName(d.Name()); !ok || back != d {
		t.Errorf("default read back %+v from %q", back, d.Name())
	}
	for _, name := range []string{"synthetic.csv", "breast-cancer.csv", "synthetic-m1-d1_4-d2_20-c3-out0-seed7.csv"} {
		if _, ok := ParseSynthName(name); ok {
			t.Errorf("%q read as synthetic", name)
		}
	}
	// 2·d1 = 8 informative, d1 = 4 redundant, d2 = 20 irrelevant.
	for name, kind := range map[string]string{"f1": Informative, "f8": Informative, "f9": Redundant, "f12": Redundant, "f13": Irrelevant, "f32": Irrelevant, "f33": "", "g1": "", "fx": ""} {
		if got := s.Kind(name); got != kind {
			t.Errorf("%s is %q, want %q", name, got, kind)
		}
	}
	if !reflect.DeepEqual(s.Targets(), []string{"y1", "y2", "y3"}) || DefaultSynth.Targets() != nil {
		t.Errorf("targets %v", s.Targets())
	}
	r := s.Request()
	if b := string(mustJSON(t, r)); b != `{"op":"synth","data":{},"synth":{"m":300,"d1":4,"d2":20,"c":3,"outliers":0.05,"seed":7,"task":"regression","name":"`+s.Name()+`","max_cells":1000000}}` {
		t.Errorf("request %s", b)
	}
	for _, bad := range []SynthSpec{{M: 5, D1: 1, C: 2, Task: Classification}, {M: 100, D1: 0, C: 2, Task: Classification},
		{M: 100, D1: 1, C: 1, Task: Classification}, {M: 100, D1: 1, C: 2, Outliers: 2, Task: Classification},
		{M: 100, D1: 1, C: 2, Task: "x"}, {M: 100000, D1: 10, D2: 100, C: 2, Task: Classification}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
