package lab

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/core/plan"
	"sparsefs/ui/chart"
)

// Figure is a chart ready to show: its id (the page's element ids derive
// from it), title, SVG markup, a line under it, and its values as a table
// (made when asked for).
type Figure struct {
	ID, Title, SVG, Note string
	Table                func() chart.Table
}

// Drawn is a chart of package chart: its markup and its values.
type Drawn interface {
	SVG() string
	Table() chart.Table
}

// NewFigure makes the Figure of a chart.
func NewFigure(id, title string, c Drawn, note string) Figure {
	return Figure{ID: id, Title: title, SVG: c.SVG(), Note: note, Table: c.Table}
}

// EvalView reads an evaluation report (merged, or the units done so far)
// for the page: the tables and the charts.
type EvalView struct {
	Rep *api.EvalReport
	// Labels name the report's rows (VariantLabels).
	Labels []string
	// Truth, if not nil, says which features are informative (synthetic
	// data).
	Truth *SynthSpec
	// Hidden are the variants the charts leave out (the page's legend).
	Hidden map[int]bool
	// freq remembers Frequency's answers (the page asks on every render).
	freq map[[2]int][]FreqRow
}

// NewEvalView prepares a report for display.
func NewEvalView(rep *api.EvalReport, truth *SynthSpec) *EvalView {
	vs := make([]api.VariantInfo, len(rep.Results))
	for i, vr := range rep.Results {
		vs[i] = vr.VariantInfo
	}
	return &EvalView{Rep: rep, Labels: VariantLabels(vs), Truth: truth}
}

// ClassifierName is the short name of a classifier's label ("svm" of
// "svm(C=1,ovo,free bias)").
func ClassifierName(label string) string {
	name, _, _ := strings.Cut(label, "(")
	return name
}

// fitFor returns the fit of a unit behind K index ki: the fit for that K
// of a method refitted per K, otherwise the unit's only fit (nil for the
// fixed subset).
func (v *EvalView) fitFor(u *api.UnitResult, ki int) *api.Fit {
	switch {
	case len(u.Fits) == 0:
		return nil
	case len(u.Fits) == 1:
		return &u.Fits[0]
	}
	k := v.Rep.K[ki]
	for i := range u.Fits {
		if u.Fits[i].K == k {
			return &u.Fits[i]
		}
	}
	return &u.Fits[len(u.Fits)-1]
}

// Splits is the number of splits of the evaluation.
func (v *EvalView) Splits() int { return len(v.Rep.Splits) }

// UnitsDone counts the units of the view.
func (v *EvalView) UnitsDone() int {
	n := 0
	for _, vr := range v.Rep.Results {
		n += len(vr.Units)
	}
	return n
}

// pct writes an accuracy in percent.
func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) }

// meanStdText writes a mean ± standard deviation with f.
func meanStdText(m, s float64, f func(float64) string) string {
	if math.IsNaN(m) {
		return "—"
	}
	if math.IsNaN(s) {
		return f(m)
	}
	return f(m) + " ± " + f(s)
}

// TableRow is one line of the results table: a variant with one
// classifier (or the RMSE of regression data).
type TableRow struct {
	Variant          int
	Label, Measure   string
	Cells            []string
	Best, Time, Note string
}

// tableCols is how many values of K the results table shows at most,
// besides the K where a row is best.
const tableCols = 6

// tableKs are the indices of K shown as columns: all of them up to
// tableCols, else tableCols spread over the list, its ends included, and
// every K at which a row has its best mean (the charts show every K).
func (v *EvalView) tableKs() []int {
	n := len(v.Rep.K)
	show := make([]bool, n)
	for i := 0; i < min(n, tableCols); i++ {
		ki := i
		if n > tableCols {
			ki = int(math.Round(float64(i) * float64(n-1) / (tableCols - 1)))
		}
		show[ki] = true
	}
	for _, m := range v.measures() {
		if b := m.best(); b >= 0 {
			show[b] = true
		}
	}
	var out []int
	for ki, ok := range show {
		if ok {
			out = append(out, ki)
		}
	}
	return out
}

