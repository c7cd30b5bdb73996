package selection

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// The two forms of the face's Newton system (face.dense, forming H of
// order k·c in a basis N of the face; face.woodbury, through the
// projection P and the |S|×|S| capacitance matrix, without N) must give
// the same step, and that step must solve
// H·dv = g with H applied directly as the sum of its row blocks,
// Σₐ NₐᵀNₐ ⊗ Hₐ, Hₐ = λ(I/sₐ − wₐwₐᵀ/sₐ³) (the Hessian of
// λ√(‖w‖² + μ²), derived by hand): on the face of a random Z_S (m×|S|)
// with rows of W of very different norms, some far below μ.
func TestFaceWoodburyMatchesDense(t *testing.T) {
	rng := newRand(11)
	for _, tc := range []struct{ ns, m, c int }{{30, 18, 3}, {40, 5, 9}, {25, 20, 2}} {
		ns, m, c := tc.ns, tc.m, tc.c
		k := ns - m
		const lambda, mu = 0.7, 1e-3
		s := &irls{irlsModel: irlsModel{lambda: lambda}, m: m, nr: ns, c: c, zt: make([]float64, ns*m)}
		for i := range s.zt {
			s.zt[i] = rng.NormFloat64()
		}
		sup := make([]int, ns)
		for a := range sup {
			sup[a] = a
		}
		f, ok := s.newFace(sup)
		if !ok {
			t.Fatalf("%v: newFace failed", tc)
		}
		f.basis()
		ws := make([]float64, ns*c)
		for a := 0; a < ns; a++ {
			size := math.Pow(10, -4+5*rng.Float64())
			for t := 0; t < c; t++ {
				ws[a*c+t] = size * rng.NormFloat64()
			}
		}
		d1, beta := make([]float64, ns), make([]float64, ns)
		for a := 0; a < ns; a++ {
			sa := math.Sqrt(norm2(ws[a*c:(a+1)*c]) + mu*mu)
			d1[a], beta[a] = lambda/sa, lambda/(sa*sa*sa)
		}
		gw := make([]float64, ns*c)
		for i := range gw {
			gw[i] = rng.NormFloat64()
		}
		g := make([]float64, k*c) // NᵀG
		for p := 0; p < k; p++ {
			for a := 0; a < ns; a++ {
				for t := 0; t < c; t++ {
					g[p*c+t] += f.nb[a*k+p] * gw[a*c+t]
				}
			}
		}
		kk := make([]float64, k*k)
		for p := 0; p < k; p++ {
			for q := 0; q < k; q++ {
				for a := 0; a < ns; a++ {
					kk[p*k+q] += f.nb[a*k+p] * d1[a] * f.nb[a*k+q]
				}
			}
		}
		dense, ok1 := f.dense(ws, beta, kk, g)
		dw, ok2 := f.woodbury(ws, d1, beta, gw)
		if !ok1 || !ok2 {
			t.Fatalf("%v: dense %v, woodbury %v", tc, ok1, ok2)
		}
		// The Woodbury form returns dw = −N·dv in W_S; N has orthonormal
		// columns, so dv = −Nᵀdw.
		wood := make([]float64, k*c)
		for p := 0; p < k; p++ {
			for a := 0; a < ns; a++ {
				for t := 0; t < c; t++ {
					wood[p*c+t] -= f.nb[a*k+p] * dw[a*c+t]
				}
			}
		}
		// H·dv by the row blocks.
		apply := func(v []float64) []float64 {
			out := make([]float64, k*c)
			for a := 0; a < ns; a++ {
				wa := ws[a*c : (a+1)*c]
				sa := lambda / d1[a]
				nv := make([]float64, c) // (NV)ₐ
				for p := 0; p < k; p++ {
					for t := 0; t < c; t++ {
						nv[t] += f.nb[a*k+p] * v[p*c+t]
					}
				}
				hv := make([]float64, c) // Hₐ(NV)ₐ
				wn := dotf(wa, nv)
				for t := 0; t < c; t++ {
					hv[t] = lambda * (nv[t]/sa - wa[t]*wn/(sa*sa*sa))
				}
				for p := 0; p < k; p++ {
					for t := 0; t < c; t++ {
						out[p*c+t] += f.nb[a*k+p] * hv[t]
					}
				}
			}
			return out
		}
		for name, dv := range map[string][]float64{"dense": dense, "woodbury": wood} {
			hv := apply(dv)
			res := 0.0
			for i := range hv {
				res = math.Max(res, math.Abs(hv[i]-g[i]))
			}
			if gmax := floats.Norm(g, math.Inf(1)); res > 1e-7*gmax {
				t.Errorf("%v %s: ‖H·dv − g‖∞ = %.3g (‖g‖∞ %.3g)", tc, name, res, gmax)
			}
		}
		diff, big := 0.0, floats.Norm(dense, math.Inf(1))
		for i := range dense {
			diff = math.Max(diff, math.Abs(dense[i]-wood[i]))
		}
		if diff > 1e-6*big {
			t.Errorf("%v: the two steps differ by %.3g (largest entry %.3g)", tc, diff, big)
		}
	}
}
