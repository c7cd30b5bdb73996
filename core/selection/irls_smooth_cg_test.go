package selection

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// smoothCGProblem is a random tall problem of the smoothed model for the
// conjugate-gradient steps: rows of W of very different norms, Y = ZW
// plus noise, none on every fifth sample but a residual of about μ (the
// curvature 1/μ that the smoothing leaves at exact fit); S is every row.
func smoothCGProblem(rng *rand.Rand, m, ns, c int, lambda, mu, muW float64) (*irls, *polishState) {
	s := &irls{irlsModel: irlsModel{r: 1, p: 1, lambda: lambda}, m: m, nr: ns, c: c, zt: make([]float64, ns*m), y: make([]float64, m*c)}
	for i := range s.zt {
		s.zt[i] = rng.NormFloat64()
	}
	w := make([]float64, ns*c)
	for a := 0; a < ns; a++ {
		size := math.Pow(10, -3+3*rng.Float64())
		for u := 0; u < c; u++ {
			w[a*c+u] = size * rng.NormFloat64()
		}
	}
	sup := make([]int, ns)
	for a := range sup {
		sup[a] = a
	}
	e := make([]float64, m*c)
	s.residual(sup, w, e) // e = ZW (Y is zero)
	for i := 0; i < m; i++ {
		noise := 1.0
		if i%5 == 0 {
			noise = mu
		}
		for u := 0; u < c; u++ {
			s.y[i*c+u] = e[i*c+u] + noise*rng.NormFloat64()
		}
	}
	st := &polishState{sup: sup, w: w, e: make([]float64, m*c), mu: mu, muW: muW}
	s.restrict(st)
	return s, st
}

// A factor kept from an earlier step (smoothPrecond) changes how the
// conjugate gradients get there, not where: after a step at one point, the
// steps at a nearby point (W scaled by 1 + 10⁻⁵) and at a far one (W scaled by
// 100 and the residual rows' smoothing by 100) match the dense form's
// solution there; the near one is solved with the kept factor throughout,
// the far one goes on with a fresh factor, the kept one no longer paying
// (it fails with the kept factor never replaced, or always).
func TestNewtonStepCGKeptFactor(t *testing.T) {
	rng := newRand(9)
	const m, ns, c = 400, 80, 2 // a new factor costs 9 iterations
	s, st := smoothCGProblem(rng, m, ns, c, 0.8, 1e-3, 1e-4)
	sys, _ := s.newtonSystem(st)
	if _, _, ok := s.newtonStepCG(st, sys, 1e-13); !ok {
		t.Fatal("first step failed")
	}
	first := s.smoothPre
	if first == nil || first.fresh == 0 {
		t.Fatalf("no factor kept after the first step: %+v", first)
	}
	for _, tc := range []struct {
		name  string
		scale float64
		mu    float64
		kept  bool
	}{{"near", 1 + 1e-5, 1e-3, true}, {"far", 100, 1e-1, false}} {
		moved := &polishState{sup: st.sup, w: slices.Clone(st.w), e: make([]float64, m*c), mu: tc.mu, muW: st.muW}
		for a := range moved.w {
			moved.w[a] *= tc.scale
		}
		s.restrict(moved)
		sys, _ := s.newtonSystem(moved)
		dense, _, ok := s.newtonStepDense(moved, sys)
		if !ok {
			t.Fatalf("%s: dense step failed", tc.name)
		}
		s.smoothPre = first
		sys, _ = s.newtonSystem(moved)
		cg, _, ok := s.newtonStepCG(moved, sys, 1e-13)
		if !ok {
			t.Fatalf("%s: conjugate-gradient step failed", tc.name)
		}
		diff := make([]float64, len(cg))
		floats.SubTo(diff, cg, dense)
		if rel := floats.Norm(diff, 2) / floats.Norm(dense, 2); rel > 1e-8 {
			t.Errorf("%s: ‖d_cg − d_dense‖/‖d_dense‖ = %.3g", tc.name, rel)
		}
		if kept := s.smoothPre == first; kept != tc.kept {
			t.Errorf("%s: kept factor used throughout = %v, want %v", tc.name, kept, tc.kept)
		}
	}
}

