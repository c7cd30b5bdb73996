package chart

import (
	"math"
	"reflect"
	"testing"
)

// Each chart's values as a table: the numbers the marks stand for.
func TestTables(t *testing.T) {
	l := NewLineChart(Frame{XLabel: "features kept (K)", YLabel: "Accuracy (%)"})
	l.HoverX = "K"
	l.Series = []Series{
		{Name: "a", X: []float64{1, 2}, Y: []float64{90, 95}, Lo: []float64{85, 94}, Hi: []float64{95, 96}},
		{Name: "b", X: []float64{2, 3}, Y: []float64{80, math.NaN()}},
		{Name: "hidden", X: []float64{1}, Y: []float64{1}, Hidden: true},
	}
	want := Table{Head: []string{"K", "a", "b"}, Rows: [][]string{{"1", "90 (85 to 95)", "—"}, {"2", "95 (94 to 96)", "80"}, {"3", "—", "—"}}}
	if got := l.Table(); !reflect.DeepEqual(got, want) {
		t.Errorf("line chart table %q", got)
	}
	b := &BarChart{Frame: Frame{XLabel: "seconds"}, Categories: []string{"x", "y"},
		Series: []BarSeries{{Name: "", Values: []float64{1.5, math.Inf(1)}, Err: []float64{0.25, 0}}}}
	if got := b.Table(); !reflect.DeepEqual(got, Table{Head: []string{"", "seconds"}, Rows: [][]string{{"x", "1.5 ± 0.25"}, {"y", "∞"}}}) {
		t.Errorf("bar chart table %q", got)
	}
	h := NewHeatMap(Frame{})
	h.Rows, h.Cols, h.Values = []string{"r"}, []string{"c1", "c2"}, [][]float64{{0.5, math.NaN()}}
	if got := h.Table(); !reflect.DeepEqual(got, Table{Head: []string{"", "c1", "c2"}, Rows: [][]string{{"r", "0.5", "—"}}}) {
		t.Errorf("heat map table %q", got)
	}
}
