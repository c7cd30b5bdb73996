package selection

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/rng"
)

// kronSolve solves the Newton system of the polish with r = 2,
//
//	H = (K ⊗ I_c) + ⊕_a λ(I − w_a w_aᵀ/ν_a²)/ν_a,   ν_a = √(‖w_a‖² + μ_W²),
//
// written out densely here (order ns·c) and solved by gonum's LU: the two
// agree to 10⁻⁹ relative, with K = 2ZᵀZ of rank below ns (Z 6×10, as on
// wide data) and of full rank (Z 30×10), without and with μ_W.
func TestKronSolveMatchesDense(t *testing.T) {
	r := rng.New(11, 0)
	const ns, c, lambda = 10, 4, 0.7
	for _, m := range []int{6, 30} {
		for _, muW := range []float64{0, 0.3} {
			z := mat.NewDense(m, ns, nil)
			for i := 0; i < m; i++ {
				for j := 0; j < ns; j++ {
					z.Set(i, j, r.Normal())
				}
			}
			var k mat.Dense
			k.Mul(z.T(), z)
			k.Scale(2, &k)
			w := make([][]float64, ns)
			g := make([]float64, ns*c)
			n := ns * c
			h := mat.NewDense(n, n, nil)
			for a := 0; a < ns; a++ {
				w[a] = make([]float64, c)
				for u := range w[a] {
					w[a][u] = r.Normal()
				}
				nu := math.Sqrt(norm2(w[a]) + muW*muW)
				for u := 0; u < c; u++ {
					g[a*c+u] = r.Normal()
					for b := 0; b < ns; b++ {
						h.Set(a*c+u, b*c+u, k.At(a, b))
					}
					for v := 0; v < c; v++ {
						x := -w[a][u] * w[a][v] / (nu * nu)
						if u == v {
							x++
						}
						h.Set(a*c+u, a*c+v, h.At(a*c+u, a*c+v)+lambda*x/nu)
					}
				}
			}
			var want mat.VecDense
			if err := want.SolveVec(h, mat.NewVecDense(n, append([]float64(nil), g...))); err != nil {
				t.Fatal(err)
			}
			got := append([]float64(nil), g...)
			if !kronSolve(append([]float64(nil), k.RawMatrix().Data...), ns, c, w, lambda, muW, got) {
				t.Fatalf("Z %d×%d, μ_W %g: kronSolve failed", m, ns, muW)
			}
			diff := 0.0
			for i := range got {
				diff = math.Max(diff, math.Abs(got[i]-want.AtVec(i)))
			}
			if diff > 1e-9*mat.Norm(&want, math.Inf(1)) {
				t.Errorf("Z %d×%d, μ_W %g: largest difference %.2g from the dense solve", m, ns, muW, diff)
			}
		}
	}
}

// mtfs (λ = 1) is certified at its defaults on wide multi-class sets
// whose support has more rows than the polish's dense Newton systems
// allow (|S|·c above 1200: 2300–5400 unknowns here), through kronSolve
// and a second polish after the certified stop's continuation. The
// optimality conditions are checked independently of the solver, with
// gonum's products: with G = 2Zᵀ(ZW − Y), G_j = −λw_j/‖w_j‖ on the
// nonzero rows and ‖G_j‖ ≤ λ elsewhere. Before, the first three stopped
// uncertified (gaps 2.7·10⁻⁵, 8.6·10⁻⁵ and 7.9·10⁻⁴); orlraws10P (100 ×
// 10304, 10 classes), whose settled support still misses rows the
// optimum holds, needs four rounds of rows entering S (before, with three
// rounds and a third of the work, 1.5·10⁻³).
func TestMTFSCertifiedWide(t *testing.T) {
	for _, file := range []string{"lymphoma.csv.gz", "nci9.csv.gz", "Yale.csv.gz", "orlraws10P.csv.gz"} {
		p := irlsRealProblem(t, file)
		res, err := MTFS{}.Fit(context.Background(), p, &Settings{})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Certificate
		if c == nil || c.Gap > 1e-8 || res.Status != Converged || !c.Polished {
			t.Errorf("%s: status %s after %d iterations, certificate %+v; want converged and polished, gap ≤ 1e-8", file, res.Status, res.Iterations, c)
			continue
		}
		z := p.Design()
		m, _ := z.Dims()
		_, cols := res.W.Dims()
		y := mat.NewDense(m, cols, nil)
		for i, k := range p.Y {
			y.Set(i, k, 1)
		}
		var e, g mat.Dense
		e.Mul(z, res.W)
		e.Sub(&e, y)
		g.Mul(z.T(), &e)
		g.Scale(2, &g)
		worst := 0.0
		for j := 0; j < g.RawMatrix().Rows; j++ {
			gj, wj := mat.Row(nil, j, &g), mat.Row(nil, j, res.W)
			nw := math.Sqrt(norm2(wj))
			if nw == 0 {
				worst = math.Max(worst, math.Sqrt(norm2(gj))-1)
				continue
			}
			for u := range gj {
				gj[u] += wj[u] / nw
			}
			worst = math.Max(worst, math.Sqrt(norm2(gj)))
		}
		if worst > 1e-6 {
			t.Errorf("%s: optimality conditions violated by %.2g", file, worst)
		}
		t.Logf("%s: gap %.2g after %d iterations, %d Newton steps, support %d; optimality conditions met to %.2g", file, c.Gap, res.Iterations, c.NewtonSteps, c.Support, worst)
	}
}
