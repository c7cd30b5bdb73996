package lab

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/ui/chart"
)

// Figure is a chart ready to show: its id (the page's element ids derive
// from it), title, SVG markup and a line under it.
type Figure struct {
	ID, Title, SVG, Note string
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

// tableCols is how many values of K the results table shows at most.
const tableCols = 6

// tableKs are the indices of K shown as columns: all of them up to
// tableCols, else tableCols spread over the list, its ends included (the
// charts show every K).
func (v *EvalView) tableKs() []int {
	n := len(v.Rep.K)
	if n <= tableCols {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	var out []int
	for i := 0; i < tableCols; i++ {
		ki := int(math.Round(float64(i) * float64(n-1) / (tableCols - 1)))
		if len(out) == 0 || out[len(out)-1] != ki {
			out = append(out, ki)
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
	for i, vr := range v.Rep.Results {
		time := meanStdText(float64(vr.FitSeconds.Mean), float64(vr.FitSeconds.Std), secondsText)
		note := ""
		if n := len(vr.Units); n < len(v.Rep.Splits) {
			note = fmt.Sprintf("%d of %d splits", n, len(v.Rep.Splits))
		}
		add := func(measure string, s api.Summary, f func(float64) string, lower bool) {
			r := TableRow{Variant: i, Label: v.Labels[i], Measure: measure, Time: time, Note: note, Best: "—"}
			for _, ki := range ks {
				r.Cells = append(r.Cells, meanStdText(at(s.Mean, ki), at(s.Std, ki), f))
			}
			best := -1
			for ki := range v.Rep.K {
				m := at(s.Mean, ki)
				if !math.IsNaN(m) && (best < 0 || (lower && m < at(s.Mean, best)) || (!lower && m > at(s.Mean, best))) {
					best = ki
				}
			}
			if best >= 0 {
				r.Best = fmt.Sprintf("%s at K = %d", f(at(s.Mean, best)), v.Rep.K[best])
			}
			rows = append(rows, r)
		}
		for q, label := range v.Rep.Classifiers {
			if q < len(vr.Accuracy) {
				add("accuracy % · "+ClassifierName(label), vr.Accuracy[q], pct, false)
			}
		}
		if vr.RMSE != nil {
			add("RMSE", *vr.RMSE, chart.Num, true)
		} else if len(v.Rep.Classifiers) == 0 {
			add("RMSE", api.Summary{}, chart.Num, true)
		}
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
