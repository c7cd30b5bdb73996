package chart

import (
	"math"
	"reflect"
	"testing"
)

// Two classes worked by hand: a's values 1, 3, 2 (median 2), b's 10, 4, NaN,
// 6, 8 (median of 4, 6, 8, 10: 7); the axis runs 0 to 10 over the plot's
// 280 px (y 312 to 32 of the 360 px chart), so a median of 2 sits at
// 312 − 2·28 = 256 and 7 at 116.
func TestStripChart(t *testing.T) {
	c := &StripChart{Frame: Frame{ID: "v", Title: "f by class", YLabel: "value"}, Classes: []string{"a", "b"},
		Values: [][]float64{{1, 3, 2}, {10, 4, math.NaN(), 6, 8}}}
	root := parse(t, c.SVG())
	if dots := root.find("circle", "dot"); len(dots) != 7 {
		t.Errorf("%d dots, want 7 (the NaN left out)", len(dots))
	}
	meds := root.find("line", "median")
	if len(meds) != 2 || meds[0].attr("y1") != "256" || meds[1].attr("y1") != "116" || meds[1].title() != "b: median 7" {
		t.Errorf("medians %v %v", meds[0].Attrs, meds[1].Attrs)
	}
	want := Table{Head: []string{"class", "samples", "minimum", "median", "mean", "maximum"},
		Rows: [][]string{{"a", "3", "1", "2", "2", "3"}, {"b", "4", "4", "7", "7", "10"}}}
	if got := c.Table(); !reflect.DeepEqual(got, want) {
		t.Errorf("table %q", got)
	}
	for i := 0; i < 100; i++ {
		if j := jitter(i); j < -0.5 || j >= 0.5 {
			t.Fatalf("jitter(%d) = %v", i, j)
		}
	}
}
