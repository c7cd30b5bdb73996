package selection

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkDualPoint fails unless th (m×c) is feasible for the dual of the
// r = p = 1 model (every ‖θᵢ‖ ≤ 1 and every ‖(ZᵀΘ)ʲ‖ ≤ λ, to 10⁻¹²,
// computed with gonum's products, not the engine's kernels) and −⟨Θ, Y⟩
// equals the reported dual.
func checkDualPoint(t *testing.T, name string, z, y *mat.Dense, lambda float64, th []float64, dual, obj float64) {
	t.Helper()
	m, nr := z.Dims()
	_, c := y.Dims()
	if len(th) != m*c {
		t.Fatalf("%s: dual point of %d entries, want %d", name, len(th), m*c)
	}
	tm := mat.NewDense(m, c, th)
	for i := 0; i < m; i++ {
		if n := mat.Norm(tm.RowView(i), 2); n > 1+1e-12 {
			t.Errorf("%s: ‖θ_%d‖ = %.15g > 1", name, i, n)
		}
	}
	var v mat.Dense
	v.Mul(z.T(), tm)
	for j := 0; j < nr; j++ {
		if n := mat.Norm(v.RowView(j), 2); n > lambda*(1+1e-12) {
			t.Errorf("%s: ‖(ZᵀΘ)^%d‖ = %.15g > λ = %g", name, j, n, lambda)
		}
	}
	if d := -mat.Sum(elemMul(tm, y)); math.Abs(d-dual) > 1e-12*obj {
		t.Errorf("%s: −⟨Θ, Y⟩ = %.15g, reported dual %.15g", name, d, dual)
	}
}

// certifiedR1 runs the solve of r = p = 1, λ = 1 on z, y at the defaults
// through its certified stop, as Fit does, and returns the solve, the
// certificate and the run.
func certifiedR1(t *testing.T, z, y *mat.Dense, coding Coding) (*irls, *Certificate, Run) {
	t.Helper()
	return certifiedR1Lambda(t, z, y, coding, 1)
}

// certifiedR1Lambda is certifiedR1 with λ = lambda.
func certifiedR1Lambda(t *testing.T, z, y *mat.Dense, coding Coding, lambda float64) (*irls, *Certificate, Run) {
	t.Helper()
	sol := newIRLS(irlsModel{r: 1, p: 1, lambda: lambda, coding: coding}, z, y, DefaultTolerance)
	cert, run := runCertified(t, sol, DefaultMaxIterations)
	return sol, cert, run
}

// runCertified runs sol within maxIter iterations through its certified
// stop, as Fit does, and returns the certificate and the run.
func runCertified(t *testing.T, sol *irls, maxIter int) (*Certificate, Run) {
	t.Helper()
	inner := Settings{MaxIterations: maxIter, Tolerance: -1}
	run, err := Iterate(context.Background(), &inner, sol.step)
	if err != nil {
		t.Fatal(err)
	}
	cert, run, err := sol.certifiedStop(context.Background(), &inner, run)
	if err != nil {
		t.Fatal(err)
	}
	return cert, run
}

