package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSelect(t *testing.T) {
	// f_classif gives F = [50, 16] on these two features (see
	// core/selection/filters_test.go); the label is the first column.
	path := writeFile(t, "d.csv", "y,a,b\n0,1,0\n0,2,2\n1,6,5\n1,7,5\n")
	code, out, errs := runCLI("select", "-data", path, "-method", "fstat", "-label", "y", "-k", "1", "-preprocess", "none")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Method    string         `json:"method"`
		Params    map[string]any `json:"params"`
		Features  []string       `json:"features"`
		Ranking   []int          `json:"ranking"`
		Scores    []float64      `json:"scores"`
		Selected  []int          `json:"selected"`
		Objective *float64       `json:"objective"`
		Stop      string         `json:"stop"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Method != "fstat" || !reflect.DeepEqual(got.Features, []string{"a", "b"}) || !reflect.DeepEqual(got.Ranking, []int{0, 1}) ||
		!reflect.DeepEqual(got.Scores, []float64{50, 16}) || !reflect.DeepEqual(got.Selected, []int{0}) || got.Objective != nil || got.Stop != "closed_form" {
		t.Errorf("output %s", out)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("want one JSON line, got %q", out)
	}
}

// -k is the K of l20 and topk: "sparsefs select -method l20 -k 1" selects
// one feature and W has one nonzero feature row.
func TestSelectL20K(t *testing.T) {
	path := writeFile(t, "d.csv", "a,b,c,y\n0.1,5,1,0\n0.3,1,2,0\n0.2,3,1,0\n0.9,2,9,1\n1.1,4,8,1\n1.0,0,9,1\n")
	for _, method := range []string{"l20", "topk"} {
		code, out, errs := runCLI("select", "-data", path, "-method", method, "-k", "1", "-param", "max_iter=5000")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, errs)
		}
		var got struct {
			Params      map[string]any `json:"params"`
			Selected    []int          `json:"selected"`
			NonzeroRows int            `json:"nonzero_rows"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if got.Params["k"] != 1.0 || len(got.Selected) != 1 || got.NonzeroRows != 1 {
			t.Errorf("%s: %s", method, out)
		}
	}
}

func TestCLIErrors(t *testing.T) {
	good := writeFile(t, "d.csv", "a,b\n1,0\n2,1\n")
	bad := writeFile(t, "bad.csv", "a,b,label\n1,2,x\n3,4\n")
	clinic := writeFile(t, "clinic.csv", "patient,age,marker,class\nP1,61,2.5,x\nP2,45,1.0,y\nP3,70,3.1,x\nP4,38,0.9,y\n")
	for _, c := range []struct {
		args     []string
		code     int
		fragment string
	}{
		{[]string{}, 2, "Commands:"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"select", "-method", "fisher"}, 2, "-data is required"},
		{[]string{"select", "-data", good}, 2, "-method is required"},
		{[]string{"select", "-data", good, "-method", "fisher", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"select", "-data", good, "-method", "fisher", "-param", "gamma"}, 2, `"gamma" is not NAME=VALUE`},
		{[]string{"select", "-data", good, "-method", "fisher", "-param", "gamma="}, 2, `"gamma=" is not NAME=VALUE`},
		{[]string{"select", "-data", good, "-method", "fisher", "-param", "gamma=1"}, 1, "fisher takes no parameters"},
		{[]string{"select", "-data", good, "-method", "lasso"}, 2, `unknown method "lasso"`},
		{[]string{"select", "-data", bad, "-method", "fisher"}, 1, "bad.csv: line 3: this row has 2 fields but the header has 3"},
		{[]string{"select", "-data", good, "-method", "fisher", "-bias=maybe"}, 2, "invalid boolean value"},
		{[]string{"select", "-data", good, "-method", "l20", "-k", "0"}, 2, "-k 0: give a number of features of at least 1"},
		{[]string{"select", "-data", good, "-method", "fisher", "-reduced", "x.csv"}, 2, "-reduced writes the top K features: give -k"},
		{[]string{"select", "-data", good, "-method", "rfs", "-k", "q0.05"}, 2, "rfs gives no p-values"},
		{[]string{"select", "-data", good, "-method", "fstat", "-k", "q1.5"}, 2, "a q-value cut is q followed by a number in (0, 1]"},
		{[]string{"select", "-data", good, "-method", "fstat", "-k", "many"}, 2, "neither a number of features nor a q-value cut"},
		{[]string{"select", "-data", good, "-method", "fstat", "-workers", "0"}, 2, "-workers 0"},
		{[]string{"inspect", "-data", good, "-rows", "0"}, 2, "-rows 0"},
		{[]string{"select", "-data", clinic, "-method", "fisher"}, 1, "sparsefs inspect proposes how to read such a file"},
		{[]string{"select", "-data", clinic, "-method", "fisher", "-id", "patient", "-ignore", "age,marker"}, 1, "no feature columns are left"},
		{[]string{"select", "-data", clinic, "-method", "fisher", "-missing", "drop"}, 1, "unknown missing-value policy \"drop\": use reject, mean, drop-features or drop-samples"},
		{[]string{"reduce", "-data", good}, 2, "-features is required"},
		{[]string{"reduce", "-data", good, "-features", "5"}, 1, "feature 5 does not exist"},
	} {
		code, out, errs := runCLI(c.args...)
		if code != c.code || !strings.Contains(errs, c.fragment) || out != "" {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want exit %d and %q", c.args, code, errs, out, c.code, c.fragment)
		}
	}
}

