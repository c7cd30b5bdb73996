package chart

import (
	"math"
	"slices"
)

// StripChart draws one feature's values by class: each sample a dot in
// its class's column (spread sideways so that equal values stay visible),
// with the class's median as a bar across the column.
type StripChart struct {
	Frame
	// Classes name the columns; Values[c] are class c's values (NaN ones
	// are left out).
	Classes []string
	Values  [][]float64
}

// Median is the median of the finite values of v (NaN when none).
func Median(v []float64) float64 {
	var s []float64
	for _, x := range v {
		if finite(x) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// jitter is the sideways offset of the i-th dot, in [−0.5, 0.5): the
// fractional parts of multiples of the golden ratio, spread evenly and
// the same on every drawing.
func jitter(i int) float64 {
	const phi = 0.6180339887498949
	x := float64(i+1) * phi
	return x - math.Floor(x) - 0.5
}

// SVG renders the chart.
func (c *StripChart) SVG() string {
	w, h := c.size()
	p := plotArea{left: 64, top: 32, right: w - 16, bottom: h - 48}
	var b svg
	b.open(&c.Frame, "strip-chart", w, h)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, vs := range c.Values {
		for _, x := range vs {
			if finite(x) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if len(c.Classes) == 0 || lo > hi {
		b.text("empty", w/2, h/2, "middle", "no data", "")
		b.close()
		return b.String()
	}
	ys := NewLinear(lo, hi, p.bottom, p.top, 5, false)
	b.yAxis(p, ys, c.YLabel)
	band := (p.right - p.left) / float64(len(c.Classes))
	b.printf(`<g class="axis x-axis"><line class="axis-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left), f(p.bottom), f(p.right), f(p.bottom), colAxis)
	for k, cl := range c.Classes {
		b.printf(`<text class="tick" x="%s" y="%s" text-anchor="middle" fill="%s"><title>%s</title>%s</text>`, f(p.left+(float64(k)+0.5)*band), f(p.bottom+16), colText, esc(cl), esc(clip(cl, int(math.Max(3, band/charWidth)))))
	}
	if c.XLabel != "" {
		b.text("label", (p.left+p.right)/2, p.bottom+34, "middle", c.XLabel, "")
	}
	b.WriteString(`</g>`)
	for k, cl := range c.Classes {
		if k >= len(c.Values) {
			break
		}
		cls, col := seriesClass(k), seriesColour(k)
		mid := p.left + (float64(k)+0.5)*band
		b.printf(`<g class="series %s">`, cls)
		for i, x := range c.Values[k] {
			if !finite(x) {
				continue
			}
			b.printf(`<circle class="dot %s" cx="%s" cy="%s" r="2.5" fill="%s" fill-opacity="0.55"><title>%s</title></circle>`,
				cls, f(mid+jitter(i)*band*0.6), f(ys.Map(x)), col, esc(cl+": "+Num(x)))
		}
		if m := Median(c.Values[k]); finite(m) {
			y := ys.Map(m)
			b.printf(`<line class="median %s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="3"><title>%s</title></line>`,
				cls, f(mid-band*0.38), f(y), f(mid+band*0.38), f(y), colText, esc(cl+": median "+Num(m)))
		}
		b.WriteString(`</g>`)
	}
	b.close()
	return b.String()
}

// Table holds the strip chart's values summarised by class: the number of
// values, their minimum, median, mean and maximum.
func (c *StripChart) Table() Table {
	t := Table{Head: []string{"class", "samples", "minimum", "median", "mean", "maximum"}}
	for k, cl := range c.Classes {
		var n int
		sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
		var vs []float64
		if k < len(c.Values) {
			vs = c.Values[k]
		}
		for _, x := range vs {
			if finite(x) {
				n++
				sum += x
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
		row := []string{cl, Num(float64(n)), "—", "—", "—", "—"}
		if n > 0 {
			row[2], row[3], row[4], row[5] = Num(lo), Num(Median(vs)), Num(sum/float64(n)), Num(hi)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