// The default stop of rfs (and gsr with r = p = 1) is the certified gap
// (certifiedStop) where the dual point is solved for. On the two small
// slices, against the independent damped Newton optimum of irls_ref_test.go
// (within 10⁻¹¹·(m + N) of the true minimum): at the defaults Fit stops
// with status converged and a certified gap ≤ 10⁻⁶, the gap bounds
// J − J*, and J − J* ≤ 10⁻⁶·J. Before the certified stop the dual slice
// stopped with gaps up to 4.9·10⁻⁶ (rfs, γ = 1: J − J* = 4.8·10⁻⁶), which
// this test fails on.
func TestIRLSCertifiedStopSlices(t *testing.T) {
	for pname, p := range smallReal(t) {
		for _, c := range []irlsCase{irlsCases[0], irlsCases[1], {"gsr/r=1,p=1", GSR{R: 1, P: 1}, 1, 1, 1, PlusMinus}} {
			z, y := p.Design(), p.Response(c.coding)
			_, jOpt := newtonOptimum(t, z, y, 1, c.lambda)
			res, err := c.sel.Fit(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			cert := res.Certificate
			if cert == nil || res.Status != Converged || cert.Gap > certGap {
				t.Errorf("%s %s: status %s, certificate %+v: want converged with gap ≤ 1e−6", pname, c.name, res.Status, cert)
				continue
			}
			j := res.Objective
			if cert.Dual > jOpt*(1+1e-12) || cert.Gap*j < j-jOpt-1e-12*jOpt || j-jOpt > certGap*j {
				t.Errorf("%s %s: dual %.15g, J* %.15g, J %.15g, gap %.3g: not a bound, or J − J* > 1e−6", pname, c.name, cert.Dual, jOpt, j, cert.Gap)
			}
			t.Logf("%s %s: J − J* = %.2g, gap %.2g, %d iterations", pname, c.name, (j-jOpt)/jOpt, cert.Gap, res.Iterations)
		}
	}
}

// On whole microarray sets (m < N: every residual row fitted exactly at
// the optimum) rfs stops on the certified gap where the minimum on the
// face of exact fit (faceR1) fits its budget (colon 62 × 2000, ALLAML
// 72 × 7129, Prostate_GE 102 × 5966; on all three it certifies at the
// change rule's stop: TestR1FaceCertifiesTwoClassSets): status
// converged, gap ≤ 10⁻⁶, the reported J equal to J(W) recomputed with
// gonum, the dual point feasible (checked with gonum),
// and weak duality against an upper bound on J* computed independently of
// the accelerated iteration and its certificate: Algorithm 1 as published
// (solver irls) run to tol 10⁻¹³, whose J₁ ≥ J* must lie above D and
// within the certified gap of the answer (J − J₁ ≤ J − J* ≤ gap·J).
// Before, rfs stopped there with gaps 4.4·10⁻³, 2.2·10⁻⁴ and 8.8·10⁻⁴.
func TestRFSCertifiedStopMicroarray(t *testing.T) {
	for _, file := range []string{"colon.csv.gz", "ALLAML.csv.gz", "Prostate_GE.csv.gz"} {
		p := irlsRealProblem(t, file)
		z, y := p.Design(), p.Response(OneHot)
		sol, cert, run := certifiedR1(t, z, y, OneHot)
		if cert == nil || run.Status != Converged || cert.Gap > certGap {
			t.Fatalf("%s: status %s, certificate %+v: want converged with gap ≤ 1e−6", file, run.Status, cert)
		}
		checkDualPoint(t, file, z, y, 1, sol.certPoint, cert.Dual, sol.obj)
		if j := exactObjective(z, y, mat.NewDense(sol.nr, sol.c, sol.w), 1, 1, 1); math.Abs(j-sol.obj) > 1e-12*j {
			t.Errorf("%s: reported J %.15g, J(W) %.15g", file, sol.obj, j)
		}
		res, err := RFS{}.Fit(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Certificate == nil || *res.Certificate != *cert || res.Objective != sol.obj || res.Status != Converged {
			t.Errorf("%s: Fit reports %+v (%s) for J %.15g, the solve %+v for J %.15g", file, res.Certificate, res.Status, res.Objective, *cert, sol.obj)
		}
		ref, err := RFS{Solver: IRLSPlain}.Fit(context.Background(), p, &Settings{Tolerance: 1e-13, MaxIterations: 100000})
		if err != nil {
			t.Fatal(err)
		}
		j1 := ref.Objective
		if cert.Dual > j1*(1+1e-12) || sol.obj-j1 > cert.Gap*sol.obj+1e-12*j1 {
			t.Errorf("%s: dual %.15g, Algorithm 1's J₁ %.15g (%d iterations), J %.15g, gap %.3g: weak duality fails", file, cert.Dual, j1, ref.Iterations, sol.obj, cert.Gap)
		}
		t.Logf("%s: %d iterations, gap %.2g, J − J₁ = %.2g, J₁ − D = %.2g (Algorithm 1: %d iterations)", file, run.Iterations, cert.Gap, (sol.obj-j1)/j1, (j1-cert.Dual)/j1, ref.Iterations)
	}
}

// mtfs (r = 2) and gsr with r = 2, p = 1 stop on a certified gap ≤ 10⁻⁶
// where the polish cannot certify (certifiedStopSmooth): on lung_discrete
// (73 × 325, 7 classes; support ~160 rows, 1100 unknowns, where the polish
// ended above 10⁻⁶ and no certificate was reported: status
// converged_uncertified) Fit must stop converged with gap ≤ 10⁻⁶. The
// dual value is recomputed with gonum from the answer alone (Θ = 2E,
// E = ZW − Y, scaled by the σ maximising D(σΘ) = −σ⟨Θ, Y⟩ − σ²‖Θ‖²/4
// over the feasible σ ≤ λ/maxⱼ‖(ZᵀΘ)ʲ‖, derived by hand from the
// conjugate of ‖e‖²), and weak duality holds against Algorithm 1 as
// published run to tol 10⁻¹³ (J₁ ≥ J*): D ≤ J₁ and J − J₁ ≤ gap·J.
func TestR2CertifiedStop(t *testing.T) {
	p := irlsRealProblem(t, "lung_discrete.csv.gz")
	for _, c := range []struct {
		name       string
		sel, plain Selector
		lambda     float64
		coding     Coding
	}{
		{"mtfs", MTFS{}, MTFS{Solver: IRLSPlain}, 1, OneHot},
		{"gsr/r=2,p=1", GSR{R: 2, P: 1}, GSR{R: 2, P: 1, Solver: IRLSPlain}, 1, PlusMinus},
	} {
		z, y := p.Design(), p.Response(c.coding)
		res, err := c.sel.Fit(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		cert := res.Certificate
		if cert == nil || res.Status != Converged || cert.Gap > certGap {
			t.Errorf("%s: status %s, certificate %+v: want converged with gap ≤ 1e−6", c.name, res.Status, cert)
			continue
		}
		var e, v mat.Dense
		e.Mul(z, res.W)
		e.Sub(&e, y)
		e.Scale(2, &e)
		v.Mul(z.T(), &e)
		nr, _ := v.Dims()
		maxV := 0.0
		for j := 0; j < nr; j++ {
			maxV = math.Max(maxV, mat.Norm(v.RowView(j), 2))
		}
		a := mat.Sum(elemMul(&e, y))
		b := mat.Sum(elemMul(&e, &e)) / 4
		sigma := math.Min(c.lambda/maxV, -a/(2*b))
		if d := -sigma*a - sigma*sigma*b; math.Abs(d-cert.Dual) > 1e-9*res.Objective {
			t.Errorf("%s: D recomputed %.15g, reported %.15g", c.name, d, cert.Dual)
		}
		j := exactObjective(z, y, res.W, 2, 1, c.lambda)
		ref, err := c.plain.Fit(context.Background(), p, &Settings{Tolerance: 1e-13, MaxIterations: 100000})
		if err != nil {
			t.Fatal(err)
		}
		j1 := ref.Objective
		if cert.Dual > j1*(1+1e-12) || j-j1 > cert.Gap*j+1e-12*j1 {
			t.Errorf("%s: dual %.15g, Algorithm 1's J₁ %.15g (%d iterations), J %.15g, gap %.3g: weak duality fails", c.name, cert.Dual, j1, ref.Iterations, j, cert.Gap)
		}
		t.Logf("%s: %d iterations, gap %.2g, J − J₁ = %.2g, J₁ − D = %.2g (Algorithm 1: %d iterations)", c.name, res.Iterations, cert.Gap, (j-j1)/j1, (j1-cert.Dual)/j1, ref.Iterations)
	}
}
