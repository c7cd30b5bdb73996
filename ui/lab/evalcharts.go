package lab

import (
	"fmt"
	"math"
	"strconv"

	"sparsefs/api"
	"sparsefs/core/stats"
	"sparsefs/ui/chart"
)

// The evaluation's charts.

// kLabel names the K axis.
const kLabel = "features kept (K)"

// newKChart is a line chart against K, its hover labels naming K "K".
func newKChart(fr chart.Frame) *chart.LineChart {
	fr.XLabel = kLabel
	c := chart.NewLineChart(fr)
	c.IntegerX, c.HoverX = true, "K"
	return c
}

// percent writes a percentage for a hover label.
func percent(x float64) string { return chart.Num(x) + "%" }

// hide marks series s, variant i's, as hidden when the page hides that
// variant.
func (v *EvalView) hide(i int, s chart.Series) chart.Series {
	s.Hidden = v.Hidden[i]
	return s
}

// kAxis returns the K list as numbers.
func (v *EvalView) kAxis() []float64 {
	x := make([]float64, len(v.Rep.K))
	for i, k := range v.Rep.K {
		x[i] = float64(k)
	}
	return x
}

// bandSeries is a series of means with a band of ± one standard deviation,
// clipped to [lo, hi], every value multiplied by scale (100 for percent).
func bandSeries(name string, x []float64, s api.Summary, lo, hi, scale float64) chart.Series {
	out := chart.Series{Name: name, X: x, Y: make([]float64, len(x)), Lo: make([]float64, len(x)), Hi: make([]float64, len(x))}
	for i := range x {
		m, d := scale*at(s.Mean, i), scale*at(s.Std, i)
		out.Y[i] = m
		if math.IsNaN(d) {
			d = 0
		}
		out.Lo[i], out.Hi[i] = math.Max(lo, m-d), math.Min(hi, m+d)
	}
	return out
}

// splitsText says over what the means are taken.
func (v *EvalView) splitsText() string {
	n := len(v.Rep.Splits)
	if v.Rep.Request != nil && v.Rep.Request.Eval != nil && v.Rep.Request.Eval.Protocol.Kind == "holdout" {
		return fmt.Sprintf("%d holdout splits", n)
	}
	return fmt.Sprintf("%d folds", n)
}

// AccuracyCharts draw the accuracy against K, one chart per classifier and
// one line per selector, with a band of ± one standard deviation over the
// splits.
func (v *EvalView) AccuracyCharts() []Figure {
	var out []Figure
	x := v.kAxis()
	for q, label := range v.Rep.Classifiers {
		name := ClassifierName(label)
		c := newKChart(chart.Frame{ID: "accuracy-" + name, Title: "Accuracy vs K — " + label, YLabel: "Accuracy (%)"})
		c.HoverY, c.Format = "accuracy", percent
		for i, vr := range v.Rep.Results {
			var acc api.Summary
			if q < len(vr.Accuracy) {
				acc = vr.Accuracy[q]
			}
			c.Series = append(c.Series, v.hide(i, bandSeries(v.Labels[i], x, acc, 0, 100, 100)))
		}
		out = append(out, NewFigure(c.ID, c.Title, c, fmt.Sprintf("Test accuracy (%%) of the top K features of each training part; mean ± one standard deviation over the %s.", v.splitsText())))
	}
	if len(v.Rep.Classifiers) == 0 {
		c := newKChart(chart.Frame{ID: "rmse", Title: "RMSE of least squares vs K", YLabel: "RMSE"})
		for i, vr := range v.Rep.Results {
			var rmse api.Summary
			if vr.RMSE != nil {
				rmse = *vr.RMSE
			}
			c.Series = append(c.Series, v.hide(i, bandSeries(v.Labels[i], x, rmse, 0, math.Inf(1), 1)))
		}
		out = append(out, NewFigure(c.ID, c.Title, c, fmt.Sprintf("Test RMSE of ordinary least squares on the top K features (lower is better); mean ± one standard deviation over the %s.", v.splitsText())))
	}
	return out
}

