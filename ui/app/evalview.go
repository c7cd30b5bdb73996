package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sparsefs/core/plan"
	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
)

// Shown reports whether there is an evaluation to show.
func (ev *Eval) Shown() bool { return ev.ev != nil }

// view is the evaluation's view, rebuilt when units have arrived (nil
// before the plan has answered).
func (ev *Eval) view() *lab.EvalView {
	e := ev.ev
	if e == nil || e.run == nil {
		return nil
	}
	if ev.DetailReady() && ev.dv >= 0 && ev.dv < len(e.run.Plan.Header.Variants) && e.run.Full(ev.dv) {
		e.dirty = true // the details of the selector shown, read in full
	}
	if ev.DetailReady() && ev.comparing {
		for v := range e.run.Plan.Header.Variants {
			if e.run.Full(v) {
				e.dirty = true // every selector, for the comparison
			}
		}
	}
	if e.view == nil || e.dirty {
		e.view = lab.NewEvalView(e.run.View(), e.truth)
		e.view.Hidden = ev.hiddenRows(e.view.Labels)
		e.dirty = false
		if ev.dk < 0 || ev.dk >= len(e.view.Rep.K) {
			ev.dk = defaultK(e.view.Rep.K)
		}
	}
	return e.view
}

// HasResults reports whether the evaluation has results to show (its plan
// has answered).
func (ev *Eval) HasResults() bool { return ev.view() != nil }

// defaultK is the index of the K the details show first: the largest K up
// to 20, or the smallest.
func defaultK(ks []int) int {
	best := 0
	for i, k := range ks {
		if k <= 20 {
			best = i
		}
	}
	return best
}

// refreshCharts rebuilds the evaluation's charts.
// convEvery is how often a run's convergence charts are drawn again.
const convEvery = 2 * time.Second

func (ev *Eval) refreshCharts() {
	a := ev.a
	a.charts, ev.detailCharts, ev.compareCharts = nil, nil, nil
	v := ev.view()
	if v == nil || v.UnitsDone() == 0 {
		return
	}
	add := func(list *[]Chart, f lab.Figure) { *list = append(*list, NewChart(f)) }
	for _, f := range v.AccuracyCharts() {
		add(&a.charts, f)
	}
	if f, ok := v.TruthChart(); ok {
		add(&a.charts, f)
	}
	if f, ok := v.StabilityChart(); ok {
		add(&a.charts, f)
	}
	add(&a.charts, v.RedundancyChart())
	if f, ok := v.SparsityChart(); ok {
		add(&a.charts, f)
	}
	add(&a.charts, v.TimeChart())
	if !a.Running() || ev.convCharts == nil || a.now().Sub(ev.convAt) >= convEvery {
		ev.convCharts, ev.convAt = []Chart{}, a.now()
		for _, f := range v.ConvergenceCharts() {
			add(&ev.convCharts, f)
		}
	}
	a.charts = append(a.charts, ev.convCharts...)
	if f, ok := v.WeightsChart(ev.dv, max(ev.ds, 0), ev.dk); ok {
		add(&ev.detailCharts, f)
	}
	if c := ev.Comparison(); c != nil {
		add(&ev.compareCharts, c.OverlapChart())
		if ev.cmp.values != nil {
			add(&ev.compareCharts, ev.cmp.values.Chart())
		}
	}
}

// Summary is the line above the results table.
func (ev *Eval) Summary() string {
	v := ev.view()
	if v == nil {
		return ""
	}
	r := v.Rep
	p := r.Request.Eval
	proto := fmt.Sprintf("%d-fold cross-validation", p.Protocol.Folds)
	if p.Protocol.Kind == "holdout" {
		proto = fmt.Sprintf("%d holdout splits (%.0f%% training)", p.Protocol.Repeats, 100*p.Protocol.Train)
	}
	s := fmt.Sprintf("%s (%d samples × %d features) · %s · seed %d · %s · K = %s", r.Dataset.Name, r.Dataset.Samples, r.Dataset.Features,
		proto, p.Seed, strings.Join(r.Classifiers, ", "), plan.Text(r.K))
	if len(p.Tune) > 0 {
		s += " · tuned by inner cross-validation: " + plan.GridsText(p.Tune)
	}
	total := len(r.Results) * len(r.Splits)
	if done := v.UnitsDone(); done < total {
		s += fmt.Sprintf(" · partial: %d of %d units, the means are over the splits done", done, total)
	}
	return s
}

