package selection

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// bruteNNLS minimises ‖Eu − f‖ over u ≥ 0 by trying every passive set P:
// the least-squares solution on P (gonum's Solve) is a candidate when it is
// ≥ 0; the least residual among candidates is the minimum.
func bruteNNLS(e *mat.Dense, f []float64) ([]float64, float64) {
	k, n := e.Dims()
	best, bestU := math.Inf(1), make([]float64, n)
	for mask := 0; mask < 1<<n; mask++ {
		var idx []int
		for j := 0; j < n; j++ {
			if mask>>j&1 == 1 {
				idx = append(idx, j)
			}
		}
		u := make([]float64, n)
		if len(idx) > 0 {
			if len(idx) > k {
				continue
			}
			sub := mat.NewDense(k, len(idx), nil)
			for i := 0; i < k; i++ {
				for a, j := range idx {
					sub.Set(i, a, e.At(i, j))
				}
			}
			var sol mat.VecDense
			if err := sol.SolveVec(sub, mat.NewVecDense(k, append([]float64(nil), f...))); err != nil {
				continue
			}
			ok := true
			for a, j := range idx {
				u[j] = sol.AtVec(a)
				ok = ok && u[j] >= 0
			}
			if !ok {
				continue
			}
		}
		if r := nnlsResidual(e, f, u); r < best {
			best = r
			copy(bestU, u)
		}
	}
	return bestU, best
}

func nnlsResidual(e *mat.Dense, f, u []float64) float64 {
	k, _ := e.Dims()
	s := 0.0
	for i := 0; i < k; i++ {
		v := f[i]
		for j, x := range u {
			v -= e.At(i, j) * x
		}
		s += v * v
	}
	return math.Sqrt(s)
}

// NNLS against brute force over all passive sets and against its KKT
// conditions, cold and warm started, on tall, square and wide problems.
func TestNNLS(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 400; trial++ {
		k, n := 1+rng.IntN(7), 1+rng.IntN(7)
		e := mat.NewDense(k, n, nil)
		for i := range e.RawMatrix().Data {
			e.RawMatrix().Data[i] = rng.NormFloat64()
		}
		f := make([]float64, k)
		for i := range f {
			f[i] = rng.NormFloat64() * 3
		}
		want, wantR := bruteNNLS(e, f)
		s := newNNLS(k, n)
		for _, warm := range []bool{false, true} {
			u := make([]float64, n)
			if warm {
				for j := range u {
					u[j] = float64(rng.IntN(2)) * rng.Float64()
				}
			}
			if !s.solve(e, f, u) {
				t.Fatalf("trial %d: no convergence", trial)
			}
			r := nnlsResidual(e, f, u)
			if r > wantR*(1+1e-10)+1e-12 {
				t.Fatalf("trial %d warm=%v: residual %v, brute force %v (u %v vs %v)", trial, warm, r, wantR, u, want)
			}
			s.gradient(u)
			for j, x := range u {
				if x < 0 || s.w[j] > 1e-9 || (x > 0 && math.Abs(s.w[j]) > 1e-9) {
					t.Fatalf("trial %d: KKT fails at %d: u=%v w=%v", trial, j, x, s.w[j])
				}
			}
		}
	}
}

// LDP: min ‖z‖ s.t. Gz ≥ h, checked by its KKT conditions (z = Gᵀλ,
// λ ≥ 0, Gz ≥ h, λ⊙(Gz − h) = 0, which prove optimality) and against brute
// force over active sets S (the minimum-norm solution of G_S z = h_S, a
// candidate when it is feasible).
func TestLDP(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 300; trial++ {
		k, n := 1+rng.IntN(6), 1+rng.IntN(5)
		g := mat.NewDense(k, n, nil)
		for i := range g.RawMatrix().Data {
			g.RawMatrix().Data[i] = rng.NormFloat64()
		}
		h := make([]float64, k)
		for i := range h {
			h[i] = rng.NormFloat64()
		}
		// Make the constraints consistent: z0 = random satisfies them.
		z0 := make([]float64, n)
		for j := range z0 {
			z0[j] = rng.NormFloat64()
		}
		for i := range h {
			gz := 0.0
			for j := range z0 {
				gz += g.At(i, j) * z0[j]
			}
			h[i] = math.Min(h[i], gz)
		}
		s := newNNLS(n+1, k)
		e := mat.NewDense(n+1, k, nil)
		z, u := make([]float64, n), make([]float64, k)
		if !ldp(s, e, g, h, z, u) {
			t.Fatalf("trial %d: LDP failed", trial)
		}
		hu := 0.0
		for i := range u {
			hu += h[i] * u[i]
		}
		lam := make([]float64, k)
		for i := range lam {
			lam[i] = u[i] / (1 - hu)
		}
		for j := 0; j < n; j++ {
			gl := 0.0
			for i := range lam {
				gl += g.At(i, j) * lam[i]
			}
			if math.Abs(gl-z[j]) > 1e-10*(1+math.Abs(z[j])) {
				t.Fatalf("trial %d: z ≠ Gᵀλ", trial)
			}
		}
		for i := range h {
			gz := 0.0
			for j := range z {
				gz += g.At(i, j) * z[j]
			}
			if gz < h[i]-1e-10 || lam[i] < 0 || lam[i]*(gz-h[i]) > 1e-10 {
				t.Fatalf("trial %d: constraint %d: Gz = %v, h = %v, λ = %v", trial, i, gz, h[i], lam[i])
			}
		}
		// Brute force over active sets.
		best := math.Inf(1)
		for mask := 0; mask < 1<<k; mask++ {
			var rows []int
			for i := 0; i < k; i++ {
				if mask>>i&1 == 1 {
					rows = append(rows, i)
				}
			}
			cand := make([]float64, n)
			if len(rows) > 0 {
				gs := mat.NewDense(len(rows), n, nil)
				hs := mat.NewVecDense(len(rows), nil)
				for a, i := range rows {
					gs.SetRow(a, g.RawRowView(i))
					hs.SetVec(a, h[i])
				}
				var sol mat.VecDense
				if err := sol.SolveVec(gs, hs); err != nil {
					continue
				}
				for j := range cand {
					cand[j] = sol.AtVec(j)
				}
			}
			ok := true
			for i := range h {
				gz := 0.0
				for j := range cand {
					gz += g.At(i, j) * cand[j]
				}
				ok = ok && gz >= h[i]-1e-9
			}
			if ok {
				best = math.Min(best, mat.Norm(mat.NewVecDense(n, cand), 2))
			}
		}
		if got := mat.Norm(mat.NewVecDense(n, z), 2); got > best*(1+1e-9)+1e-12 {
			t.Fatalf("trial %d: ‖z‖ = %v, brute force %v", trial, got, best)
		}
	}
}
