package chart

import (
	"strconv"
	"strings"
	"testing"
)

// Ten series on one chart: each line is told apart by its colour, dash
// and point shape read back from the markup (no two of the ten share
// all three, and two of one colour differ in both others); every band
// lies beneath every line, faintly; a hidden series draws nothing but
// keeps its legend entry, and leaves the y axis to the others.
func TestTenSeriesApart(t *testing.T) {
	c := NewLineChart(Frame{ID: "ten", Title: "ten"})
	for i := 0; i < 10; i++ {
		y := float64(i)
		c.Series = append(c.Series, Series{Name: "m" + strconv.Itoa(i), X: []float64{1, 2}, Y: []float64{y, y + 1},
			Lo: []float64{y - 0.5, y + 0.5}, Hi: []float64{y + 0.5, y + 1.5}})
	}
	root := parse(t, c.SVG())
	lines := root.find("path", "line")
	if len(lines) != 10 {
		t.Fatalf("%d lines", len(lines))
	}
	type look struct{ colour, dash, shape string }
	looks := make([]look, 10)
	for i, l := range lines {
		looks[i].colour, looks[i].dash = l.attr("stroke"), l.attr("stroke-dasharray")
	}
	for i := range looks {
		marks := root.find("", "s"+strconv.Itoa(i%len(Palette)))
		var shape string
		for _, m := range marks {
			if m.hasClass("mark") && strings.HasPrefix(m.title(), "m"+strconv.Itoa(i)+":") {
				shape = m.XMLName.Local
				if shape == "path" {
					shape += " " + strconv.Itoa(strings.Count(m.attr("d"), "L")+strings.Count(m.attr("d"), "H")+strings.Count(m.attr("d"), "V")+strings.Count(m.attr("d"), "h"))
				}
				if m.attr("fill") != looks[i].colour {
					t.Errorf("series %d: point fill %s, line %s", i, m.attr("fill"), looks[i].colour)
				}
				break
			}
		}
		if shape == "" {
			t.Fatalf("series %d has no point", i)
		}
		looks[i].shape = shape
	}
	for i := range looks {
		for j := i + 1; j < len(looks); j++ {
			a, b := looks[i], looks[j]
			if a == b {
				t.Errorf("series %d and %d look alike: %v", i, j, a)
			}
			if a.colour == b.colour && (a.dash == b.dash || a.shape == b.shape) {
				t.Errorf("series %d and %d share a colour and also %v / %v", i, j, a, b)
			}
		}
	}
	// The bands come before (beneath) the first line, each faint.
	markup := c.SVG()
	if last, first := strings.LastIndex(markup, `class="band`), strings.Index(markup, `class="line`); last < 0 || last > first {
		t.Errorf("a band is drawn over a line (last band at %d, first line at %d)", last, first)
	}
	for _, b := range root.find("path", "band") {
		if op, _ := strconv.ParseFloat(b.attr("fill-opacity"), 64); op <= 0 || op > 0.1 {
			t.Errorf("band opacity %v with ten series", op)
		}
	}

	// Hide the top series (y up to 10.5): no line, no point, the legend
	// says hidden, the y axis ends lower.
	c.Series[9].Hidden = true
	root = parse(t, c.SVG())
	if n := len(root.find("path", "line")); n != 9 {
		t.Errorf("%d lines with one hidden", n)
	}
	for _, m := range root.find("", "mark") {
		if strings.HasPrefix(m.title(), "m9:") {
			t.Error("a hidden series' point is drawn")
		}
	}
	var legend []string
	for _, tx := range root.find("text", "legend-text") {
		legend = append(legend, tx.title())
	}
	if len(legend) != 10 || legend[9] != "m9 (hidden)" {
		t.Errorf("legend %q", legend)
	}
	if got := ticks(root, "y-axis", false); !strings.HasSuffix(got, " 10") {
		t.Errorf("y ticks with m9 hidden %q, want them to end at 10 (m8's band reaches 9.5)", got)
	}
}

// Bands fade as series are added, from 0.15 to 0.06.
func TestBandOpacity(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{{1, 0.15}, {2, 0.15}, {3, 0.1}, {5, 0.06}, {10, 0.06}} {
		if got := bandOpacity(c.n); !near(got, c.want) {
			t.Errorf("bandOpacity(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}
