package wire

import (
	"context"
	"encoding/json"
	"math"
	"os/exec"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sparsefs/core/classify"
	"sparsefs/core/evaluate"
	"sparsefs/core/job"
	selection "sparsefs/core/select"
)

// jsonFields returns the JSON keys of a struct type with the type of each.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range jsonFields(ft) {
				out[k] = v
			}
			continue
		}
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func keys(m map[string]reflect.Type) []string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// Every JSON field of core/job's types exists here with the same kind of
// value, and every field here exists there (Request.Columns, Synth,
// Session, Expect and Light excepted: they belong to the worker's own
// operations).
func TestSameJSONFields(t *testing.T) {
	pairs := []struct {
		job, wire any
		extra     []string
	}{
		{job.Request{}, Request{}, []string{"columns", "synth", "session", "expect", "light"}},
		{job.Data{}, Data{}, nil},
		{job.Selection{}, Selection{}, nil},
		{job.Weights{}, Weights{}, nil},
		{job.DatasetInfo{}, DatasetInfo{}, nil},
		{job.Inspection{}, Inspection{}, nil},
		{job.MethodList{}, MethodList{}, nil},
		{job.MethodInfo{}, MethodInfo{}, nil},
		{selection.Param{}, Param{}, nil},
		{evaluate.Plan{}, EvalPlan{}, nil},
		{evaluate.Variant{}, EvalVariant{}, nil},
		{evaluate.Grid{}, EvalGrid{}, nil},
		{evaluate.Protocol{}, EvalProtocol{}, nil},
		{classify.Config{}, Classifier{}, nil},
		{job.EvalPart{}, EvalPart{}, nil},
		{evaluate.Header{}, EvalHeader{}, nil},
		{evaluate.SplitInfo{}, SplitInfo{}, nil},
		{evaluate.VariantInfo{}, VariantInfo{}, nil},
		{evaluate.UnitResult{}, UnitResult{}, nil},
		{evaluate.Fit{}, Fit{}, nil},
		{evaluate.Weights{}, FitWeights{}, nil},
		{evaluate.Tuning{}, Tuning{}, nil},
		{evaluate.TuneScore{}, TuneScore{}, nil},
		{job.EvalReport{}, EvalReport{}, nil},
		{evaluate.VariantResult{}, VariantResult{}, nil},
		{evaluate.Summary{}, Summary{}, nil},
		{evaluate.Scalar{}, Scalar{}, nil},
	}
	for _, p := range pairs {
		jt, wt := reflect.TypeOf(p.job), reflect.TypeOf(p.wire)
		jf, wf := jsonFields(jt), jsonFields(wt)
		for _, e := range p.extra {
			delete(wf, e)
		}
		if !reflect.DeepEqual(keys(jf), keys(wf)) {
			t.Errorf("%v has JSON fields %v, %v has %v", jt, keys(jf), wt, keys(wf))
			continue
		}
		for k, jtyp := range jf {
			if a, b := kindOf(jtyp), kindOf(wf[k]); a != b {
				t.Errorf("%v.%s is a %s, %v.%s a %s", jt, k, a, wt, k, b)
			}
		}
	}
}

// kindOf describes a type the way its JSON looks.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "nullable " + kindOf(t.Elem())
	case reflect.Slice:
		return "list of " + kindOf(t.Elem())
	case reflect.Map:
		return "object of " + kindOf(t.Elem())
	case reflect.Struct:
		return "object"
	case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int64:
		return "number"
	}
	return t.Kind().String()
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
	a, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var mid Selection
	if err := json.Unmarshal(a, &mid); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(mid.Scores[2]) || mid.Scores[1] != math.MaxFloat64 {
		t.Errorf("scores read as %v", mid.Scores)
	}
	b, err := json.Marshal(mid)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("core/job wrote\n%s\nwire wrote\n%s", a, b)
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
		a, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		var mid any = &EvalReport{}
		if units != nil {
			mid = &EvalPart{}
		}
		if err := json.Unmarshal(a, mid); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(mid)
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("core/job wrote\n%s\nwire wrote\n%s", a, b)
		}
	}
}

// The page must not link the solvers: ui.wasm's dependencies include
// nothing of core/ but the leaf package jsonfloat, and no gonum.
func TestPageLinksNoSolver(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "sparsefs/ui")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if (strings.HasPrefix(p, "sparsefs/core") && p != "sparsefs/core/jsonfloat") || strings.HasPrefix(p, "gonum.org/") {
			t.Errorf("the page (sparsefs/ui) depends on %s", p)
		}
	}
}
