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

func runJSON(t *testing.T, req *Request) []byte {
	t.Helper()
	resp, err := Run(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(resp, false)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func evalRequest(data []byte) *Request {
	req := &Request{Op: OpEval, Data: Data{Name: "t.csv", Bytes: data}}
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
	full := runJSON(t, evalRequest(data))
	plan := evalRequest(data)
	plan.Op = OpEvalPlan
	var desc EvalPart
	if err := json.Unmarshal(runJSON(t, plan), &desc); err != nil {
		t.Fatal(err)
	}
	if desc.Header.Units != 9 || len(desc.Units) != 0 || len(desc.Header.Splits) != 3 || len(desc.Header.Variants) != 3 {
		t.Fatalf("plan: %d units, %d splits, %d variants", desc.Header.Units, len(desc.Header.Splits), len(desc.Header.Variants))
	}
	var parts []json.RawMessage
	for _, group := range [][]int{{7, 2}, {0}, {8, 5, 1}, {3, 6, 4}} {
		req := evalRequest(data)
		req.Units = group
		parts = append(parts, runJSON(t, req))
	}
	// The merge request as the page would send it: JSON.
	mergeJSON := fmt.Sprintf(`{"op":"merge","parts":[%s]}`, strings.Join(func() []string {
		s := make([]string, len(parts))
		for i, p := range parts {
			s[i] = string(p)
		}
		return s
	}(), ","))
	var mreq Request
	if err := json.Unmarshal([]byte(mergeJSON), &mreq); err != nil {
		t.Fatal(err)
	}
	merged := runJSON(t, &mreq)
	if noTimes(merged) != noTimes(full) {
		t.Errorf("merged parts differ from the full run:\n%s\n%s", merged, full)
	}
	par := evalRequest(data)
	par.Workers = 4
	if noTimes(runJSON(t, par)) != noTimes(full) {
		t.Error("4 workers give a different report")
	}
	var rep struct {
		Request json.RawMessage `json:"request"`
	}
	if err := json.Unmarshal(full, &rep); err != nil {
		t.Fatal(err)
	}
	var again Request
	if err := json.Unmarshal(rep.Request, &again); err != nil {
		t.Fatal(err)
	}
	again.Data.Bytes = data
	if noTimes(runJSON(t, &again)) != noTimes(full) {
		t.Error("re-running the report's request gives a different report")
	}
	for _, want := range []string{`"seed":9`, `"preprocess":"zscore"`, `"bias":true`, `"C":0.5`, `"max_iter":1000`, `"sha256":"`, `"classifiers":["svm(C=1,ovo,free bias)","knn(k=1)"]`} {
		if !strings.Contains(string(full), want) {
			t.Errorf("the report lacks %s", want)
		}
	}
	// Merging refuses parts of different evaluations and incomplete sets.
	other := evalRequest(data)
	other.Eval.Seed = 10
	other.Units = []int{0}
	var p0, q0 EvalPart
	json.Unmarshal(parts[1], &p0)
	json.Unmarshal(runJSON(t, other), &q0)
	if _, err := Merge([]*EvalPart{&p0, &q0}); err == nil || !strings.Contains(err.Error(), "different evaluation") {
		t.Errorf("mixed evaluations: %v", err)
	}
	if _, err := Merge([]*EvalPart{&p0}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("incomplete parts: %v", err)
	}
}

func TestEvalErrors(t *testing.T) {
	data := evalCSV()
	for _, c := range []struct {
		mod  func(*Request)
		frag string
	}{
		{func(r *Request) { r.Eval = nil }, "no evaluation plan"},
		{func(r *Request) { r.Method = "fisher" }, "takes its methods"},
		{func(r *Request) { r.Units = []int{99} }, "unit 99 does not exist"},
		{func(r *Request) { r.Preprocess = "minmax"; r.Eval.Preprocess = "none" }, "preprocess is given twice"},
		{func(r *Request) { r.Eval.K = []int{9} }, "k = 9 is out of range"},
		{func(r *Request) { r.Data.Label = "none" }, "label none needs target columns"},
	} {
		req := evalRequest(data)
		c.mod(req)
		if _, err := Run(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("error %v, want %q", err, c.frag)
		}
	}
	if _, err := Run(context.Background(), &Request{Op: OpMerge}, nil); err == nil {
		t.Error("empty merge accepted")
	}
}

func TestReadFoldFile(t *testing.T) {
	for in, want := range map[string][]int{
		"0\n1\n2\n0\n":       {0, 1, 2, 0},
		"fold\n1\n2\r\n-3\n": {1, 2, -3},
		"1,2, 3;4\t5":        {1, 2, 3, 4, 5},
	} {
		got, err := ReadFoldFile([]byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "fold\n", "1\nx\n", "1\n2.5\n"} {
		if _, err := ReadFoldFile([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The facts remembered for a parsed dataset (its SHA-256 and constant
// features) are those of the dataset given, whichever was given before:
// the same as computed from the bytes.
func TestParsedFactsRemembered(t *testing.T) {
	a := evalCSV()
	// Another table: the same with a constant first column.
	lines := strings.Split(strings.TrimSpace(string(a)), "\n")
	lines[0] = "g0," + lines[0]
	for i := 1; i < len(lines); i++ {
		lines[i] = "0," + lines[i]
	}
	b := []byte(strings.Join(lines, "\n") + "\n")
	plan := func(d Data) DatasetInfo {
		req := evalRequest(nil)
		req.Op, req.Data = OpEvalPlan, d
		resp, err := Run(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		return resp.EvalPart.Dataset
	}
	want := map[string]DatasetInfo{"a": plan(Data{Bytes: a}), "b": plan(Data{Bytes: b})}
	if want["a"].SHA256 == want["b"].SHA256 || len(want["b"].Constant) != 1 || len(want["a"].Constant) != 0 {
		t.Fatalf("the two tables: %+v", want)
	}
	parsed := map[string]*Data{}
	for name, raw := range map[string][]byte{"a": a, "b": b} {
		ds, err := Load(&Data{Bytes: raw})
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = &Data{Parsed: ds}
	}
	for _, name := range []string{"a", "a", "b", "a", "b", "b"} {
		if got := plan(*parsed[name]); !reflect.DeepEqual(got, want[name]) {
			t.Errorf("%s: %+v, want %+v", name, got, want[name])
		}
	}
}
