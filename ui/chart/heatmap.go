package chart

import (
	"fmt"
	"math"
)

// HeatMap colours a table of values: |W| of the top features (rows) by
// class (columns), or the overlap of the top-K sets of several runs.
type HeatMap struct {
	Frame
	Rows, Cols []string
	// Values[i][j] is the cell of row i and column j; NaN leaves it empty.
	Values [][]float64
	// Min and Max fix the ends of the colour scale (NaN: the data's).
	Min, Max float64
	// ShowValues writes each value in its cell.
	ShowValues bool
	// Format, if set, writes a value (default Num).
	Format func(float64) string
}

// NewHeatMap returns a heat map whose colour scale spans the data.
func NewHeatMap(fr Frame) *HeatMap { return &HeatMap{Frame: fr, Min: math.NaN(), Max: math.NaN()} }

// viridis anchors the colour ramp (van der Walt & Smith's perceptually
// uniform map, sampled at ten points): dark purple for low, yellow for
// high, readable on light and dark pages alike.
var viridis = [][3]float64{
	{0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3e, 0x49, 0x89}, {0x31, 0x68, 0x8e}, {0x26, 0x82, 0x8e},
	{0x1f, 0x9e, 0x89}, {0x35, 0xb7, 0x79}, {0x6e, 0xce, 0x58}, {0xb5, 0xde, 0x2b}, {0xfd, 0xe7, 0x25},
}

// Ramp returns the colour of t ∈ [0, 1] (clamped) as #rrggbb.
func Ramp(t float64) string {
	r, g, b := rampRGB(t)
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round(r)), int(math.Round(g)), int(math.Round(b)))
}

func rampRGB(t float64) (r, g, b float64) {
	if math.IsNaN(t) || t < 0 {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	x := t * float64(len(viridis)-1)
	i := min(int(x), len(viridis)-2)
	u := x - float64(i)
	a, z := viridis[i], viridis[i+1]
	return a[0] + u*(z[0]-a[0]), a[1] + u*(z[1]-a[1]), a[2] + u*(z[2]-a[2])
}

// light reports whether text on the ramp's colour at t should be dark.
func light(t float64) bool {
	r, g, b := rampRGB(t)
	return 0.2126*r+0.7152*g+0.0722*b > 140
}

func (c *HeatMap) scale() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range c.Values {
		for _, v := range row {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if !math.IsNaN(c.Min) {
		lo = c.Min
	}
	if !math.IsNaN(c.Max) {
		hi = c.Max
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, 1
	}
	return lo, hi
}

// SVG renders the heat map with a colour bar on its right.
func (c *HeatMap) SVG() string {
	w, _ := c.size()
	nr, nc := len(c.Rows), len(c.Cols)
	format := c.Format
	if format == nil {
		format = Num
	}
	longestRow, longestCol := 0.0, 0.0
	for _, r := range c.Rows {
		longestRow = math.Max(longestRow, textWidth(clip(r, 28)))
	}
	for _, col := range c.Cols {
		longestCol = math.Max(longestCol, textWidth(clip(col, 20)))
	}
	left := math.Min(220, longestRow+16)
	const barWidth = 76.0
	cellW := math.Min(64, (w-left-barWidth-16)/math.Max(1, float64(nc)))
	rotate := longestCol > cellW-4
	top := 40.0
	if rotate {
		top += longestCol * 0.72
	} else {
		top += 14
	}
	cellH := 18.0
	if c.ShowValues {
		cellH = math.Max(cellH, math.Min(cellW, 28))
	}
	h := c.Height
	if h <= 0 {
		h = top + float64(nr)*cellH + 24
		h = math.Max(h, top+140)
	}
	var b svg
	b.open(&c.Frame, "heat-map", w, h)
	if nr == 0 || nc == 0 {
		b.text("empty", w/2, h/2, "middle", "no data", "")
		b.close()
		return b.String()
	}
	lo, hi := c.scale()
	norm := func(v float64) float64 {
		if hi == lo {
			return 0.5
		}
		return (v - lo) / (hi - lo)
	}
	// Column labels.
	b.WriteString(`<g class="axis x-axis">`)
	for j, col := range c.Cols {
		x := left + (float64(j)+0.5)*cellW
		if rotate {
			b.printf(`<text class="tick" x="%s" y="%s" text-anchor="start" fill="%s" transform="rotate(-45 %s %s)"><title>%s</title>%s</text>`,
				f(x), f(top-6), colText, f(x), f(top-6), esc(col), esc(clip(col, 20)))
		} else {
			b.printf(`<text class="tick" x="%s" y="%s" text-anchor="middle" fill="%s"><title>%s</title>%s</text>`, f(x), f(top-6), colText, esc(col), esc(clip(col, 20)))
		}
	}
	b.WriteString(`</g><g class="axis y-axis">`)
	for i, r := range c.Rows {
		y := top + (float64(i)+0.5)*cellH
		b.printf(`<text class="tick" x="%s" y="%s" text-anchor="end" fill="%s"><title>%s</title>%s</text>`, f(left-6), f(y+4), colText, esc(r), esc(clip(r, 28)))
	}
	b.WriteString(`</g><g class="cells">`)
	for i := range c.Rows {
		for j := range c.Cols {
			v := math.NaN()
			if i < len(c.Values) && j < len(c.Values[i]) {
				v = c.Values[i][j]
			}
			if !finite(v) {
				continue
			}
			t := norm(v)
			x, y := left+float64(j)*cellW, top+float64(i)*cellH
			b.printf(`<rect class="cell" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`,
				f(x), f(y), f(cellW-1), f(cellH-1), Ramp(t), esc(c.Rows[i]+" × "+c.Cols[j]+": "+format(v)))
			if c.ShowValues {
				ink := "#ffffff"
				if light(t) {
					ink = "#000000"
				}
				b.printf(`<text class="cell-value" x="%s" y="%s" text-anchor="middle" fill="%s" font-size="11">%s</text>`, f(x+cellW/2), f(y+cellH/2+4), ink, esc(format(v)))
			}
		}
	}
	b.WriteString(`</g>`)
	// Colour bar: 32 steps from lo (bottom) to hi (top), ticked.
	bx, by0, by1 := w-barWidth+8, top, math.Min(top+160, h-24)
	if by1-by0 < 60 {
		by1 = by0 + 60
	}
	b.WriteString(`<g class="colour-bar">`)
	const steps = 32
	stepH := (by1 - by0) / steps
	for k := 0; k < steps; k++ {
		t := (float64(k) + 0.5) / steps
		y := by1 - float64(k+1)*stepH
		b.printf(`<rect x="%s" y="%s" width="14" height="%s" fill="%s"/>`, f(bx), f(y), f(stepH+0.5), Ramp(t))
	}
	sc := Linear{D0: lo, D1: hi, R0: by1, R1: by0, Step: NiceStep(hi-lo, 4)}
	if hi == lo {
		sc.Step = 0
	}
	for _, t := range sc.Ticks() {
		y := sc.Map(t.Value)
		b.printf(`<line class="tick-mark" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(bx+14), f(y), f(bx+18), f(y), colAxis)
		b.text("tick", bx+20, y+4, "start", t.Label, "")
	}
	b.WriteString(`</g>`)
	b.close()
	return b.String()
}
