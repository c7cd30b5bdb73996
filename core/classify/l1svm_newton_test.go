package classify

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/rng"
	"sparsefs/core/linalg"
)

// lassoCD's answer meets the optimality conditions of its model
// gᵀd + ½dᵀHd + ‖w + d‖₁ where H is well conditioned (BᵀB + 10⁻³·I for
// B 60×20), checked with gonum's product: with z = w + d, g + H·d =
// −sign(z_j) where z_j ≠ 0 and |g + H·d|_j ≤ 1 elsewhere. Where H is
// ill-conditioned (B 12×20, as the Hessians of wide data) the sweeps may
// end before the minimiser; the answer must then still lower the model
// below its value at d = 0 (NewtonStep's line search takes it only if f
// falls).
func TestLassoCDMeetsOptimality(t *testing.T) {
	r := rng.New(3, 0)
	for _, rows := range []int{12, 60} {
		const n = 20
		b := mat.NewDense(rows, n, nil)
		for i := 0; i < rows; i++ {
			for j := 0; j < n; j++ {
				b.Set(i, j, r.Normal())
			}
		}
		var hm mat.Dense
		hm.Mul(b.T(), b)
		for j := 0; j < n; j++ {
			hm.Set(j, j, hm.At(j, j)+1e-3)
		}
		g, w, set := make([]float64, n), make([]float64, n), make([]int, n)
		for j := range g {
			g[j] = 3 * r.Normal()
			if j%3 == 0 {
				w[j] = r.Normal()
			}
			set[j] = j
		}
		h := linalg.General{Rows: n, Cols: n, Stride: n, Data: append([]float64(nil), hm.RawMatrix().Data...)}
		z, d := lassoCD(&NewtonWork{}, h, g, set, w)
		var hd mat.VecDense
		hd.MulVec(&hm, mat.NewVecDense(n, d))
		worst := 0.0
		for j := range z {
			grad := g[j] + hd.AtVec(j)
			v := math.Abs(grad) - 1
			if z[j] != 0 {
				v = math.Abs(grad + math.Copysign(1, z[j]))
			}
			worst = math.Max(worst, v)
			if math.Abs(z[j]-w[j]-d[j]) > 1e-12 {
				t.Fatalf("z − w ≠ d at %d", j)
			}
		}
		if rows >= n && worst > 1e-9 {
			t.Errorf("B %d×%d: optimality conditions violated by %.2g", rows, n, worst)
		}
		model := func(d []float64) float64 {
			v := 0.0
			for j := range d {
				v += g[j]*d[j] + math.Abs(w[j]+d[j])
				for k := range d {
					v += 0.5 * d[j] * hm.At(j, k) * d[k]
				}
			}
			return v
		}
		if model(d) >= model(make([]float64, n)) {
			t.Errorf("B %d×%d: the model did not fall: %v from %v", rows, n, model(d), model(make([]float64, n)))
		}
	}
}

// NewtonStep never raises f, and from a point a few passes of coordinate
// descent reach, its steps end on the optimum of the problem: the
// optimality conditions of f hold to 10⁻¹⁰ with the gradient computed
// anew from the data (gonum's products).
func TestNewtonStepReachesTheOptimum(t *testing.T) {
	r := rng.New(5, 0)
	const m, d = 40, 60
	x := mat.NewDense(m, d, nil)
	y := make([]float64, m)
	for i := 0; i < m; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, r.Normal())
		}
		y[i] = 1
		if x.At(i, 0)+0.5*x.At(i, 1)+0.3*r.Normal() < 0 {
			y[i] = -1
		}
	}
	s := NewL1SVM(x, y, 0.5, 1)
	for k := 0; k < 5; k++ {
		s.Sweep(1e-12)
	}
	var work NewtonWork
	for k := 0; k < 30; k++ {
		f := s.Objective()
		if !s.NewtonStep(&work) {
			break
		}
		if s.Objective() > f {
			t.Fatalf("step %d raised f: %v → %v", k+1, f, s.Objective())
		}
	}
	w := s.W()
	var xw mat.VecDense
	xw.MulVec(x, mat.NewVecDense(d, w))
	res := make([]float64, m)
	for i := range res {
		res[i] = -2 * 0.5 * y[i] * math.Max(0, 1-y[i]*xw.AtVec(i))
	}
	var g mat.VecDense
	g.MulVec(x.T(), mat.NewVecDense(m, res))
	worst, nonzero := 0.0, 0
	for j, wj := range w {
		v := math.Abs(g.AtVec(j)) - 1
		if wj != 0 {
			v = math.Abs(g.AtVec(j) + math.Copysign(1, wj))
			nonzero++
		}
		worst = math.Max(worst, v)
	}
	if worst > 1e-10 || nonzero == 0 {
		t.Errorf("optimality conditions violated by %.2g (%d nonzero weights)", worst, nonzero)
	}
}
