package chart

import (
	"cmp"
	"math"
	"strings"
)

// Series is one line of a line chart: points (X[i], Y[i]) joined in order,
// a gap wherever Y is NaN, and optionally a band from Lo to Hi (mean ± std)
// drawn beneath it.
type Series struct {
	Name   string
	X, Y   []float64
	Lo, Hi []float64
	// Hidden leaves the series out of the plot (its legend entry stays,
	// struck through, and its colour and shape stay its own).
	Hidden bool
}

// LineChart plots series against a shared x axis: accuracy against the
// number of features K (mean ± std over splits), the objective against
// the iteration, a score profile.
type LineChart struct {
	Frame
	Series []Series
	// LogY uses a base-10 scale for y (non-positive values leave gaps).
	LogY bool
	// IntegerX keeps the x ticks on whole numbers.
	IntegerX bool
	// YMin and YMax, if not NaN, fix the y domain (0 and 1 for accuracy).
	YMin, YMax float64
	// Format, if set, writes a y value in a hover label (default Num;
	// x values are always written by Num).
	Format func(float64) string
	// HoverX and HoverY, if set, name x and y in the hover labels
	// (default the axis labels).
	HoverX, HoverY string
}

// NewLineChart returns a chart with an automatic y domain.
func NewLineChart(fr Frame) *LineChart {
	return &LineChart{Frame: fr, YMin: math.NaN(), YMax: math.NaN()}
}

// maxMarks bounds the hover targets of one series (a long trace gets one
// every few points, and its last).
const maxMarks = 120

// domain returns the ranges of the data (bands included).
func (c *LineChart) domain() (x0, x1, y0, y1 float64, ok bool) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	use := func(v float64) bool { return finite(v) && (!c.LogY || v > 0) }
	for _, s := range c.Series {
		if s.Hidden {
			continue
		}
		for i := range s.X {
			if i >= len(s.Y) || !finite(s.X[i]) {
				continue
			}
			vals := []float64{s.Y[i]}
			if i < len(s.Lo) && i < len(s.Hi) {
				vals = append(vals, s.Lo[i], s.Hi[i])
			}
			for _, v := range vals {
				if use(v) {
					ok = true
					x0, x1 = math.Min(x0, s.X[i]), math.Max(x1, s.X[i])
					y0, y1 = math.Min(y0, v), math.Max(y1, v)
				}
			}
		}
	}
	if !math.IsNaN(c.YMin) {
		y0 = c.YMin
	}
	if !math.IsNaN(c.YMax) {
		y1 = c.YMax
	}
	return
}

