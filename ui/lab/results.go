package lab

import (
	"fmt"
	"math"
	"sort"

	"sparsefs/api"
	"sparsefs/ui/chart"
)

// Result is a finished job of a run.
type Result struct {
	Label string
	Sel   *api.Selection
}

// embedded reports whether a result comes from an embedded method (it has
// an objective).
func (r *Result) embedded() bool { return r.Sel.Objective != nil }

// FeatureCount says in how many results' top k a feature is.
type FeatureCount struct {
	Feature int
	Name    string
	Count   int
	// MeanRank is the feature's mean 1-based rank over those results.
	MeanRank float64
}

// topSet returns the first k features of a ranking.
func topSet(s *api.Selection, k int) []int {
	return s.Ranking[:min(k, len(s.Ranking))]
}

// Frequency counts, for each feature, the results whose top k include it:
// the selection frequency across runs (and, once the evaluation lands,
// across folds). Features never in a top k are left out; the order is by
// count, then mean rank, then index.
func Frequency(rs []Result, k int) []FeatureCount {
	count := map[int]int{}
	rankSum := map[int]int{}
	for _, r := range rs {
		for pos, j := range topSet(r.Sel, k) {
			count[j]++
			rankSum[j] += pos + 1
		}
	}
	out := make([]FeatureCount, 0, len(count))
	for j, c := range count {
		name := fmt.Sprint(j)
		if len(rs) > 0 && j < len(rs[0].Sel.Features) {
			name = rs[0].Sel.Features[j]
		}
		out = append(out, FeatureCount{Feature: j, Name: name, Count: c, MeanRank: float64(rankSum[j]) / float64(c)})
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.Count != y.Count {
			return x.Count > y.Count
		}
		if x.MeanRank != y.MeanRank {
			return x.MeanRank < y.MeanRank
		}
		return x.Feature < y.Feature
	})
	return out
}

// Overlap returns the Jaccard index |A∩B| / |A∪B| of the top-k sets of
// every pair of results.
func Overlap(rs []Result, k int) [][]float64 {
	sets := make([][]int, len(rs))
	for i, r := range rs {
		sets[i] = topSet(r.Sel, k)
	}
	return Jaccard(sets)
}

// Jaccard returns the Jaccard index |A∩B| / |A∪B| of every pair of sets
// (0 for two empty sets).
func Jaccard(sets [][]int) [][]float64 {
	in := make([]map[int]bool, len(sets))
	for i, s := range sets {
		in[i] = map[int]bool{}
		for _, j := range s {
			in[i][j] = true
		}
	}
	out := make([][]float64, len(sets))
	for a := range sets {
		out[a] = make([]float64, len(sets))
		for b := range sets {
			inter := 0
			for j := range in[a] {
				if in[b][j] {
					inter++
				}
			}
			if union := len(in[a]) + len(in[b]) - inter; union > 0 {
				out[a][b] = float64(inter) / float64(union)
			}
		}
	}
	return out
}

// Profile returns the normalised score of the feature ranked k-th (its
// score over the top finite score; +∞ counts as 1), k = 1 … min(k, n), for
// one result. It is nil when the scores cannot be normalised (all zero or
// infinite).
func Profile(s *api.Selection, k int) []float64 {
	top := 0.0
	for _, v := range s.Scores {
		if finite(v) {
			top = math.Max(top, math.Abs(v))
		}
	}
	if top == 0 {
		return nil
	}
	n := min(k, len(s.Ranking))
	out := make([]float64, n)
	for i := 0; i < n; i++ {
		v := s.Scores[s.Ranking[i]]
		if !finite(v) {
			v = top
		}
		out[i] = v / top
	}
	return out
}

func finite(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < math.MaxFloat64
}

// MeanStd returns the mean and the population standard deviation of each
// position over the rows (rows may be shorter; a position counts the rows
// that reach it).
func MeanStd(rows [][]float64) (mean, std []float64) {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	mean, std = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		var s float64
		c := 0
		for _, r := range rows {
			if i < len(r) && !math.IsNaN(r[i]) {
				s += r[i]
				c++
			}
		}
		if c == 0 {
			mean[i], std[i] = math.NaN(), math.NaN()
			continue
		}
		mean[i] = s / float64(c)
		var q float64
		for _, r := range rows {
			if i < len(r) && !math.IsNaN(r[i]) {
				d := r[i] - mean[i]
				q += d * d
			}
		}
		std[i] = math.Sqrt(q / float64(c))
	}
	return mean, std
}

// byMethod groups results by method, in order of first appearance.
func byMethod(rs []Result) (names []string, groups map[string][]Result) {
	groups = map[string][]Result{}
	for _, r := range rs {
		m := r.Sel.Method
		if _, ok := groups[m]; !ok {
			names = append(names, m)
		}
		groups[m] = append(groups[m], r)
	}
	return names, groups
}

