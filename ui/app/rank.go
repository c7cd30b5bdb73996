package app

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"sparsefs/api"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// Rank is the ranking mode (lab.ModeRank): every chosen selector, with
// every combination of the values listed in its fields, is fitted once on
// all the data — a ranking of the features, not an estimate of how well
// they classify. It holds the last ranking run (run here, or loaded from
// a report) and the job shown in detail.
type Rank struct {
	a     *App
	run   *runState
	focus int // the job shown in detail (its index in run.jobs)
	// qOnly keeps, in the ranking table, the features with q ≤ QCut
	// (rankq.go).
	qOnly bool
}

// runState is one ranking run: its configuration, its jobs and their
// results.
type runState struct {
	cfg   lab.Config
	data  lab.DataRef
	units []lab.Unit
	jobs  []*pool.Job
	// parts are the jobs of units run in shares (rankstab.go).
	parts   []*pool.Job
	results map[int]*api.Selection // by job index
	started time.Time
	// loaded is set for a run read from a report (no jobs ran here).
	loaded []lab.JobRecord
}

// k is the number of top features the run's results use: the configured
// K, at most the number of features.
func (r *runState) k() int {
	if r.data.Features > 0 {
		return min(r.cfg.TopK, r.data.Features)
	}
	return r.cfg.TopK
}

// busy reports whether a job of the run shown is unfinished.
func (rk *Rank) busy() bool {
	if rk.run == nil || rk.run.loaded != nil {
		return false
	}
	for _, list := range [][]*pool.Job{rk.run.jobs, rk.run.parts} {
		for _, j := range list {
			if !j.State.Finished() {
				return true
			}
		}
	}
	return false
}

// Shown reports whether there is a ranking run to show.
func (rk *Rank) Shown() bool { return rk.run != nil }

// units expands the configuration into the jobs of a ranking run (nil and
// the error when it is not valid).
func (rk *Rank) units() ([]lab.Unit, error) {
	a := rk.a
	if a.Data.inspection == nil {
		return nil, nil
	}
	c := a.Config
	if k, err := strconv.Atoi(strings.TrimSpace(c.topKText)); err != nil || k < 1 {
		return nil, fmt.Errorf("the number of top features must be a whole number of at least 1, not %q", c.topKText)
	}
	return lab.Expand(&c.cfg, c.methods, api.Data{Name: a.Data.name}, a.Data.inspection.Dataset.Features)
}

// start starts a ranking run: every unit becomes a job of the pool.
func (rk *Rank) start() {
	a := rk.a
	units, err := rk.units()
	if err != nil {
		a.fail(Elsewhere, err.Error())
		return
	}
	d := a.Data
	ds := d.inspection.Dataset
	r := &runState{cfg: a.Config.cfg, units: units, results: map[int]*api.Selection{}, started: a.now(),
		data: lab.DataRef{Name: d.name, SHA256: d.sha256, Size: d.size, Samples: ds.Samples, Features: ds.Features, Label: ds.Label, Classes: ds.Classes}}
	r.cfg.Methods = append([]lab.MethodConfig(nil), a.Config.cfg.Methods...)
	rk.run, rk.focus, a.reportRef, a.showing = r, -1, nil, lab.ModeRank
	a.refreshCharts()
	for i, u := range units {
		req := u.Request
		if shares := rk.shares(req); shares != nil {
			r.jobs = append(r.jobs, rk.submitShares(r, i, u.Label, req, shares, d.num))
			continue
		}
		j := a.pool.Submit(u.Label, api.Task{Run: &req}, d.num, false, nil, func(j *pool.Job) { rk.jobDone(r, i, j) })
		r.jobs = append(r.jobs, j)
	}
	a.announce = fmt.Sprintf("Run started: %d job%s.", len(units), Plural(len(units)))
}

// jobDone records a finished job of run r.
func (rk *Rank) jobDone(r *runState, i int, j *pool.Job) {
	a := rk.a
	if j.State == pool.Done {
		var s api.Selection
		if err := json.Unmarshal(j.Response, &s); err != nil {
			j.State, j.Err = pool.Failed, "unexpected answer from the worker: "+err.Error()
		} else {
			r.results[i] = &s
			if rk.run == r && rk.focus < 0 {
				rk.focus = i
			}
		}
	}
	if rk.run != r || a.showing != lab.ModeRank {
		return
	}
	a.refreshCharts()
	if !rk.busy() {
		a.ended()
		s := pool.Summarize(r.jobs, a.now())
		a.announce = "Run finished: " + s.Text() + "."
		if s.Failed > 0 && s.Done == 0 {
			a.fail(Elsewhere, r.jobs[0].Err)
			for _, j := range r.jobs {
				if j.State == pool.Failed {
					a.fail(Elsewhere, j.Label+": "+j.Err)
					break
				}
			}
		}
	}
}

// Focus shows job i's result in detail.
func (rk *Rank) Focus(i int) {
	rk.focus = i
	rk.a.refreshCharts()
}