func TestInspectAndMethods(t *testing.T) {
	path := writeFile(t, "d.tsv", "g1\tg2\tclass\n1\t2\ta\n3\t4\tb\n")
	code, out, errs := runCLI("inspect", "-data", path)
	if code != 0 || !strings.Contains(out, `"delimiter": "\t"`) || !strings.Contains(out, `"class_counts"`) {
		t.Errorf("inspect: %d %s %s", code, out, errs)
	}
	code, out, _ = runCLI("methods")
	if code != 0 || !strings.Contains(out, `"name": "fisher"`) {
		t.Errorf("methods: %d %s", code, out)
	}
}

// A clinic's file read as inspect proposes: the sample IDs are no
// feature, and the reduced data keep them as their first column.
func TestSampleIDsInReducedData(t *testing.T) {
	clinic := writeFile(t, "clinic.csv", "patient,site,age,marker,class\nP1,n,61,2.5,x\nP2,s,45,1.0,y\nP3,s,70,3.1,x\nP4,n,38,0.9,y\n")
	code, out, errs := runCLI("inspect", "-data", clinic)
	if code != 0 || !strings.Contains(out, `"id": "patient"`) || !strings.Contains(out, `"ignore": [`) {
		t.Fatalf("inspect: %d %s %s", code, out, errs)
	}
	reduced := filepath.Join(t.TempDir(), "top.csv")
	code, out, errs = runCLI("select", "-data", clinic, "-id", "patient", "-ignore", "site", "-method", "fisher", "-k", "1", "-reduced", reduced)
	if code != 0 || !strings.Contains(out, `"id":"patient"`) {
		t.Fatalf("select: %d %s", code, errs)
	}
	got, err := os.ReadFile(reduced)
	if err != nil {
		t.Fatal(err)
	}
	// marker separates x from y better than age (the file's own values).
	if want := "patient,marker,class\nP1,2.5,x\nP2,1,y\nP3,3.1,x\nP4,0.9,y\n"; string(got) != want {
		t.Errorf("reduced data\n%s\nwant\n%s", got, want)
	}
}

var timingsRE = regexp.MustCompile(`"(seconds|fit_seconds)":(\{[^}]*\}|[-0-9.e+]+|null)`)

func withoutTimes(s string) string { return timingsRE.ReplaceAllString(s, `"$1":0`) }

// eval prints one JSON report; its units run separately (-units) and merged
// (merge) print the same report, whatever -workers says, and -request runs
// the report's own request again to the same numbers.
func TestEvalUnitsMergeRequest(t *testing.T) {
	dir := t.TempDir()
	synth := filepath.Join(dir, "s.csv")
	if code, _, errs := runCLI("synth", "-m", "60", "-d1", "3", "-d2", "4", "-c", "3", "-seed", "2", "-task", "classification", "-o", synth); code != 0 {
		t.Fatalf("synth: %s", errs)
	}
	args := []string{"eval", "-data", synth, "-methods", "fisher,l1svm", "-param", "C=0.5", "-k", "1:3", "-classifier", "svm,knn", "-holdout", "0.7x3", "-seed", "4"}
	code, full, errs := runCLI(append(args, "-workers", "1")...)
	if code != 0 {
		t.Fatalf("eval: %s", errs)
	}
	if code, par, _ := runCLI(append(args, "-workers", "3")...); code != 0 || withoutTimes(par) != withoutTimes(full) {
		t.Error("-workers 3 changes the report")
	}
	var parts []string
	for _, u := range []string{"4,5", "0:3"} {
		code, out, errs := runCLI(append(args, "-units", u)...)
		if code != 0 {
			t.Fatalf("eval -units %s: %s", u, errs)
		}
		p := filepath.Join(dir, "part"+u+".json")
		os.WriteFile(p, []byte(out), 0o644)
		parts = append(parts, p)
	}
	code, merged, errs := runCLI(append([]string{"merge"}, parts...)...)
	if code != 0 || withoutTimes(merged) != withoutTimes(full) {
		t.Errorf("merge (exit %d, %s) differs from the full run", code, errs)
	}
	report := filepath.Join(dir, "report.json")
	os.WriteFile(report, []byte(full), 0o644)
	code, again, errs := runCLI("eval", "-request", report)
	if code != 0 || withoutTimes(again) != withoutTimes(full) {
		t.Errorf("-request (exit %d, %s) does not re-create the report", code, errs)
	}
	var rep struct {
		K       []int `json:"k"`
		Results []struct {
			Method string `json:"method"`
			Params map[string]any
		} `json:"results"`
		Splits []any `json:"splits"`
	}
	if err := json.Unmarshal([]byte(full), &rep); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.K, []int{1, 2, 3}) || len(rep.Splits) != 3 || rep.Results[1].Method != "l1svm" || rep.Results[1].Params["C"] != 0.5 {
		t.Errorf("report %+v", rep)
	}
}

