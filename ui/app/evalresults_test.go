package app_test

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sparsefs/ui/app"
	"sparsefs/ui/app/apptest"
)

// evaluated runs the tests' evaluation (configure) of evalCSV to its end
// and returns the page's backend, the page, the data and the report saved.
func evaluated(t *testing.T) (*apptest.Backend, *app.App, []byte, []byte) {
	t.Helper()
	f := apptest.New(t, 2)
	a := f.App()
	data := evalCSV()
	f.Open(a, "t.csv", data)
	configure(t, f, a)
	_, report := evaluate(t, f, a, data)
	return f, a, data, report
}

// The evaluation's results read themselves: the summary names, for each
// classifier, the selector and K of the best mean accuracy in the saved
// report (found here from the report's JSON); the stability chart shows
// every selector; hiding a selector takes its lines off every chart and
// showing it puts them back; each warning is listed once.
func TestEvaluationSummaryAndLegend(t *testing.T) {
	_, a, _, report := evaluated(t)
	var rep struct {
		K           []int    `json:"k"`
		Classifiers []string `json:"classifiers"`
		Results     []struct {
			Method   string `json:"method"`
			Accuracy []struct {
				Mean []float64 `json:"mean"`
			} `json:"accuracy"`
			Stability *struct {
				Index []*float64 `json:"index"`
			} `json:"stability"`
		} `json:"results"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatal(err)
	}
	e := a.Eval
	labels := e.VariantLabels()
	findings := e.Findings()
	if len(findings) != len(rep.Classifiers) {
		t.Fatalf("%d findings for %d classifiers: %q", len(findings), len(rep.Classifiers), findings)
	}
	for q := range rep.Classifiers {
		bv, bk := -1, -1
		for v, vr := range rep.Results {
			for ki, m := range vr.Accuracy[q].Mean {
				if bv < 0 || m > rep.Results[bv].Accuracy[q].Mean[bk] || (m == rep.Results[bv].Accuracy[q].Mean[bk] && rep.K[ki] < rep.K[bk]) {
					bv, bk = v, ki
				}
			}
		}
		want := fmt.Sprintf(": %s, keeping %d of 8 features — %.1f%%", labels[bv], rep.K[bk], 100*rep.Results[bv].Accuracy[q].Mean[bk])
		if !strings.Contains(findings[q], want) {
			t.Errorf("finding %d %q lacks %q", q, findings[q], want)
		}
		if !strings.Contains(findings[q], "All 8 features together were not measured") {
			t.Errorf("finding %d %q does not say all features were not measured (K = 1, 2, 4)", q, findings[q])
		}
		if st := rep.Results[bv].Stability; st != nil && st.Index[bk] != nil && !strings.Contains(findings[q], fmt.Sprintf("stability %.2f", *st.Index[bk])) {
			t.Errorf("finding %d %q lacks the stability %.2f", q, findings[q], *st.Index[bk])
		}
	}
	chart := func(id string) string {
		for _, ch := range a.Charts() {
			if ch.ID == id {
				return ch.SVG
			}
		}
		return ""
	}
	st := chart("stability")
	for _, l := range labels {
		if !strings.Contains(st, "<title>"+l+": K 1, stability ") {
			t.Errorf("the stability chart lacks %s's point at K = 1", l)
		}
	}
	if !strings.Contains(chart("accuracy-svm"), "<title>fisher: K 1, accuracy ") {
		t.Fatalf("fisher is not on the accuracy chart: %.3000s", chart("accuracy-svm"))
	}
	e.ToggleSeries(0)
	if lg := e.Legend(); !lg[0].Hidden || lg[1].Hidden {
		t.Errorf("legend after hiding fisher %+v", lg)
	}
	for _, id := range []string{"accuracy-svm", "accuracy-knn", "stability"} {
		if strings.Contains(chart(id), "<title>fisher: K") || !strings.Contains(chart(id), "<title>fisher (hidden)</title>") {
			t.Errorf("%s still draws fisher, or its legend does not say hidden", id)
		}
	}
	e.ToggleSeries(0)
	if !strings.Contains(chart("accuracy-svm"), "<title>fisher: K 1, accuracy ") || e.Legend()[0].Hidden {
		t.Error("fisher is not back on the accuracy chart")
	}
	seen := map[string]bool{}
	for _, w := range e.Warnings() {
		if seen[w] {
			t.Errorf("warning %q twice", w)
		}
		seen[w] = true
	}
}

// The comparison, on request once the run has ended: the selectors' top K
// side by side are the rankings across the splits the details show for
// each, and the CSV saved holds every feature with each selector's rank.
func TestEvaluationCompare(t *testing.T) {
	f, a, data, _ := evaluated(t)
	f.Render()
	e := a.Eval
	if !e.CanCompare() || e.Comparing() {
		t.Fatalf("can compare %v, comparing %v", e.CanCompare(), e.Comparing())
	}
	e.SetCompare(true)
	labels := e.CompareLabels()
	top := e.CompareTop()
	if len(labels) != 3 || len(top) != e.DetailK() || len(e.CompareCharts()) != 1 || len(e.OverlapRows()) != 3 {
		t.Fatalf("labels %q, %d top rows for K = %d, %d charts", labels, len(top), e.DetailK(), len(e.CompareCharts()))
	}
	for v := range labels {
		e.SetVariant(v)
		rk := e.Ranking()
		for r := range top {
			if want := rk[r].Name + " (" + strings.ReplaceAll(rk[r].Freq, " ", "") + ")"; top[r][v] != want {
				t.Errorf("%s's rank %d: %q, the details show %q", labels[v], r+1, top[r][v], want)
			}
		}
	}
	if d := e.OverlapRows(); d[0][1] != "1.00" {
		t.Errorf("a selector's overlap with itself %q", d[0][1])
	}
	a.ExportComparison()
	dl := f.LastDownload()
	lines := strings.Split(strings.TrimSpace(dl.Text), "\n")
	if dl.Name != "selectors-compared-top4.csv" || len(lines) != 9 || !strings.HasPrefix(lines[0], "consensus_rank,feature,index,consensus_p,in_top_4_of_selectors,fisher rank,") {
		t.Errorf("%s:\n%s", dl.Name, dl.Text)
	}
	if rows := e.ConsensusRows(); len(rows) != 8 || rows[0].Rank != "1" || len(rows[0].Ranks) != 3 {
		t.Errorf("consensus %+v", rows)
	}
	// The consensus's first feature's values by class, read by a worker:
	// each class's count and median as the file holds them (read here
	// from the CSV itself).
	f.Pump(-1)
	j := e.ValuesFeature()
	var fig app.Chart
	for _, ch := range e.CompareCharts() {
		if ch.ID == "values" {
			fig = ch
		}
	}
	if j < 0 || fig.ID == "" {
		t.Fatalf("no values by class (feature %d)", j)
	}
	byClass := map[string][]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		cells := strings.Split(line, ",")
		x, _ := strconv.ParseFloat(cells[j], 64)
		byClass[cells[8]] = append(byClass[cells[8]], x)
	}
	tab, _ := a.ChartTable(fig)
	if len(tab.Rows) != 3 {
		t.Fatalf("values table %q", tab)
	}
	for _, row := range tab.Rows {
		v := append([]float64(nil), byClass[row[0]]...)
		sort.Float64s(v)
		med := (v[len(v)/2] + v[(len(v)-1)/2]) / 2
		got, _ := strconv.ParseFloat(row[3], 64)
		if row[1] != strconv.Itoa(len(v)) || math.Abs(got-med) > 1e-3*math.Abs(med) {
			t.Errorf("class %s: %q, want %d values, median %g", row[0], row, len(v), med)
		}
	}
}
