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
	w0, e0, j0 := slices.Clone(s.w), slices.Clone(s.e), s.obj
	cert, point, polished := s.certifyR1(ctx, s.work)
	s.certPoint = point
	if cert == nil || !s.accel || !s.dualSolved || run.Status != Converged || cert.Gap <= certGap {
		if polished {
			run = polishedRun(run, s.obj)
		}
		return cert, run, nil
	}
	// The polished point, set aside.
	var pw, pe []float64
	pj := math.Inf(1)
	if polished {
		pw, pe, pj = slices.Clone(s.w), slices.Clone(s.e), s.obj
		copy(s.w, w0)
		copy(s.e, e0)
		s.obj = j0
	}
	maxIter := inner.maxIter()
	for run.Status == Converged && s.tol > certTolMin && run.Iterations < maxIter && (s.obj-cert.Dual)/math.Abs(s.obj) > certGap {
		s.tol = math.Max(s.tol/10, certTolMin)
		off := run.Iterations
		more := Settings{MaxIterations: maxIter - off, Tolerance: -1}
		if inner.Progress != nil {
			more.Progress = func(p Progress) {
				p.Iteration += off
				p.MaxIterations = maxIter
				p.Fraction = float64(p.Iteration) / float64(maxIter)
				inner.Progress(p)
			}
		}
		next, err := Iterate(ctx, &more, func(k int) (float64, Status, error) { return s.step(k + off) })
		run.Iterations = off + next.Iterations
		run.Trace = append(run.Trace, next.Trace...)
		if next.Iterations > 0 {
			run.Objective = next.Objective
		}
		run.Status = next.Status
		if err != nil {
			return nil, run, err
		}
	}
	if pj < s.obj {
		copy(s.w, pw)
		copy(s.e, pe)
		s.obj = pj
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
