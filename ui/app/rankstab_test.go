package app_test

import (
	"reflect"
	"testing"

	"sparsefs/api"
)

// A stability selection in the ranking mode runs on both workers: a share
// of its half-sample fits each, then their tallies combined; the ranking
// shown is the one a single request gives (core/job run once here).
func TestStabselSpreadOverWorkers(t *testing.T) {
	f, a, data := rankingWith(t, "stabsel")
	c := a.Config
	c.SetParam("stabsel", "base", "fisher")
	c.SetParam("stabsel", "pairs", "3")
	from := len(f.Tasks)
	a.Run()
	f.Pump(-1)
	if a.Error() != "" || a.Running() {
		t.Fatalf("error %q, running %v", a.Error(), a.Running())
	}
	sels := f.RunsOf(api.OpSelect, from)
	if len(sels) != 3 || !reflect.DeepEqual(sels[0].Halves, []int{0, 3}) || !reflect.DeepEqual(sels[1].Halves, []int{3, 6}) || len(sels[2].Tallies) != 2 {
		t.Fatalf("the jobs: %d selects, halves %v %v", len(sels), sels[0].Halves, sels[1].Halves)
	}
	one := *sels[2]
	one.Tallies = nil
	var want api.Selection
	if err := jsonOf(t, &one, data, &want); err != nil {
		t.Fatal(err)
	}
	a.Rank.Focus(0)
	a.SetShown("100")
	rows := a.Rank.Ranked()
	if len(rows) != len(want.Ranking) {
		t.Fatalf("%d rows, want %d", len(rows), len(want.Ranking))
	}
	for i, r := range rows {
		if r.Column != want.Ranking[i] {
			t.Errorf("rank %d: feature %d, one request ranks %d there", i+1, r.Column, want.Ranking[i])
		}
	}
	// Cancelled during its shares, the unit ends cancelled.
	a.Run()
	f.Pump(1)
	a.Cancel()
	f.Pump(-1)
	if a.Running() {
		t.Error("still running after the cancel")
	}
}
