package lab

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/core/stats"
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

// kAxis returns the K list as numbers.
func (v *EvalView) kAxis() []float64 {
	x := make([]float64, len(v.Rep.K))
	for i, k := range v.Rep.K {
		x[i] = float64(k)
	}
	return x
}

// bandSeries is a series of means with a band of ± one standard deviation,
// clipped to [lo, hi].
func bandSeries(name string, x []float64, s api.Summary, lo, hi float64) chart.Series {
	out := chart.Series{Name: name, X: x, Y: make([]float64, len(x)), Lo: make([]float64, len(x)), Hi: make([]float64, len(x))}
	for i := range x {
		m, d := at(s.Mean, i), at(s.Std, i)
		out.Y[i] = m
		if math.IsNaN(d) {
			d = 0
		}
		out.Lo[i], out.Hi[i] = math.Max(lo, m-d), math.Min(hi, m+d)
	}
	return out
}

// splitsText says over what the means are taken.
func (v *EvalView) splitsText() string {
	n := len(v.Rep.Splits)
	if v.Rep.Request != nil && v.Rep.Request.Eval != nil && v.Rep.Request.Eval.Protocol.Kind == "holdout" {
		return fmt.Sprintf("%d holdout splits", n)
	}
	return fmt.Sprintf("%d folds", n)
}

// AccuracyCharts draw the accuracy against K, one chart per classifier and
// one line per selector, with a band of ± one standard deviation over the
// splits.
func (v *EvalView) AccuracyCharts() []Figure {
	var out []Figure
	x := v.kAxis()
	for q, label := range v.Rep.Classifiers {
		name := ClassifierName(label)
		c := chart.NewLineChart(chart.Frame{ID: "accuracy-" + name, Title: "Accuracy vs K — " + label, XLabel: "K", YLabel: "accuracy"})
		c.IntegerX = true
		for i, vr := range v.Rep.Results {
			if len(vr.Units) == 0 || q >= len(vr.Accuracy) {
				continue
			}
			c.Series = append(c.Series, bandSeries(v.Labels[i], x, vr.Accuracy[q], 0, 1))
		}
		out = append(out, Figure{c.ID, c.Title, c.SVG(), fmt.Sprintf("Test accuracy of the top K features of each training part; mean ± one standard deviation over the %s.", v.splitsText())})
	}
	if len(v.Rep.Classifiers) == 0 {
		c := chart.NewLineChart(chart.Frame{ID: "rmse", Title: "RMSE of least squares vs K", XLabel: "K", YLabel: "RMSE"})
		c.IntegerX = true
		for i, vr := range v.Rep.Results {
			if len(vr.Units) > 0 && vr.RMSE != nil {
				c.Series = append(c.Series, bandSeries(v.Labels[i], x, *vr.RMSE, 0, math.Inf(1)))
			}
		}
		out = append(out, Figure{c.ID, c.Title, c.SVG(), fmt.Sprintf("Test RMSE of ordinary least squares on the top K features (lower is better); mean ± one standard deviation over the %s.", v.splitsText())})
	}
	return out
}

// RedundancyChart draws the redundancy rate of the top K features (the
// mean absolute correlation between them, on the training part): bars
// with whiskers when the K list is short, else lines with bands.
func (v *EvalView) RedundancyChart() Figure {
	const id, title = "redundancy", "Redundancy rate of the top K features"
	note := fmt.Sprintf("Mean |correlation| between the selected features (lower: less redundant); mean ± one standard deviation over the %s.", v.splitsText())
	if len(v.Rep.K) <= 4 {
		c := &chart.BarChart{Frame: chart.Frame{ID: id, Title: title, XLabel: "redundancy rate"}, Horizontal: true}
		for i, vr := range v.Rep.Results {
			if len(vr.Units) > 0 {
				c.Categories = append(c.Categories, v.Labels[i])
			}
		}
		for ki, k := range v.Rep.K {
			s := chart.BarSeries{Name: "K = " + strconv.Itoa(k)}
			for _, vr := range v.Rep.Results {
				if len(vr.Units) > 0 {
					s.Values = append(s.Values, at(vr.Redundancy.Mean, ki))
					s.Err = append(s.Err, at(vr.Redundancy.Std, ki))
				}
			}
			c.Series = append(c.Series, s)
		}
		return Figure{id, title, c.SVG(), note}
	}
	c := chart.NewLineChart(chart.Frame{ID: id, Title: title, XLabel: "K", YLabel: "redundancy rate"})
	c.IntegerX = true
	x := v.kAxis()
	for i, vr := range v.Rep.Results {
		if len(vr.Units) > 0 {
			c.Series = append(c.Series, bandSeries(v.Labels[i], x, vr.Redundancy, 0, 1))
		}
	}
	return Figure{id, title, c.SVG(), note}
}

