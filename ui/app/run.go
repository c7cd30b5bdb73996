package app

import (
	"fmt"
	"strconv"
	"time"

	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// tickEvery is how often the page is drawn while a run goes on, so that
// the elapsed time and the estimate move even when no worker reports.
const tickEvery = 500 * time.Millisecond

// Running reports whether a run is going on.
func (a *App) Running() bool { return a.Rank.busy() || a.Eval.busy() }

// CanRun reports whether Run can start now.
func (a *App) CanRun() bool {
	if a.Data.inspection == nil || a.Data.Busy() || a.Running() || len(a.Config.methods) == 0 {
		return false
	}
	_, ok := a.Plan()
	return ok
}

// Run starts a run: an evaluation, or a ranking on all the data.
func (a *App) Run() {
	if !a.CanRun() {
		return
	}
	a.errMsg, a.notice, a.cancelled = "", "", false
	a.runs++
	if a.Config.EvalMode() {
		a.Eval.start()
	} else {
		a.Rank.start()
	}
	a.b.Pace(true)
	a.b.Every(tickEvery, a.tick)
	a.b.AfterRender(func() { a.b.Focus("progress-area") })
}

// ended is called when a run has ended (finished or cancelled): renders
// come at once again, and, once the end is drawn, the keyboard focus moves
// to the results (to Run after a cancel) — then, not at a later tick,
// when the user may have gone on to something else.
func (a *App) ended() {
	a.b.Pace(false)
	a.b.AfterRender(func() { a.b.Focus(a.endFocus()) })
}

// Focus targets: the results' summary when a run has finished (the
// results' heading in the ranking mode), Run when it was cancelled.
func (a *App) endFocus() string {
	switch {
	case a.cancelled:
		return "run"
	case a.showing == lab.ModeEval:
		return "results-summary"
	}
	return "results-h"
}

// tick redraws the charts when results have come in; it stops once the
// run has ended.
func (a *App) tick() bool {
	done := !a.Running()
	if a.Eval.ev != nil && a.Eval.ev.dirty {
		a.refreshCharts()
	}
	if done {
		a.b.Pace(false)
	}
	return !done
}

// Cancel stops every worker at once; finished results stay.
func (a *App) Cancel() {
	if !a.Running() {
		return
	}
	a.cancelled = true
	n := a.pool.Cancel()
	if a.showing == lab.ModeEval && a.Eval.ev != nil {
		e := a.Eval.ev
		if e.run == nil || e.planJob.State == pool.Cancelled {
			a.notice = "Cancelled before the evaluation started."
		} else {
			a.notice = fmt.Sprintf("Cancelled. The %d unit%s already finished are kept (the charts show them); Run with the same settings finishes the other %d.",
				e.run.Done(), Plural(e.run.Done()), len(e.run.Parts)-e.run.Done())
		}
	} else {
		a.notice = fmt.Sprintf("Cancelled %d job%s; the results already finished are kept.", n, Plural(n))
	}
	a.announce = a.notice
	a.b.AfterRender(a.refreshCharts) // after the render that gives Run back
}

// refreshCharts rebuilds the charts of the results shown.
func (a *App) refreshCharts() {
	if a.showing == lab.ModeEval {
		a.Eval.refreshCharts()
		return
	}
	a.Rank.refreshCharts()
}

// Plan says what Run will do, or what is wrong with the configuration
// (ok false).
func (a *App) Plan() (line string, ok bool) {
	if len(a.Config.methods) == 0 {
		return "Starting the computing workers…", true
	}
	if a.Data.inspection == nil {
		return "Load data first.", true
	}
	if ds := a.Data.inspection.Dataset; ds.Missing > 0 && a.Data.Missing() == "" {
		return fmt.Sprintf("The data have %d missing value%s: choose under the preview what to do with them (fill them in with the mean, or leave out the features or the samples that have them) before Run.", ds.Missing, Plural(ds.Missing)), false
	}
	n := a.Data.Workers()
	workers := fmt.Sprintf("%d worker%s", n, Plural(n))
	if !a.Config.EvalMode() {
		u, err := a.Rank.units()
		if err != nil {
			return err.Error(), false
		}
		return fmt.Sprintf("Run will fit %d job%s on %s.", len(u), Plural(len(u)), workers), true
	}
	_, size, err := a.evalRequest()
	if err != nil {
		return err.Error(), false
	}
	splits := fmt.Sprintf("%d folds", size.Splits)
	if a.Config.Protocol.Scheme == "holdout" {
		splits = fmt.Sprintf("%d holdout splits", size.Splits)
	}
	s := fmt.Sprintf("Run will evaluate %d setting%s × %s = %d unit%s on %s.", size.Variants, Plural(size.Variants), splits, size.Units, Plural(size.Units), workers)
	for _, n := range size.Notes {
		s += " " + n + "."
	}
	return s, true
}

// Fraction is the share of the run done, in [0, 1].
func (a *App) Fraction() float64 {
	switch {
	case a.showing == lab.ModeEval && a.Eval.ev != nil:
		return a.Eval.ev.fraction(a.now())
	case a.Rank.run == nil || a.Rank.run.loaded != nil:
		return 0
	}
	return pool.Summarize(a.Rank.run.jobs, a.now()).Fraction
}

// ProgressValue is Fraction as the progress bar's value.
func (a *App) ProgressValue() string {
	return strconv.FormatFloat(a.Fraction(), 'f', 3, 64)
}

// ProgressText is the progress line.
func (a *App) ProgressText() string {
	if a.showing == lab.ModeEval && a.Eval.ev != nil {
		return a.Eval.ev.text(a.now())
	}
	r := a.Rank.run
	switch {
	case r == nil:
		return "Nothing has run yet."
	case r.loaded != nil:
		return "Results loaded from a report."
	}
	now := a.now()
	s := pool.Summarize(r.jobs, now)
	return fmt.Sprintf("%s · %.1f s", s.Text(), now.Sub(r.started).Seconds())
}

// WorkerLines say what each worker is doing: one line per worker, so that
// the list keeps its height while jobs come and go.
func (a *App) WorkerLines() []string {
	var out []string
	now := a.now()
	for i, j := range a.pool.Slots() {
		if j == nil {
			out = append(out, fmt.Sprintf("worker %d · idle", i+1))
			continue
		}
		s := fmt.Sprintf("worker %d · %s", i+1, j.Label)
		if p := j.Progress; p.MaxIterations > 0 && p.Iteration > 0 {
			s += fmt.Sprintf(" — iteration %d, objective %s", p.Iteration, chart.Num(float64(p.Objective)))
		}
		if t := j.Progress.PhaseText(); t != "" {
			s += " · " + t
		}
		out = append(out, s+fmt.Sprintf(" · %.1f s", j.Seconds(now)))
	}
	return out
}
