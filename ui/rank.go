package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"sparsefs/api"
	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// This file is the page's plain ranking mode (lab.ModeRank): every chosen
// selector, with every combination of the values listed in its fields, is
// fitted once on all the data — a ranking of the features, not an estimate
// of how well they classify.

// runState is one run: its configuration, its jobs and their results.
type runState struct {
	cfg     lab.Config
	data    lab.DataRef
	units   []lab.Unit
	jobs    []*pool.Job
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

// units expands the configuration into the jobs of a ranking run (nil and
// the error when it is not valid).
func (c *Root) units() ([]lab.Unit, error) {
	if c.inspection == nil {
		return nil, nil
	}
	if k, err := strconv.Atoi(strings.TrimSpace(c.topKText)); err != nil || k < 1 {
		return nil, fmt.Errorf("the number of top features must be a whole number of at least 1, not %q", c.topKText)
	}
	return lab.Expand(&c.cfg, c.methods, api.Data{Name: c.fileName, Targets: c.cfg.Targets}, c.inspection.Dataset.Features)
}

// runBusy reports whether a job of the current run is unfinished.
func (c *Root) runBusy() bool {
	for _, j := range c.run.jobs {
		if !j.State.Finished() {
			return true
		}
	}
	return false
}

// startRank starts a ranking run: every unit becomes a job of the pool.
func (c *Root) startRank() {
	units, err := c.units()
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	d := c.inspection.Dataset
	r := &runState{cfg: c.cfg, units: units, results: map[int]*api.Selection{}, started: time.Now(),
		data: lab.DataRef{Name: c.fileName, SHA256: c.sha256, Size: c.fileSize, Samples: d.Samples, Features: d.Features, Label: d.Label, Classes: d.Classes}}
	r.cfg.Methods = append([]lab.MethodConfig(nil), c.cfg.Methods...)
	c.run, c.focus, c.reportRef, c.showing = r, -1, nil, lab.ModeRank
	c.refreshCharts()
	for i, u := range units {
		i := i
		req := u.Request
		j := c.pool.Submit(u.Label, api.Task{Run: &req}, c.data, false, nil, func(j *pool.Job) { c.jobDone(r, i, j) })
		r.jobs = append(r.jobs, j)
	}
	c.announce = fmt.Sprintf("Run started: %d job%s.", len(units), plural(len(units)))
}

// jobDone records a finished job of run r.
func (c *Root) jobDone(r *runState, i int, j *pool.Job) {
	if j.State == pool.Done {
		var s api.Selection
		if err := json.Unmarshal(j.Response, &s); err != nil {
			j.State, j.Err = pool.Failed, "unexpected answer from the worker: "+err.Error()
		} else {
			r.results[i] = &s
			if c.run == r && c.focus < 0 {
				c.focus = i
			}
		}
	}
	if c.run != r || c.showing != lab.ModeRank {
		return
	}
	c.refreshCharts()
	if !c.runBusy() {
		c.Backend.Pace(false)
		s := pool.Summarize(r.jobs, time.Now())
		c.announce = "Run finished: " + s.Text() + "."
		if s.Failed > 0 && s.Done == 0 {
			c.errMsg = r.jobs[0].Err
			for _, j := range r.jobs {
				if j.State == pool.Failed {
					c.errMsg = j.Label + ": " + j.Err
					break
				}
			}
		}
	}
}

// HandleFocus shows a job's result in detail.
func (c *Root) HandleFocus(i int) {
	c.focus = i
	c.refreshCharts()
}

// results returns the finished results of the run, in job order.
func (c *Root) results() []lab.Result {
	if c.run == nil {
		return nil
	}
	var out []lab.Result
	for i := range c.run.units {
		if s := c.run.results[i]; s != nil {
			out = append(out, lab.Result{Label: c.run.units[i].Label, Sel: s})
		}
	}
	return out
}

// focused returns the result shown in detail.
func (c *Root) focused() *lab.Result {
	if c.run == nil || c.focus < 0 {
		return nil
	}
	s := c.run.results[c.focus]
	if s == nil {
		return nil
	}
	return &lab.Result{Label: c.run.units[c.focus].Label, Sel: s}
}

// refreshRankCharts rebuilds the charts from a ranking run's results.
func (c *Root) refreshRankCharts() {
	c.charts = nil
	rs := c.results()
	if len(rs) == 0 {
		return
	}
	k := c.run.k()
	add := func(id, title, svg, note string) { c.charts = append(c.charts, newChart(id, title, svg, note)) }
	if f := c.focused(); f != nil {
		ch := lab.TopScoresChart(*f, k)
		add(ch.ID, ch.Title, ch.SVG(), "Hover a bar for its value.")
		if w := lab.WeightsChart(*f); w != nil {
			add(w.ID, w.Title, w.SVG(), "Rows: the top features; columns: W's columns (the classes).")
		}
	}
	for _, ch := range lab.ConvergenceCharts(rs) {
		add(ch.ID, ch.Title, ch.SVG(), "The exact objective after each iteration.")
	}
	if len(rs) > 1 {
		ov := lab.OverlapChart(rs, k)
		add(ov.ID, ov.Title, ov.SVG(), "1: the same top features; 0: none in common.")
	}
	pr := lab.ProfileChart(rs, k)
	add(pr.ID, pr.Title, pr.SVG(), "Band: ± one standard deviation over a method's parameter values.")
	if sp := lab.SparsityChart(rs); sp != nil {
		add(sp.ID, sp.Title, sp.SVG(), "")
	}
	tc := lab.TimeChart(rs)
	add(tc.ID, tc.Title, tc.SVG(), "")
}

// exportRankRanking saves the focused result's ranking as CSV.
func (c *Root) exportRankRanking() {
	f := c.focused()
	if f == nil {
		return
	}
	rs := c.results()
	k := c.run.k()
	text := lab.RankingCSV(*f, lab.Frequency(rs, k), len(rs), k)
	c.Backend.Download(lab.FileName(f.Label, "ranking")+".csv", "text/csv", text)
}

// exportRankReduced asks a worker for the data restricted to the
// focused result's top K features, and saves it.
func (c *Root) exportRankReduced() {
	f := c.focused()
	if f == nil || c.data == 0 || c.run.loaded != nil {
		return
	}
	k := min(c.run.k(), len(f.Sel.Ranking))
	c.exportReduced(c.run.cfg, f.Sel.Ranking[:k])
}

// exportReduced asks a worker for the data open, read with cfg's
// settings, restricted to the given features plus the label, and saves
// it.
func (c *Root) exportReduced(cfg lab.Config, columns []int) {
	req := api.Request{Op: api.OpReduce, Data: api.Data{Name: strings.TrimSuffix(c.fileName, " (demo)"), Label: cfg.Label, Missing: cfg.Missing, Targets: cfg.Targets},
		Columns: append([]int(nil), columns...)}
	c.pool.Submit("reduced data", api.Task{Run: &req}, c.data, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			c.errMsg = "Cannot write the reduced data: " + j.Err
			return
		}
		var out api.Reduced
		if err := json.Unmarshal(j.Response, &out); err != nil {
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		c.Backend.Download(out.Name, "text/csv", out.CSV)
	})
}

