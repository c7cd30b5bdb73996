// Package chart draws the page's charts as SVG markup: line charts with
// mean ± std bands, bar charts and heat maps, with axes, legends and a
// <title> on every mark so that hovering shows its value.
//
// It is plain Go (no browser, no JavaScript) and is tested natively. The
// markup uses no style attributes and no <style> element, which the page's
// Content-Security-Policy forbids: every element carries a class (which the
// page's stylesheet themes, light and dark) and presentation attributes
// with the light theme's colours, so that a chart saved as an .svg file, or
// drawn onto a canvas for a .png, looks right on its own.
package chart

import (
	"math"
	"strconv"
	"strings"
)

// Scale maps data values to pixel positions.
type Scale interface {
	// Map returns the pixel position of v (NaN when v cannot be placed,
	// as a non-positive value on a log scale).
	Map(v float64) float64
	// Ticks are the values to mark on the axis, with their labels.
	Ticks() []Tick
}

// Tick is one marked value of an axis.
type Tick struct {
	Value float64
	Label string
}

// Linear is a linear scale from the domain [D0, D1] to the pixel range
// [R0, R1], with ticks every Step.
type Linear struct {
	D0, D1, R0, R1 float64
	Step           float64
}

// Map implements Scale.
func (s Linear) Map(v float64) float64 {
	if s.D1 == s.D0 {
		return (s.R0 + s.R1) / 2
	}
	return s.R0 + (v-s.D0)/(s.D1-s.D0)*(s.R1-s.R0)
}

// Ticks implements Scale: the multiples of Step in the domain.
func (s Linear) Ticks() []Tick {
	if !(s.Step > 0) {
		return nil
	}
	var ticks []Tick
	first := math.Ceil(s.D0/s.Step - 1e-9)
	for i := first; i*s.Step <= s.D1+1e-9*s.Step && len(ticks) < 100; i++ {
		v := i * s.Step
		if math.Abs(v) < 1e-12*s.Step {
			v = 0
		}
		ticks = append(ticks, Tick{v, FormatTick(v, s.Step)})
	}
	return ticks
}

// NewLinear returns a linear scale over a domain widened to nice round
// bounds (multiples of a step of 1, 2 or 5 times a power of ten) with
// about n intervals. With integer set the step is at least 1. An empty or
// one-point domain is widened around its value.
func NewLinear(lo, hi float64, r0, r1 float64, n int, integer bool) Linear {
	lo, hi = widen(lo, hi)
	step := NiceStep(hi-lo, n)
	if integer && step < 1 {
		step = 1
	}
	return Linear{D0: math.Floor(lo/step+1e-9) * step, D1: math.Ceil(hi/step-1e-9) * step, R0: r0, R1: r1, Step: step}
}

// widen makes [lo, hi] a proper interval.
func widen(lo, hi float64) (float64, float64) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, 1
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		d := math.Abs(lo) / 10
		if d == 0 {
			d = 1
		}
		return lo - d, hi + d
	}
	return lo, hi
}

// NiceStep returns the smallest step of 1, 2 or 5 times a power of ten
// that cuts span into at most n intervals (so more than n/2.5 of them).
func NiceStep(span float64, n int) float64 {
	if n < 1 {
		n = 1
	}
	if !(span > 0) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / mag; {
	case f <= 1:
		return mag
	case f <= 2:
		return 2 * mag
	case f <= 5:
		return 5 * mag
	}
	return 10 * mag
}

// Log is a base-10 logarithmic scale from [D0, D1] (both positive) to
// [R0, R1], ticked at the powers of ten.
type Log struct {
	D0, D1, R0, R1 float64
}

// NewLog returns a log scale over [lo, hi] widened to powers of ten.
func NewLog(lo, hi, r0, r1 float64) Log {
	if !(lo > 0) || !(hi > 0) || math.IsInf(hi, 0) {
		return Log{1, 10, r0, r1}
	}
	a, b := math.Floor(math.Log10(lo)+1e-9), math.Ceil(math.Log10(hi)-1e-9)
	if b <= a {
		b = a + 1
	}
	return Log{math.Pow(10, a), math.Pow(10, b), r0, r1}
}

// Map implements Scale.
func (s Log) Map(v float64) float64 {
	if !(v > 0) {
		return math.NaN()
	}
	a, b := math.Log10(s.D0), math.Log10(s.D1)
	return s.R0 + (math.Log10(v)-a)/(b-a)*(s.R1-s.R0)
}

// Ticks implements Scale: the powers of ten in the domain, thinned to at
// most eight.
func (s Log) Ticks() []Tick {
	a, b := int(math.Round(math.Log10(s.D0))), int(math.Round(math.Log10(s.D1)))
	every := (b-a)/8 + 1
	var ticks []Tick
	for k := a; k <= b; k++ {
		if (k-a)%every == 0 {
			ticks = append(ticks, Tick{math.Pow(10, float64(k)), powerLabel(k)})
		}
	}
	return ticks
}

func powerLabel(k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(math.Pow(10, float64(k)), 'f', max(0, -k), 64)
	}
	return "1e" + strconv.Itoa(k)
}

// FormatTick writes a tick value with as many decimals as its step needs,
// in exponent form for very large or very small steps.
func FormatTick(v, step float64) string {
	if step >= 1e5 || step < 1e-4 {
		s := strconv.FormatFloat(v, 'e', 1, 64)
		return tidyExp(s)
	}
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
		// A step of 0.25 or 2.5e-3 needs one more digit than its power.
		if r := step * math.Pow(10, float64(dec)); math.Abs(r-math.Round(r)) > 1e-6 {
			dec++
		}
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	if s == "-0" || strings.HasPrefix(s, "-0.") && strings.Trim(s, "-0.") == "" {
		s = s[1:]
	}
	return s
}

// tidyExp turns 1.0e+06 into 1e6 and 2.5e-05 into 2.5e-5.
func tidyExp(s string) string {
	mant, exp, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	mant = strings.TrimSuffix(strings.TrimRight(mant, "0"), ".")
	sign := ""
	if exp[0] == '-' {
		sign = "-"
	}
	exp = strings.TrimLeft(exp[1:], "0")
	if exp == "" {
		return mant
	}
	return mant + "e" + sign + exp
}

// Num formats a value for a hover label: four significant digits, ∞ for
// the largest double (how +Inf travels in JSON).
func Num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v >= math.MaxFloat64 || math.IsInf(v, 1):
		return "∞"
	case v <= -math.MaxFloat64 || math.IsInf(v, -1):
		return "−∞"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
