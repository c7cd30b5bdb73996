package chart

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Colours of the light theme, written as presentation attributes; the
// page's stylesheet overrides them by class (.chart text, .chart .axis, …)
// for its themes.
const (
	colBackground = "#ffffff"
	colText       = "#1b1f24"
	colMuted      = "#5b6470"
	colAxis       = "#8a939e"
	colGrid       = "#e3e7eb"
)

// esc escapes text for SVG content and attribute values.
func esc(s string) string { return html.EscapeString(s) }

// f writes a coordinate with two decimals at most.
func f(v float64) string {
	s := strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	if s == "-0" {
		return "0"
	}
	return s
}

// Frame is the common layout of a chart: its size, title and axis labels.
type Frame struct {
	// ID, if set, prefixes the element ids inside the chart (needed when
	// several charts share a page).
	ID string
	// Width and Height are the chart's size in pixels (640 × 360 when 0);
	// a legend adds to the height.
	Width, Height float64
	Title         string
	XLabel        string
	YLabel        string
}

func (fr *Frame) size() (float64, float64) {
	w, h := fr.Width, fr.Height
	if w <= 0 {
		w = 640
	}
	if h <= 0 {
		h = 360
	}
	return w, h
}

// svg accumulates markup.
type svg struct{ strings.Builder }

func (b *svg) printf(format string, args ...any) { fmt.Fprintf(&b.Builder, format, args...) }

// open starts the root element with a title (for screen readers and as
// the file's caption) and a background.
func (b *svg) open(fr *Frame, kind string, w, h float64) {
	id := fr.ID
	if id == "" {
		id = "chart"
	}
	b.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="chart %s" viewBox="0 0 %s %s" width="%s" height="%s" role="img" aria-labelledby="%s-title" font-family="system-ui, sans-serif" font-size="12">`,
		kind, f(w), f(h), f(w), f(h), esc(id))
	b.printf(`<title id="%s-title">%s</title>`, esc(id), esc(fr.Title))
	b.printf(`<rect class="bg" x="0" y="0" width="%s" height="%s" fill="%s"/>`, f(w), f(h), colBackground)
	if fr.Title != "" {
		b.printf(`<text class="title" x="%s" y="18" fill="%s" font-size="14" font-weight="600">%s</text>`, f(8), colText, esc(fr.Title))
	}
}

func (b *svg) close() { b.WriteString(`</svg>`) }

// text writes a text element.
func (b *svg) text(class string, x, y float64, anchor, s string, extra string) {
	b.printf(`<text class="%s" x="%s" y="%s" text-anchor="%s" fill="%s"%s>%s</text>`, class, f(x), f(y), anchor, colText, extra, esc(s))
}

// plotArea is the rectangle the data are drawn in.
type plotArea struct{ left, top, right, bottom float64 }

// xAxis draws the bottom axis with ticks, grid lines and its label.
func (b *svg) xAxis(p plotArea, s Scale, label string) {
	b.printf(`<g class="axis x-axis">`)
	b.printf(`<line class="axis-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left), f(p.bottom), f(p.right), f(p.bottom), colAxis)
	for _, t := range s.Ticks() {
		x := s.Map(t.Value)
		if math.IsNaN(x) || x < p.left-0.5 || x > p.right+0.5 {
			continue
		}
		b.printf(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(x), f(p.top), f(x), f(p.bottom), colGrid)
		b.printf(`<line class="tick-mark" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(x), f(p.bottom), f(x), f(p.bottom+4), colAxis)
		b.text("tick", x, p.bottom+16, "middle", t.Label, "")
	}
	if label != "" {
		b.text("label", (p.left+p.right)/2, p.bottom+34, "middle", label, "")
	}
	b.WriteString(`</g>`)
}

// yAxis draws the left axis with ticks, grid lines and its label.
func (b *svg) yAxis(p plotArea, s Scale, label string) {
	b.printf(`<g class="axis y-axis">`)
	b.printf(`<line class="axis-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left), f(p.top), f(p.left), f(p.bottom), colAxis)
	for _, t := range s.Ticks() {
		y := s.Map(t.Value)
		if math.IsNaN(y) || y < p.top-0.5 || y > p.bottom+0.5 {
			continue
		}
		b.printf(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left), f(y), f(p.right), f(y), colGrid)
		b.printf(`<line class="tick-mark" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left-4), f(y), f(p.left), f(y), colAxis)
		b.text("tick", p.left-6, y+4, "end", t.Label, "")
	}
	if label != "" {
		x, y := 14.0, (p.top+p.bottom)/2
		b.text("label", x, y, "middle", label, fmt.Sprintf(` transform="rotate(-90 %s %s)"`, f(x), f(y)))
	}
	b.WriteString(`</g>`)
}

// charWidth estimates the width of a character of the 12-pixel font.
const charWidth = 6.6

// textWidth estimates the width of s in the 12-pixel font.
func textWidth(s string) float64 { return float64(len([]rune(s))) * charWidth }

// clip shortens s to at most n characters, ending with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}

// legendItem is one entry of a legend.
type legendItem struct {
	name   string
	index  int  // series index (colour, dash, marker)
	hidden bool // the series is not drawn
}

// legendLayout places legend entries in rows under the plot; it returns
// their positions and the height the rows take.
func legendLayout(items []legendItem, left, width float64) (xs, ys []float64, height float64) {
	const rowHeight, gap = 18.0, 16.0
	x, row := left, 0
	for _, it := range items {
		w := swatchWidth(true) + 6 + textWidth(clip(it.name, 40))
		if x > left && x+w > left+width {
			x, row = left, row+1
		}
		xs = append(xs, x)
		ys = append(ys, float64(row)*rowHeight)
		x += w + gap
	}
	if len(items) > 0 {
		height = float64(row+1)*rowHeight + 6
	}
	return xs, ys, height
}

// legend draws the entries at the offsets legendLayout gave, from y0.
func (b *svg) legend(items []legendItem, xs, ys []float64, y0 float64, line bool) {
	if len(items) == 0 {
		return
	}
	b.WriteString(`<g class="legend">`)
	for i, it := range items {
		x, y := xs[i], y0+ys[i]
		cls, col := seriesClass(it.index), seriesColour(it.index)
		fade := ""
		if it.hidden {
			fade = ` opacity="0.35"`
		}
		b.printf(`<g class="legend-item %s"%s>`, cls, fade)
		if line {
			b.printf(`<line class="swatch %s" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>`, cls, f(x), f(y+7), f(x+22), f(y+7), col, dashAttr(it.index))
			b.marker(it.index, x+11, y+7, "")
		} else {
			b.printf(`<rect class="swatch %s" x="%s" y="%s" width="14" height="12" fill="%s"/>`, cls, f(x), f(y+1), col)
		}
		name := it.name
		if it.hidden {
			name += " (hidden)"
		}
		b.printf(`<text class="legend-text" x="%s" y="%s" fill="%s"><title>%s</title>%s</text>`, f(x+swatchWidth(line)+6), f(y+11), colText, esc(name), esc(clip(it.name, 40)))
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g>`)
}

// finite reports whether v is an ordinary number (the largest double
// stands for +Inf in our JSON).
func finite(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < math.MaxFloat64
}
