package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"strings"
	"testing"

	"sparsefs/core/classify"
	"sparsefs/core/evaluate"
	"sparsefs/core/job"
)

// roundTrip writes v (a core type) as JSON, reads it into mirror (its
// generated copy here), refusing unknown fields, writes that again and
// compares the two JSON texts.
func roundTrip(t *testing.T, v, mirror any) {
	t.Helper()
	a, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(a))
	dec.DisallowUnknownFields()
	if err := dec.Decode(mirror); err != nil {
		t.Fatalf("%T does not read the JSON of %T: %v", mirror, v, err)
	}
	b, err := json.Marshal(mirror)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("core wrote\n%s\n%T wrote\n%s", a, mirror, b)
	}
}

// A request with every field set, the worker's included, reads back here
// and writes out the same JSON.
func TestRequestRoundTrip(t *testing.T) {
	yes := true
	part := &job.EvalPart{Request: &job.Request{Op: job.OpEval}, Features: []string{"a"}, Header: &evaluate.Header{Units: 1}, Units: []*evaluate.UnitResult{}, Warnings: []string{}}
	in := job.Request{Op: job.OpMerge, Data: job.Data{Path: "p", Name: "d.csv", Label: "y", Targets: []string{"t"}, Delimiter: ";", Header: "yes", Missing: "mean"},
		Method: "rfs", Params: map[string]any{"gamma": 0.5},
		Eval: &evaluate.Plan{Methods: []evaluate.Variant{{Method: "gsr", Params: map[string]any{"p": []any{0.5, 1.0}}}}, Features: []int{2}, K: []int{1, 2},
			Classifiers: []classify.Config{{Name: "svm", C: 2, Multiclass: "ovr", Bias: "free"}, {Name: "knn", Neighbors: 3}},
			Protocol:    evaluate.Protocol{Kind: "holdout", Train: 0.7, Repeats: 3}, Seed: 9, Preprocess: "minmax", Bias: &yes, Coding: "ypm",
			Tune: []evaluate.Grid{{Param: "svm.C", Values: []any{1.0, 10.0}}}, InnerFolds: 3, WeightRows: 4},
		Units: []int{0, 2}, Workers: 2, Parts: []*job.EvalPart{part}, Preprocess: "zscore", Bias: &yes, Coding: "y01", K: 3, PreviewRows: 7, WeightRows: 5,
		Columns: []int{1, 0}, Synth: &job.Synth{M: 10, D1: 1, D2: 2, C: 3, Outliers: 0.1, Seed: 4, Task: "regression", Name: "s.csv"},
		Session: 6, Part: part, Expect: 8, Light: true}
	roundTrip(t, in, &Request{})
}

// The methods list, every parameter with its range (an infinite bound
// written as the largest double), reads back and writes out the same JSON.
func TestMethodsRoundTrip(t *testing.T) {
	roundTrip(t, job.Methods(), &MethodList{})
	var list MethodList
	b, _ := json.Marshal(job.Methods())
	json.Unmarshal(b, &list)
	for _, m := range list.Methods {
		if m.Kind != Filter && m.Kind != Embedded {
			t.Errorf("%s is of kind %q", m.Name, m.Kind)
		}
	}
}

// An inspection reads back and writes out the same JSON.
func TestInspectionRoundTrip(t *testing.T) {
	resp, err := job.Run(context.Background(), &job.Request{Op: job.OpInspect, Data: job.Data{Name: "d.csv", Bytes: []byte("a,b,y\n1,NA,x\n2,3,z\n")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, resp.Inspection, &Inspection{})
}

// A selection written by core/job reads back here and writes out the same
// JSON, NaN, ±Inf and the weights included.
func TestSelectionRoundTrip(t *testing.T) {
	obj := job.Float(2.5)
	nz := 3
	in := job.Selection{
		Method: "rfs", Params: map[string]any{"gamma": 0.1, "loss": "l21"}, Preprocess: "zscore", Bias: true, Coding: "y01",
		Dataset:  job.DatasetInfo{Name: "d.csv", Samples: 4, Features: 3, Label: "y", Delimiter: ",", Header: true, Classes: []string{"a", "b"}, Counts: []int{2, 2}, Constant: []int{}, MissingColumns: []int{}},
		Features: []string{"f1", "f2", "f3"}, Ranking: []int{2, 0, 1}, Scores: job.Floats{1, math.Inf(1), math.NaN()}, Selected: []int{2},
		Objective: &obj, Iterations: 7, Stop: "converged", Trace: job.Floats{3, 2.5}, NonzeroRows: &nz, Seconds: 0.25, Warnings: []string{"w"},
		Weights: &job.Weights{Rows: []int{2}, Columns: []string{"a", "b"}, Abs: []job.Floats{{0.5, 0}}},
	}
	roundTrip(t, in, &Selection{})
	var mid Selection
	b, _ := json.Marshal(in)
	json.Unmarshal(b, &mid)
	if !math.IsNaN(mid.Scores[2]) || mid.Scores[1] != math.MaxFloat64 {
		t.Errorf("scores read as %v", mid.Scores)
	}
}

// An evaluation report and a part written by core/job read back here and
// write out the same JSON (a real run: tuning, a per-class method, null
// redundancy at K = 1, sparsity null for a filter).
func TestEvalRoundTrip(t *testing.T) {
	data := "a,b,c,d,label\n1,0,3,2,x\n2,1,1,0,y\n3,0,2,1,x\n4,1,0,3,y\n5,2,1,0,x\n6,1,3,1,y\n7,0,2,2,x\n8,2,0,1,y\n"
	req := &job.Request{Op: job.OpEval, Data: job.Data{Name: "d.csv", Bytes: []byte(data)}, Eval: &evaluate.Plan{
		Methods: []evaluate.Variant{{Method: "fisher"}, {Method: "l1svm"}}, K: []int{1, 3},
		Classifiers: []classify.Config{{Name: "svm"}, {Name: "knn"}}, Protocol: evaluate.Protocol{Kind: "cv", Folds: 2},
		Tune: []evaluate.Grid{{Param: "svm.C", Values: []any{0.5, 2.0}}}}}
	for _, units := range [][]int{nil, {1}} {
		req.Units = units
		resp, err := job.Run(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if units != nil {
			roundTrip(t, resp.EvalPart, &EvalPart{})
		} else {
			roundTrip(t, resp.EvalReport, &EvalReport{})
		}
	}
}

// The page must not link the solvers: of the module, ui.wasm may depend
// only on leaf packages of core/ (jsonfloat, stats: they import nothing of
// the module), and on no gonum.
func TestPageLinksNoSolver(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "sparsefs/ui")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	leaves := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p := f[0]
		if strings.HasPrefix(p, "gonum.org/") {
			t.Errorf("the page (sparsefs/ui) depends on %s", p)
		}
		if !strings.HasPrefix(p, "sparsefs/core/") {
			continue
		}
		leaves++
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "sparsefs/") {
				t.Errorf("the page depends on %s, which is not a leaf package (it imports %s)", p, imp)
			}
		}
	}
	if leaves == 0 {
		t.Error("the page uses no package of core/: jsonfloat at least was expected (is the list right?)")
	}
}
