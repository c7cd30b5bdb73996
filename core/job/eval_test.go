package job

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"sparsefs/api"
)

// evalCSV returns a small labelled table: three classes, the first two
// features informative.
func evalCSV() []byte {
	r := rand.New(rand.NewPCG(1, 2))
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

func noTimes(b []byte) string { return timings.ReplaceAllString(string(b), `"$1":0`) }

func runJSON(t *testing.T, req *api.Request, data []byte) []byte {
	t.Helper()
	resp, err := Run(context.Background(), req, Input{Raw: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func evalRequest() *api.Request {
	req := &api.Request{Op: api.OpEval, Data: api.Data{Name: "t.csv"}}
	if err := json.Unmarshal([]byte(`{"methods":[{"method":"fisher"},{"method":"l1svm","params":{"C":[0.5,2]}}],
		"k":[1,2,4],"classifiers":[{"name":"svm"},{"name":"knn"}],"protocol":{"kind":"cv","folds":3},"seed":9}`), &req.Eval); err != nil {
		panic(err)
	}
	return req
}

// The report of a full run equals, byte for byte but for the timings, the
// merge of its units run as separate jobs (through JSON, in a scrambled
// grouping, as a pool of Web Workers would) and the run with several
// workers; and re-running the request written into the report gives the
// same report.
func TestEvalUnitsMergeAndRerun(t *testing.T) {
	data := evalCSV()
	full := runJSON(t, evalRequest(), data)
	plan := evalRequest()
	plan.Op = api.OpEvalPlan
	var desc api.EvalPart
	if err := json.Unmarshal(runJSON(t, plan, data), &desc); err != nil {
		t.Fatal(err)
	}
	if desc.Header.Units != 9 || len(desc.Units) != 0 || len(desc.Header.Splits) != 3 || len(desc.Header.Variants) != 3 {
		t.Fatalf("plan: %d units, %d splits, %d variants", desc.Header.Units, len(desc.Header.Splits), len(desc.Header.Variants))
	}
	var parts []json.RawMessage
	for _, group := range [][]int{{7, 2}, {0}, {8, 5, 1}, {3, 6, 4}} {
		req := evalRequest()
		req.Units = group
		parts = append(parts, runJSON(t, req, data))
	}
	// The merge request as the page would send it: JSON.
	mergeJSON := fmt.Sprintf(`{"op":"merge","parts":[%s]}`, strings.Join(func() []string {
		s := make([]string, len(parts))
		for i, p := range parts {
			s[i] = string(p)
		}
		return s
	}(), ","))
	var mreq api.Request
	if err := json.Unmarshal([]byte(mergeJSON), &mreq); err != nil {
		t.Fatal(err)
	}
	merged := runJSON(t, &mreq, nil)
	if noTimes(merged) != noTimes(full) {
		t.Errorf("merged parts differ from the full run:\n%s\n%s", merged, full)
	}
	par := evalRequest()
	par.Workers = 4
	if noTimes(runJSON(t, par, data)) != noTimes(full) {
		t.Error("4 workers give a different report")
	}
	var rep struct {
		Request json.RawMessage `json:"request"`
	}
	if err := json.Unmarshal(full, &rep); err != nil {
		t.Fatal(err)
	}
	var again api.Request
	if err := json.Unmarshal(rep.Request, &again); err != nil {
		t.Fatal(err)
	}
	if noTimes(runJSON(t, &again, data)) != noTimes(full) {
		t.Error("re-running the report's request gives a different report")
	}
	for _, want := range []string{`"seed":9`, `"preprocess":"zscore"`, `"bias":true`, `"C":0.5`, `"max_iter":1000`, `"sha256":"`, `"classifiers":["svm(C=1,ovo,free bias)","knn(k=1)"]`} {
		if !strings.Contains(string(full), want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	// Merging refuses parts of different evaluations and incomplete sets.
	other := evalRequest()
	other.Eval.Seed = 10
	other.Units = []int{0}
	var p0, q0 api.EvalPart
	json.Unmarshal(parts[1], &p0)
	json.Unmarshal(runJSON(t, other, data), &q0)
	if _, err := Merge([]*api.EvalPart{&p0, &q0}); err == nil || !strings.Contains(err.Error(), "different evaluation") {
		t.Errorf("mixed evaluations: %v", err)
	}
	if _, err := Merge([]*api.EvalPart{&p0}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("incomplete parts: %v", err)
	}
}

func TestEvalErrors(t *testing.T) {
	data := evalCSV()
	for _, c := range []struct {
		mod  func(*api.Request)
		frag string
	}{
		{func(r *api.Request) { r.Eval = nil }, "no evaluation plan"},
		{func(r *api.Request) { r.Method = "fisher" }, "takes its methods"},
		{func(r *api.Request) { r.Units = []int{99} }, "unit 99 does not exist"},
		{func(r *api.Request) { r.Preprocess = "minmax"; r.Eval.Preprocess = "none" }, "preprocess is given twice"},
		{func(r *api.Request) { r.Eval.K = []int{9} }, "exceeds the"},
		{func(r *api.Request) { r.Data.Label = "none" }, "label none needs target columns"},
	} {
		req := evalRequest()
		c.mod(req)
		if _, err := Run(context.Background(), req, Input{Raw: data}, nil); err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("error %v, want %q", err, c.frag)
		}
	}
	if _, err := Run(context.Background(), &api.Request{Op: api.OpMerge}, Input{}, nil); err == nil {
		t.Error("empty merge accepted")
	}
}

// The facts a Table remembers (its SHA-256 and constant features) are
// those of its own data, however tables are used in turn: the same as a
// request computes from the bytes.
func TestTableFacts(t *testing.T) {
	a := evalCSV()
	// Another table: the same with a constant first column.
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	lines[0] = "g0," + lines[0]
	for i := 1; i < len(lines); i++ {
		lines[i] = "0," + lines[i]
	}
	b := []byte(strings.Join(lines, "\n") + "\n")
	plan := func(in Input) api.DatasetInfo {
		req := evalRequest()
		req.Op, req.Data = api.OpEvalPlan, api.Data{}
		resp, err := Run(context.Background(), req, in, nil)
		if err != nil {
			t.Fatal(err)
		}
		return resp.EvalPart.Dataset
	}
	want := map[string]api.DatasetInfo{"a": plan(Input{Raw: a}), "b": plan(Input{Raw: b})}
	if want["a"].SHA256 == want["b"].SHA256 || len(want["b"].Constant) != 1 || len(want["a"].Constant) != 0 {
		t.Fatalf("the two tables: %+v", want)
	}
	tables := map[string]*Table{}
	for name, raw := range map[string][]byte{"a": a, "b": b} {
		tab, err := Read(context.Background(), raw, &api.Data{})
		if err != nil {
			t.Fatal(err)
		}
		tables[name] = tab
	}
	for _, name := range []string{"a", "a", "b", "a", "b", "b"} {
		if got := plan(Input{Table: tables[name]}); !reflect.DeepEqual(got, want[name]) {
			t.Errorf("%s: %+v, want %+v", name, got, want[name])
		}
	}
}