// SparsityChart draws the sparsity level of the embedded selectors' W (its
// rows above 10⁻⁶ of the largest) at the largest K, mean ± one standard
// deviation over the splits; ok is false when no selector has a W.
func (v *EvalView) SparsityChart() (Figure, bool) {
	last := len(v.Rep.K) - 1
	c := &chart.BarChart{Frame: chart.Frame{ID: "sparsity", Title: fmt.Sprintf("Sparsity level of W (K = %d)", v.Rep.K[last]), XLabel: "nonzero rows of W"}, Horizontal: true}
	s := chart.BarSeries{Name: "nonzero rows"}
	for i, vr := range v.Rep.Results {
		if vr.Sparsity != nil && len(vr.Units) > 0 {
			c.Categories = append(c.Categories, v.Labels[i])
			s.Values = append(s.Values, at(vr.Sparsity.Mean, last))
			s.Err = append(s.Err, at(vr.Sparsity.Std, last))
		}
	}
	if len(c.Categories) == 0 {
		return Figure{}, false
	}
	c.Series = []chart.BarSeries{s}
	return Figure{c.ID, c.Title, c.SVG(), fmt.Sprintf("Rows of W above 10⁻⁶ × the largest (a method refitted per K has K of them); mean ± one standard deviation over the %s.", v.splitsText())}, true
}

// TimeChart draws each selector's fitting time per split.
func (v *EvalView) TimeChart() Figure {
	c := &chart.BarChart{Frame: chart.Frame{ID: "time", Title: "Fitting time per split (in the worker)", XLabel: "seconds"}, Horizontal: true}
	s := chart.BarSeries{Name: "seconds"}
	for i, vr := range v.Rep.Results {
		if len(vr.Units) > 0 {
			c.Categories = append(c.Categories, v.Labels[i])
			s.Values = append(s.Values, float64(vr.FitSeconds.Mean))
			s.Err = append(s.Err, float64(vr.FitSeconds.Std))
		}
	}
	c.Series = []chart.BarSeries{s}
	return Figure{c.ID, c.Title, c.SVG(), "The selector's fits on a training part (all its fits, for a method refitted per K); mean ± one standard deviation. Classifiers excluded."}
}

// maxTraces bounds the lines of one convergence chart.
const maxTraces = 30

// ConvergenceCharts plot the objective against the iteration for every
// embedded method, one line per setting and split (for a method refitted
// per K, its fit at the largest K).
func (v *EvalView) ConvergenceCharts() []Figure {
	var order []string
	groups := map[string][]int{}
	for i, vr := range v.Rep.Results {
		if vr.Kind != api.Embedded {
			continue
		}
		if _, ok := groups[vr.Method]; !ok {
			order = append(order, vr.Method)
		}
		groups[vr.Method] = append(groups[vr.Method], i)
	}
	var out []Figure
	last := len(v.Rep.K) - 1
	for _, m := range order {
		c := chart.NewLineChart(chart.Frame{ID: "conv-" + m, Title: "Convergence — " + m, XLabel: "iteration", YLabel: "objective"})
		c.IntegerX = true
		total := 0
		for _, i := range groups[m] {
			for _, u := range v.Rep.Results[i].Units {
				f := v.fitFor(u, last)
				if f == nil || len(f.Trace) == 0 {
					continue
				}
				total++
				if len(c.Series) == maxTraces {
					continue
				}
				c.Series = append(c.Series, traceSeries(fmt.Sprintf("%s · split %d", v.Labels[i], u.Split+1), f.Trace))
			}
		}
		if len(c.Series) == 0 {
			continue
		}
		c.LogY = logWorthy(c.Series)
		note := "The exact objective after each iteration, on each training part."
		if total > len(c.Series) {
			note += fmt.Sprintf(" The first %d of %d fits are drawn.", len(c.Series), total)
		}
		if v.Rep.Results[groups[m][0]].PerK {
			note += fmt.Sprintf(" %s is refitted for every K: its fits for K = %d.", m, v.Rep.K[last])
		}
		out = append(out, Figure{c.ID, c.Title, c.SVG(), note})
	}
	return out
}

