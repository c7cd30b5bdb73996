package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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
	// core/select/filters_test.go); the label is the first column.
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
		{[]string{"select", "-data", good, "-method", "lasso"}, 1, `unknown method "lasso"`},
		{[]string{"select", "-data", bad, "-method", "fisher"}, 1, "bad.csv: line 3: this row has 2 fields but the header has 3"},
		{[]string{"select", "-data", good, "-method", "fisher", "-bias=maybe"}, 2, "invalid boolean value"},
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
