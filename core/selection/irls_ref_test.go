package selection

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
)

// This file holds what the IRLS tests compare against: the exact
// objective written out again from its definition, and an independent
// solver of the convex cases (p = 1, r ∈ {1, 2}) that shares no code with
// the engine: damped Newton on a smoothed objective, with gonum's dense
// Cholesky.

// exactObjective is J(W) = Σᵢ‖eᵢ‖^r + λ Σⱼ‖wʲ‖^p with E = ZW − Y, from its
// definition (Eq. 2 of gsr-fs-peng-fan-irls), with mat's own product.
func exactObjective(z, y, w *mat.Dense, r, p, lambda float64) float64 {
	var e mat.Dense
	e.Mul(z, w)
	e.Sub(&e, y)
	m, _ := e.Dims()
	n, _ := w.Dims()
	j := 0.0
	for i := 0; i < m; i++ {
		j += math.Pow(mat.Norm(e.RowView(i), 2), r)
	}
	for k := 0; k < n; k++ {
		j += lambda * math.Pow(mat.Norm(w.RowView(k), 2), p)
	}
	return j
}

// newtonOptimum minimises the convex model ‖ZW − Y‖_{2,r}^r + λ‖W‖_{2,1}
// for r ∈ {1, 2}, independently of the engine. Each non-smooth norm ‖v‖ is
// replaced by √(‖v‖² + μ²); the smoothed objective f_μ is strictly convex
// and smooth, and is minimised by Newton's method with a backtracking
// (Armijo) line search, for μ = 10⁻¹, 10⁻², …, 10⁻¹¹, each stage starting
// from the previous one. Since ‖v‖ ≤ √(‖v‖² + μ²) ≤ ‖v‖ + μ, the exact
// objective J at the returned W is within μ·(m + N) = 10⁻¹¹·(m + N) of the
// true minimum (plus the accuracy of the last Newton solve). The Hessian
// is dense (Nc)×(Nc): small problems only.
func newtonOptimum(t testing.TB, z, y *mat.Dense, r, lambda float64) (*mat.Dense, float64) {
	t.Helper()
	m, nr := z.Dims()
	_, c := y.Dims()
	dim := nr * c
	w := mat.NewDense(nr, c, nil)
	smooth := func(v []float64, mu float64) float64 { return math.Sqrt(floats2(v) + mu*mu) }
	f := func(w *mat.Dense, mu float64) float64 {
		var e mat.Dense
		e.Mul(z, w)
		e.Sub(&e, y)
		s := 0.0
		for i := 0; i < m; i++ {
			if r == 1 {
				s += smooth(e.RawRowView(i), mu)
			} else {
				s += floats2(e.RawRowView(i))
			}
		}
		for j := 0; j < nr; j++ {
			s += lambda * smooth(w.RawRowView(j), mu)
		}
		return s
	}
	grad := make([]float64, dim)
	hess := make([]float64, dim*dim)
	hc := make([]float64, c*c)
	gi := make([]float64, c)
	next := mat.NewDense(nr, c, nil)
	var e mat.Dense
	for mu := 1e-1; mu >= 1e-11; mu /= 10 {
		for it := 0; it < 100; it++ {
			e.Mul(z, w)
			e.Sub(&e, y)
			clear(grad)
			clear(hess)
			// Loss: ∇ = Σᵢ zᵢ ⊗ φ'(eᵢ), H = Σᵢ zᵢzᵢᵀ ⊗ φ''(eᵢ) (upper
			// blocks only).
			for i := 0; i < m; i++ {
				ei := e.RawRowView(i)
				clear(hc)
				if r == 1 {
					rho := smooth(ei, mu)
					for t := range gi {
						gi[t] = ei[t] / rho
						for u := 0; u < c; u++ {
							hc[t*c+u] = -ei[t] * ei[u] / (rho * rho * rho)
						}
						hc[t*c+t] += 1 / rho
					}
				} else {
					for t := range gi {
						gi[t] = 2 * ei[t]
						hc[t*c+t] = 2
					}
				}
				zi := z.RawRowView(i)
				for j, zj := range zi {
					if zj == 0 {
						continue
					}
					for t := 0; t < c; t++ {
						grad[j*c+t] += zj * gi[t]
					}
					for k := j; k < nr; k++ {
						zz := zj * zi[k]
						if zz == 0 {
							continue
						}
						for t := 0; t < c; t++ {
							row := hess[(j*c+t)*dim+k*c : (j*c+t)*dim+k*c+c]
							for u := range row {
								row[u] += zz * hc[t*c+u]
							}
						}
					}
				}
			}
			// Penalty: λ√(‖wʲ‖² + μ²).
			for j := 0; j < nr; j++ {
				wj := w.RawRowView(j)
				rho := smooth(wj, mu)
				for t := 0; t < c; t++ {
					grad[j*c+t] += lambda * wj[t] / rho
					for u := 0; u < c; u++ {
						h := -lambda * wj[t] * wj[u] / (rho * rho * rho)
						if u == t {
							h += lambda / rho
						}
						hess[(j*c+t)*dim+j*c+u] += h
					}
				}
			}
			// Only the upper triangle of the diagonal blocks and the
			// blocks above them were set: symmetrise from the upper part.
			for a := 0; a < dim; a++ {
				for b := 0; b < a; b++ {
					hess[a*dim+b] = hess[b*dim+a]
				}
			}
			var ch mat.Cholesky
			if !ch.Factorize(mat.NewSymDense(dim, hess)) {
				t.Fatalf("newtonOptimum: Hessian not positive definite at μ=%g", mu)
			}
			g := mat.NewVecDense(dim, grad)
			var d mat.VecDense
			if err := ch.SolveVecTo(&d, g); err != nil && d.Len() == 0 {
				t.Fatalf("newtonOptimum: %v", err)
			}
			d.ScaleVec(-1, &d)
			slope := mat.Dot(g, &d)
			f0 := f(w, mu)
			// The Newton decrement −∇ᵀd ≈ 2(f − min f): stop when it is at
			// rounding level.
			if -slope < 1e-14*(1+f0) {
				break
			}
			step := 1.0
			for {
				nd := next.RawMatrix().Data
				for a, v := range w.RawMatrix().Data {
					nd[a] = v + step*d.AtVec(a)
				}
				if f(next, mu) <= f0+1e-4*step*slope {
					break
				}
				if step /= 2; step < 1e-10 {
					break
				}
			}
			if step < 1e-10 {
				break // no more progress at working precision
			}
			w, next = next, w
		}
	}
	return w, exactObjective(z, y, w, r, 1, lambda)
}

func floats2(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

// slice returns the z-scored problem on the given rows and leading
// columns of a shared dataset (bias on), for the small real cases.
func irlsSlice(t testing.TB, file string, rows []int, cols int) *Problem {
	t.Helper()
	full := irlsRealProblem(t, file)
	raw := irlsRawData(t, file)
	x := mat.NewDense(len(rows), cols, nil)
	y := make([]int, len(rows))
	for k, i := range rows {
		for j := 0; j < cols; j++ {
			x.Set(k, j, raw.At(i, j))
		}
		y[k] = full.Y[i]
	}
	return &Problem{X: dataset.FitScaler(dataset.ZScore, x).Transform(x), Y: y, C: full.C, Bias: true}
}
