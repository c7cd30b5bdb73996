package lab

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/core/stats"
	"sparsefs/ui/chart"
)

// The selectors of an evaluation side by side at one K. An evaluation
// never fits a selector on all the data, so each selector's list is its
// ranking across the splits (Frequency): the features most often in the
// splits' top K, ties broken by the mean rank over the splits. That is
// the list the evaluation measured, and it shows how firmly each feature
// was chosen; a fit on all the data would be one more fit, and its list
// one that no accuracy of the table belongs to.

// Comparison holds the selectors compared at K.
type Comparison struct {
	K int
	// Variants are the rows of the report compared (those with units, the
	// fixed subset left out), Labels their names.
	Variants []int
	Labels   []string
	// Rankings[c] is selector c's ranking across the splits.
	Rankings [][]FreqRow
	// Overlap[a][b] is the Jaccard index of selectors a's and b's top K.
	Overlap [][]float64
	// Consensus aggregates the selectors' rankings by robust rank
	// aggregation (stats.Aggregate, as the consensus method does).
	Consensus []ConsensusRow
}

// ConsensusRow is one feature of the consensus ranking.
type ConsensusRow struct {
	Rank, Feature int
	Name          string
	// P is robust rank aggregation's p-value: how unlikely positions this
	// good would be if the selectors ranked at random.
	P float64
	// Ranks are the feature's places in each selector's ranking; InTop
	// counts the selectors whose top K hold it.
	Ranks []int
	InTop int
}

// Compare compares the selectors at K index ki (nil with fewer than two
// selectors that have finished units).
func (v *EvalView) Compare(ki int) *Comparison {
	if ki < 0 || ki >= len(v.Rep.K) {
		return nil
	}
	c := &Comparison{K: v.Rep.K[ki]}
	for i, vr := range v.Rep.Results {
		if len(vr.Units) > 0 && vr.Kind != api.FixedKind {
			c.Variants = append(c.Variants, i)
			c.Labels = append(c.Labels, v.Labels[i])
			c.Rankings = append(c.Rankings, v.Frequency(i, ki))
		}
	}
	if len(c.Variants) < 2 {
		return nil
	}
	n := len(v.Rep.Features)
	orders := make([][]int, len(c.Rankings))
	tops := make([][]int, len(c.Rankings))
	place := make([][]int, len(c.Rankings)) // place[c][j]: feature j's rank in selector c's ranking
	for s, rows := range c.Rankings {
		place[s] = make([]int, n)
		for _, r := range rows {
			orders[s] = append(orders[s], r.Feature)
			place[s][r.Feature] = r.Rank
		}
		tops[s] = orders[s][:min(c.K, len(orders[s]))]
	}
	c.Overlap = Jaccard(tops)
	order, _, p := stats.Aggregate(orders, n, false)
	for rank, j := range order {
		row := ConsensusRow{Rank: rank + 1, Feature: j, Name: v.Rep.Features[j], P: p[j]}
		for s := range c.Rankings {
			row.Ranks = append(row.Ranks, place[s][j])
			if place[s][j] > 0 && place[s][j] <= c.K {
				row.InTop++
			}
		}
		c.Consensus = append(c.Consensus, row)
	}
	return c
}

// Top is the side-by-side table: row r holds, for each selector, its
// (r+1)-th feature with the number of splits whose top K held it.
func (c *Comparison) Top() [][]string {
	out := make([][]string, c.K)
	for r := range out {
		for _, rows := range c.Rankings {
			cell := ""
			if r < len(rows) {
				cell = fmt.Sprintf("%s (%d/%d)", rows[r].Name, rows[r].Count, rows[r].Splits)
			}
			out[r] = append(out[r], cell)
		}
	}
	return out
}

// OverlapChart is the heat map of the selectors' overlap.
func (c *Comparison) OverlapChart() Figure {
	h := chart.NewHeatMap(chart.Frame{ID: "compare-overlap", Title: fmt.Sprintf("Overlap of the selectors' top %d features (Jaccard index)", c.K)})
	h.Min, h.Max = 0, 1
	h.ShowValues = len(c.Labels) <= 12
	h.Format = func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	h.Rows, h.Cols, h.Values = c.Labels, c.Labels, c.Overlap
	return NewFigure(h.ID, h.Title, h, "Shared features ÷ features in either list: 1 when two selectors keep the same K features, 0 when they share none.")
}

// CSV writes the comparison: every feature in consensus order with its
// consensus p-value, how many selectors' top K hold it, and for each
// selector its rank and the splits whose top K held it.
func (c *Comparison) CSV() string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	head := []string{"consensus_rank", "feature", "index", "consensus_p", "in_top_" + strconv.Itoa(c.K) + "_of_selectors"}
	for _, l := range c.Labels {
		head = append(head, l+" rank", l+" splits")
	}
	w.Write(head)
	count := make([]map[int]int, len(c.Rankings))
	for s, rows := range c.Rankings {
		count[s] = map[int]int{}
		for _, r := range rows {
			count[s][r.Feature] = r.Count
		}
	}
	for _, r := range c.Consensus {
		rec := []string{strconv.Itoa(r.Rank), r.Name, strconv.Itoa(r.Feature), strconv.FormatFloat(r.P, 'g', 6, 64), strconv.Itoa(r.InTop)}
		for s, place := range r.Ranks {
			rec = append(rec, strconv.Itoa(place), strconv.Itoa(count[s][r.Feature]))
		}
		w.Write(rec)
	}
	w.Flush()
	return b.String()
}
