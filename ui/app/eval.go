package app

import (
	"fmt"
	"time"

	"sparsefs/api"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// This file is the page's evaluation (lab.ModeEval): a worker plans the
// evaluation (eval-plan: the normalised request, the splits, the units),
// every unit is a job of the pool, and once all have answered a worker
// merges them (merge) into the report `sparsefs eval` prints for the same
// request. The charts fill in as the units arrive; a cancel keeps the
// units done, and Run with the same settings on the same data finishes
// the others.

// Eval is the evaluation mode: the last evaluation (run here, or loaded
// from a report), and what its results show in detail.
type Eval struct {
	a  *App
	ev *evalState
	// The details: the row (variant) of the results table, the index of
	// K, the split (−1: across the splits), and their charts.
	dv, dk, ds   int
	detailCharts []Chart
	unitsOpen    bool
	// hidden are the selectors (by label) the charts leave out.
	hidden map[string]bool
	// comparing shows the selectors side by side (evalcompare.go).
	comparing     bool
	cmp           comparison
	compareCharts []Chart
	// convCharts are the convergence charts last drawn, at convAt: during
	// a run they are drawn again at most every convEvery (60–80 ms each
	// time with many methods, on the page's thread).
	convCharts []Chart
	convAt     time.Time
}

// evalState is one evaluation on the page (run here, or loaded from a
// report).
type evalState struct {
	cfg     lab.Config
	dataNum int
	planJob *pool.Job
	run     *lab.EvalRun
	// jobs are the units' jobs (nil for a unit taken over from a cancelled
	// run).
	jobs     []*pool.Job
	mergeJob *pool.Job
	// The parts are collected, as they come, by the worker that planned
	// the run (session: the run's number), which then merges them
	// (lab.EvalRun.MergeTask sends them all instead, should it fail).
	session, mergeSlot int
	collectFailed      bool
	started            time.Time
	ended              time.Time
	reused             int
	loaded             bool // read from a report
	truth              *lab.SynthSpec
	view               *lab.EvalView
	dirty              bool
	// detailsLater: the details' rankings are read once the merged
	// results are on the screen (reading them in full takes the page
	// tens of milliseconds for a wide dataset).
	detailsLater bool
}

// busy reports whether a job of the evaluation shown is unfinished.
func (ev *Eval) busy() bool { return ev.ev != nil && ev.ev.busy() }

// busy reports whether a job of the evaluation is unfinished.
func (e *evalState) busy() bool {
	if e.loaded {
		return false
	}
	unfinished := func(j *pool.Job) bool { return j != nil && !j.State.Finished() }
	if unfinished(e.planJob) || unfinished(e.mergeJob) {
		return true
	}
	for _, j := range e.jobs {
		if unfinished(j) {
			return true
		}
	}
	return false
}

// summary adds up the units' jobs, counting the units taken over as done.
func (e *evalState) summary(now time.Time) pool.Summary {
	var jobs []*pool.Job
	for _, j := range e.jobs {
		if j != nil {
			jobs = append(jobs, j)
		}
	}
	s := pool.Summarize(jobs, now)
	if e.reused > 0 {
		work := float64(s.Total - s.Cancelled)
		s.Fraction = (s.Fraction*work + float64(e.reused)) / (work + float64(e.reused))
		s.Total += e.reused
		s.Done += e.reused
	}
	return s
}

// fraction is the share of the evaluation done.
func (e *evalState) fraction(now time.Time) float64 {
	switch {
	case e.loaded || (e.run != nil && e.run.Report != nil):
		return 1
	case e.run == nil:
		return 0
	}
	return e.summary(now).Fraction
}

// text is the progress line.
func (e *evalState) text(now time.Time) string {
	switch {
	case e.loaded:
		return "Results loaded from a report."
	case e.run == nil && e.planJob.State.Finished():
		return "The evaluation did not start."
	case e.run == nil:
		return "Planning the evaluation…"
	}
	end := now
	if !e.ended.IsZero() {
		end = e.ended
	}
	elapsed := fmt.Sprintf(" · %.1f s", end.Sub(e.started).Seconds())
	s := e.summary(now)
	switch {
	case e.run.Report != nil:
		return fmt.Sprintf("%d of %d units done · report merged%s", s.Done, s.Total, elapsed)
	case e.mergeJob != nil && !e.mergeJob.State.Finished():
		return fmt.Sprintf("%d of %d units done · merging the report…%s", s.Done, s.Total, elapsed)
	case e.mergeJob != nil:
		return fmt.Sprintf("%d of %d units done · the merge failed%s", s.Done, s.Total, elapsed)
	case s.Cancelled > 0 && s.Running+s.Queued == 0:
		return fmt.Sprintf("%d of %d units done · %d cancelled%s", s.Done+s.Failed, s.Total, s.Cancelled, elapsed)
	}
	return s.TextOf("units") + elapsed
}

// evalRequest is the configuration's eval-plan request.
func (a *App) evalRequest() (*api.Request, lab.EvalSize, error) {
	p, err := a.Config.Protocol.Protocol()
	if err != nil {
		return nil, lab.EvalSize{}, err
	}
	cfg := a.Config.cfg
	cfg.Protocol = p
	return lab.EvalRequest(&cfg, a.Config.methods, api.Data{Name: a.Data.name}, a.Data.inspection.Dataset.Shape())
}

// start starts an evaluation: a worker plans it, then its units go to the
// pool.
func (ev *Eval) start() {
	a := ev.a
	req, _, err := a.evalRequest()
	if err != nil {
		a.fail(Elsewhere, err.Error())
		return
	}
	c := a.Config
	c.cfg.Protocol, _ = c.Protocol.Protocol()
	prev := ev.ev
	if prev != nil && (prev.loaded || prev.dataNum != a.Data.num) {
		prev = nil
	}
	e := &evalState{cfg: c.cfg, dataNum: a.Data.num, started: a.now(), truth: a.Data.truth(), session: a.runs}
	e.cfg.Methods = append([]lab.MethodConfig(nil), c.cfg.Methods...)
	ev.ev, a.showing, a.reportRef, a.charts, ev.detailCharts, ev.convCharts = e, lab.ModeEval, nil, nil, nil, nil
	ev.dv, ev.ds, ev.dk = 0, -1, -1
	a.b.Mark("sparsefs-eval-start")
	e.planJob = a.pool.Submit("plan the evaluation", api.Task{Run: req}, a.Data.num, true, nil, func(j *pool.Job) { ev.planDone(e, prev, j) })
	a.announce = "Evaluation started."
}

// planDone sends the units of a planned evaluation to the pool.
func (ev *Eval) planDone(e *evalState, prev *evalState, j *pool.Job) {
	a := ev.a
	if ev.ev != e {
		return
	}
	if j.State != pool.Done {
		if j.State == pool.Failed {
			a.fail(Elsewhere, "The evaluation cannot start: "+j.Err)
		}
		return
	}
	a.b.Mark("sparsefs-eval-planned")
	run, err := lab.NewEvalRun(j.Response)
	if err != nil {
		a.fail(Elsewhere, err.Error())
		return
	}
	e.run = run
	from := "the cancelled run"
	if prev != nil && prev.run != nil {
		if prev.run.Complete() {
			from = "the last run, which had the same settings"
		}
		e.reused = run.Reuse(prev.run)
	}
	labels := lab.VariantLabels(run.Plan.Header.Variants)
	ns := len(run.Plan.Header.Splits)
	e.mergeSlot = j.Slot
	for _, s := range a.pool.Live() {
		if s != e.mergeSlot {
			a.b.Link(e.session, s, e.mergeSlot) // the parts go to the merging worker directly
		}
	}
	e.jobs = make([]*pool.Job, len(run.Parts))
	for _, u := range lab.UnitOrder(run.Plan.Header) {
		if run.Parts[u] != nil {
			ev.collect(e, u)
			continue
		}
		label := fmt.Sprintf("%s · split %d", labels[u/ns], u%ns+1)
		e.jobs[u] = a.pool.Submit(label, run.UnitTask(u, e.session), a.Data.num, false, nil, func(j *pool.Job) { ev.unitDone(e, u, j) })
	}
	e.dirty = true
	if e.reused > 0 {
		a.notice = fmt.Sprintf("%d unit%s taken over from %s.", e.reused, Plural(e.reused), from)
	}
	if run.Complete() {
		ev.merge(e)
	}
	ev.refreshCharts()
}

// unitDone records a unit's answer; once every unit has answered, a worker
// merges them.
func (ev *Eval) unitDone(e *evalState, u int, j *pool.Job) {
	a := ev.a
	if j.State == pool.Done {
		if err := e.run.AddPart(u, j.Response, j.Digest); err != nil {
			j.State, j.Err = pool.Failed, err.Error()
		} else if ev.ev == e && j.Slot != e.mergeSlot && !j.Forwarded {
			ev.collect(e, u) // the merging worker kept its own parts; a linked worker sent its own
		}
	}
	e.dirty = true
	if ev.ev != e {
		return
	}
	if j.State == pool.Failed && a.errMsg == "" {
		a.fail(Elsewhere, j.Label+": "+j.Err)
	}
	for _, q := range e.jobs {
		if q != nil && !q.State.Finished() {
			return
		}
	}
	if e.run.Complete() {
		ev.merge(e)
		return
	}
	// A cancelled run: the charts of the units done are redrawn after the
	// render that gives Run back, not before it.
	e.ended = a.now()
	a.b.AfterRender(ev.refreshCharts)
	a.ended()
}

// collect sends unit u's part to the worker that merges them: its digest
// in the request, its JSON beside it, which that worker reads only to
// write the report's JSON (reading it at once, 10–20 ms a part for a wide
// dataset, took that worker's time from the units).
func (ev *Eval) collect(e *evalState, u int) {
	task, err := e.run.CollectTask(u, e.session)
	if err != nil {
		e.collectFailed = true
		return
	}
	ev.a.pool.SubmitTo(e.mergeSlot, fmt.Sprintf("collect unit %d", u+1), task, 0, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			e.collectFailed = true
		}
	})
}