// The smoothed Newton step by conjugate gradients (newtonStepCG, taken
// where |S|·c is too large to form the system) must solve the same
// system as the dense form (newtonStepDense), and its step must satisfy
// H·d = −g with H applied directly as Σᵢ zᵢzᵢᵀ ⊗ (I/sᵢ − eᵢeᵢᵀ/sᵢ³) plus
// the penalty's blocks λ(I/tⱼ − wʲwʲᵀ/tⱼ³) (the Hessians of √(‖e‖² + μ²)
// and λ√(‖w‖² + μ_W²), derived by hand): on random tall problems with
// rows of W of very different norms and some samples fitted to within μ
// (the curvature 1/μ that the smoothing leaves at exact fit).
func TestNewtonStepCGMatchesDense(t *testing.T) {
	rng := newRand(5)
	for _, tc := range []struct{ m, ns, c int }{{60, 12, 3}, {90, 20, 7}, {40, 15, 2}} {
		m, ns, c := tc.m, tc.ns, tc.c
		const lambda, mu, muW = 0.8, 1e-3, 1e-4
		s, st := smoothCGProblem(rng, m, ns, c, lambda, mu, muW)
		w := st.w
		sys, ok := s.newtonSystem(st)
		if !ok {
			t.Fatalf("%v: no Newton system", tc)
		}
		dense, _, ok := s.newtonStepDense(st, sys)
		if !ok {
			t.Fatalf("%v: dense step failed", tc)
		}
		sys, _ = s.newtonSystem(st)
		g := append([]float64(nil), sys.g...)
		cg, de, ok := s.newtonStepCG(st, sys, 1e-13)
		if !ok {
			t.Fatalf("%v: conjugate-gradient step failed", tc)
		}
		diff := make([]float64, len(cg))
		floats.SubTo(diff, cg, dense)
		if rel := floats.Norm(diff, 2) / floats.Norm(dense, 2); rel > 1e-8 {
			t.Errorf("%v: ‖d_cg − d_dense‖/‖d_dense‖ = %.3g", tc, rel)
		}
		// H·d by hand, from Z·d.
		zd := make([]float64, m*c)
		for i := 0; i < m; i++ {
			for a := 0; a < ns; a++ {
				for u := 0; u < c; u++ {
					zd[i*c+u] += s.zt[a*m+i] * cg[a*c+u]
				}
			}
		}
		hd := make([]float64, ns*c)
		for i := 0; i < m; i++ {
			ei, zi := st.e[i*c:(i+1)*c], zd[i*c:(i+1)*c]
			si := math.Sqrt(floats.Dot(ei, ei) + mu*mu)
			f := floats.Dot(ei, zi) / (si * si * si)
			for a := 0; a < ns; a++ {
				z := s.zt[a*m+i]
				for u := 0; u < c; u++ {
					hd[a*c+u] += z * (zi[u]/si - f*ei[u])
				}
			}
		}
		for a := 0; a < ns; a++ {
			wa, da := w[a*c:(a+1)*c], cg[a*c:(a+1)*c]
			ta := math.Sqrt(floats.Dot(wa, wa) + muW*muW)
			f := floats.Dot(wa, da) / (ta * ta * ta)
			for u := 0; u < c; u++ {
				hd[a*c+u] += lambda * (da[u]/ta - f*wa[u])
			}
		}
		floats.Add(hd, g)
		if rel := floats.Norm(hd, 2) / floats.Norm(g, 2); rel > 1e-8 {
			t.Errorf("%v: ‖H·d + g‖/‖g‖ = %.3g", tc, rel)
		}
		dz := make([]float64, m*c)
		floats.SubTo(dz, zd, de)
		if rel := floats.Norm(dz, 2) / floats.Norm(zd, 2); rel > 1e-12 {
			t.Errorf("%v: the step of E is not Z·d: %.3g", tc, rel)
		}
	}
}