// SVG renders the chart.
func (c *LineChart) SVG() string {
	w, h := c.size()
	p := plotArea{left: 64, top: 32, right: w - 16, bottom: h - 48}
	items := make([]legendItem, len(c.Series))
	for i, s := range c.Series {
		items[i] = legendItem{s.Name, i, s.Hidden}
	}
	xs, ys, lh := legendLayout(items, p.left, p.right-p.left)
	if len(c.Series) < 2 {
		lh = 0 // one series: the title names it
	}
	var b svg
	b.open(&c.Frame, "line-chart", w, h+lh)
	x0, x1, y0, y1, ok := c.domain()
	if !ok {
		b.text("empty", w/2, h/2, "middle", "no data", "")
		b.close()
		return b.String()
	}
	xs_ := NewLinear(x0, x1, p.left, p.right, 8, c.IntegerX)
	if c.IntegerX && x0 < x1 {
		xs_.D1 = x1 // counts (K, iterations) end where the data end
	}
	var ysc Scale
	if c.LogY {
		ysc = NewLog(y0, y1, p.bottom, p.top)
	} else {
		ysc = NewLinear(y0, y1, p.bottom, p.top, 5, false)
	}
	b.xAxis(p, xs_, c.XLabel)
	b.yAxis(p, ysc, c.YLabel)
	format := c.Format
	if format == nil {
		format = Num
	}
	xl, yl := cmp.Or(c.HoverX, c.XLabel, "x"), cmp.Or(c.HoverY, c.YLabel, "y")
	// The bands first, beneath every line: a band drawn over another
	// series' line would veil it.
	b.WriteString(`<g class="bands">`)
	for i, s := range c.Series {
		if d := bandPath(s, xs_, ysc); d != "" && !s.Hidden {
			b.printf(`<path class="band %s" d="%s" fill="%s" fill-opacity="%s" stroke="none"/>`, seriesClass(i), d, seriesColour(i), f(bandOpacity(len(c.Series))))
		}
	}
	b.WriteString(`</g>`)
	for i, s := range c.Series {
		if s.Hidden {
			continue
		}
		cls, col := seriesClass(i), seriesColour(i)
		b.printf(`<g class="series %s">`, cls)
		if d := linePath(s.X, s.Y, xs_, ysc); d != "" {
			b.printf(`<path class="line %s" d="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"%s/>`, cls, d, col, dashAttr(i))
		}
		every := (len(s.X) + maxMarks - 1) / maxMarks
		for k := range s.X {
			if k >= len(s.Y) || (k%every != 0 && k != len(s.X)-1) {
				continue
			}
			x, y := xs_.Map(s.X[k]), ysc.Map(s.Y[k])
			if !finite(x) || !finite(y) || !finite(s.Y[k]) {
				continue
			}
			label := xl + " " + Num(s.X[k]) + ", " + yl + " " + format(s.Y[k])
			if k < len(s.Lo) && k < len(s.Hi) && finite(s.Lo[k]) && finite(s.Hi[k]) {
				label += " (band " + format(s.Lo[k]) + " to " + format(s.Hi[k]) + ")"
			}
			if s.Name != "" {
				label = s.Name + ": " + label
			}
			b.marker(i, x, y, label)
		}
		b.WriteString(`</g>`)
	}
	if lh > 0 {
		b.legend(items, xs, ys, h-8, true)
	}
	b.close()
	return b.String()
}

// linePath is the path of the points, a new subpath after every gap.
func linePath(xv, yv []float64, xs, ys Scale) string {
	var d strings.Builder
	pen := false
	for i := range xv {
		if i >= len(yv) {
			break
		}
		x, y := xs.Map(xv[i]), ys.Map(yv[i])
		if !finite(xv[i]) || !finite(yv[i]) || !finite(x) || !finite(y) {
			pen = false
			continue
		}
		if pen {
			d.WriteString("L")
		} else {
			if d.Len() > 0 {
				d.WriteString(" ")
			}
			d.WriteString("M")
		}
		d.WriteString(f(x) + " " + f(y))
		pen = true
	}
	return d.String()
}

// bandPath is the closed outline of the band: along Hi forward, back along
// Lo, one closed piece per run of points that have both.
func bandPath(s Series, xs, ys Scale) string {
	if len(s.Lo) == 0 || len(s.Hi) == 0 {
		return ""
	}
	var d strings.Builder
	var run []int
	flush := func() {
		if len(run) > 0 {
			if d.Len() > 0 {
				d.WriteString(" ")
			}
			for k, i := range run {
				if k == 0 {
					d.WriteString("M")
				} else {
					d.WriteString("L")
				}
				d.WriteString(f(xs.Map(s.X[i])) + " " + f(ys.Map(s.Hi[i])))
			}
			for k := len(run) - 1; k >= 0; k-- {
				i := run[k]
				d.WriteString("L" + f(xs.Map(s.X[i])) + " " + f(ys.Map(s.Lo[i])))
			}
			d.WriteString("Z")
		}
		run = run[:0]
	}
	for i := range s.X {
		ok := i < len(s.Lo) && i < len(s.Hi) && finite(s.X[i]) && finite(s.Lo[i]) && finite(s.Hi[i]) &&
			finite(ys.Map(s.Lo[i])) && finite(ys.Map(s.Hi[i]))
		if ok {
			run = append(run, i)
		} else {
			flush()
		}
	}
	flush()
	return d.String()
}
