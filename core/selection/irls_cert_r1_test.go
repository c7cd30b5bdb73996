package selection

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// For r = p = 1 (rfs, and gsr with r = p = 1) every fit reports a
// certificate, checked here against the maths and an independent solver
// on both small real cases, at the default tol and at 10⁻¹⁰:
//
//   - the dual point is feasible, checked with gonum's products (not the
//     engine's kernels): every ‖θᵢ‖ ≤ 1 and every ‖(ZᵀΘ)ʲ‖ ≤ λ, to
//     rounding (10⁻¹²), and its value −⟨Θ, Y⟩ is the reported dual;
//   - the reported dual lies below the optimum of the damped Newton solver
//     written in irls_ref_test.go (within 10⁻¹¹·(m + N) above the true
//     minimum), so the gap bounds the true suboptimality: gap·J ≥ J − J*;
//   - the certificate is the one Fit reports, or where its gap is above
//     10⁻⁶ (the certified stop goes on: certifiedStop) Fit reports the
//     same dual value and a gap ≤ 10⁻⁶ at a lower J;
//   - the certificate is tight: its dual value is within 10⁻⁸ (relative)
//     of J*, so the gap is J − J* to that accuracy — on the primal slice
//     (support 21 rows < 73 samples) from the smoothed Newton minimum
//     (smoothR1) at tol = 10⁻¹⁰, on the dual slice (m < N: every residual
//     row fitted exactly) from the interior-point solve of the dual
//     (barrierR1) at either tol (measured within 5·10⁻¹⁰; the multipliers
//     alone gave 10⁻⁴–10⁻² at the default tol);
//   - on the primal slice the smoothed minimum also replaces the answer:
//     at tol = 10⁻¹⁰ J within 10⁻⁷ of J* (measured 2.1·10⁻⁹–6.5·10⁻⁹);
//     at the default tol it stops at the first stage that certifies
//     10⁻⁶ (certified gaps 1.2–9.7·10⁻⁷), and the gap must be ≤ 10⁻⁶.
func TestIRLSR1Certificate(t *testing.T) {
	for pname, p := range smallReal(t) {
		for _, c := range []irlsCase{irlsCases[0], irlsCases[1], {"gsr/r=1,p=1", GSR{R: 1, P: 1}, 1, 1, 1, PlusMinus}} {
			z, y := p.Design(), p.Response(c.coding)
			m, nr := z.Dims()
			_, jOpt := newtonOptimum(t, z, y, 1, c.lambda)
			for _, tol := range []float64{DefaultTolerance, 1e-10} {
				mdl := irlsModel{r: 1, p: 1, lambda: c.lambda, coding: c.coding}
				sol := newIRLS(mdl, z, y, tol)
				if _, err := Iterate(context.Background(), &Settings{MaxIterations: 100000, Tolerance: -1}, sol.step); err != nil {
					t.Fatal(err)
				}
				cert, point, _ := sol.certifyR1(context.Background(), sol.work)
				if cert == nil {
					t.Fatalf("%s %s tol %g: no certificate", pname, c.name, tol)
				}
				th := mat.NewDense(m, sol.c, point)
				for i := 0; i < m; i++ {
					if n := mat.Norm(th.RowView(i), 2); n > 1+1e-12 {
						t.Errorf("%s %s tol %g: ‖θ_%d‖ = %.15g > 1", pname, c.name, tol, i, n)
					}
				}
				var v mat.Dense
				v.Mul(z.T(), th)
				for j := 0; j < nr; j++ {
					if n := mat.Norm(v.RowView(j), 2); n > c.lambda*(1+1e-12) {
						t.Errorf("%s %s tol %g: ‖(ZᵀΘ)^%d‖ = %.15g > λ = %g", pname, c.name, tol, j, n, c.lambda)
					}
				}
				if d := -mat.Sum(elemMul(th, y)); math.Abs(d-cert.Dual) > 1e-12*sol.obj {
					t.Errorf("%s %s tol %g: −⟨Θ, Y⟩ = %.15g, reported dual %.15g", pname, c.name, tol, d, cert.Dual)
				}
				if cert.Dual > jOpt*(1+1e-12) || cert.Gap*sol.obj < sol.obj-jOpt-1e-12*jOpt {
					t.Errorf("%s %s tol %g: not a bound: dual %.15g, J* %.15g, J %.15g, gap %.3g", pname, c.name, tol, cert.Dual, jOpt, sol.obj, cert.Gap)
				}
				res, err := c.sel.Fit(context.Background(), p, &Settings{Tolerance: tol, MaxIterations: 100000})
				if err != nil {
					t.Fatal(err)
				}
				// Where the solve's gap is above certGap, Fit goes on
				// (certifiedStop) with the same dual point to a lower J.
				switch {
				case cert.Gap <= certGap && (res.Certificate == nil || *res.Certificate != *cert || res.Objective != sol.obj):
					t.Errorf("%s %s tol %g: Fit reports %+v for J %.15g, the solve %+v for J %.15g", pname, c.name, tol, res.Certificate, res.Objective, *cert, sol.obj)
				case cert.Gap > certGap && (res.Certificate == nil || res.Certificate.Dual != cert.Dual || res.Certificate.Gap > certGap || res.Objective > sol.obj || res.Status != Converged):
					t.Errorf("%s %s tol %g: Fit reports %+v (%s) for J %.15g, the solve %+v for J %.15g: want the same dual, a gap ≤ 1e−6", pname, c.name, tol, res.Certificate, res.Status, res.Objective, *cert, sol.obj)
				}
				t.Logf("%s %s tol %g: J − J* = %.2g, certified gap %.2g (support %d, %d iterations)", pname, c.name, tol, (sol.obj-jOpt)/sol.obj, cert.Gap, cert.Support, res.Iterations)
				tight := pname == "dual" || tol < certGap
				if tight && cert.Dual < jOpt*(1-1e-8) {
					t.Errorf("%s %s tol %g: dual %.15g, J* %.15g: not within 1e−8", pname, c.name, tol, cert.Dual, jOpt)
				}
				if pname == "primal" && tol < certGap && sol.obj-jOpt > 1e-7*jOpt {
					t.Errorf("%s %s tol %g: J − J* = %.3g, want ≤ 1e−7", pname, c.name, tol, (sol.obj-jOpt)/jOpt)
				}
				if pname == "primal" && cert.Gap > certGap {
					t.Errorf("%s %s tol %g: certified gap %.3g, want ≤ 1e−6", pname, c.name, tol, cert.Gap)
				}
			}
		}
	}
}

