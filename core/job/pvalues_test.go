package job

import (
	"context"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sparsefs/api"
)

// A select of a filter that tests a hypothesis carries a p-value and a
// q-value per feature; the q-values are the Benjamini–Hochberg adjustment
// of the p-values, recomputed here from its definition (the i-th smallest
// p times m/i, then the running minimum from the largest down); the cut
// q ≤ α selects exactly the features whose q-value is at most α, in
// ranking order. Methods without p-values have neither field and refuse
// a cut.
func TestSelectPValuesAndQCut(t *testing.T) {
	for _, method := range []string{"fstat", "ttest"} {
		resp, err := Run(context.Background(), &api.Request{Method: method}, Input{Raw: kCSV()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := resp.Selection
		n := len(s.Features)
		if len(s.PValues) != n || len(s.QValues) != n {
			t.Fatalf("%s: %d p-values and %d q-values for %d features", method, len(s.PValues), len(s.QValues), n)
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return s.PValues[order[a]] < s.PValues[order[b]] })
		want := make([]float64, n)
		running := 1.0
		for i := n - 1; i >= 0; i-- {
			running = math.Min(running, s.PValues[order[i]]*float64(n)/float64(i+1))
			want[order[i]] = running
		}
		for j := range want {
			if math.Abs(s.QValues[j]-want[j]) > 1e-15*math.Max(want[j], 1e-300) {
				t.Errorf("%s: q[%d] = %v, by the definition %v", method, j, s.QValues[j], want[j])
			}
		}
		// Feature f2 separates the classes: its q-value is tiny, the
		// others' are not below 0.01 on this seed.
		resp, err = Run(context.Background(), &api.Request{Method: method, Q: 0.01}, Input{Raw: kCSV()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var cut []int
		for _, j := range resp.Selection.Ranking {
			if want[j] <= 0.01 {
				cut = append(cut, j)
			}
		}
		if got := resp.Selection.Selected; !reflect.DeepEqual(got, cut) || len(cut) == 0 || cut[0] != 2 || resp.Selection.Q != 0.01 {
			t.Errorf("%s: q ≤ 0.01 selects %v, want %v starting with feature 2", method, got, cut)
		}
	}
	resp, err := Run(context.Background(), &api.Request{Method: "fisher"}, Input{Raw: kCSV()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Selection.PValues != nil || resp.Selection.QValues != nil {
		t.Errorf("fisher has p-values %v", resp.Selection.PValues)
	}
	for _, c := range []struct {
		req      api.Request
		fragment string
	}{
		{api.Request{Method: "fisher", Q: 0.05}, "fisher gives no p-values"},
		{api.Request{Method: "fstat", Q: 0.05, K: 3}, "not both"},
		{api.Request{Method: "fstat", Q: 2}, "a number in (0, 1]"},
	} {
		if _, err := Run(context.Background(), &c.req, Input{Raw: kCSV()}, nil); err == nil || !strings.Contains(err.Error(), c.fragment) {
			t.Errorf("%+v: error %v, want %q", c.req, err, c.fragment)
		}
	}
}

// A cut that no feature passes selects nothing and says so.
func TestQCutEmpty(t *testing.T) {
	resp, err := Run(context.Background(), &api.Request{Method: "fstat", Q: 1e-300}, Input{Raw: kCSV()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := resp.Selection
	if len(s.Selected) != 0 || len(s.Warnings) == 0 || !strings.Contains(s.Warnings[len(s.Warnings)-1], "no feature has a q-value") {
		t.Errorf("selected %v, warnings %v", s.Selected, s.Warnings)
	}
}
