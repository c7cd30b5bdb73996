package selection

import (
	"context"
	"math"

	"sparsefs/api"
)

// Status says why a selector stopped. Programs should not rely on the
// numeric values; String gives the stable name used in results.
type Status int

const (
	// NotTerminated: the method has not stopped yet.
	NotTerminated Status = iota
	// Converged: the relative change of the objective between two
	// iterations fell to Settings.Tolerance or below.
	Converged
	// MethodConverged: the method's own stopping rule (from its paper)
	// was met.
	MethodConverged
	// IterationLimit: Settings.MaxIterations iterations were performed
	// without convergence.
	IterationLimit
	// Cancelled: the context was cancelled.
	Cancelled
	// ClosedForm: the method is not iterative (a filter).
	ClosedForm
	// Uncertified: a convex model's iteration met its stopping rule, but
	// the duality gap at the answer could not be certified to the
	// default's 10⁻⁶ (a warning gives the gap, where there is one).
	Uncertified
)

var statusNames = [...]string{api.StopNotTerminated, api.StopConverged, api.StopMethodConverged, api.StopIterationLimit, api.StopCancelled, api.StopClosedForm, api.StopUncertified}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Early reports whether the method stopped before meeting a convergence
// criterion.
func (s Status) Early() bool { return s == IterationLimit || s == Cancelled || s == NotTerminated }

// Default settings of the loop (docs/methods.md#stopping: a relative
// change of the objective below 1e−6, or 1000 iterations; both are
// parameters).
const (
	DefaultMaxIterations = 1000
	DefaultTolerance     = 1e-6
)

// Settings control the shared iteration loop.
type Settings struct {
	// MaxIterations is the iteration limit. If it is zero,
	// DefaultMaxIterations is used.
	MaxIterations int
	// Tolerance stops the loop when |f(k−1) − f(k)| ≤ Tolerance·|f(k)|.
	// If it is zero, DefaultTolerance is used; a negative value disables
	// the test (the method's own rule or the limit then stops it).
	Tolerance float64
	// Progress, if not nil, is called after every iteration (and by
	// filters as they advance). It must be cheap; throttle on its side.
	Progress func(Progress)
	// PValues asks the filters that are hypothesis tests (ttest, fstat)
	// for each feature's p-value (Result.PValues); they skip it
	// otherwise, as an evaluation does not use it.
	PValues bool
	// Workers is how many fits at once a method made of several
	// independent fits (stabsel, consensus) may run in goroutines (0 or
	// 1: one at a time). It never changes the result.
	Workers int
	// Halves and Tallies split a stability selection into shares
	// (api.Request.Halves, Tallies): only the half-sample fits
	// [Halves[0], Halves[1]), answered as Result.Tally; or no fit, the
	// tallies combined.
	Halves  []int
	Tallies []api.StabilityTally
}

func (s *Settings) wantPValues() bool { return s != nil && s.PValues }

func (s *Settings) workers() int {
	if s == nil || s.Workers < 1 {
		return 1
	}
	return s.Workers
}

func (s *Settings) maxIter() int {
	if s == nil || s.MaxIterations <= 0 {
		return DefaultMaxIterations
	}
	return s.MaxIterations
}

func (s *Settings) tol() float64 {
	if s == nil || s.Tolerance == 0 {
		return DefaultTolerance
	}
	return s.Tolerance
}

// Report calls s.Progress if s and it are set.
func (s *Settings) Report(p Progress) {
	if s != nil && s.Progress != nil {
		s.Progress(p)
	}
}

// certifying returns the hook a solver calls after each step of its
// certificate (a Newton, face or barrier step), its iterations stopped or
// paused at iteration k with objective f: each call reports the steps so
// far with Phase api.PhaseCertifying, so that a display shows the work
// going on after the last iteration (docs/methods.md#stopping). The first
// report, no step yet, is made at once.
func (s *Settings) certifying(k int, f float64) func() {
	if s == nil || s.Progress == nil {
		return func() {}
	}
	maxIter, steps := s.maxIter(), 0
	report := func() {
		s.Progress(Progress{Iteration: k, MaxIterations: maxIter, Objective: api.Float(f), Fraction: float64(k) / float64(maxIter), Phase: api.PhaseCertifying, Steps: steps})
	}
	report()
	return func() {
		steps++
		report()
	}
}

// Progress describes how far a selector has got (the job format's type).
type Progress = api.Progress

// Run is what Iterate returns.
type Run struct {
	Iterations int
	Objective  float64
	Trace      []float64
	Status     Status
}

// Step performs iteration k (1-based) of a method and returns the exact
// objective at the new iterate. It returns MethodConverged when the method's
// own stopping rule is met, NotTerminated otherwise; a non-nil error ends
// the loop.
type Step func(k int) (objective float64, status Status, err error)

// Iterate runs step until it converges, the iteration limit is reached or ctx
// is cancelled. It records the trace and reports progress after every
// iteration. On cancellation it returns the run so far and ctx.Err().
func Iterate(ctx context.Context, s *Settings, step Step) (Run, error) {
	maxIter, tol := s.maxIter(), s.tol()
	run := Run{Objective: math.NaN(), Trace: make([]float64, 0, min(maxIter, 64))}
	prev := math.NaN()
	for k := 1; ; k++ {
		if err := ctx.Err(); err != nil {
			run.Status = Cancelled
			return run, err
		}
		f, st, err := step(k)
		if err != nil {
			return run, err
		}
		run.Iterations, run.Objective = k, f
		run.Trace = append(run.Trace, f)
		s.Report(Progress{Iteration: k, MaxIterations: maxIter, Objective: api.Float(f), Fraction: float64(k) / float64(maxIter)})
		switch {
		case st != NotTerminated:
			run.Status = st
		case tol > 0 && !math.IsNaN(prev) && math.Abs(prev-f) <= tol*math.Abs(f):
			run.Status = Converged
		case k >= maxIter:
			run.Status = IterationLimit
		}
		if run.Status != NotTerminated {
			return run, nil
		}
		prev = f
	}
}