// Regression data from synth: targets named, no class label, a fixed
// subset evaluated by RMSE.
func TestEvalRegressionTargets(t *testing.T) {
	dir := t.TempDir()
	synth := filepath.Join(dir, "r.csv")
	if code, _, errs := runCLI("synth", "-m", "100", "-d1", "2", "-d2", "3", "-c", "2", "-o", synth); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runCLI("eval", "-data", synth, "-label", "none", "-targets", "y1,y2", "-features", "0:3", "-cv", "4")
	if code != 0 {
		t.Fatal(errs)
	}
	var rep struct {
		Results []struct {
			RMSE struct{ Mean []float64 } `json:"rmse"`
		} `json:"results"`
		Dataset struct{ Targets []string } `json:"dataset"`
	}
	json.Unmarshal([]byte(out), &rep)
	if len(rep.Results) != 1 || len(rep.Results[0].RMSE.Mean) != 1 || rep.Results[0].RMSE.Mean[0] > 0.7 || !reflect.DeepEqual(rep.Dataset.Targets, []string{"y1", "y2"}) {
		t.Errorf("regression report %s", out)
	}
}

func TestEvalErrors(t *testing.T) {
	good := writeFile(t, "d.csv", "a,b,c,label\n1,0,3,x\n2,1,1,y\n3,0,2,x\n4,1,0,y\n5,2,1,x\n6,1,3,y\n")
	folds := writeFile(t, "f.txt", "0\n1\n0\n1\n")
	for _, c := range []struct {
		args     []string
		code     int
		fragment string
	}{
		{[]string{"eval", "-methods", "fisher"}, 2, "-data is required"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-cv", "2", "-holdout", "0.5x2"}, 2, "give one protocol"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-holdout", "70%"}, 2, "not TRAINxREPEATS"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-param", "gamma=1"}, 2, "none of the methods fisher has a parameter gamma"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-param", "rfs.gamma=1"}, 2, "method rfs is not in -methods"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-k", "1:"}, 2, "-k:"},
		{[]string{"eval", "-data", good, "-methods", "nope"}, 2, `unknown method "nope"`},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-k", "5"}, 1, "every K of the list (5) exceeds the 3 features"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-foldfile", folds}, 1, "4 entries for 6 samples"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-classifier", "tree"}, 2, `unknown classifier "tree"`},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-workers", "-5"}, 2, "-workers -5"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-classifier", "knn", "-neighbors", "0"}, 2, "knn: neighbors = 0 is invalid"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-holdout", "0.7x0"}, 2, "0 holdout repeats"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-C", "NaN"}, 2, "svm: C = NaN is invalid"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-cv", "0"}, 2, "0-fold cross-validation is impossible: use at least 2 folds"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-inner", "1"}, 2, "inner_folds = 1: use 0 (automatic) or at least 2"},
		{[]string{"eval", "-data", good, "-methods", "fisher", "-tune", "gamma"}, 2, "is not NAME=VALUES"},
		{[]string{"eval", "-request", good, "-methods", "fisher"}, 2, "cannot be combined with -request"},
		{[]string{"merge"}, 2, "give the part files"},
		{[]string{"synth", "-task", "both", "-outliers", "3"}, 2, "outlier fraction"},
	} {
		code, out, errs := runCLI(c.args...)
		if code != c.code || !strings.Contains(errs, c.fragment) || out != "" {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.fragment)
		}
	}
}

