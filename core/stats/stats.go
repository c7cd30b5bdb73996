// Package stats holds the arithmetic of the evaluation's report: the mean
// and the sample standard deviation over the splits, skipping undefined
// values. The evaluation (core/evaluate) writes its report with it, and the
// page (ui/lab) summarises the units done so far with it while a run goes
// on, so that its running summaries are the report's figures.
//
// It is a leaf package (the standard library only), so that the page can
// use it without linking the solvers.
package stats

import "math"

// MeanStd returns the mean and the sample standard deviation (n − 1 in the
// denominator, as MATLAB's std, which the papers' tables use) of the
// values that are not NaN: NaN for both when there are none, and a NaN
// deviation for a single value (it needs two).
func MeanStd(v []float64) (mean, std float64) {
	n, s := 0, 0.0
	for _, x := range v {
		if !math.IsNaN(x) {
			n++
			s += x
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mean = s / float64(n)
	if n < 2 {
		return mean, math.NaN()
	}
	ss := 0.0
	for _, x := range v {
		if !math.IsNaN(x) {
			ss += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(ss / float64(n-1))
}

// ColumnMeanStd returns, for each column j < n of rows (one row per split),
// MeanStd of the rows' values in that column; a row shorter than n counts
// as NaN (undefined) beyond its end.
func ColumnMeanStd(rows [][]float64, n int) (mean, std []float64) {
	mean, std = make([]float64, n), make([]float64, n)
	col := make([]float64, len(rows))
	for j := 0; j < n; j++ {
		for i, r := range rows {
			col[i] = math.NaN()
			if j < len(r) {
				col[i] = r[j]
			}
		}
		mean[j], std[j] = MeanStd(col)
	}
	return mean, std
}
