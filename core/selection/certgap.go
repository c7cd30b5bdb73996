package selection

import (
	"context"
	"fmt"
	"math"
)

// certGap is the relative duality gap a convex model's answer is certified
// to by default (Certificate.Gap ≤ certGap): the IRLS family's default
// solver stops on it where it can (certifiedStop); exl21 and elasso stop
// on their gap at tol.
const certGap = 1e-6

// uncertified returns the status of a fit of a convex model that stopped
// with status st at objective obj with certificate cert (nil: none could
// be made), and appends a note to notes when the gap is above certGap or
// there is none: Uncertified in place of Converged or MethodConverged (the
// stopping rule was met, the gap was not), any other status kept
// (IterationLimit, with the note). An answer away from the optimum is so
// never reported silently. A fit at its iteration limit whose gap is
// within certGap met the certified stop at its last iteration: Converged
// (gsr with r = 2, p = 1 on warpAR10P at tol = 10⁻⁴ certified 9.2·10⁻⁷
// at its 1000th iteration, and was reported as stopped before its rule).
// A cancelled fit, or J = 0 (the gap is 0/0), is left as it is.
func uncertified(method string, cert *Certificate, obj float64, st Status, notes *[]string) Status {
	if obj != 0 && cert != nil && cert.Gap <= certGap && st == IterationLimit {
		return Converged
	}
	if obj == 0 || (cert != nil && cert.Gap <= certGap) || st == Cancelled {
		return st
	}
	if cert == nil {
		*notes = append(*notes, fmt.Sprintf("%s: no duality gap could be certified at the stop: the objective's distance from the optimum is not known; a smaller tol brings the answer closer", method))
	} else {
		*notes = append(*notes, fmt.Sprintf("%s: the certified duality gap at the stop is %.2g (relative), above 1e-6: the objective is at most that far above the optimum; a smaller tol (or a larger max_iter) brings the answer closer", method, cert.Gap))
	}
	if st == Converged || st == MethodConverged {
		return Uncertified
	}
	return st
}

// certifyRounds goes on with a fit whose stopping rule was met (run's
// status Converged or MethodConverged) while gap() — the certified
// relative gap at the current point — is above certGap: each round first
// tightens the stopping rule (tighten returns the Settings.Tolerance the
// round runs with, and false when there is nothing left to tighten), then
// runs step on from where the fit stopped within the iterations s allows,
// its iterations counted after run's. With stall > 0 it also ends when
// stall rounds in a row have not halved the gap (the dual point rather
// than the answer holds it up), and when the gap's rate of decrease so far
// (linear in the iterations, as these first-order methods converge) would
// not bring it to certGap within the iterations left (reachable): the
// fit then stops as it is, uncertified, rather than spend its whole budget
// on a gap it will not close. That forecast judges from the first round
// on; a model whose first round can be much slower than the later ones
// trusts it less (certifyRoundsTrusting; l1svm). It returns the run with
// the rounds' iterations, trace and status.
func certifyRounds(ctx context.Context, s *Settings, run Run, stall int, tighten func() (float64, bool), step Step, gap func() float64) (Run, error) {
	return certifyRoundsTrusting(ctx, s, run, stall, forecastTrust{first: 1, later: 1}, tighten, step, gap)
}

// forecastTrust is how far certifyRounds's forecast is trusted: it ends a
// fit where the iterations it forecasts exceed first times those left
// (after the first round), or later times them (after any later round).
type forecastTrust struct {
	first, later float64
}

// certifyRoundsTrusting is certifyRounds with its forecast trusted as
// trust says (certifyRounds: as it is, from the first round on).
func certifyRoundsTrusting(ctx context.Context, s *Settings, run Run, stall int, trust forecastTrust, tighten func() (float64, bool), step Step, gap func() float64) (Run, error) {
	maxIter := s.maxIter()
	g, stalled, rounds := gap(), 0, 0
	g1, it1 := g, run.Iterations
	for (run.Status == Converged || run.Status == MethodConverged) && run.Iterations < maxIter && g > certGap && (stall <= 0 || stalled < stall) {
		slack := trust.later
		if rounds <= 1 {
			slack = trust.first
		}
		if stall > 0 && !reachable(g1, g, run.Iterations-it1, int(slack*float64(maxIter-run.Iterations))) {
			break
		}
		tol, ok := tighten()
		if !ok {
			break
		}
		rounds++
		var err error
		if run, err = iterateOn(ctx, s, run, tol, step); err != nil {
			return run, err
		}
		g0 := g
		if g = gap(); g > g0/2 {
			stalled++
		} else {
			stalled = 0
		}
	}
	return run, nil
}

// iterateOn runs step on from where run stopped, with Settings.Tolerance
// tol, within the iterations s allows, its iterations (and progress)
// counted after run's, and returns run with them, their trace and the
// status they ended with (run itself when no iteration is left).
func iterateOn(ctx context.Context, s *Settings, run Run, tol float64, step Step) (Run, error) {
	maxIter, off := s.maxIter(), run.Iterations
	if off >= maxIter {
		return run, nil
	}
	more := Settings{MaxIterations: maxIter - off, Tolerance: tol}
	if s != nil && s.Progress != nil {
		more.Progress = func(p Progress) {
			p.Iteration += off
			p.MaxIterations = maxIter
			p.Fraction = float64(p.Iteration) / float64(maxIter)
			s.Progress(p)
		}
	}
	next, err := Iterate(ctx, &more, func(k int) (float64, Status, error) { return step(k + off) })
	run.Iterations = off + next.Iterations
	run.Trace = append(run.Trace, next.Trace...)
	if next.Iterations > 0 {
		run.Objective = next.Objective
	}
	run.Status = next.Status
	return run, err
}

// reachable reports whether a gap that fell from g1 to g in n iterations
// reaches certGap within left more at the same linear rate
// (log g against the iterations); it is true before any iteration of the
// continuation (n = 0) has measured a rate.
func reachable(g1, g float64, n, left int) bool {
	if n == 0 {
		return true
	}
	if !(g < g1) {
		return false
	}
	perIter := math.Log(g1/g) / float64(n)
	return math.Log(g/certGap)/perIter <= float64(left)
}