// select -reduced and reduce write the chosen features and the label as
// CSV; a file that cannot be written whole is not written at all.
func TestReducedFiles(t *testing.T) {
	// f_classif ranks a (F = 50) before b (F = 16): see TestSelect.
	path := writeFile(t, "d.csv", "y,a,b\n0,1,0\n0,2,2\n1,6,5\n1,7,5\n")
	dir := t.TempDir()
	top := filepath.Join(dir, "top.csv")
	if code, _, errs := runCLI("select", "-data", path, "-method", "fstat", "-label", "y", "-k", "1", "-reduced", top); code != 0 {
		t.Fatalf("select -reduced: exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(top); err != nil || string(b) != "a,y\n1,0\n2,0\n6,1\n7,1\n" {
		t.Errorf("reduced data %q, %v", b, err)
	}
	out := filepath.Join(dir, "two.csv")
	if code, stdout, errs := runCLI("reduce", "-data", path, "-label", "y", "-features", "1,0", "-o", out); code != 0 || stdout != "" {
		t.Fatalf("reduce: exit %d: %s %s", code, errs, stdout)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "b,a,y\n0,1,0\n2,2,0\n5,6,1\n5,7,1\n" {
		t.Errorf("reduce -o wrote %q, %v", b, err)
	}
	if code, stdout, _ := runCLI("reduce", "-data", path, "-label", "y", "-features", "0"); code != 0 || stdout != "a,y\n1,0\n2,0\n6,1\n7,1\n" {
		t.Errorf("reduce to standard output: exit %d, %q", code, stdout)
	}
	missing := filepath.Join(dir, "no", "such", "dir.csv")
	if code, _, _ := runCLI("reduce", "-data", path, "-features", "0", "-o", missing); code != 1 {
		t.Errorf("reduce into a missing folder: exit %d", code)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("files left in the folder: %v", entries)
	}
}

func TestByteSize(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "512MiB": 512 << 20, "8GiB": 8 << 30, "2g": 2 << 30, "1.5 KiB": 1536, "none": -1} {
		if got, err := byteSize(in); err != nil || got != want {
			t.Errorf("byteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "lots", "1TiB", "NaN"} {
		if _, err := byteSize(bad); err == nil {
			t.Errorf("byteSize(%q) accepted", bad)
		}
	}
}

// Every file of the reader's corpus of bad inputs (core/dataset/testdata/
// corpus) goes through the command line as a user would send it: the
// command ends with a result (exit 0, JSON on standard output) or a
// message (exit 1, one line on standard error, no JSON), never a crash.
func TestCorpusThroughTheCLI(t *testing.T) {
	dir := filepath.Join("..", "..", "core", "dataset", "testdata", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 60 {
		t.Fatalf("the corpus has %d files", len(entries))
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		code, out, errs := runCLI("select", "-data", path, "-method", "fisher")
		switch {
		case strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine"):
			t.Errorf("%s: crashed: %s", e.Name(), errs)
		case code == 0 && !json.Valid([]byte(out)):
			t.Errorf("%s: exit 0 without a JSON result: %q", e.Name(), out)
		case code == 1 && (out != "" || strings.Count(strings.TrimSpace(errs), "\n") > 0 || !strings.HasPrefix(errs, "sparsefs select: ")):
			t.Errorf("%s: exit 1: stdout %q, stderr %q", e.Name(), out, errs)
		case code != 0 && code != 1:
			t.Errorf("%s: exit %d: %s", e.Name(), code, errs)
		}
	}
}

// select -k K bounds mrmr's greedy search to K (its k, not given, becomes
// K): the K selected are those of a full search; a k given stays.
func TestKBoundsMRMRDepth(t *testing.T) {
	path := writeFile(t, "d.csv", "a,b,c,d,y\n1,0,3,1,x\n2,2,1,0,x\n6,5,2,1,z\n7,5,0,0,z\n3,1,2,2,x\n8,6,1,1,z\n2,1,1,0,x\n7,4,2,2,z\n")
	var full, top, given struct {
		Params   map[string]any `json:"params"`
		Ranking  []int          `json:"ranking"`
		Selected []int          `json:"selected"`
	}
	for _, c := range []struct {
		out  any
		args []string
	}{{&full, nil}, {&top, []string{"-k", "2"}}, {&given, []string{"-k", "2", "-param", "k=3"}}} {
		code, out, errs := runCLI(append([]string{"select", "-data", path, "-method", "mrmr"}, c.args...)...)
		if code != 0 || json.Unmarshal([]byte(out), c.out) != nil {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs)
		}
	}
	if top.Params["k"] != 2.0 || !reflect.DeepEqual(top.Selected, full.Ranking[:2]) || given.Params["k"] != 3.0 {
		t.Errorf("-k 2: k = %v, selected %v (a full search ranks %v); k given: %v", top.Params["k"], top.Selected, full.Ranking, given.Params["k"])
	}
}
