package selection

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// dsoSplit's Newton step must be the formed Hessian's: featureTerms'
// (mc)×(mc) system plus the signs' diagonal 1/θ², solved by Cholesky, on a
// random strictly feasible Θ, with K holding some features and none. It
// fails if the Woodbury correction is left out or a class's block is
// built from another class's θ.
func TestDSOSplitMatchesFormed(t *testing.T) {
	rng := newRand(5)
	const m, c, nf = 9, 3, 14
	n := m * c
	at := normalDense(rng, nf, m) // Xᵀ
	th := make([]float64, n)
	for i := range th {
		th[i] = (0.1 + rng.Float64()) * float64(1-2*rng.IntN(2))
	}
	_, big := rowProducts(at, th, c)
	for i := range th {
		th[i] *= 0.95 / math.Sqrt(big)
	}
	v, _ := rowProducts(at, th, c)
	x := func(j int) []float64 { return at.RawRowView(j) }
	vr := func(j int) []float64 { return v.RawRowView(j) }
	for _, near := range []float64{0.3, 2} {
		k := rowsAbove(v, near*near)
		g0 := normalDense(rng, 1, n).RawMatrix().Data
		f := formedStep(t, k, x, vr, 1, m, c, g0, func(h []float64) {
			for i, v := range th {
				h[i*n+i] += 1 / (v * v)
			}
		})
		want := f.step
		g2, dx := append([]float64(nil), g0...), make([]float64, n)
		d := dsoSplit{m: m, c: c}
		if !d.direction(k, x, vr, th, g2, dx) {
			t.Fatalf("|K| = %d: the split system did not factorise", len(k))
		}
		f.sameGradient(t, k, g2)
		worst := 0.0
		for i := range dx {
			worst = math.Max(worst, math.Abs(dx[i]-want[i])/(1+math.Abs(want[i])))
		}
		if worst > 1e-9 || len(k) == 0 && near < 1 {
			t.Errorf("|K| = %d: the split step differs from the formed one by %.2g (relative)", len(k), worst)
		}
	}
}

// formed is the formed Newton system of a barrier step and its solution:
// the gradient g, the matrix h, its Cholesky factor and the step h⁻¹g.
type formed struct {
	g, h, factor, step []float64
}

// formedStep builds featureTerms' (mc)×(mc) system for the rows K (vectors
// rows(j), products vr(j), λ² lam2) from the gradient g0, adds the
// constraint's terms by extra, and solves it by Cholesky: the reference
// the split solvers' steps are compared with.
func formedStep(t *testing.T, k []int, rows, vr func(int) []float64, lam2 float64, m, c int, g0 []float64, extra func(h []float64)) formed {
	t.Helper()
	n := m * c
	g, h := append([]float64(nil), g0...), make([]float64, n*n)
	var work barrierWork
	work.featureTerms(k, rows, vr, lam2, m, c, g, h)
	extra(h)
	f := formed{g: g, h: append([]float64(nil), h...), factor: h, step: append([]float64(nil), g...)}
	if !cholSolveShifted(gen(n, n, f.factor), gen(n, 1, f.step)) {
		t.Fatal("the formed system did not factorise")
	}
	return f
}

// sameGradient fails the test unless a split solver's gradient g2 is the
// formed system's, to 10⁻¹² relative.
func (f formed) sameGradient(t *testing.T, k []int, g2 []float64) {
	t.Helper()
	for i, v := range f.g {
		if math.Abs(v-g2[i]) > 1e-12*(1+math.Abs(v)) {
			t.Fatalf("|K| = %d: gradient %d is %v, featureTerms gives %v", len(k), i, g2[i], v)
		}
	}
}

// rowProducts returns V = AΘ (A r×m, Θ m×c row by row) and the largest
// squared norm of its rows.
func rowProducts(a *mat.Dense, th []float64, c int) (*mat.Dense, float64) {
	r, m := a.Dims()
	v := mat.NewDense(r, c, nil)
	v.Mul(a, mat.NewDense(m, c, th))
	big := 0.0
	for j := 0; j < r; j++ {
		big = math.Max(big, norm2(v.RawRowView(j)))
	}
	return v, big
}

// rowsAbove lists the rows of v whose squared norm exceeds t.
func rowsAbove(v *mat.Dense, t float64) []int {
	r, _ := v.Dims()
	var k []int
	for j := 0; j < r; j++ {
		if norm2(v.RawRowView(j)) > t {
			k = append(k, j)
		}
	}
	return k
}

// normalDense returns an r×c matrix of standard normal entries.
func normalDense(rng *rand.Rand, r, c int) *mat.Dense {
	a := mat.NewDense(r, c, nil)
	for i := range a.RawMatrix().Data {
		a.RawMatrix().Data[i] = rng.NormFloat64()
	}
	return a
}