// TruthChart draws, for synthetic data, the share of informative features
// among the top K of each training part, mean ± one standard deviation
// over the splits, with the best share possible (ok is false without a
// ground truth).
func (v *EvalView) TruthChart() (Figure, bool) {
	if v.Truth == nil {
		return Figure{}, false
	}
	c := chart.NewLineChart(chart.Frame{ID: "truth", Title: "Informative features among the top K", XLabel: "K", YLabel: "share informative"})
	c.IntegerX, c.YMin, c.YMax = true, 0, 1
	x := v.kAxis()
	informative := make([]bool, len(v.Rep.Features))
	for j, name := range v.Rep.Features {
		informative[j] = v.Truth.Kind(name) == Informative
	}
	nInf := 2 * v.Truth.D1
	for i, vr := range v.Rep.Results {
		if len(vr.Units) == 0 {
			continue
		}
		var s api.Summary
		for ki := range v.Rep.K {
			shares := make([]float64, len(vr.Units))
			for j, u := range vr.Units {
				sel := u.Selected[ki]
				n := 0
				for _, f := range sel {
					if f >= 0 && f < len(informative) && informative[f] {
						n++
					}
				}
				shares[j] = math.NaN()
				if len(sel) > 0 {
					shares[j] = float64(n) / float64(len(sel))
				}
			}
			m, d := stats.MeanStd(shares)
			s.Mean, s.Std = append(s.Mean, m), append(s.Std, d)
		}
		c.Series = append(c.Series, bandSeries(v.Labels[i], x, s, 0, 1))
	}
	best := chart.Series{Name: "the best possible", X: x}
	for _, k := range v.Rep.K {
		best.Y = append(best.Y, math.Min(1, float64(nInf)/float64(k)))
	}
	c.Series = append(c.Series, best)
	return Figure{c.ID, c.Title, c.SVG(), fmt.Sprintf("The generator made %d informative features (f1…f%d), %d redundant copies of half of them and %d irrelevant ones; a perfect selector picks the informative ones first.", nInf, nInf, v.Truth.D1, v.Truth.D2)}, true
}

// FreqRow is one feature of a selector's ranking across the splits.
type FreqRow struct {
	Rank, Feature int
	Name          string
	// Count is the number of splits whose top K hold the feature, of
	// Splits done.
	Count, Splits int
	// MeanRank and MeanScore are over those splits' full rankings.
	MeanRank, MeanScore float64
	// Truth is the feature's role in synthetic data ("" otherwise).
	Truth string
}

// Frequency ranks the features of variant vi across the splits at K index
// ki: by the number of splits whose top K hold them, then by their mean
// rank over all the splits' rankings, then by column.
func (v *EvalView) Frequency(vi, ki int) []FreqRow {
	if vi < 0 || vi >= len(v.Rep.Results) {
		return nil
	}
	if rows, ok := v.freq[[2]int{vi, ki}]; ok {
		return rows
	}
	rows := v.frequency(vi, ki)
	if v.freq == nil {
		v.freq = map[[2]int][]FreqRow{}
	}
	v.freq[[2]int{vi, ki}] = rows
	return rows
}