// merge asks the worker that collected the parts to merge them into the
// report (after the collections still queued: the merge job goes to the
// back of the queue); should that fail, any worker merges them all.
func (ev *Eval) merge(e *evalState) {
	a := ev.a
	a.b.Mark("sparsefs-eval-units-done")
	if e.collectFailed {
		ev.mergeAll(e)
		return
	}
	task := api.Task{Merge: &api.Merge{Session: e.session, Expect: len(e.run.Parts), Light: true}}
	e.mergeJob = a.pool.SubmitTo(e.mergeSlot, "merge the report", task, 0, false, nil, func(j *pool.Job) {
		if j.State == pool.Failed && ev.ev == e {
			e.collectFailed = true
			ev.mergeAll(e)
			return
		}
		ev.merged(e, j, false)
		if j.State == pool.Done && ev.ev == e {
			ev.writeReport(e)
		}
	})
}

// writeReport asks for the report's JSON, for saving it, from the worker
// that kept the parts (else from a merge of every part).
func (ev *Eval) writeReport(e *evalState) {
	a := ev.a
	a.pool.SubmitTo(e.mergeSlot, "write the report", api.Task{WriteReport: &api.WriteReport{Session: e.session}}, 0, true, nil, func(j *pool.Job) {
		switch {
		case j.State == pool.Done:
			e.run.SetReportJSON(j.Response)
			a.b.Mark("sparsefs-eval-report")
		case j.State == pool.Failed && ev.ev == e:
			task, err := e.run.MergeTask()
			if err != nil {
				a.fail(Elsewhere, err.Error())
				return
			}
			a.pool.Submit("merge the report", task, 0, true, nil, func(j *pool.Job) {
				if j.State == pool.Done {
					e.run.SetReportJSON(j.Response)
				}
			})
		}
	})
}