// TableNote names the values of K the table leaves out ("" when it shows
// them all).
func (v *EvalView) TableNote() string {
	ks := v.tableKs()
	if len(ks) == len(v.Rep.K) {
		return ""
	}
	shown := map[int]bool{}
	for _, ki := range ks {
		shown[ki] = true
	}
	var left []int
	for ki, k := range v.Rep.K {
		if !shown[ki] {
			left = append(left, k)
		}
	}
	return fmt.Sprintf("The table shows %d of the %d values of K; K = %s are in the charts, the report and the CSV.", len(ks), len(v.Rep.K), plan.Text(left))
}

// measure is one row's measure: a variant with a classifier's accuracy
// (in %), or the RMSE.
type measure struct {
	variant int
	name    string // "accuracy % · svm" or "RMSE"
	// classifier is the index of the classifier (−1 for the RMSE).
	classifier int
	s          api.Summary
	format     func(float64) string
	lower      bool  // lower is better
	ks         []int // the K list
}

// best is the index of K with the best mean (the first of equals), or −1.
func (m measure) best() int {
	best := -1
	for ki := range m.s.Mean {
		x := at(m.s.Mean, ki)
		if !math.IsNaN(x) && (best < 0 || (m.lower && x < at(m.s.Mean, best)) || (!m.lower && x > at(m.s.Mean, best))) {
			best = ki
		}
	}
	return best
}

// measures are the rows of the table, in order.
func (v *EvalView) measures() []measure {
	var out []measure
	for i, vr := range v.Rep.Results {
		for q, label := range v.Rep.Classifiers {
			if q < len(vr.Accuracy) {
				out = append(out, measure{i, "accuracy % · " + ClassifierName(label), q, vr.Accuracy[q], pct, false, v.Rep.K})
			}
		}
		if vr.RMSE != nil {
			out = append(out, measure{i, "RMSE", -1, *vr.RMSE, chart.Num, true, v.Rep.K})
		} else if len(v.Rep.Classifiers) == 0 {
			out = append(out, measure{i, "RMSE", -1, api.Summary{}, chart.Num, true, v.Rep.K})
		}
	}
	return out
}

// Table returns the results table: its column heads and one row per
// variant and classifier, with the mean ± standard deviation over the
// splits at each K shown (accuracy in %, or the RMSE), the best mean and
// the selector's fitting time.
func (v *EvalView) Table() (head []string, rows []TableRow) {
	ks := v.tableKs()
	head = []string{"selector", "measure"}
	for _, ki := range ks {
		head = append(head, "K = "+strconv.Itoa(v.Rep.K[ki]))
	}
	head = append(head, "best", "fit time")
	for _, m := range v.measures() {
		vr := &v.Rep.Results[m.variant]
		r := TableRow{Variant: m.variant, Label: v.Labels[m.variant], Measure: m.name, Best: "—",
			Time: meanStdText(float64(vr.FitSeconds.Mean), float64(vr.FitSeconds.Std), secondsText)}
		if n := len(vr.Units); n < len(v.Rep.Splits) {
			r.Note = fmt.Sprintf("%d of %d splits", n, len(v.Rep.Splits))
		}
		for _, ki := range ks {
			r.Cells = append(r.Cells, meanStdText(at(m.s.Mean, ki), at(m.s.Std, ki), m.format))
		}
		if b := m.best(); b >= 0 {
			r.Best = fmt.Sprintf("%s at K = %d", m.format(at(m.s.Mean, b)), v.Rep.K[b])
		}
		rows = append(rows, r)
	}
	return head, rows
}

func at(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return math.NaN()
}

func secondsText(s float64) string {
	if s < 1 {
		return strconv.FormatFloat(s*1000, 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(s, 'f', 2, 64) + " s"
}
