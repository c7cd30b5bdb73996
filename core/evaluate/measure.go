package evaluate

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/stats"
)

// columns copies the given columns of x, in that order.
func columns(x *mat.Dense, cols []int) *mat.Dense {
	m, _ := x.Dims()
	out := mat.NewDense(m, len(cols), nil)
	for i := 0; i < m; i++ {
		src, dst := x.RawRowView(i), out.RawRowView(i)
		for k, j := range cols {
			dst[k] = src[j]
		}
	}
	return out
}

// redundancyPrefix returns, for each K of ks, the redundancy rate of
// l20-nmapg-an-dong-qin-2021 §6.2 (docs/methods.md#redundancy) of the first
// K features of order,
//
//	RED(F) = 1/(|F|(|F|−1)) · Σ_{i>j} |corr(f_i, f_j)|,
//
// with Pearson correlations over the rows of x (the training part). A
// feature constant on those rows has correlation 0 with every other; a set
// of one feature has no pairs and its rate is NaN. The correlations of the
// longest prefix are computed once and summed incrementally.
func redundancyPrefix(x *mat.Dense, order []int, ks []int) []float64 {
	kmax := 0
	for _, k := range ks {
		if k <= len(order) {
			kmax = max(kmax, k)
		}
	}
	out := make([]float64, len(ks))
	if kmax < 2 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	z := standardizedColumns(x, order[:kmax])
	// cum[k] = Σ_{i>j, i<k} |corr_ij|.
	cum := make([]float64, kmax+1)
	for i := 1; i < kmax; i++ {
		s := 0.0
		for j := 0; j < i; j++ {
			s += math.Abs(dot(z[i], z[j]))
		}
		cum[i+1] = cum[i] + s
	}
	for i, k := range ks {
		switch {
		case k < 2 || k > len(order):
			out[i] = math.NaN()
		default:
			out[i] = cum[k] / float64(k*(k-1))
		}
	}
	return out
}

// standardizedColumns returns the given columns of x centred and scaled to
// unit Euclidean norm (all zeros for a constant column), so that the dot
// product of two is their Pearson correlation.
func standardizedColumns(x *mat.Dense, cols []int) [][]float64 {
	m, _ := x.Dims()
	z := make([][]float64, len(cols))
	for k, j := range cols {
		col := make([]float64, m)
		mean := 0.0
		for i := 0; i < m; i++ {
			col[i] = x.At(i, j)
			mean += col[i]
		}
		mean /= float64(m)
		ss := 0.0
		for i := range col {
			col[i] -= mean
			ss += col[i] * col[i]
		}
		if ss > 0 {
			inv := 1 / math.Sqrt(ss)
			for i := range col {
				col[i] *= inv
			}
		} else {
			for i := range col {
				col[i] = 0
			}
		}
		z[k] = col
	}
	return z
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// nanMean is the mean of the values that are not NaN (NaN if none).
func nanMean(v []float64) float64 {
	m, _ := stats.MeanStd(v)
	return m
}
