package selection

import (
	"context"
	"fmt"
	"testing"

	"sparsefs/core/dataset"
)

// On tall data (many more samples than features, every residual row
// nonzero at the optimum) where the smoothed Newton minimum does not run
// (its steps beyond the budget: madelon), the dual point of the r = 1
// certificate is read off the iterate, and the gap it certifies at the
// accelerated iteration's first stop is far above 10⁻⁶ (7.3·10⁻³ for rfs
// on the first set below, 4.0·10⁻³ on the second, before
// continueReadDual existed). The certified stop goes on, reading the
// dual point again as the iterate converges, until the gap is at most
// 10⁻⁶. Checked here for rfs and gsr with r = p = 1 on two synthetic sets
// of core/dataset/synth.go (3000 × 50, 4 classes; 2000 × 38, 5 classes),
// with the solve told to read the dual point off the iterate only
// (readOff: on these sets the smoothed minimum certifies at the rule's
// stop), against the maths and an independent solver:
//
//   - the status is converged and the certified gap at most 10⁻⁶;
//   - the dual point is feasible, checked with gonum's products (every
//     ‖θᵢ‖ ≤ 1, every ‖(ZᵀΘ)ʲ‖ ≤ λ, to 10⁻¹²), and its value −⟨Θ, Y⟩ is
//     the reported dual;
//   - the reported dual lies below the optimum of the damped Newton solver
//     of irls_ref_test.go (within 10⁻¹¹·(m + N) of the true minimum) and
//     the gap bounds J − J*; J is within 10⁻⁶ of J*.
func TestIRLSR1ReadDualCertifies(t *testing.T) {
	sets := []dataset.Synth{{M: 3000, D1: 10, D2: 20, C: 4, Seed: 1}, {M: 2000, D1: 6, D2: 20, C: 5, Seed: 1}}
	for _, sy := range sets {
		sd, err := sy.Generate()
		if err != nil {
			t.Fatal(err)
		}
		x := dataset.FitScaler(dataset.ZScore, sd.X).Transform(sd.X)
		p := &Problem{X: x, Y: sd.Class, C: sy.C, Bias: true}
		for _, c := range []irlsCase{irlsCases[0], {"gsr/r=1,p=1", GSR{R: 1, P: 1}, 1, 1, 1, PlusMinus}} {
			z, y := p.Design(), p.Response(c.coding)
			m, nr := z.Dims()
			sol := newIRLS(irlsModel{r: 1, p: 1, lambda: c.lambda, coding: c.coding}, z, y, DefaultTolerance)
			sol.readOff = true
			cert, run := runCertified(t, sol, DefaultMaxIterations)
			name := fmt.Sprintf("%s %d×%d", c.name, m, nr)
			if sol.dualSolved {
				t.Fatalf("%s: the dual point was solved for, not read off the iterate", name)
			}
			if cert == nil || run.Status != Converged || cert.Gap > certGap {
				t.Fatalf("%s: status %s, certificate %+v: want converged, gap ≤ 1e−6", name, run.Status, cert)
			}
			checkDualPoint(t, name, z, y, c.lambda, sol.certPoint, cert.Dual, sol.obj)
			_, jOpt := newtonOptimum(t, z, y, 1, c.lambda)
			if cert.Dual > jOpt*(1+1e-12) || cert.Gap*sol.obj < sol.obj-jOpt-1e-12*jOpt {
				t.Errorf("%s: not a bound: dual %.15g, J* %.15g, J %.15g, gap %.3g", name, cert.Dual, jOpt, sol.obj, cert.Gap)
			}
			if sol.obj-jOpt > certGap*jOpt {
				t.Errorf("%s: J − J* = %.3g relative, want ≤ 1e−6", name, (sol.obj-jOpt)/jOpt)
			}
			t.Logf("%s: %d iterations, certified gap %.2g, J − J* = %.2g", name, run.Iterations, cert.Gap, (sol.obj-jOpt)/jOpt)
		}
	}
}

