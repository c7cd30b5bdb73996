package selection

import (
	"math"
	"testing"

	"sparsefs/core/linalg"
)

// The barrier's Hessian applied without forming it (featureProduct and
// ballProduct) must be the formed one (featureTerms and ballTerms) times
// x, to 10⁻¹² relative, on a random strictly feasible Θ with K some rows
// of W and none; and pcg, preconditioned with the Cholesky factor of the
// Hessian at a nearby point (Θ scaled by 0.9), must reach the formed
// system's solution within 10⁻⁷ in that system's norm, relative to the
// Newton decrement, in fewer than pcgMaxIter iterations; with the factor
// of the same Hessian, in one. It fails if the product leaves out a
// block's rank-one term or a ball's, or if pcg's update is wrong.
func TestBarrierPCGMatchesFormed(t *testing.T) {
	rng := newRand(11)
	const m, c, nr = 13, 3, 9
	n := m * c
	zt := normalDense(rng, nr, m) // Zᵀ
	th := ballPoint(rng, m, c)
	v, big := rowProducts(zt, th, c)
	lam2 := big * 1.01
	z := func(j int) []float64 { return zt.RawRowView(j) }
	vr := func(j int) []float64 { return v.RawRowView(j) }
	near := make([]float64, n)
	for i, x := range th {
		near[i] = 0.9 * x
	}
	vn, _ := rowProducts(zt, near, c)
	vnr := func(j int) []float64 { return vn.RawRowView(j) }
	for _, k := range [][]int{rowsAbove(v, 0.2*lam2), nil} {
		g0 := normalDense(rng, 1, n).RawMatrix().Data
		f := formedStep(t, k, z, vr, lam2, m, c, g0, func(h []float64) { ballTerms(th, m, c, h) })
		var work barrierWork
		work.gradient(k, z, vr, lam2, m, c, make([]float64, n))
		u := make([]float64, len(k)*c)
		apply := func(x, out []float64) {
			work.featureProduct(k, vr, m, c, x, out, u)
			ballProduct(th, m, c, x, out)
		}
		x := normalDense(rng, 1, n).RawMatrix().Data
		got := make([]float64, n)
		apply(x, got)
		for i := range got {
			want := dotf(f.h[i*n:(i+1)*n], x)
			if math.Abs(got[i]-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("|K| = %d: (H·x)[%d] is %v, the formed H gives %v", len(k), i, got[i], want)
			}
		}
		// The preconditioner: the Hessian's factor at 0.9·Θ.
		p := formedStep(t, k, z, vnr, lam2, m, c, g0, func(h []float64) { ballTerms(near, m, c, h) })
		dx, scratch := make([]float64, n), make([]float64, 4*n)
		its, ok := pcg(apply, gen(n, n, p.factor), f.g, dx, scratch)
		errH := math.Sqrt(hNorm2(f.h, diff(dx, f.step)) / dotf(f.step, f.g))
		t.Logf("|K| = %d: %d iterations, error %.2g", len(k), its, errH)
		if !ok || its >= pcgMaxIter || errH > 1e-7 {
			t.Errorf("|K| = %d: pcg converged %v in %d iterations to an error of %.2g in the formed system's norm", len(k), ok, its, errH)
		}
		if its, ok := pcg(apply, gen(n, n, f.factor), f.g, dx, scratch); !ok || its != 1 {
			t.Errorf("|K| = %d: with the factor of H itself pcg took %d iterations (converged %v), want 1", len(k), its, ok)
		}
	}
	if its, ok := pcg(func(x, out []float64) {}, linalg.General{}, nil, nil, nil); its != 0 || !ok {
		t.Errorf("an empty system: %d iterations, converged %v", its, ok)
	}
}

// hNorm2 is xᵀHx for H (n×n, row by row).
func hNorm2(h, x []float64) float64 {
	n, s := len(x), 0.0
	for i, xi := range x {
		s += xi * dotf(h[i*n:(i+1)*n], x)
	}
	return s
}

// diff returns a − b.
func diff(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}
