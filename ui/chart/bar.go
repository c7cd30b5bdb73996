package chart

import (
	"math"
)

// BarSeries is one set of bars, a value per category, with optional error
// half-widths (a standard deviation) drawn as whiskers.
type BarSeries struct {
	Name   string
	Values []float64
	Err    []float64
}

// BarChart draws grouped bars: one group per category, one bar per series
// (the top features' scores, or a measure per selector).
type BarChart struct {
	Frame
	Categories []string
	Series     []BarSeries
	// Horizontal puts the categories down the left side (long names).
	Horizontal bool
	// Format, if set, writes a value in a hover label (default Num).
	Format func(float64) string
	// NonNegative says the values cannot be negative (times, counts): a
	// whisker stops at 0, and so does the axis.
	NonNegative bool
}

// valueDomain spans 0 and every finite value ± its error.
func (c *BarChart) valueDomain() (lo, hi float64) {
	for _, s := range c.Series {
		for i, v := range s.Values {
			if !finite(v) {
				continue
			}
			e := 0.0
			if i < len(s.Err) && finite(s.Err[i]) {
				e = math.Abs(s.Err[i])
			}
			low := v - e
			if c.NonNegative {
				low = math.Max(low, 0)
			}
			lo, hi = math.Min(lo, low), math.Max(hi, v+e)
		}
	}
	if lo == 0 && hi == 0 {
		hi = 1
	}
	return lo, hi
}

// SVG renders the chart.
func (c *BarChart) SVG() string {
	ns := max(1, len(c.Series))
	nc := len(c.Categories)
	w, h := c.size()
	if c.Horizontal && c.Height <= 0 {
		h = 32 + float64(nc)*(float64(ns)*14+6) + 48
	}
	left := 64.0
	if c.Horizontal {
		longest := 0.0
		for _, cat := range c.Categories {
			longest = math.Max(longest, textWidth(clip(cat, 28)))
		}
		left = math.Min(220, longest+16)
	}
	p := plotArea{left: left, top: 32, right: w - 24, bottom: h - 48}
	items := make([]legendItem, len(c.Series))
	for i, s := range c.Series {
		items[i] = legendItem{s.Name, i, false}
	}
	lx, ly, lh := legendLayout(items, p.left, p.right-p.left)
	if len(c.Series) < 2 {
		lh = 0
	}
	var b svg
	b.open(&c.Frame, "bar-chart", w, h+lh)
	if nc == 0 {
		b.text("empty", w/2, h/2, "middle", "no data", "")
		b.close()
		return b.String()
	}
	lo, hi := c.valueDomain()
	format := c.Format
	if format == nil {
		format = Num
	}
	var vs Linear
	var band float64
	if c.Horizontal {
		vs = NewLinear(lo, hi, p.left, p.right, 6, false)
		band = (p.bottom - p.top) / float64(nc)
		b.xAxis(p, vs, c.XLabel)
		b.printf(`<g class="axis y-axis"><line class="axis-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left), f(p.top), f(p.left), f(p.bottom), colAxis)
		for k, cat := range c.Categories {
			y := p.top + (float64(k)+0.5)*band
			b.printf(`<text class="tick" x="%s" y="%s" text-anchor="end" fill="%s"><title>%s</title>%s</text>`, f(p.left-6), f(y+4), colText, esc(cat), esc(clip(cat, 28)))
		}
		b.WriteString(`</g>`)
	} else {
		vs = NewLinear(lo, hi, p.bottom, p.top, 5, false)
		band = (p.right - p.left) / float64(nc)
		b.yAxis(p, vs, c.YLabel)
		b.printf(`<g class="axis x-axis"><line class="axis-line" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f(p.left), f(p.bottom), f(p.right), f(p.bottom), colAxis)
		maxChars := int(math.Max(3, band/charWidth))
		for k, cat := range c.Categories {
			x := p.left + (float64(k)+0.5)*band
			b.printf(`<text class="tick" x="%s" y="%s" text-anchor="middle" fill="%s"><title>%s</title>%s</text>`, f(x), f(p.bottom+16), colText, esc(cat), esc(clip(cat, maxChars)))
		}
		if c.XLabel != "" {
			b.text("label", (p.left+p.right)/2, p.bottom+34, "middle", c.XLabel, "")
		}
		b.WriteString(`</g>`)
	}
	zero := vs.Map(0)
	inner := band * 0.8 / float64(ns)
	for si, s := range c.Series {
		cls, col := seriesClass(si), seriesColour(si)
		b.printf(`<g class="series %s">`, cls)
		for k := range c.Categories {
			if k >= len(s.Values) || math.IsNaN(s.Values[k]) {
				continue
			}
			v := s.Values[k]
			inf := !finite(v)
			end := vs.Map(v)
			if inf {
				end = vs.Map(vs.D1)
				if v < 0 {
					end = vs.Map(vs.D0)
				}
			}
			off := band*0.1 + float64(si)*inner
			label := format(v)
			if s.Name != "" {
				label = s.Name + ": " + label
			}
			label = c.Categories[k] + " — " + label
			e := 0.0
			if k < len(s.Err) && finite(s.Err[k]) {
				e = math.Abs(s.Err[k])
				label += " ± " + format(e)
			}
			var x, y, bw, bh float64
			if c.Horizontal {
				y, bh = p.top+float64(k)*band+off, inner
				x, bw = math.Min(zero, end), math.Abs(end-zero)
			} else {
				x, bw = p.left+float64(k)*band+off, inner
				y, bh = math.Min(zero, end), math.Abs(end-zero)
			}
			b.printf(`<rect class="bar %s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`, cls, f(x), f(y), f(bw), f(bh), col, esc(label))
			if inf {
				if c.Horizontal {
					b.text("inf", x+bw-4, y+bh/2+4, "end", "∞", ` font-weight="700"`)
				} else {
					b.text("inf", x+bw/2, y+12, "middle", "∞", ` font-weight="700"`)
				}
			}
			if e > 0 && !inf {
				low := v - e
				if c.NonNegative {
					low = math.Max(low, 0)
				}
				a, z := vs.Map(low), vs.Map(v+e)
				if c.Horizontal {
					cy := y + bh/2
					b.printf(`<path class="whisker" d="M%s %sL%s %sM%s %sL%s %sM%s %sL%s %s" stroke="%s" fill="none"/>`,
						f(a), f(cy), f(z), f(cy), f(a), f(cy-3), f(a), f(cy+3), f(z), f(cy-3), f(z), f(cy+3), colText)
				} else {
					cx := x + bw/2
					b.printf(`<path class="whisker" d="M%s %sL%s %sM%s %sL%s %sM%s %sL%s %s" stroke="%s" fill="none"/>`,
						f(cx), f(a), f(cx), f(z), f(cx-3), f(a), f(cx+3), f(a), f(cx-3), f(z), f(cx+3), f(z), colText)
				}
			}
		}
		b.WriteString(`</g>`)
	}
	if lh > 0 {
		b.legend(items, lx, ly, h-8, false)
	}
	b.close()
	return b.String()
}