// Where the read-off gap does not fall (a synthetic 2500 × 41 set, 3
// classes: 0.50 at the change rule's stop, which stays there; read off
// the iterate only, as above), the continuation gives up at its first
// readings: the fit ends converged_uncertified with the warning, after
// at most 1.6 times the rule's iterations, and a gap no larger than the
// rule's. The iteration limit bounds it: with max_iter at the rule's
// stop or one more, it stops there, converged_uncertified (the rule was
// met), never past it.
func TestIRLSR1ReadDualGivesUp(t *testing.T) {
	sd, err := dataset.Synth{M: 2500, D1: 8, D2: 16, C: 3, Seed: 1}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.FitScaler(dataset.ZScore, sd.X).Transform(sd.X)
	p := &Problem{X: x, Y: sd.Class, C: 3, Bias: true}
	z, y := p.Design(), p.Response(OneHot)
	// fit runs rfs within maxIter, reading the dual point off the
	// iterate, with the status and notes Fit gives.
	fit := func(maxIter int) (*irls, *Certificate, Run) {
		sol := newIRLS(irlsModel{r: 1, p: 1, lambda: 1, coding: OneHot}, z, y, DefaultTolerance)
		sol.readOff = true
		cert, run := runCertified(t, sol, maxIter)
		run.Status = uncertified("rfs", cert, sol.obj, run.Status, &sol.notes)
		return sol, cert, run
	}
	sol := newIRLS(irlsModel{r: 1, p: 1, lambda: 1, coding: OneHot}, z, y, DefaultTolerance)
	sol.readOff = true
	rule, err := Iterate(context.Background(), &Settings{MaxIterations: DefaultMaxIterations, Tolerance: -1}, sol.step)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := sol.certifyR1(context.Background(), sol.work)
	if first == nil || first.Gap < 0.1 || len(sol.supportRows()) >= sol.m {
		t.Fatalf("the case is not one of a read-off gap that stays: %+v", first)
	}
	k0 := rule.Iterations
	res, cert, run := fit(DefaultMaxIterations)
	if run.Status != Uncertified || len(res.notes) == 0 || cert == nil || cert.Gap > first.Gap || float64(run.Iterations) > 1.6*float64(k0)+2 {
		t.Errorf("status %s, %d iterations (the rule's %d), certificate %+v (at the rule's stop %.3g), notes %q", run.Status, run.Iterations, k0, cert, first.Gap, res.notes)
	}
	for _, limit := range []int{k0, k0 + 1} {
		_, _, run := fit(limit)
		if run.Iterations != limit || run.Status != Uncertified || len(run.Trace) != limit {
			t.Errorf("max_iter %d: %d iterations (trace %d), status %s", limit, run.Iterations, len(run.Trace), run.Status)
		}
	}
}

// A smoothed Newton minimum cut short by its budget (smoothR1 stopped
// after 3 steps where the digits demo needs about 12) has not solved for
// the dual: certifyR1 says so (dualSolved false), every stage's dual point
// so far is a candidate, and the certified stop goes on reading the dual
// point off the iterate (continueReadDual), which ends, certified or
// giving up, within the bound of TestIRLSR1ReadDualGivesUp — never by
// running the iteration to max_iter as if the dual's value were exact.
// The certificate's dual point must be feasible, its value at most J. The
// dual solve that would follow (barrierR1, which certifies the digits) is
// kept from running.
func TestIRLSR1SmoothCutShort(t *testing.T) {
	p := demoProblem(t, "digits.csv.gz")
	z, y := p.Design(), p.Response(OneHot)
	model := irlsModel{r: 1, p: 1, lambda: 1, coding: OneHot}
	sol := newIRLS(model, z, y, DefaultTolerance)
	rule, err := Iterate(context.Background(), &Settings{MaxIterations: DefaultMaxIterations, Tolerance: -1}, sol.step)
	if err != nil {
		t.Fatal(err)
	}
	sol.smoothLimit, sol.noBarrier = 3, true
	if cert, _, _ := sol.certifyR1(context.Background(), sol.work); cert == nil || sol.dualSolved || cert.NewtonSteps == 0 {
		t.Fatalf("the minimum was not cut short: certificate %+v, dual solved %v", cert, sol.dualSolved)
	}
	cut := newIRLS(model, z, y, DefaultTolerance)
	cut.smoothLimit, cut.noBarrier = 3, true
	cert, run := runCertified(t, cut, DefaultMaxIterations)
	if cert == nil || float64(run.Iterations) > 1.6*float64(rule.Iterations)+2 || run.Status != Converged {
		t.Fatalf("cut short: certificate %+v, %d iterations (the rule's %d), status %s", cert, run.Iterations, rule.Iterations, run.Status)
	}
	checkDualPoint(t, "digits, cut short", z, y, model.lambda, cut.certPoint, cert.Dual, cut.obj)
	t.Logf("digits, the minimum cut short after 3 steps: gap %.2g after %d iterations (the rule's %d)", cert.Gap, run.Iterations, rule.Iterations)
}