// RedundancyChart draws the redundancy rate of the top K features (the
// mean absolute correlation between them, on the training part): bars
// with whiskers when the K list is short, else lines with bands.
func (v *EvalView) RedundancyChart() Figure {
	const id, title = "redundancy", "Redundancy rate of the top K features"
	note := fmt.Sprintf("Mean |correlation| between the selected features (lower: less redundant); mean ± one standard deviation over the %s.", v.splitsText())
	if len(v.Rep.K) <= 4 {
		c := &chart.BarChart{Frame: chart.Frame{ID: id, Title: title, XLabel: "redundancy rate"}, Horizontal: true, NonNegative: true}
		for i, vr := range v.Rep.Results {
			if len(vr.Units) > 0 {
				c.Categories = append(c.Categories, v.Labels[i])
			}
		}
		for ki, k := range v.Rep.K {
			s := chart.BarSeries{Name: "K = " + strconv.Itoa(k)}
			for _, vr := range v.Rep.Results {
				if len(vr.Units) > 0 {
					s.Values = append(s.Values, at(vr.Redundancy.Mean, ki))
					s.Err = append(s.Err, at(vr.Redundancy.Std, ki))
				}
			}
			c.Series = append(c.Series, s)
		}
		return NewFigure(id, title, c, note)
	}
	c := newKChart(chart.Frame{ID: id, Title: title, YLabel: "redundancy rate"})
	x := v.kAxis()
	for i, vr := range v.Rep.Results {
		c.Series = append(c.Series, v.hide(i, bandSeries(v.Labels[i], x, vr.Redundancy, 0, 1, 1)))
	}
	return NewFigure(id, title, c, note)
}

// SparsityChart draws the sparsity level of the embedded selectors' W (its
// rows above 10⁻⁶ of the largest) at the largest K, mean ± one standard
// deviation over the splits; ok is false when no selector has a W.
func (v *EvalView) SparsityChart() (Figure, bool) {
	last := len(v.Rep.K) - 1
	c := &chart.BarChart{Frame: chart.Frame{ID: "sparsity", Title: fmt.Sprintf("Sparsity level of W (K = %d)", v.Rep.K[last]), XLabel: "nonzero rows of W"}, Horizontal: true, NonNegative: true}
	s := chart.BarSeries{Name: "nonzero rows"}
	for i, vr := range v.Rep.Results {
		if vr.Sparsity != nil && len(vr.Units) > 0 {
			c.Categories = append(c.Categories, v.Labels[i])
			s.Values = append(s.Values, at(vr.Sparsity.Mean, last))
			s.Err = append(s.Err, at(vr.Sparsity.Std, last))
		}
	}
	if len(c.Categories) == 0 {
		return Figure{}, false
	}
	c.Series = []chart.BarSeries{s}
	return NewFigure(c.ID, c.Title, c, fmt.Sprintf("Rows of W above 10⁻⁶ × the largest (a method refitted per K has K of them); mean ± one standard deviation over the %s.", v.splitsText())), true
}

// TimeChart draws each selector's fitting time per split.
func (v *EvalView) TimeChart() Figure {
	c := &chart.BarChart{Frame: chart.Frame{ID: "time", Title: "Fitting time per split (in the worker)", XLabel: "seconds"}, Horizontal: true, NonNegative: true}
	s := chart.BarSeries{Name: "seconds"}
	for i, vr := range v.Rep.Results {
		if len(vr.Units) > 0 {
			c.Categories = append(c.Categories, v.Labels[i])
			s.Values = append(s.Values, float64(vr.FitSeconds.Mean))
			s.Err = append(s.Err, float64(vr.FitSeconds.Std))
		}
	}
	c.Series = []chart.BarSeries{s}
	return NewFigure(c.ID, c.Title, c, "The selector's fits on a training part (all its fits, for a method refitted per K); mean ± one standard deviation. Classifiers excluded.")
}

// maxTraces bounds the lines of one convergence chart.
const maxTraces = 30

// ConvergenceCharts plot the objective against the iteration for every
// embedded method, one line per setting and split (for a method refitted
// per K, its fit at the largest K).
func (v *EvalView) ConvergenceCharts() []Figure {
	var order []string
	groups := map[string][]int{}
	for i, vr := range v.Rep.Results {
		if vr.Kind != api.Embedded {
			continue
		}
		if _, ok := groups[vr.Method]; !ok {
			order = append(order, vr.Method)
		}
		groups[vr.Method] = append(groups[vr.Method], i)
	}
	var out []Figure
	last := len(v.Rep.K) - 1
	for _, m := range order {
		c := chart.NewLineChart(chart.Frame{ID: "conv-" + m, Title: "Convergence — " + m, XLabel: "iteration", YLabel: "objective"})
		c.IntegerX = true
		total := 0
		for _, i := range groups[m] {
			for _, u := range v.Rep.Results[i].Units {
				f := v.fitFor(u, last)
				if f == nil || len(f.Trace) == 0 {
					continue
				}
				total++
				if len(c.Series) == maxTraces {
					continue
				}
				c.Series = append(c.Series, traceSeries(fmt.Sprintf("%s · split %d", v.Labels[i], u.Split+1), f.Trace))
			}
		}
		if len(c.Series) == 0 {
			continue
		}
		c.LogY = logWorthy(c.Series)
		note := "The exact objective after each iteration, on each training part."
		if total > len(c.Series) {
			note += fmt.Sprintf(" The first %d of %d fits are Drawn.", len(c.Series), total)
		}
		if v.Rep.Results[groups[m][0]].PerK {
			note += fmt.Sprintf(" %s is refitted for every K: its fits for K = %d.", m, v.Rep.K[last])
		}
		out = append(out, NewFigure(c.ID, c.Title, c, note))
	}
	return out
}