// ProfileChart plots, per method, the mean normalised score at each rank
// with a band of ± one standard deviation over that method's results (its
// parameter values): how quickly each ranking's scores fall off. It is the
// line-with-band chart accuracy-vs-K will use.
func ProfileChart(rs []Result, k int) *chart.LineChart {
	c := chart.NewLineChart(chart.Frame{ID: "profile", Title: "Score profile: score at each rank ÷ top score", XLabel: "rank", YLabel: "relative score"})
	c.IntegerX, c.YMin, c.YMax = true, 0, 1
	names, groups := byMethod(rs)
	for _, m := range names {
		var rows [][]float64
		for _, r := range groups[m] {
			if p := Profile(r.Sel, k); p != nil {
				rows = append(rows, p)
			}
		}
		if len(rows) == 0 {
			continue
		}
		mean, std := MeanStd(rows)
		s := chart.Series{Name: fmt.Sprintf("%s (%d run%s)", m, len(rows), plural(len(rows))), Y: mean}
		for i := range mean {
			s.X = append(s.X, float64(i+1))
		}
		if len(rows) > 1 {
			for i := range mean {
				s.Lo = append(s.Lo, mean[i]-std[i])
				s.Hi = append(s.Hi, mean[i]+std[i])
			}
		}
		c.Series = append(c.Series, s)
	}
	return c
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// TopScoresChart draws the scores of a result's top k features (at most
// 30), best at the top.
func TopScoresChart(r Result, k int) *chart.BarChart {
	k = min(k, 30, len(r.Sel.Ranking))
	c := &chart.BarChart{Frame: chart.Frame{ID: "scores", Title: fmt.Sprintf("Top %d scores — %s", k, r.Label), XLabel: "score"}, Horizontal: true}
	s := chart.BarSeries{Name: r.Label}
	for _, j := range r.Sel.Ranking[:k] {
		c.Categories = append(c.Categories, r.Sel.Features[j])
		s.Values = append(s.Values, r.Sel.Scores[j])
	}
	c.Series = []chart.BarSeries{s}
	return c
}

// ConvergenceCharts plots the objective against the iteration, one chart
// per embedded method and one line per result of it. A log scale is used
// when the objectives are positive and span two decades or more.
func ConvergenceCharts(rs []Result) []*chart.LineChart {
	names, groups := byMethod(rs)
	var out []*chart.LineChart
	for _, m := range names {
		c := chart.NewLineChart(chart.Frame{ID: "conv-" + m, Title: "Convergence — " + m, XLabel: "iteration", YLabel: "objective"})
		c.IntegerX = true
		for _, r := range groups[m] {
			if r.embedded() && len(r.Sel.Trace) > 0 {
				c.Series = append(c.Series, traceSeries(r.Label, r.Sel.Trace))
			}
		}
		if len(c.Series) == 0 {
			continue
		}
		c.LogY = logWorthy(c.Series)
		out = append(out, c)
	}
	return out
}

// traceSeries is an objective trace as a line: the objective after
// iteration 1, 2, ….
func traceSeries(name string, trace []float64) chart.Series {
	s := chart.Series{Name: name, Y: trace, X: make([]float64, len(trace))}
	for i := range trace {
		s.X[i] = float64(i + 1)
	}
	return s
}

// logWorthy reports whether the series' values are positive and span two
// decades or more (a convergence plot then reads better on a log scale).
func logWorthy(series []chart.Series) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, v := range s.Y {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return lo > 0 && hi/lo >= 100
}

// WeightsChart is the heat map of |W| of a result's top rows (nil when the
// result has none: filters, or no weights asked for).
func WeightsChart(r Result) *chart.HeatMap {
	w := r.Sel.Weights
	if w == nil || len(w.Rows) == 0 {
		return nil
	}
	c := chart.NewHeatMap(chart.Frame{ID: "weights", Title: fmt.Sprintf("|W| of the top %d features — %s", len(w.Rows), r.Label)})
	c.Min = 0
	for i, j := range w.Rows {
		name := fmt.Sprint(j)
		if j < len(r.Sel.Features) {
			name = r.Sel.Features[j]
		}
		c.Rows = append(c.Rows, name)
		c.Values = append(c.Values, w.Abs[i])
	}
	c.Cols = w.Columns
	return c
}

// OverlapChart is the heat map of Overlap.
func OverlapChart(rs []Result, k int) *chart.HeatMap {
	c := chart.NewHeatMap(chart.Frame{ID: "overlap", Title: fmt.Sprintf("Overlap of the top %d features (Jaccard index)", k)})
	c.Min, c.Max = 0, 1
	c.ShowValues = len(rs) <= 12
	c.Format = func(v float64) string { return fmt.Sprintf("%.2f", v) }
	for _, r := range rs {
		c.Rows = append(c.Rows, r.Label)
	}
	c.Cols = c.Rows
	c.Values = Overlap(rs, k)
	return c
}

// SparsityChart draws the sparsity level (nonzero rows of W) of the
// embedded results; nil when there are none.
func SparsityChart(rs []Result) *chart.BarChart {
	s := chart.BarSeries{Name: "nonzero rows"}
	var cats []string
	for _, r := range rs {
		if r.Sel.NonzeroRows != nil {
			cats = append(cats, r.Label)
			s.Values = append(s.Values, float64(*r.Sel.NonzeroRows))
		}
	}
	if len(cats) == 0 {
		return nil
	}
	return &chart.BarChart{Frame: chart.Frame{ID: "sparsity", Title: "Sparsity level: rows of W above 10⁻⁶ × the largest", XLabel: "nonzero rows"},
		Horizontal: true, Categories: cats, Series: []chart.BarSeries{s}}
}

// TimeChart draws the fitting time of every result.
func TimeChart(rs []Result) *chart.BarChart {
	s := chart.BarSeries{Name: "seconds"}
	var cats []string
	for _, r := range rs {
		cats = append(cats, r.Label)
		s.Values = append(s.Values, r.Sel.Seconds)
	}
	return &chart.BarChart{Frame: chart.Frame{ID: "time", Title: "Fitting time (in the worker, preprocessing excluded)", XLabel: "seconds"},
		Horizontal: true, Categories: cats, Series: []chart.BarSeries{s}}
}
