package main

import (
	"strings"
	"testing"
)

// eval -preset runs the page's preset: the "filters" preset (every filter,
// K = 5:50:5, a linear SVM with C = 1, 5-fold cross-validation) reports
// what the same evaluation written out in flags reports, with the seed
// given; the flags a preset decides are refused beside it.
func TestEvalPreset(t *testing.T) {
	demo := "../../assets/demo/breast-cancer-wisconsin.csv"
	code, got, errs := runCLI("eval", "-data", demo, "-preset", "filters", "-seed", "3", "-workers", "1")
	if code != 0 {
		t.Fatalf("eval -preset: %s", errs)
	}
	// The K above the demo's 30 features are left out before the run
	// (as the page does), and said on stderr.
	const note = "K = 35:50:5 left out: the data have 30 features"
	if !strings.Contains(errs, note) {
		t.Errorf("stderr %q does not say %q", errs, note)
	}
	code, want, errs := runCLI("eval", "-data", demo, "-methods", "fisher,fstat,ttest,relieff,infogain,mrmr",
		"-k", "5:50:5", "-classifier", "svm", "-C", "1", "-cv", "5", "-seed", "3", "-workers", "1")
	if code != 0 {
		t.Fatalf("eval: %s", errs)
	}
	want = strings.Replace(want, `"warnings":["`+note+`"]`, `"warnings":[]`, 1)
	if a, b := withoutTimes(got), withoutTimes(want); a != b {
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		t.Errorf("eval -preset filters differs from the same evaluation in flags from byte %d: %.80q against %.80q", i, a[i:], b[i:])
	}
	for _, c := range []struct{ args, msg string }{
		{"-preset filters -k 5", "-k cannot be combined with -preset"},
		{"-preset filters -methods rfs", "-methods cannot be combined with -preset"},
		{"-preset nope", `no preset "nope": the presets are rfs-nie-2010`},
	} {
		code, _, errs := runCLI(append([]string{"eval", "-data", demo}, strings.Fields(c.args)...)...)
		if code == 0 || !strings.Contains(errs, c.msg) {
			t.Errorf("%s: exit %d, %q", c.args, code, errs)
		}
	}
	if code, out, _ := runCLI("presets"); code != 0 || !strings.Contains(out, `"id": "gsr-fs-peng-fan"`) {
		t.Errorf("presets: exit %d", code)
	}
}