// TruthChart draws, for synthetic data, the share of informative features
// among the top K of each training part, mean ± one standard deviation
// over the splits, with the best share possible (ok is false without a
// ground truth).
func (v *EvalView) TruthChart() (Figure, bool) {
	if v.Truth == nil {
		return Figure{}, false
	}
	c := newKChart(chart.Frame{ID: "truth", Title: "Informative features among the top K", YLabel: "share informative"})
	c.IntegerX, c.YMin, c.YMax = true, 0, 1
	x := v.kAxis()
	informative := make([]bool, len(v.Rep.Features))
	for j, name := range v.Rep.Features {
		informative[j] = v.Truth.Kind(name) == Informative
	}
	nInf := 2 * v.Truth.D1
	for i, vr := range v.Rep.Results {
		var s api.Summary
		for ki := range v.Rep.K {
			if len(vr.Units) == 0 {
				s.Mean, s.Std = append(s.Mean, math.NaN()), append(s.Std, math.NaN())
				continue
			}
			shares := make([]float64, len(vr.Units))
			for j, u := range vr.Units {
				sel := u.Selected[ki]
				n := 0
				for _, f := range sel {
					if f >= 0 && f < len(informative) && informative[f] {
						n++
					}
				}
				shares[j] = math.NaN()
				if len(sel) > 0 {
					shares[j] = float64(n) / float64(len(sel))
				}
			}
			m, d := stats.MeanStd(shares)
			s.Mean, s.Std = append(s.Mean, m), append(s.Std, d)
		}
		c.Series = append(c.Series, v.hide(i, bandSeries(v.Labels[i], x, s, 0, 1, 1)))
	}
	best := chart.Series{Name: "the best possible", X: x}
	for _, k := range v.Rep.K {
		best.Y = append(best.Y, math.Min(1, float64(nInf)/float64(k)))
	}
	c.Series = append(c.Series, best)
	return NewFigure(c.ID, c.Title, c, fmt.Sprintf("The generator made %d informative features (f1…f%d), %d redundant copies of half of them and %d irrelevant ones; a perfect selector picks the informative ones first.", nInf, nInf, v.Truth.D1, v.Truth.D2)), true
}

// StabilityChart draws each selector's stability index against K
// (Nogueira, Sechidis & Brown: 1 when every split kept the same K
// features, 0 when they overlap no more than chance would) with its 95%
// confidence interval as a band. The merge computes it, so ok is false
// until every unit has finished (and for the fixed subset alone).
func (v *EvalView) StabilityChart() (Figure, bool) {
	c := newKChart(chart.Frame{ID: "stability", Title: "Stability of the selected features across the splits", YLabel: "stability index"})
	c.HoverY, c.YMax = "stability", 1
	x := v.kAxis()
	any := false
	for i, vr := range v.Rep.Results {
		s := chart.Series{Name: v.Labels[i], X: x}
		if st := vr.Stability; st != nil {
			any = true
			for ki := range x {
				s.Y, s.Lo, s.Hi = append(s.Y, at(st.Index, ki)), append(s.Lo, at(st.CILow, ki)), append(s.Hi, math.Min(1, at(st.CIHigh, ki)))
			}
		}
		c.Series = append(c.Series, v.hide(i, s))
	}
	if !any {
		return Figure{}, false
	}
	return NewFigure(c.ID, c.Title, c, fmt.Sprintf("1: every one of the %s kept the same K features; 0: they overlap no more than random choices would. Band: 95%% confidence interval. Read as agreement: above 0.75 excellent, 0.40 to 0.75 fair to good, below 0.40 poor.", v.splitsText())), true
}