func (v *EvalView) frequency(vi, ki int) []FreqRow {
	us := v.Rep.Results[vi].Units
	n := len(v.Rep.Features)
	rows := make([]FreqRow, n)
	for j := range rows {
		rows[j] = FreqRow{Feature: j, Name: v.Rep.Features[j], Splits: len(us), MeanRank: math.NaN(), MeanScore: math.NaN()}
		if v.Truth != nil {
			rows[j].Truth = v.Truth.Kind(v.Rep.Features[j])
		}
	}
	rankSum, scoreSum := make([]float64, n), make([]float64, n)
	fits := 0
	for _, u := range us {
		if ki < len(u.Selected) {
			for _, j := range u.Selected[ki] {
				if j >= 0 && j < n {
					rows[j].Count++
				}
			}
		}
		f := v.fitFor(u, ki)
		if f == nil || len(f.Ranking) != n {
			continue
		}
		fits++
		for pos, j := range f.Ranking {
			rankSum[j] += float64(pos + 1)
			if j < len(f.Scores) {
				scoreSum[j] += f.Scores[j]
			}
		}
	}
	if fits > 0 {
		for j := range rows {
			rows[j].MeanRank = rankSum[j] / float64(fits)
			rows[j].MeanScore = scoreSum[j] / float64(fits)
		}
	}
	// slices' generic sort: sort.SliceStable's reflective swaps of these
	// rows took 20 ms for 4434 features in the page.
	slices.SortStableFunc(rows, func(x, y FreqRow) int {
		if x.Count != y.Count {
			return cmp.Compare(y.Count, x.Count)
		}
		if x.MeanRank != y.MeanRank && !math.IsNaN(x.MeanRank) && !math.IsNaN(y.MeanRank) {
			return cmp.Compare(x.MeanRank, y.MeanRank)
		}
		return cmp.Compare(x.Feature, y.Feature)
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows
}

// SplitRow is one feature of a split's own ranking.
type SplitRow struct {
	Rank, Feature int
	Name, Score   string
	InTopK        bool
	Truth         string
}

// SplitRanking is variant vi's ranking on split s (for a method refitted
// per K, its fit for K index ki); nil when that unit is not done.
func (v *EvalView) SplitRanking(vi, s, ki int) []SplitRow {
	u := v.unit(vi, s)
	if u == nil {
		return nil
	}
	f := v.fitFor(u, ki)
	if f == nil {
		return nil
	}
	k := v.Rep.K[ki]
	out := make([]SplitRow, len(f.Ranking))
	for pos, j := range f.Ranking {
		r := SplitRow{Rank: pos + 1, Feature: j, Name: v.Rep.Features[j], InTopK: pos < k}
		if j < len(f.Scores) {
			r.Score = chart.Num(f.Scores[j])
		}
		if v.Truth != nil {
			r.Truth = v.Truth.Kind(r.Name)
		}
		out[pos] = r
	}
	return out
}

// unit returns variant vi's unit on split s, or nil.
func (v *EvalView) unit(vi, s int) *api.UnitResult {
	if vi < 0 || vi >= len(v.Rep.Results) {
		return nil
	}
	for _, u := range v.Rep.Results[vi].Units {
		if u.Split == s {
			return u
		}
	}
	return nil
}

// classColumns names W's columns: the classes when there is one column per
// class, else w1, w2, ….
func (v *EvalView) classColumns(c int) []string {
	if len(v.Rep.Dataset.Classes) == c {
		return v.Rep.Dataset.Classes
	}
	cols := make([]string, c)
	for i := range cols {
		cols[i] = "w" + strconv.Itoa(i+1)
	}
	return cols
}

// WeightsChart is the heat map of |W| of variant vi's top rows on split s
// (its fit for K index ki); ok is false when that fit recorded none.
func (v *EvalView) WeightsChart(vi, s, ki int) (Figure, bool) {
	u := v.unit(vi, s)
	if u == nil {
		return Figure{}, false
	}
	f := v.fitFor(u, ki)
	if f == nil || f.Weights == nil || len(f.Weights.Rows) == 0 || len(f.Weights.Abs) == 0 {
		return Figure{}, false
	}
	w := f.Weights
	c := chart.NewHeatMap(chart.Frame{ID: "weights", Title: fmt.Sprintf("|W| of the top %d features — %s, split %d", len(w.Rows), v.Labels[vi], s+1)})
	c.Min = 0
	for i, j := range w.Rows {
		name := strconv.Itoa(j)
		if j >= 0 && j < len(v.Rep.Features) {
			name = v.Rep.Features[j]
		}
		if v.Truth != nil && v.Truth.Kind(name) == Informative {
			name = "★ " + name
		}
		c.Rows = append(c.Rows, name)
		c.Values = append(c.Values, w.Abs[i])
	}
	c.Cols = v.classColumns(len(w.Abs[0]))
	note := "Rows: the split's top features; columns: W's columns (the classes)."
	if v.Truth != nil {
		note += " ★ marks an informative feature."
	}
	return Figure{c.ID, c.Title, c.SVG(), note}, true
}

// PerClass returns, for a method that selects per class (exl21, elasso),
// the top n features of each class on split s: the classes and, per rank,
// one feature name per class; nil otherwise.
func (v *EvalView) PerClass(vi, s, ki, n int) (classes []string, rows [][]string) {
	u := v.unit(vi, s)
	if u == nil {
		return nil, nil
	}
	f := v.fitFor(u, ki)
	if f == nil || len(f.PerClass) == 0 {
		return nil, nil
	}
	classes = v.classColumns(len(f.PerClass))
	depth := 0
	for _, r := range f.PerClass {
		depth = max(depth, min(n, len(r)))
	}
	for i := 0; i < depth; i++ {
		row := make([]string, len(f.PerClass))
		for q, r := range f.PerClass {
			if i < len(r) && r[i] >= 0 && r[i] < len(v.Rep.Features) {
				row[q] = v.Rep.Features[r[i]]
			}
		}
		rows = append(rows, row)
	}
	return classes, rows
}

// FrequencyCSV writes a ranking across the splits: rank, feature, 0-based
// index, the number of splits whose top K hold it, the mean rank and the
// mean score (and the feature's role, for synthetic data).
func FrequencyCSV(rows []FreqRow, k int, truth bool) string {
	var b strings.Builder
	head := []string{"rank", "feature", "index", "in_top_" + strconv.Itoa(k) + "_of_splits", "splits", "mean_rank", "mean_score"}
	if truth {
		head = append(head, "truth")
	}
	w := csv.NewWriter(&b)
	w.Write(head)
	for _, r := range rows {
		rec := []string{strconv.Itoa(r.Rank), r.Name, strconv.Itoa(r.Feature), strconv.Itoa(r.Count), strconv.Itoa(r.Splits),
			strconv.FormatFloat(r.MeanRank, 'g', -1, 64), scoreText(r.MeanScore)}
		if truth {
			rec = append(rec, r.Truth)
		}
		w.Write(rec)
	}
	w.Flush()
	return b.String()
}