// report builds the report of the current run.
func (c *Root) report() *lab.Report {
	r := c.run
	rep := &lab.Report{Created: time.Now().UTC().Format(time.RFC3339), App: appVersion, Data: r.data, Config: r.cfg}
	if rep.Data.SHA256 == "" {
		rep.Data.SHA256 = c.sha256
	}
	if r.loaded != nil {
		rep.Jobs = r.loaded
		return rep
	}
	now := time.Now()
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

// exportRankReport saves the ranking run's report as JSON.
func (c *Root) exportRankReport() {
	if c.run == nil {
		return
	}
	b, err := c.report().Encode()
	if err != nil {
		c.errMsg = "Cannot write the report: " + err.Error()
		return
	}
	c.Backend.Download(reportName(c.run.data.Name), "application/json", string(b))
}

// openRankReport shows a ranking report again and restores its
// configuration.
func (c *Root) openRankReport(rep *lab.Report) {
	if c.running() {
		c.pool.Cancel()
	}
	c.cfg = rep.Config
	c.cfg.Mode = lab.ModeRank
	c.topKText = strconv.Itoa(c.cfg.TopK)
	c.pf = formOf(c.cfg.Protocol)
	r := &runState{cfg: rep.Config, data: rep.Data, results: map[int]*api.Selection{}, loaded: rep.Jobs, started: time.Now()}
	for i, jr := range rep.Jobs {
		r.units = append(r.units, lab.Unit{Label: jr.Label, Method: jr.Request.Method, Request: jr.Request})
		if jr.State == "done" {
			if s, err := jr.Selection(); err == nil {
				r.results[i] = s
			}
		}
	}
	c.run, c.focus, c.showing = r, -1, lab.ModeRank
	for i := range r.units {
		if r.results[i] != nil {
			c.focus = i
			break
		}
	}
	ref := rep.Data
	c.reportRef = &ref
	c.refreshCharts()
	c.notice = fmt.Sprintf("Report loaded: %d job%s on %s, saved %s. Its configuration is restored; open the same data to run it again.",
		len(rep.Jobs), plural(len(rep.Jobs)), rep.Data.Name, rep.Created)
	c.announce = c.notice
	// A bundled demo, or generated data, can be opened again at once.
	if c.data == 0 || c.sha256 != rep.Data.SHA256 {
		c.reloadData(rep.Data.Name)
	}
}

// --- results table ---

// resultRow is one line of the runs table.
type resultRow struct {
	Index                                               int
	Label, State, Time, Iterations, Stop, Objective, NZ string
	Focus, OK                                           bool
}

// maxRows bounds the rows of the runs table (the report has them all).
const maxRows = 200

func (c *Root) resultRows() []resultRow {
	if c.run == nil {
		return nil
	}
	now := time.Now()
	var rows []resultRow
	for i, u := range c.run.units {
		if len(rows) == maxRows {
			break
		}
		r := resultRow{Index: i, Label: u.Label, Focus: i == c.focus, Time: "—", Iterations: "—", Stop: "—", Objective: "—", NZ: "—"}
		switch {
		case c.run.loaded != nil:
			r.State = c.run.loaded[i].State
			r.Time = secondsText(c.run.loaded[i].Seconds)
			if r.State != "done" && c.run.loaded[i].Error != "" {
				r.Stop = c.run.loaded[i].Error
			}
		case i < len(c.run.jobs):
			jobCells(c.run.jobs[i], now, &r.State, &r.Time, &r.Stop)
		}
		if s := c.run.results[i]; s != nil {
			r.OK = true
			r.Time = secondsText(s.Seconds)
			r.Stop = strings.ReplaceAll(s.Stop, "_", " ")
			if s.Objective != nil {
				r.Iterations = strconv.Itoa(s.Iterations)
				r.Objective = chart.Num(float64(*s.Objective))
			}
			if s.NonzeroRows != nil {
				r.NZ = strconv.Itoa(*s.NonzeroRows)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func (c *Root) moreRows() int {
	if c.run == nil {
		return 0
	}
	return max(0, len(c.run.units)-maxRows)
}

// jobCells writes a job's state, running time and error into the cells of
// a table row (leaving them as they are where there is nothing to say).
func jobCells(j *pool.Job, now time.Time, state, time, stop *string) {
	*state = j.State.String()
	if j.State == pool.Running && j.Progress.Fraction > 0 {
		*state = fmt.Sprintf("running %.0f%%", 100*j.Fraction())
	}
	if !j.Started.IsZero() {
		*time = secondsText(j.Seconds(now))
	}
	if j.State == pool.Failed {
		*stop = j.Err
	}
}

// stateClass is the class of a state cell ("state done").
func stateClass(state string) string {
	st, _, _ := strings.Cut(state, " ")
	return "state " + st
}

// --- ranking table ---

// rankedRow is one line of the ranking table.
type rankedRow struct {
	Rank, Column int
	Name, Score  string
	Freq         string
}

func (c *Root) rankedRows() []rankedRow {
	f := c.focused()
	if f == nil {
		return nil
	}
	rs := c.results()
	k := c.run.k()
	count := map[int]int{}
	for _, fc := range lab.Frequency(rs, k) {
		count[fc.Feature] = fc.Count
	}
	n := min(c.shown, len(f.Sel.Ranking))
	rows := make([]rankedRow, n)
	for i := range rows {
		j := f.Sel.Ranking[i]
		rows[i] = rankedRow{Rank: i + 1, Column: j, Name: f.Sel.Features[j], Score: chart.Num(f.Sel.Scores[j]), Freq: fmt.Sprintf("%d / %d", count[j], len(rs))}
	}
	return rows
}

func (c *Root) focusSummary() string {
	f := c.focused()
	if f == nil {
		return ""
	}
	s := f.Sel
	out := fmt.Sprintf("%s on %d samples × %d features in %s", f.Label, s.Dataset.Samples, s.Dataset.Features, secondsText(s.Seconds))
	if s.Objective != nil {
		out += fmt.Sprintf(" · objective %s after %d iterations (%s)", chart.Num(float64(*s.Objective)), s.Iterations, strings.ReplaceAll(s.Stop, "_", " "))
	}
	if s.NonzeroRows != nil {
		out += fmt.Sprintf(" · %d nonzero rows", *s.NonzeroRows)
	}
	return out
}

func (c *Root) focusWarnings() []string {
	if f := c.focused(); f != nil {
		return f.Sel.Warnings
	}
	return nil
}

func (c *Root) focusFeatures() int {
	if f := c.focused(); f != nil {
		return len(f.Sel.Ranking)
	}
	return 0
}

func (c *Root) topK() int {
	if c.run == nil {
		return c.cfg.TopK
	}
	return c.run.k()
}
