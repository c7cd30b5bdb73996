package app

import (
	"fmt"

	"sparsefs/ui/chart"
)

// What sits above an evaluation's charts: the summary in words and the
// legend of the selectors, whose buttons hide or show a selector's lines
// on every chart.

// Findings are the summary's sentences (lab.EvalView.Summary): which
// selector is best, with how many features, against all the features,
// how stable.
func (ev *Eval) Findings() []string {
	v := ev.view()
	if v == nil {
		return nil
	}
	var out []string
	for _, f := range v.Summary() {
		out = append(out, f.Text)
	}
	return out
}

// TableNote names the values of K the results table leaves out.
func (ev *Eval) TableNote() string {
	if v := ev.view(); v != nil {
		return v.TableNote()
	}
	return ""
}

// LegendEntry is a selector in the charts' legend: its label, the look
// of its lines (colour, dash pattern, point shape, as chart draws series
// Index) and whether it is hidden.
type LegendEntry struct {
	Index               int
	Label               string
	Colour, Dash, Shape string
	Hidden              bool
	// Class colours the sample ("swatch s0" … "swatch s7"), Glyph draws
	// the point's shape as a character.
	Class, Glyph string
}

// glyphs are characters of chart's point shapes.
var glyphs = map[string]string{"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆", "triangle-down": "▼", "cross": "✚"}

// Legend lists the selectors of the charts, in the charts' order.
func (ev *Eval) Legend() []LegendEntry {
	v := ev.view()
	if v == nil {
		return nil
	}
	out := make([]LegendEntry, len(v.Labels))
	for i, l := range v.Labels {
		out[i] = LegendEntry{Index: i, Label: l, Colour: chart.Palette[i%len(chart.Palette)], Dash: chart.Dash(i), Shape: chart.Shape(i), Hidden: ev.hidden[l],
			Class: fmt.Sprintf("swatch s%d", i%len(chart.Palette)), Glyph: glyphs[chart.Shape(i)]}
	}
	return out
}

// ToggleSeries hides selector i's lines on the charts, or shows them
// again.
func (ev *Eval) ToggleSeries(i int) {
	v := ev.view()
	if v == nil || i < 0 || i >= len(v.Labels) {
		return
	}
	if ev.hidden == nil {
		ev.hidden = map[string]bool{}
	}
	l := v.Labels[i]
	ev.hidden[l] = !ev.hidden[l]
	v.Hidden = ev.hiddenRows(v.Labels)
	ev.refreshCharts()
}

// hiddenRows are the rows whose label is hidden.
func (ev *Eval) hiddenRows(labels []string) map[int]bool {
	out := map[int]bool{}
	for i, l := range labels {
		if ev.hidden[l] {
			out[i] = true
		}
	}
	return out
}