// mergeAll sends every part to a worker to merge.
func (ev *Eval) mergeAll(e *evalState) {
	a := ev.a
	a.b.Mark("sparsefs-eval-merge-all")
	task, err := e.run.MergeTask()
	if err != nil {
		a.fail(Elsewhere, err.Error())
		return
	}
	e.mergeJob = a.pool.Submit("merge the report", task, 0, true, nil, func(j *pool.Job) { ev.merged(e, j, true) })
}

// merged takes the merged report (its summaries, or all of it when full).
func (ev *Eval) merged(e *evalState, j *pool.Job, full bool) {
	a := ev.a
	e.ended = a.now()
	if ev.ev != e {
		return
	}
	if j.State != pool.Done {
		if j.State == pool.Failed {
			a.fail(Elsewhere, "The units could not be merged: "+j.Err)
		}
		return
	}
	if err := e.run.SetReport(j.Response, full); err != nil {
		a.fail(Elsewhere, err.Error())
		return
	}
	e.dirty, e.detailsLater = true, true
	a.b.AfterRender(func() {
		e.detailsLater = false
		if ev.ev == e {
			ev.refreshCharts()
		}
	})
	ev.refreshCharts()
	a.announce = fmt.Sprintf("Evaluation finished: %d units in %.1f s.", len(e.run.Parts), e.ended.Sub(e.started).Seconds())
	a.b.Mark("sparsefs-eval-done")
	a.ended()
}

// open shows a saved evaluation report and restores its configuration.
func (ev *Eval) open(name string, raw []byte) {
	a := ev.a
	run, err := lab.RunFromReport(raw)
	if err != nil {
		a.fail(AtData, name+": "+err.Error())
		return
	}
	if a.Running() {
		a.pool.Cancel()
	}
	rep := run.Report
	e := &evalState{run: run, loaded: true, started: a.now()}
	if s, ok := lab.ParseSynthName(rep.Dataset.Name); ok {
		e.truth = &s
	}
	ev.ev, a.showing, a.charts, ev.detailCharts = e, lab.ModeEval, nil, nil
	ev.dv, ev.ds, ev.dk = 0, -1, -1
	a.reportRef = &lab.DataRef{Name: rep.Dataset.Name, SHA256: rep.Dataset.SHA256, Samples: rep.Dataset.Samples, Features: rep.Dataset.Features,
		Label: rep.Dataset.Label, Classes: rep.Dataset.Classes}
	a.notice = fmt.Sprintf("Evaluation report loaded: %d setting%s × %d splits on %s.", len(rep.Results), Plural(len(rep.Results)), len(rep.Splits), rep.Dataset.Name)
	if cfg, err := lab.ConfigFromRequest(rep.Request, a.Config.methods); err != nil {
		a.notice += " " + err.Error()
	} else {
		a.Config.restore(cfg)
		e.cfg = cfg
		a.notice += " Its configuration is restored; open the same data and Run repeats it."
	}
	a.announce = a.notice
	e.dirty = true
	ev.refreshCharts()
	if a.Data.name != rep.Dataset.Name || a.Data.num == 0 {
		a.Data.reload(rep.Dataset.Name)
	}
}
