package dataset

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// Scaling names a per-feature preprocessing.
type Scaling string

const (
	// ZScore centres each feature and divides it by its population
	// standard deviation (ddof = 0). The default.
	ZScore Scaling = api.ZScore
	// MinMax maps each feature's training range onto [0, 1].
	MinMax Scaling = api.MinMax
	// None leaves values as they are (missing cells are still imputed).
	None Scaling = api.NoScaling
)

// ParseScaling accepts "zscore", "minmax" or "none"; "" means ZScore
// (plan.Preprocess).
func ParseScaling(s string) (Scaling, error) {
	v, err := plan.Preprocess(s)
	return Scaling(v), err
}

// Scaler is a preprocessing fitted on a training part: x ↦ (x − Offset)/Scale
// per feature, with a missing value first replaced by the training mean.
// A feature that is constant on the training part is reported in Constant
// and never divided by zero: it has Scale 0 and maps to 0 everywhere, except
// with None, which leaves it as it is.
type Scaler struct {
	Kind   Scaling
	Mean   []float64 // training mean of each feature (NaN cells ignored)
	Offset []float64
	Scale  []float64
	// Constant lists the 0-based features constant on the training part.
	Constant []int
}

// FitScaler fits a preprocessing to the rows of x. NaN cells are ignored
// (they are missing values, to be imputed); a feature with no observed value
// is constant.
func FitScaler(kind Scaling, x mat.Matrix) *Scaler {
	m, n := x.Dims()
	s := &Scaler{Kind: kind, Mean: make([]float64, n), Offset: make([]float64, n), Scale: make([]float64, n)}
	for j := 0; j < n; j++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		sum, cnt := 0.0, 0
		for i := 0; i < m; i++ {
			v := x.At(i, j)
			if math.IsNaN(v) {
				continue
			}
			sum += v
			cnt++
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		mean := 0.0
		if cnt > 0 {
			mean = sum / float64(cnt)
		}
		s.Mean[j] = mean
		if cnt == 0 || lo == hi {
			// Constant (or wholly missing): reported, and mapped to zero
			// unless the data are to be left as they are.
			s.Constant = append(s.Constant, j)
			s.Offset[j], s.Scale[j] = 0, 0
			if kind == None {
				s.Scale[j] = 1
			}
			continue
		}
		switch kind {
		case ZScore:
			// Two-pass population variance; the missing cells, imputed by
			// the mean, add nothing to it.
			ss := 0.0
			for i := 0; i < m; i++ {
				if v := x.At(i, j); !math.IsNaN(v) {
					ss += (v - mean) * (v - mean)
				}
			}
			s.Offset[j], s.Scale[j] = mean, math.Sqrt(ss/float64(m))
		case MinMax:
			s.Offset[j], s.Scale[j] = lo, hi-lo
		default:
			s.Offset[j], s.Scale[j] = 0, 1
		}
	}
	return s
}

// Transform returns a new matrix: x preprocessed with the fitted statistics.
// It panics if x has a different number of columns than the fitted data.
func (s *Scaler) Transform(x mat.Matrix) *mat.Dense {
	m, n := x.Dims()
	out := mat.NewDense(m, n, nil)
	s.TransformTo(out, x)
	return out
}

// TransformTo writes x preprocessed into out (of x's size), which may be x
// itself: a caller that owns the data scales them in place rather than
// holding a second copy. It panics if x has a different number of columns
// than the fitted data.
func (s *Scaler) TransformTo(out *mat.Dense, x mat.Matrix) {
	m, n := x.Dims()
	if n != len(s.Scale) {
		panic(mat.ErrShape)
	}
	if r, c := out.Dims(); r != m || c != n {
		panic(mat.ErrShape)
	}
	for i := 0; i < m; i++ {
		row := out.RawRowView(i)
		for j := 0; j < n; j++ {
			v := x.At(i, j)
			if math.IsNaN(v) {
				v = s.Mean[j]
			}
			if s.Scale[j] == 0 {
				row[j] = 0
				continue
			}
			row[j] = (v - s.Offset[j]) / s.Scale[j]
		}
	}
}
