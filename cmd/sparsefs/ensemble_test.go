package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// In eval, a wrapped method's parameter (base.C) reaches the ensemble
// that wraps it without naming the ensemble, and sweeps like any other;
// in select, -k q… selects by q-value. A scope that is neither a listed
// method nor a wrapped slot is still refused.
func TestEnsembleParamsAndQCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,c,d,label\n")
	for i := 0; i < 24; i++ {
		c := i % 2
		fmt.Fprintf(&b, "%d,%d,%d,%d,%d\n", c*5+i%4, (i*7)%5, (i*3)%4, c+(i*5)%3, c)
	}
	path := writeFile(t, "d.csv", b.String())
	code, out, errs := runCLI("eval", "-data", path, "-methods", "stabsel", "-param", "base=l1svm", "-param", "base.C=0.5,2",
		"-param", "pairs=2", "-k", "1,2", "-cv", "2", "-workers", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Results []struct {
			Params    map[string]any `json:"params"`
			Stability *struct {
				Index []any `json:"index"`
			} `json:"stability"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 || rep.Results[0].Params["base.C"] != 0.5 || rep.Results[1].Params["base.C"] != 2.0 ||
		rep.Results[0].Stability == nil || len(rep.Results[0].Stability.Index) != 2 {
		t.Errorf("results %+v", rep.Results)
	}
	if code, _, errs := runCLI("eval", "-data", path, "-methods", "fstat", "-param", "foo.C=1", "-k", "1"); code != 2 || !strings.Contains(errs, "method foo is not in -methods") {
		t.Errorf("foo.C: exit %d, %s", code, errs)
	}
	code, out, errs = runCLI("select", "-data", path, "-method", "ttest", "-k", "q0.05")
	var sel struct {
		Selected []int     `json:"selected"`
		QValues  []float64 `json:"qvalues"`
		Q        float64   `json:"q"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sel) != nil || sel.Q != 0.05 || len(sel.QValues) != 4 {
		t.Fatalf("select -k q0.05: exit %d, %s %s", code, out, errs)
	}
	for _, j := range sel.Selected {
		if sel.QValues[j] > 0.05 {
			t.Errorf("feature %d selected with q = %v", j, sel.QValues[j])
		}
	}
	if len(sel.Selected) == 0 || sel.Selected[0] != 0 {
		t.Errorf("selected %v, want feature a (the class shifts it by 5) first", sel.Selected)
	}
}