// results returns the finished results of the run, in job order.
func (rk *Rank) results() []lab.Result {
	if rk.run == nil {
		return nil
	}
	var out []lab.Result
	for i := range rk.run.units {
		if s := rk.run.results[i]; s != nil {
			out = append(out, lab.Result{Label: rk.run.units[i].Label, Sel: s})
		}
	}
	return out
}

// focused returns the result shown in detail.
func (rk *Rank) focused() *lab.Result {
	if rk.run == nil || rk.focus < 0 {
		return nil
	}
	s := rk.run.results[rk.focus]
	if s == nil {
		return nil
	}
	return &lab.Result{Label: rk.run.units[rk.focus].Label, Sel: s}
}

// HasFocus reports whether a job's result is shown in detail.
func (rk *Rank) HasFocus() bool { return rk.focused() != nil }

// refreshCharts rebuilds the charts from a ranking run's results.
func (rk *Rank) refreshCharts() {
	a := rk.a
	a.charts = nil
	rs := rk.results()
	if len(rs) == 0 {
		return
	}
	k := rk.run.k()
	add := func(id, title string, c lab.Drawn, note string) {
		a.charts = append(a.charts, NewChart(lab.NewFigure(id, title, c, note)))
	}
	if f := rk.focused(); f != nil {
		ch := lab.TopScoresChart(*f, k)
		add(ch.ID, ch.Title, ch, "Hover a bar for its value.")
		if w := lab.WeightsChart(*f); w != nil {
			add(w.ID, w.Title, w, "Rows: the top features; columns: W's columns (the classes).")
		}
	}
	for _, ch := range lab.ConvergenceCharts(rs) {
		add(ch.ID, ch.Title, ch, "The exact objective after each iteration.")
	}
	if len(rs) > 1 {
		ov := lab.OverlapChart(rs, k)
		add(ov.ID, ov.Title, ov, "1: the same top features; 0: none in common.")
	}
	pr := lab.ProfileChart(rs, k)
	add(pr.ID, pr.Title, pr, "Band: ± one standard deviation over a method's parameter values.")
	if sp := lab.SparsityChart(rs); sp != nil {
		add(sp.ID, sp.Title, sp, "")
	}
	tc := lab.TimeChart(rs)
	add(tc.ID, tc.Title, tc, "")
}

// TopK is the number of top features of the ranking shown (of the
// configuration when nothing has run).
func (rk *Rank) TopK() int {
	if rk.run == nil {
		return rk.a.Config.cfg.TopK
	}
	return rk.run.k()
}

// report builds the report of the current run.
func (rk *Rank) report() *lab.Report {
	a := rk.a
	r := rk.run
	rep := &lab.Report{Created: a.now().UTC().Format(time.RFC3339), App: a.version, Data: r.data, Config: r.cfg}
	if rep.Data.SHA256 == "" {
		rep.Data.SHA256 = a.Data.sha256
	}
	if r.loaded != nil {
		rep.Jobs = r.loaded
		return rep
	}
	now := a.now()
	for i, u := range r.units {
		jr := lab.JobRecord{Label: u.Label, Request: u.Request, State: "queued"}
		if i < len(r.jobs) {
			j := r.jobs[i]
			jr.State, jr.Seconds, jr.Error = j.State.String(), round3(j.Seconds(now)), j.Err
			if j.State == pool.Done && r.results[i] != nil {
				jr.Response = j.Response
			}
		}
		rep.Jobs = append(rep.Jobs, jr)
	}
	return rep
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// open shows a ranking report again and restores its configuration.
func (rk *Rank) open(rep *lab.Report) {
	a := rk.a
	if a.Running() {
		a.pool.Cancel()
	}
	cfg := rep.Config
	cfg.Mode = lab.ModeRank
	a.Config.restore(cfg)
	r := &runState{cfg: rep.Config, data: rep.Data, results: map[int]*api.Selection{}, loaded: rep.Jobs, started: a.now()}
	for i, jr := range rep.Jobs {
		r.units = append(r.units, lab.Unit{Label: jr.Label, Method: jr.Request.Method, Request: jr.Request})
		if jr.State == "done" {
			if s, err := jr.Selection(); err == nil {
				r.results[i] = s
			}
		}
	}
	rk.run, rk.focus, a.showing = r, -1, lab.ModeRank
	for i := range r.units {
		if r.results[i] != nil {
			rk.focus = i
			break
		}
	}
	ref := rep.Data
	a.reportRef = &ref
	a.refreshCharts()
	a.notice = fmt.Sprintf("Report loaded: %d job%s on %s, saved %s. Its configuration is restored; open the same data to run it again.",
		len(rep.Jobs), Plural(len(rep.Jobs)), rep.Data.Name, rep.Created)
	a.announce = a.notice
	// A bundled demo, or generated data, can be opened again at once.
	if a.Data.num == 0 || a.Data.sha256 != rep.Data.SHA256 {
		a.Data.reload(rep.Data.Name)
	}
}
