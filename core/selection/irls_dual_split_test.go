package selection

import (
	"math"
	"math/rand/v2"
	"testing"

	"sparsefs/core/linalg"
)

// r1Split's Newton step must be the formed Hessian's: featureTerms'
// (mc)×(mc) system plus the balls' blocks (ballTerms), solved by Cholesky,
// on a random strictly feasible Θ, with K holding some rows of W and all
// of them, and with rows within 10⁻³ of their constraint. Each step's
// error is measured in the formed system's norm, relative to the Newton
// decrement: at most 10⁻¹³ away from the constraint (measured 3–7·10⁻¹⁶
// natively and in wasm) and 10⁻⁸ near it (3.4–4·10⁻¹⁰, where the formed
// solve's own error is 2–7·10⁻¹¹). It fails if the Woodbury correction or
// a block's rank-one term is wrong (checked: with the rank-one term of
// Bⱼ⁻¹ halved, 1.3–5.5·10⁻⁵; with Dᵢ⁻¹'s scaled by 0.9, 1.7·10⁻¹¹–3.5·10⁻⁴,
// the refinement making up for most of it away from the constraint).
// Closer to the constraint (10⁻⁶) the formed solve is no reference (its
// own error estimate 3·10⁻⁵); there the refinement is checked by
// TestIRLSR1CertifiesMadelon.
func TestR1SplitMatchesFormed(t *testing.T) {
	rng := newRand(7)
	const m, c, nr = 11, 3, 6
	n := m * c
	zt := normalDense(rng, nr, m) // Zᵀ
	th := ballPoint(rng, m, c)
	v, big := rowProducts(zt, th, c)
	z := func(j int) []float64 { return zt.RawRowView(j) }
	vr := func(j int) []float64 { return v.RawRowView(j) }
	for _, tc := range []struct {
		lam2, near, tol float64
	}{{2 * big, 0.3, 1e-13}, {2 * big, 0, 1e-13}, {big * (1 + 1e-3), 0.3, 1e-8}} {
		k := rowsAbove(v, tc.near*tc.near*tc.lam2)
		g0 := normalDense(rng, 1, n).RawMatrix().Data
		f := formedStep(t, k, z, vr, tc.lam2, m, c, g0, func(h []float64) { ballTerms(th, m, c, h) })
		g, want := f.g, f.step
		g2, dx := append([]float64(nil), g0...), make([]float64, n)
		var d r1Split
		if !d.direction(k, z, vr, tc.lam2, m, c, th, g2, dx) {
			t.Fatalf("|K| = %d: the split system did not factorise", len(k))
		}
		f.sameGradient(t, k, g2)
		// Each step's error in the norm of the formed system H,
		// ‖x − H⁻¹g‖_H² = rᵀH⁻¹r (r = H·x − g), relative to the Newton
		// decrement gᵀH⁻¹g: the residual itself is no measure near the
		// constraint, where H·x is dominated by B's huge terms.
		errH := func(x []float64) float64 {
			r := make([]float64, n)
			for i := range r {
				r[i] = dotf(f.h[i*n:(i+1)*n], x) - g[i]
			}
			z := append([]float64(nil), r...)
			linalg.CholeskySolve(gen(n, n, f.factor), gen(n, 1, z))
			return math.Sqrt(math.Abs(dotf(r, z)) / dotf(want, g))
		}
		e, ew := errH(dx), errH(want)
		t.Logf("λ² = %.3g, |K| = %d: error %.3g, the formed solve's %.3g", tc.lam2, len(k), e, ew)
		if e > tc.tol || len(k) == 0 {
			t.Errorf("λ² = %.3g, |K| = %d: the split step's error is %.2g in the formed system's norm, relative to the decrement (the formed solve's %.2g)", tc.lam2, len(k), e, ew)
		}
	}
}

// ballPoint returns a random Θ (m×c, row by row) strictly inside the
// balls ‖θᵢ‖ < 1: each row a random direction of norm 0.05 … 0.95.
func ballPoint(rng *rand.Rand, m, c int) []float64 {
	th := make([]float64, m*c)
	for i := 0; i < m; i++ {
		ti := th[i*c : (i+1)*c]
		for p := range ti {
			ti[p] = rng.NormFloat64()
		}
		f := (0.05 + 0.9*rng.Float64()) / math.Sqrt(norm2(ti))
		for p := range ti {
			ti[p] *= f
		}
	}
	return th
}
