package selection

import (
	"context"
	"math"
	"slices"
)

// certTolMin is the tightest change of J the certified stop asks the
// iteration for; below it the gap is left as it is (uncertified).
const certTolMin = 1e-12

// certifiedStop certifies the answer of an r = p = 1 fit (certifyR1) after
// the iteration stopped (run), and for the accelerated iteration
// continues it until the certified gap (J − D)/J is at most certGap.
//
// The continuation runs only where certifyR1 solved for its dual point
// (s.dualSolved: the smoothed Newton minimum or the interior-point solve
// ran): its value D is then within ~10⁻⁸ of J* (docs/irls.md), so the gap
// left is the iterate's own distance from the optimum, which a smaller
// tol reduces. Each round divides tol by 10 (down to certTolMin) and runs
// the iteration on from where it stopped, within the iterations left;
// D ≤ J* holds for any feasible point whatever the iterate (weak
// duality), so the best D found is kept and the gap recomputed at each
// stop without solving again. The smoothed minimum certifyR1 may put in
// place of the iterate is set aside while the iteration goes on (its W is
// not a state of the iteration) and comes back at the end if its J is
// still the lower. Where the dual point is read off the iterate (the
// multipliers: m < N with a support beyond the Newton systems' limits),
// the gap is loose by two orders or more and no affordable number of
// iterations closes it (GLIOMA: 4.8·10⁻³ at 73 iterations, 1.3·10⁻⁵ at
// 384): the stop stays the iteration's, and uncertified says so.
//
// It returns the certificate and the run with the iterations, trace and
// status of the continuation (and the polish's entry when it was kept).
func (s *irls) certifiedStop(ctx context.Context, inner *Settings, run Run) (*Certificate, Run, error) {
	it := s.snapshot()
	cert, point, polished := s.certifyR1(ctx, s.work)
	s.certPoint = point
	if cert == nil || !s.accel || !s.dualSolved || run.Status != Converged || cert.Gap <= certGap {
		if polished {
			run = polishedRun(run, s.obj)
		}
		return cert, run, nil
	}
	// The polished point, set aside.
	aside := s.setAside(polished, it)
	run, err := s.continueCertified(ctx, inner, run, 0, func() float64 { return (s.obj - cert.Dual) / math.Abs(s.obj) })
	if err != nil {
		return nil, run, err
	}
	if s.restoreIfLower(aside) {
		run = polishedRun(run, s.obj)
	} else {
		cert.Polished, cert.NewtonSteps = false, 0
	}
	cert.Gap = (s.obj - cert.Dual) / math.Abs(s.obj)
	cert.Support = len(s.supportRows())
	return cert, run, nil
}

// polishedRun is run with the polished answer counted as one more
// iteration of the trace.
func polishedRun(run Run, obj float64) Run {
	run.Iterations++
	run.Objective = obj
	run.Trace = append(run.Trace, obj)
	return run
}

// continueCertified runs the accelerated iteration on (certifyRounds)
// while gap() is above certGap, dividing tol by 10 at each round down to
// certTolMin; with stall > 0 it ends after stall rounds in a row that
// did not halve the gap.
func (s *irls) continueCertified(ctx context.Context, inner *Settings, run Run, stall int, gap func() float64) (Run, error) {
	tighten := func() (float64, bool) {
		if s.tol <= certTolMin {
			return 0, false
		}
		s.tol = math.Max(s.tol/10, certTolMin)
		return -1, true // the step applies its own rule
	}
	return certifyRounds(ctx, inner, run, stall, tighten, s.step, gap)
}

// certStall is the number of rounds in a row without halving the gap
// after which the certified stop of r > 1 and of l1svm gives up (see
// certifyRounds): their gaps close with the answer, but slowly where the
// problem is hard (mtfs on lymphoma: 10⁻³ at tol = 10⁻⁶, 3·10⁻⁵ at
// 10⁻¹⁰), and a round can cost as much as the fit.
const certStall = 3

// certifiedStopSmooth is certifiedStop for r > 1 (mtfs, gsr with r > 1,
// p = 1): the polish (see polish) certifies where the support fits its
// Newton systems; where it does not, or its gap stays above certGap, the
// certificate is the loss gradient's at the iterate (certify), and the
// accelerated iteration goes on (continueCertified) until that gap is at
// most certGap. That gap closes with the iterate, but only as about the
// square root of J − J* (the dual point's infeasibility is first order in
// the iterate's error, J − J* second order), so the continuation reaches
// tol = 10⁻¹⁰–10⁻¹² on the microarray sets before it certifies, or the
// iteration limit first (then IterationLimit, with the warning of
// uncertified). A polished point set aside while the iteration goes on
// comes back if its J is still the lower. A fit stopped otherwise (the
// iteration limit) is certified at its iterate, with no polish.
func (s *irls) certifiedStopSmooth(ctx context.Context, inner *Settings, run Run) (*Certificate, Run, error) {
	var cert *Certificate
	iterate := func() float64 {
		c, _ := s.certify(s.exactState(&polishState{sup: s.supportRows()}))
		cert = &c
		return c.Gap
	}
	if run.Status != Converged {
		if run.Status != Cancelled && s.obj != 0 {
			iterate()
		}
		return cert, run, nil
	}
	it := s.snapshot()
	cert, polished := s.polish(ctx, s.work)
	if cert != nil || s.obj == 0 {
		if polished {
			run = polishedRun(run, s.obj)
		}
		return cert, run, nil
	}
	aside := s.setAside(polished, it)
	run, err := s.continueCertified(ctx, inner, run, certStall, iterate)
	if err != nil {
		return nil, run, err
	}
	if s.restoreIfLower(aside) {
		run = polishedRun(run, s.obj)
		iterate()
		cert.Polished = true
	}
	return cert, run, nil
}

// answer is a W with its residuals and J.
type answer struct {
	w, e []float64
	obj  float64
}

// snapshot returns a copy of the current answer.
func (s *irls) snapshot() answer {
	return answer{slices.Clone(s.w), slices.Clone(s.e), s.obj}
}

// setAside returns the current answer when polished (the polish put it in
// place of the iterate, which is not a state of the iteration) and puts
// the iterate it back; otherwise it returns an answer of J = +∞.
func (s *irls) setAside(polished bool, iterate answer) answer {
	if !polished {
		return answer{obj: math.Inf(1)}
	}
	p := s.snapshot()
	copy(s.w, iterate.w)
	copy(s.e, iterate.e)
	s.obj = iterate.obj
	return p
}

// restoreIfLower puts a in place of the current answer if its J is lower,
// and reports whether it did.
func (s *irls) restoreIfLower(a answer) bool {
	if !(a.obj < s.obj) {
		return false
	}
	copy(s.w, a.w)
	copy(s.e, a.e)
	s.obj = a.obj
	return true
}
