package classify

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Linear is an ordinary least-squares regression with an intercept,
//
//	min_{B,b} ‖X B + 1bᵀ − Y‖_F²,
//
// the model gsr-fs-peng-fan-irls §5.1 evaluates selected features with. The
// intercept is unregularised: X and Y are centred on their training means
// and B is the minimum-norm least-squares solution of the centred problem,
// from a singular value decomposition truncated at σ_i ≤ max(m, d)·ε·σ_1
// (numpy.linalg.lstsq's default rcond), so that a rank-deficient or
// underdetermined X (more features than samples) has a unique answer.
type Linear struct {
	coef      *mat.Dense // d×t, nil when X has rank 0
	intercept []float64  // t
}

// FitLinear fits the regression of the columns of y on the columns of x.
func FitLinear(x, y *mat.Dense) *Linear {
	m, d := x.Dims()
	my, t := y.Dims()
	if my != m {
		panic(mat.ErrShape)
	}
	xm, ym := colMeans(x), colMeans(y)
	xc := mat.NewDense(m, d, nil)
	yc := mat.NewDense(m, t, nil)
	for i := 0; i < m; i++ {
		for j, v := range x.RawRowView(i) {
			xc.Set(i, j, v-xm[j])
		}
		for j, v := range y.RawRowView(i) {
			yc.Set(i, j, v-ym[j])
		}
	}
	lr := &Linear{intercept: ym}
	var svd mat.SVD
	if !svd.Factorize(xc, mat.SVDThin) {
		// Only on NaN input; predict the mean.
		return lr
	}
	rank := svd.Rank(float64(max(m, d)) * 0x1p-52)
	if rank == 0 {
		return lr
	}
	lr.coef = mat.NewDense(d, t, nil)
	svd.SolveTo(lr.coef, yc, rank)
	// b = ȳ − x̄ᵀB.
	for k := 0; k < t; k++ {
		s := 0.0
		for j := 0; j < d; j++ {
			s += xm[j] * lr.coef.At(j, k)
		}
		lr.intercept[k] -= s
	}
	return lr
}

// Predict returns the m×t predictions for the rows of x.
func (lr *Linear) Predict(x *mat.Dense) *mat.Dense {
	m, _ := x.Dims()
	t := len(lr.intercept)
	out := mat.NewDense(m, t, nil)
	if lr.coef != nil {
		out.Mul(x, lr.coef)
	}
	for i := 0; i < m; i++ {
		row := out.RawRowView(i)
		for k := range row {
			row[k] += lr.intercept[k]
		}
	}
	return out
}

// RMSE returns the root mean square of the entries of pred − y (over all
// samples and targets).
func RMSE(pred, y *mat.Dense) float64 {
	m, t := y.Dims()
	if m*t == 0 {
		return math.NaN()
	}
	s := 0.0
	for i := 0; i < m; i++ {
		p := pred.RawRowView(i)
		for k, v := range y.RawRowView(i) {
			e := p[k] - v
			s += e * e
		}
	}
	return math.Sqrt(s / float64(m*t))
}

func colMeans(x *mat.Dense) []float64 {
	m, n := x.Dims()
	out := make([]float64, n)
	for i := 0; i < m; i++ {
		for j, v := range x.RawRowView(i) {
			out[j] += v
		}
	}
	for j := range out {
		out[j] /= float64(m)
	}
	return out
}
