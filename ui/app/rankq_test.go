package app_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/ui/app"
	"sparsefs/ui/app/apptest"
	"sparsefs/ui/lab"
)

// rankingWith opens evalCSV's data in the ranking mode, with method
// chosen instead of the default.
func rankingWith(t *testing.T, method string) (*apptest.Backend, *app.App, []byte) {
	f := apptest.New(t, 2)
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	a.Config.SetMode(lab.ModeRank)
	a.Config.ToggleMethod("fisher", false)
	a.Config.ToggleMethod(method, true)
	return f, a, data
}

// The ranking mode with ttest: the table shows each feature's p-value
// and q-value as core/job computed them, the q ≤ 0.05 cut keeps exactly
// the features `sparsefs select -k q0.05` selects (a request with q =
// 0.05 run here through core/job), in ranking order, and the ranking CSV
// carries both columns.
func TestRankPValues(t *testing.T) {
	f, a, data := rankingWith(t, "ttest")
	a.Config.SetTopK("3")
	a.Run()
	f.Pump(-1)
	if a.Error() != "" {
		t.Fatal(a.Error())
	}
	rk := a.Rank
	rk.Focus(0)
	if !rk.HasPValues() {
		t.Fatal("ttest's ranking has no p-values")
	}
	sels := f.RunsOf(api.OpSelect, 0)
	var want api.Selection
	if err := jsonOf(t, sels[0], data, &want); err != nil {
		t.Fatal(err)
	}
	a.SetShown("100")
	rows := rk.Ranked()
	if len(rows) != 8 {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		j := want.Ranking[i]
		p, _ := strconv.ParseFloat(r.P, 64)
		q, _ := strconv.ParseFloat(r.Q, 64)
		if r.Column != j || math.Abs(p-want.PValues[j]) > 0.005*want.PValues[j] || math.Abs(q-want.QValues[j]) > 0.005*want.QValues[j] {
			t.Errorf("row %d: %+v, want feature %d p %g q %g", i, r, j, want.PValues[j], want.QValues[j])
		}
	}
	cut := *sels[0]
	cut.Q, cut.K = 0.05, 0
	var wantCut api.Selection
	if err := jsonOf(t, &cut, data, &wantCut); err != nil {
		t.Fatal(err)
	}
	if len(wantCut.Selected) == 0 || len(wantCut.Selected) == 8 {
		t.Fatalf("the test data should have some but not all features with q ≤ 0.05: %v", wantCut.Selected)
	}
	rk.SetQOnly(true)
	var got []int
	for _, r := range rk.Ranked() {
		got = append(got, r.Column)
	}
	if !slices.Equal(got, wantCut.Selected) {
		t.Errorf("q ≤ 0.05 keeps %v, select -k q0.05 %v", got, wantCut.Selected)
	}
	if !strings.HasPrefix(rk.QText(), strconv.Itoa(len(wantCut.Selected))+" of 8 features have a q-value of at most 0.05") {
		t.Errorf("q text %q", rk.QText())
	}
	// The reduced data follow the cut: the features with q ≤ 0.05, in
	// ranking order, and the label.
	if want := "Data with the " + strconv.Itoa(len(wantCut.Selected)) + " features with q ≤ 0.05 (CSV)"; a.ReducedText() != want {
		t.Errorf("reduce button %q", a.ReducedText())
	}
	a.ExportReduced()
	f.Pump(-1)
	var names []string
	for _, j := range wantCut.Selected {
		names = append(names, want.Features[j])
	}
	if head := strings.SplitN(f.LastDownload().Text, "\n", 2)[0]; head != strings.Join(append(names, "class"), ",") {
		t.Errorf("reduced data head %q, want %v and the class", head, names)
	}
	a.ExportRanking()
	head := strings.SplitN(f.LastDownload().Text, "\n", 2)[0]
	if head != "rank,feature,index,score,in_top_3_of_1_runs,p_value,q_value" {
		t.Errorf("CSV head %q", head)
	}
}