// elemMul returns the element-wise product of a and b.
func elemMul(a, b *mat.Dense) *mat.Dense {
	var out mat.Dense
	out.MulElem(a, b)
	return &out
}

// On tall data (the support smaller than the samples) the smoothed
// Newton minimum (smoothR1) is what certifies, its Newton steps taken by
// conjugate gradients (newtonStepCG): on the digits demo (1797 × 64, ten
// classes: 620 unknowns, where forming each system would cost ~4·10⁸
// multiply-adds, past the 2·10⁸ the minimum was once allowed) and on
// Isolet (1560 × 617, 26 classes: ~16000 unknowns). The iteration's multipliers alone
// left gaps of 6.5·10⁻³ (rfs on the digits), 9.9·10⁻³ (gsr) and 5.2·10⁻³
// (rfs on Isolet). At the default tol the certificate must be ≤ 10⁻⁶, its
// dual point feasible and of the reported value, checked with gonum's
// products; weak duality then makes the gap a bound on J − J*. Natively
// Fit must report the same. Both z-scored with a bias, as the CLI does.
// Under wasm only rfs on the digits, and only the certificate (each fit
// costs seconds there).
func TestIRLSR1CertifiesTall(t *testing.T) {
	digits := demoProblem(t, "digits.csv.gz")
	type tallCase struct {
		data string
		p    *Problem
		irlsCase
	}
	cases := []tallCase{{"digits", digits, irlsCases[0]}}
	if native() {
		cases = append(cases, tallCase{"digits", digits, irlsCase{"gsr/r=1,p=1", GSR{R: 1, P: 1}, 1, 1, 1, PlusMinus}},
			tallCase{"Isolet", irlsRealProblem(t, "Isolet.csv.gz"), irlsCases[0]})
	}
	for _, c := range cases {
		p := c.p
		z, y := p.Design(), p.Response(c.coding)
		sol := newIRLS(irlsModel{r: 1, p: 1, lambda: c.lambda, coding: c.coding}, z, y, DefaultTolerance)
		if _, err := Iterate(context.Background(), &Settings{MaxIterations: DefaultMaxIterations, Tolerance: -1}, sol.step); err != nil {
			t.Fatal(err)
		}
		cert, point, _ := sol.certifyR1(context.Background(), sol.work)
		if cert == nil {
			t.Fatalf("%s %s: no certificate", c.data, c.name)
		}
		checkDualPoint(t, c.data+" "+c.name, z, y, c.lambda, point, cert.Dual, sol.obj)
		if cert.Gap > certGap {
			t.Errorf("%s %s: certified gap %.3g, want ≤ 1e−6", c.data, c.name, cert.Gap)
		}
		t.Logf("%s %s: certified gap %.2g (support %d, %d Newton steps)", c.data, c.name, cert.Gap, cert.Support, cert.NewtonSteps)
		if !native() {
			continue
		}
		res, err := c.sel.Fit(context.Background(), p, &Settings{Tolerance: DefaultTolerance, MaxIterations: DefaultMaxIterations})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Converged || res.Certificate == nil || res.Certificate.Gap > certGap {
			t.Errorf("%s %s: Fit reports %s, certificate %+v: want converged, gap ≤ 1e−6", c.data, c.name, res.Status, res.Certificate)
		}
	}
}