// Warnings are the evaluation's warnings, each once.
func (ev *Eval) Warnings() []string {
	v := ev.view()
	if v == nil {
		return nil
	}
	var out []string
	for _, w := range v.Rep.Warnings {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// Table is the results table: its head and rows.
func (ev *Eval) Table() (head []string, rows []lab.TableRow) {
	if v := ev.view(); v != nil {
		return v.Table()
	}
	return nil, nil
}

// TableHead and TableRows are Table's parts.
func (ev *Eval) TableHead() []string       { h, _ := ev.Table(); return h }
func (ev *Eval) TableRows() []lab.TableRow { _, r := ev.Table(); return r }

// Variant is the row (variant) the details show; KIndex the index of
// their K in KList; Split their split (−1: across the splits).
func (ev *Eval) Variant() int { return ev.dv }
func (ev *Eval) KIndex() int  { return ev.dk }
func (ev *Eval) Split() int   { return ev.ds }

// SetVariant, SetK and SetSplit choose what the ranking table, the
// per-class table and the heat map show: a row of the results table, the
// index of K in KList, a split (−1: across the splits).
func (ev *Eval) SetVariant(v int) {
	ev.dv = v
	ev.refreshCharts()
}

func (ev *Eval) SetK(k int) {
	ev.dk = k
	ev.refreshCharts()
}

func (ev *Eval) SetSplit(s int) {
	ev.ds = s
	ev.refreshCharts()
}

// VariantLabels name the rows of the results.
func (ev *Eval) VariantLabels() []string {
	if v := ev.view(); v != nil {
		return v.Labels
	}
	return nil
}

// KList is the evaluation's list of K.
func (ev *Eval) KList() []int {
	if v := ev.view(); v != nil {
		return v.Rep.K
	}
	return nil
}

// Splits counts the evaluation's splits.
func (ev *Eval) Splits() int {
	if v := ev.view(); v != nil {
		return len(v.Rep.Splits)
	}
	return 0
}

// SplitIndices are 0 … Splits−1.
func (ev *Eval) SplitIndices() []int {
	out := make([]int, ev.Splits())
	for i := range out {
		out[i] = i
	}
	return out
}

// Features counts the features of the data evaluated.
func (ev *Eval) Features() int {
	if v := ev.view(); v != nil {
		return len(v.Rep.Features)
	}
	return 0
}

// DetailK is the K the details use.
func (ev *Eval) DetailK() int {
	ks := ev.KList()
	if ev.dk >= 0 && ev.dk < len(ks) {
		return ks[ev.dk]
	}
	return 0
}

// RankRow is one line of the evaluation's ranking table.
type RankRow struct {
	Rank, Column               int
	Name, Score, Freq, MeanRnk string
	// Truth is a generated feature's role, TruthClass its cell's class.
	Truth, TruthClass string
}

func truthText(kind string) (string, string) {
	switch kind {
	case lab.Informative:
		return "★ informative", "truth informative"
	case lab.Redundant:
		return "redundant", "truth redundant"
	case lab.Irrelevant:
		return "irrelevant", "truth irrelevant"
	}
	return "", "truth"
}

// Ranking is the chosen selector's features (the first Shown): across the
// splits (by how many splits' top K hold them), or one split's own
// ranking.
func (ev *Eval) Ranking() []RankRow {
	v := ev.view()
	if v == nil || ev.dv < 0 || ev.dv >= len(v.Rep.Results) {
		return nil
	}
	shown := ev.a.shown
	var out []RankRow
	if ev.ds < 0 {
		for _, r := range v.Frequency(ev.dv, ev.dk) {
			if len(out) == shown {
				break
			}
			row := RankRow{Rank: r.Rank, Column: r.Feature, Name: r.Name, Score: chart.Num(r.MeanScore),
				Freq: fmt.Sprintf("%d / %d", r.Count, r.Splits), MeanRnk: strconv.FormatFloat(r.MeanRank, 'f', 1, 64)}
			row.Truth, row.TruthClass = truthText(r.Truth)
			out = append(out, row)
		}
		return out
	}
	for _, r := range v.SplitRanking(ev.dv, ev.ds, ev.dk) {
		if len(out) == shown {
			break
		}
		row := RankRow{Rank: r.Rank, Column: r.Feature, Name: r.Name, Score: r.Score}
		if r.InTopK {
			row.Freq = "yes"
		}
		row.Truth, row.TruthClass = truthText(r.Truth)
		out = append(out, row)
	}
	return out
}

// PerClass is the chosen selector's per-class selection (exl21, elasso) on
// the chosen split (the first, when the table shows all splits): the
// classes, and for each rank the feature each class puts there.
func (ev *Eval) PerClass() (classes []string, rows [][]string) {
	v := ev.view()
	if v == nil {
		return nil, nil
	}
	return v.PerClass(ev.dv, max(ev.ds, 0), ev.dk, min(ev.a.shown, 20))
}

// PerClassHead and PerClassRows are PerClass's parts.
func (ev *Eval) PerClassHead() []string   { h, _ := ev.PerClass(); return h }
func (ev *Eval) PerClassRows() [][]string { _, r := ev.PerClass(); return r }

// DetailCharts are the charts of the details (the |W| heat map).
func (ev *Eval) DetailCharts() []Chart { return ev.detailCharts }

// DetailReady reports whether the details can be shown: the rankings are
// read once the run has ended and its results are drawn.
func (ev *Eval) DetailReady() bool { return ev.ev != nil && !ev.ev.busy() && !ev.ev.detailsLater }

// HasTruth reports whether the data evaluated were generated (their
// features' roles are known).
func (ev *Eval) HasTruth() bool { return ev.ev != nil && ev.ev.truth != nil }

// canSave reports whether the report's JSON has come.
func (ev *Eval) canSave() bool {
	return ev.ev != nil && ev.ev.run != nil && ev.ev.run.ReportJSON != nil
}
