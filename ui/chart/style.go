package chart

import (
	"math"
	"strconv"
)

// How one series looks: its colour, its line's dash pattern and the shape
// of its points. The three cycle with different periods, so that among
// the first 24 series no two share all three, and two that share a
// colour (series i and i + 8) differ in dash and shape: ten selectors on
// one chart stay apart in print, in grey and for colour-blind readers.

// Palette holds the series colours (Okabe & Ito's colour-blind-safe set,
// without its black and yellow, which vanish on one of the themes).
var Palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C6D31", "#999999"}

// dashes are the lines' dash patterns (stroke-dasharray; "" is solid).
var dashes = []string{"", "6 3", "2 3", "8 3 2 3", "12 4"}

// Shapes are the names of the points' shapes, in the order series take
// them.
var Shapes = []string{"circle", "square", "triangle", "diamond", "triangle-down", "cross"}

// seriesClass is the class of series i ("s0" … "s7", cycling with the
// colours).
func seriesClass(i int) string { return "s" + strconv.Itoa(i%len(Palette)) }

func seriesColour(i int) string { return Palette[i%len(Palette)] }

// Dash is series i's dash pattern ("" for a solid line).
func Dash(i int) string { return dashes[i%len(dashes)] }

// Shape is the shape of series i's points.
func Shape(i int) string { return Shapes[i%len(Shapes)] }

// dashAttr is series i's stroke-dasharray attribute ("" when solid).
func dashAttr(i int) string {
	if d := Dash(i); d != "" {
		return ` stroke-dasharray="` + d + `"`
	}
	return ""
}

// bandOpacity is the opacity of a band when n series share the chart:
// faint enough that overlapping bands never hide a line (0.15 for one or
// two, down to 0.06 for eight or more).
func bandOpacity(n int) float64 {
	return math.Max(0.06, math.Min(0.15, 0.3/float64(max(n, 1))))
}

// swatchWidth is the width of a legend's sample of a series.
func swatchWidth(line bool) float64 {
	if line {
		return 22
	}
	return 14
}

// marker draws series i's point at (x, y), of about 7 px across, with
// its hover text; a point of the plot has the class "mark", a legend's
// sample (label "") the class "swatch", and both the series' class.
func (b *svg) marker(i int, x, y float64, label string) {
	cls, col := "mark "+seriesClass(i), seriesColour(i)
	title := ""
	if label != "" {
		title = "<title>" + esc(label) + "</title>"
	} else {
		cls = "swatch " + seriesClass(i)
	}
	const r = 3.5
	var d string
	switch Shape(i) {
	case "circle":
		b.printf(`<circle class="%s" cx="%s" cy="%s" r="3" fill="%s">%s</circle>`, cls, f(x), f(y), col, title)
		return
	case "square":
		d = "M" + f(x-r+0.5) + " " + f(y-r+0.5) + "h" + f(2*r-1) + "v" + f(2*r-1) + "h" + f(1-2*r) + "Z"
	case "triangle":
		d = "M" + f(x) + " " + f(y-r-0.5) + "L" + f(x+r) + " " + f(y+r-0.5) + "L" + f(x-r) + " " + f(y+r-0.5) + "Z"
	case "diamond":
		d = "M" + f(x) + " " + f(y-r-0.5) + "L" + f(x+r+0.5) + " " + f(y) + "L" + f(x) + " " + f(y+r+0.5) + "L" + f(x-r-0.5) + " " + f(y) + "Z"
	case "triangle-down":
		d = "M" + f(x) + " " + f(y+r+0.5) + "L" + f(x+r) + " " + f(y-r+0.5) + "L" + f(x-r) + " " + f(y-r+0.5) + "Z"
	default: // cross
		const a, w = 3.5, 1.2
		d = "M" + f(x-a) + " " + f(y-w) + "H" + f(x-w) + "V" + f(y-a) + "H" + f(x+w) + "V" + f(y-w) + "H" + f(x+a) +
			"V" + f(y+w) + "H" + f(x+w) + "V" + f(y+a) + "H" + f(x-w) + "V" + f(y+w) + "H" + f(x-a) + "Z"
	}
	b.printf(`<path class="%s" d="%s" fill="%s">%s</path>`, cls, d, col, title)
}
