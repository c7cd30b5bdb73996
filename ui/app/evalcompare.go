package app

import (
	"strconv"

	"sparsefs/api"
	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
)

// The selectors of an evaluation compared (lab.Comparison) at the K of
// the details: side by side, their overlap, a consensus ranking. Shown on
// request: it reads every selector's rankings in full.

// comparison remembers the last comparison and what it was made of, and
// the feature whose values by class are shown.
type comparison struct {
	of   *evalState // the evaluation compared
	view *lab.EvalView
	k    int
	c    *lab.Comparison
	// feature is the feature asked for (−1: none yet), values its values
	// once a worker has read them.
	feature int
	values  *lab.FeatureValues
}

// CanCompare reports whether the selectors can be compared: the run has
// ended and at least two selectors have results.
func (ev *Eval) CanCompare() bool {
	v := ev.view()
	if v == nil || !ev.DetailReady() {
		return false
	}
	n := 0
	for _, vr := range v.Rep.Results {
		if len(vr.Units) > 0 && vr.Kind != api.FixedKind {
			n++
		}
	}
	return n >= 2
}

// Comparing reports whether the comparison is shown.
func (ev *Eval) Comparing() bool { return ev.comparing && ev.CanCompare() }

// SetCompare shows or hides the comparison; shown the first time, it
// asks for the values of the consensus's first feature.
func (ev *Eval) SetCompare(on bool) {
	ev.comparing = on
	ev.refreshCharts()
	if c := ev.Comparison(); c != nil && ev.cmp.feature == 0 && len(c.Consensus) > 0 {
		ev.ShowValues(c.Consensus[0].Feature)
	}
}

// ValuesChoices are the features offered for their values by class: the
// consensus's first 200, in its order.
func (ev *Eval) ValuesChoices() []lab.ConsensusRow {
	c := ev.Comparison()
	if c == nil {
		return nil
	}
	return c.Consensus[:min(200, len(c.Consensus))]
}

// ValuesFeature is the feature whose values by class are shown or asked
// for (−1: none).
func (ev *Eval) ValuesFeature() int {
	if ev.cmp.values != nil {
		return ev.cmp.values.Feature
	}
	return ev.cmp.feature - 1
}

// ShowValues asks a worker for feature j's values in the data open (the
// data evaluated) and shows them by class.
func (ev *Eval) ShowValues(j int) {
	a := ev.a
	v := ev.view()
	if v == nil || j < 0 || j >= len(v.Rep.Features) || !a.CanReduce() {
		return
	}
	ev.cmp.feature, ev.cmp.values = j+1, nil
	e := ev.ev
	classes := v.Rep.Dataset.Classes
	a.reduce(e.cfg, []int{j}, "Cannot read the feature's values: ", func(out api.Reduced) {
		if ev.ev != e || ev.cmp.feature != j+1 {
			return // another evaluation, or another feature asked for since
		}
		fv, err := lab.ReadFeatureValues(j, out.CSV, classes)
		if err != nil {
			a.fail(Elsewhere, "Cannot read the feature's values: "+err.Error())
			return
		}
		ev.cmp.values = fv
		ev.refreshCharts()
	})
}

// Comparison is the comparison shown (nil when none).
func (ev *Eval) Comparison() *lab.Comparison {
	if !ev.Comparing() {
		return nil
	}
	v := ev.view()
	if ev.cmp.of != ev.ev {
		ev.cmp = comparison{of: ev.ev}
	}
	if ev.cmp.view != v || ev.cmp.k != ev.dk {
		ev.cmp.view, ev.cmp.k, ev.cmp.c = v, ev.dk, v.Compare(ev.dk)
	}
	return ev.cmp.c
}

// CompareLabels are the selectors compared.
func (ev *Eval) CompareLabels() []string {
	if c := ev.Comparison(); c != nil {
		return c.Labels
	}
	return nil
}

// CompareTop is the side-by-side table of the selectors' top K.
func (ev *Eval) CompareTop() [][]string {
	if c := ev.Comparison(); c != nil {
		return c.Top()
	}
	return nil
}

// OverlapRows are the overlap heat map's values as a table: a selector's
// label, then its Jaccard index with each selector.
func (ev *Eval) OverlapRows() [][]string {
	c := ev.Comparison()
	if c == nil {
		return nil
	}
	out := make([][]string, len(c.Labels))
	for a, l := range c.Labels {
		out[a] = []string{l}
		for b := range c.Labels {
			out[a] = append(out[a], strconv.FormatFloat(c.Overlap[a][b], 'f', 2, 64))
		}
	}
	return out
}

// ConsensusRow is a line of the consensus table, as text.
type ConsensusRow struct {
	Rank, Name, P, InTop string
	Ranks                []string
}

// ConsensusRows are the first Shown features of the consensus ranking.
func (ev *Eval) ConsensusRows() []ConsensusRow {
	c := ev.Comparison()
	if c == nil {
		return nil
	}
	var out []ConsensusRow
	for _, r := range c.Consensus[:min(ev.a.shown, len(c.Consensus))] {
		row := ConsensusRow{Rank: strconv.Itoa(r.Rank), Name: r.Name, P: chart.Num(r.P), InTop: strconv.Itoa(r.InTop) + " / " + strconv.Itoa(len(c.Labels))}
		for _, p := range r.Ranks {
			row.Ranks = append(row.Ranks, strconv.Itoa(p))
		}
		out = append(out, row)
	}
	return out
}

// CompareCharts are the comparison's charts (the overlap heat map).
func (ev *Eval) CompareCharts() []Chart { return ev.compareCharts }

// ExportComparison saves the comparison as CSV.
func (a *App) ExportComparison() {
	if c := a.Eval.Comparison(); c != nil {
		a.b.Download(lab.FileName("selectors", "compared", "top"+strconv.Itoa(c.K))+".csv", "text/csv", c.CSV())
	}
}
