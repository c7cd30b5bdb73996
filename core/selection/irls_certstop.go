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
// Where certifyR1 solved for its dual point (s.dualSolved: the smoothed
// Newton minimum or the interior-point solve ran), its value D is within
// ~10⁻⁸ of J* (docs/irls.md), so the gap
// left is the iterate's own distance from the optimum, which a smaller
// tol reduces. Each round divides tol by 10 (down to certTolMin) and runs
// the iteration on from where it stopped, within the iterations left;
// D ≤ J* holds for any feasible point whatever the iterate (weak
// duality), so the best D found is kept and the gap recomputed at each
// stop without solving again. The smoothed minimum certifyR1 may put in
// place of the iterate is set aside while the iteration goes on (its W is
// not a state of the iteration) and comes back at the end if its J is
// still the lower.
//
// Where the dual point is read off the iterate and the support has fewer
// rows than there are samples (some residual rows stay nonzero: tall
// data), the read-off point converges with the iterate and
// continueReadDual goes on until it certifies, or gives up. Where every
// residual row tends to zero (m < N, a support beyond the Newton
// systems' limits) the read-off gap is loose by two orders or more and
// falls only as a power of the iterations (GLIOMA: 4.8·10⁻³ at 73
// iterations, 1.3·10⁻⁵ at 384; lymphoma 5.5·10⁻³ at 75, 4.9·10⁻⁶ at
// 710): the stop stays the iteration's, and uncertified says so.
//
// It returns the certificate and the run with the iterations, trace and
// status of the continuation (and the polish's entry when it was kept).
func (s *irls) certifiedStop(ctx context.Context, inner *Settings, run Run) (*Certificate, Run, error) {
	it := s.snapshot()
	s.certStep = inner.certifying(run.Iterations, run.Objective)
	cert, point, polished := s.certifyR1(ctx, s.work)
	s.certStep = nil
	s.certPoint = point
	tall := len(s.supportRows()) < s.m
	if cert == nil || !s.accel || run.Status != Converged || cert.Gap <= certGap || (!s.dualSolved && !tall) {
		if polished {
			run = polishedRun(run, s.obj)
		}
		return cert, run, nil
	}
	// The polished point, set aside.
	aside := s.setAside(polished, it)
	var err error
	if s.dualSolved {
		run, err = s.continueCertified(ctx, inner, run, 0, func() float64 { return (s.obj - cert.Dual) / math.Abs(s.obj) })
	} else {
		run, err = s.continueReadDual(ctx, inner, run, cert)
	}
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

// Constants of continueReadDual.
const (
	// readDualSpan is the factor by which the iterations grow from one
	// reading of the dual point to the next (at least two more).
	readDualSpan = 1.25
	// readDualHalve is the factor by which the iterations may grow for
	// the gap to halve; where it did not, the continuation gives up.
	readDualHalve = 1.5
	// readDualBudget bounds the iterations the continuation may forecast
	// it needs, as a multiple of those of the change rule's stop.
	readDualBudget = 10
)

// continueReadDual is certifiedStop's continuation where the dual point
// is read off the iterate (certifyR1 did not solve for it): the
// multiplier of the last system and its corrections (readDualR1) converge
// to the dual optimum with the iterate, so the accelerated iteration goes
// on with tol = certTolMin, the dual point read again after each
// iteration count readDualSpan times the last (geometric, so that the
// readings cost a bounded share of the work) and the best kept in cert,
// until the gap is at most certGap. Where the iterate's tail is slow
// (rows of the optimum's zero set decaying with ratios near 1) the gap
// stalls instead; the continuation gives up, uncertified, as soon as the
// gap has not halved while the iterations grew readDualHalve times, or
// its fall since the last reading forecasts (readDualForecast) more
// iterations than max_iter or readDualBudget times those of the rule's
// stop, so that a certificate out of reach costs a reading or two, not
// the whole budget (the digits: 17 iterations against the rule's 11; USPS
// certifies after 23 against 10). Readings are taken after plain steps
// (an accelerated step's multiplier comes from extrapolated weights)
// unless a whole span has passed without one, and at the last iteration
// max_iter allows. It returns the run with the continuation's
// iterations, trace and status: Converged when it certified, gave up or
// reached max_iter (the rule was met; uncertified then says whether the
// gap was), else the iteration's (a cancel).
func (s *irls) continueReadDual(ctx context.Context, inner *Settings, run Run, cert *Certificate) (Run, error) {
	type reading struct {
		it  int
		gap float64
	}
	maxIter := inner.maxIter()
	if run.Iterations >= maxIter {
		return run, nil
	}
	gap := func() float64 { return (s.obj - cert.Dual) / math.Abs(s.obj) }
	seen := []reading{{run.Iterations, gap()}}
	after := func(k int) int { return max(k+2, int(math.Ceil(float64(k)*readDualSpan))) }
	next := after(run.Iterations)
	s.tol = certTolMin
	step := func(k int) (float64, Status, error) {
		f, st, err := s.step(k)
		if err != nil || (st != NotTerminated && st != Converged) {
			return f, st, err
		}
		last := k >= maxIter
		overdue := k >= 2*next-seen[len(seen)-1].it
		if !last && (k < next || (s.extrapolated && !overdue)) {
			return f, NotTerminated, nil
		}
		if d, p := s.readDualR1(s.work); d > cert.Dual {
			cert.Dual, s.certPoint = d, p
		}
		g := gap()
		if g <= certGap || last {
			return f, Converged, nil
		}
		// The gap at the last reading at most k/readDualHalve iterations.
		ref := -1
		for i, r := range seen {
			if float64(r.it)*readDualHalve <= float64(k) {
				ref = i
			}
		}
		prev := seen[len(seen)-1]
		if (ref >= 0 && g > seen[ref].gap/2) || readDualForecast(prev.it, k, prev.gap, g) > min(float64(maxIter), readDualBudget*float64(seen[0].it)) {
			return f, Converged, nil
		}
		seen = append(seen, reading{k, g})
		next = after(k)
		return f, NotTerminated, nil
	}
	return iterateOn(ctx, inner, run, -1, step)
}

// readDualForecast returns the iterations at which a gap that fell from
// g0 at iteration k0 to g at k reaches certGap, the gap taken as a power
// of the iterations (the read-off gap's fall: halving as the iterations
// grow by a constant factor, on lymphoma 1.25–1.6, ORL 1.25–1.4); +∞
// where it did not fall.
func readDualForecast(k0, k int, g0, g float64) float64 {
	if !(g < g0) {
		return math.Inf(1)
	}
	a := math.Log(g0/g) / math.Log(float64(k)/float64(k0))
	return float64(k) * math.Pow(g/certGap, 1/a)
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
	s.certStep = inner.certifying(run.Iterations, run.Objective)
	cert, polished := s.polish(ctx, s.work, false)
	s.certStep = nil
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
	if cert.Gap > certGap && run.Status == Converged {
		// The continuation has settled the support: polish again.
		s.certStep = inner.certifying(run.Iterations, run.Objective)
		again, polished := s.polish(ctx, s.work, true)
		s.certStep = nil
		if polished {
			run = polishedRun(run, s.obj)
		}
		if again != nil {
			cert = again
		} else if polished {
			iterate()
			cert.Polished = true
		}
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
