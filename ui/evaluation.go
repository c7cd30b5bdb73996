package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"

	"sparsefs/api"
	"sparsefs/core/plan"
	"sparsefs/ui/chart"
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
	// (lab.EvalRun.MergeRequest sends them all instead, should it fail).
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
func (e *evalState) summary() pool.Summary {
	var jobs []*pool.Job
	for _, j := range e.jobs {
		if j != nil {
			jobs = append(jobs, j)
		}
	}
	s := pool.Summarize(jobs, time.Now())
	if e.reused > 0 {
		work := float64(s.Total - s.Cancelled)
		s.Fraction = (s.Fraction*work + float64(e.reused)) / (work + float64(e.reused))
		s.Total += e.reused
		s.Done += e.reused
	}
	return s
}

// fraction is the share of the evaluation done.
func (e *evalState) fraction() float64 {
	switch {
	case e.loaded || (e.run != nil && e.run.Report != nil):
		return 1
	case e.run == nil:
		return 0
	}
	return e.summary().Fraction
}

// text is the progress line.
func (e *evalState) text() string {
	switch {
	case e.loaded:
		return "Results loaded from a report."
	case e.run == nil && e.planJob.State.Finished():
		return "The evaluation did not start."
	case e.run == nil:
		return "Planning the evaluation…"
	}
	end := time.Now()
	if !e.ended.IsZero() {
		end = e.ended
	}
	elapsed := fmt.Sprintf(" · %.1f s", end.Sub(e.started).Seconds())
	s := e.summary()
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
func (c *Root) evalRequest() (*api.Request, lab.EvalSize, error) {
	p, err := c.pf.protocol()
	if err != nil {
		return nil, lab.EvalSize{}, err
	}
	cfg := c.cfg
	cfg.Protocol = p
	return lab.EvalRequest(&cfg, c.methods, api.Data{Name: c.fileName}, c.inspection.Dataset.Shape())
}

// startEval starts an evaluation: a worker plans it, then its units go to
// the pool.
func (c *Root) startEval() {
	req, _, err := c.evalRequest()
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	c.cfg.Protocol, _ = c.pf.protocol()
	prev := c.ev
	if prev != nil && (prev.loaded || prev.dataNum != c.data) {
		prev = nil
	}
	e := &evalState{cfg: c.cfg, dataNum: c.data, started: time.Now(), truth: c.truth(), session: c.runs}
	e.cfg.Methods = append([]lab.MethodConfig(nil), c.cfg.Methods...)
	c.ev, c.showing, c.reportRef, c.charts, c.detailCharts = e, lab.ModeEval, nil, nil, nil
	c.dv, c.ds, c.dk = 0, -1, -1
	c.Backend.Mark("sparsefs-eval-start")
	e.planJob = c.pool.Submit("plan the evaluation", api.Task{Run: req}, c.data, true, nil, func(j *pool.Job) { c.planDone(e, prev, j) })
	c.announce = "Evaluation started."
}

// planDone sends the units of a planned evaluation to the pool.
func (c *Root) planDone(e *evalState, prev *evalState, j *pool.Job) {
	if c.ev != e {
		return
	}
	if j.State != pool.Done {
		if j.State == pool.Failed {
			c.errMsg = "The evaluation cannot start: " + j.Err
		}
		return
	}
	c.Backend.Mark("sparsefs-eval-planned")
	run, err := lab.NewEvalRun(j.Response)
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	e.run = run
	if prev != nil && prev.run != nil {
		e.reused = run.Reuse(prev.run)
	}
	labels := lab.VariantLabels(run.Plan.Header.Variants)
	ns := len(run.Plan.Header.Splits)
	e.mergeSlot = j.Slot
	for _, s := range c.pool.Live() {
		if s != e.mergeSlot {
			c.Backend.Link(e.session, s, e.mergeSlot) // the parts go to the merging worker directly
		}
	}
	e.jobs = make([]*pool.Job, len(run.Parts))
	for _, u := range lab.UnitOrder(run.Plan.Header) {
		if run.Parts[u] != nil {
			c.collect(e, u)
			continue
		}
		u := u
		label := fmt.Sprintf("%s · split %d", labels[u/ns], u%ns+1)
		e.jobs[u] = c.pool.Submit(label, run.UnitTask(u, e.session), c.data, false, nil, func(j *pool.Job) { c.unitDone(e, u, j) })
	}
	e.dirty = true
	if e.reused > 0 {
		c.notice = fmt.Sprintf("%d unit%s taken over from the cancelled run.", e.reused, plural(e.reused))
	}
	if run.Complete() {
		c.merge(e)
	}
	c.refreshEvalCharts()
}

// unitDone records a unit's answer; once every unit has answered, a worker
// merges them.
func (c *Root) unitDone(e *evalState, u int, j *pool.Job) {
	if j.State == pool.Done {
		if err := e.run.AddPart(u, j.Response, j.Digest); err != nil {
			j.State, j.Err = pool.Failed, err.Error()
		} else if c.ev == e && j.Slot != e.mergeSlot && !j.Forwarded {
			c.collect(e, u) // the merging worker kept its own parts; a linked worker sent its own
		}
	}
	e.dirty = true
	if c.ev != e {
		return
	}
	if j.State == pool.Failed && c.errMsg == "" {
		c.errMsg = j.Label + ": " + j.Err
	}
	for _, q := range e.jobs {
		if q != nil && !q.State.Finished() {
			return
		}
	}
	if e.run.Complete() {
		c.merge(e)
		return
	}
	e.ended = time.Now()
	c.refreshEvalCharts()
	c.Backend.Pace(false)
}

// collect sends unit u's part to the worker that merges them: its digest
// in the request, its JSON beside it, which that worker reads only to
// write the report's JSON (reading it at once, 10–20 ms a part for a wide
// dataset, took that worker's time from the units).
func (c *Root) collect(e *evalState, u int) {
	task, err := e.run.CollectTask(u, e.session)
	if err != nil {
		e.collectFailed = true
		return
	}
	c.pool.SubmitTo(e.mergeSlot, fmt.Sprintf("collect unit %d", u+1), task, 0, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			e.collectFailed = true
		}
	})
}

// merge asks the worker that collected the parts to merge them into the
// report (after the collections still queued: the merge job goes to the
// back of the queue); should that fail, any worker merges them all.
func (c *Root) merge(e *evalState) {
	c.Backend.Mark("sparsefs-eval-units-done")
	if !e.collectFailed {
		task := api.Task{Merge: &api.Merge{Session: e.session, Expect: len(e.run.Parts), Light: true}}
		e.mergeJob = c.pool.SubmitTo(e.mergeSlot, "merge the report", task, 0, false, nil, func(j *pool.Job) {
			if j.State == pool.Failed && c.ev == e {
				e.collectFailed = true
				c.mergeAll(e)
				return
			}
			c.merged(e, j, false)
			if j.State == pool.Done && c.ev == e {
				// The report's JSON, for saving it, from the worker that
				// kept it (else from a merge of every part).
				c.pool.SubmitTo(e.mergeSlot, "write the report", api.Task{WriteReport: &api.WriteReport{Session: e.session}}, 0, true, nil, func(j *pool.Job) {
					switch {
					case j.State == pool.Done:
						e.run.SetReportJSON(j.Response)
						c.Backend.Mark("sparsefs-eval-report")
					case j.State == pool.Failed && c.ev == e:
						task, err := e.run.MergeTask()
						if err != nil {
							c.errMsg = err.Error()
							return
						}
						c.pool.Submit("merge the report", task, 0, true, nil, func(j *pool.Job) {
							if j.State == pool.Done {
								e.run.SetReportJSON(j.Response)
							}
						})
					}
				})
			}
		})
		return
	}
	c.mergeAll(e)
}

// mergeAll sends every part to a worker to merge.
func (c *Root) mergeAll(e *evalState) {
	c.Backend.Mark("sparsefs-eval-merge-all")
	task, err := e.run.MergeTask()
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	e.mergeJob = c.pool.Submit("merge the report", task, 0, true, nil, func(j *pool.Job) { c.merged(e, j, true) })
}

// merged takes the merged report (its summaries, or all of it when full).
func (c *Root) merged(e *evalState, j *pool.Job, full bool) {
	e.ended = time.Now()
	if c.ev != e {
		return
	}
	if j.State != pool.Done {
		if j.State == pool.Failed {
			c.errMsg = "The units could not be merged: " + j.Err
		}
		return
	}
	if err := e.run.SetReport(j.Response, full); err != nil {
		c.errMsg = err.Error()
		return
	}
	e.dirty, e.detailsLater = true, true
	c.Backend.AfterRender(func() {
		e.detailsLater = false
		if c.ev == e {
			c.refreshEvalCharts()
		}
	})
	c.refreshEvalCharts()
	c.announce = fmt.Sprintf("Evaluation finished: %d units in %.1f s.", len(e.run.Parts), e.ended.Sub(e.started).Seconds())
	c.Backend.Mark("sparsefs-eval-done")
	c.Backend.Pace(false)
}

// openEvalReport shows a saved evaluation report and restores its
// configuration.
func (c *Root) openEvalReport(name string, raw []byte) {
	run, err := lab.RunFromReport(raw)
	if err != nil {
		c.errMsg = name + ": " + err.Error()
		return
	}
	if c.running() {
		c.pool.Cancel()
	}
	rep := run.Report
	e := &evalState{run: run, loaded: true, started: time.Now()}
	if s, ok := lab.ParseSynthName(rep.Dataset.Name); ok {
		e.truth = &s
	}
	c.ev, c.showing, c.charts, c.detailCharts = e, lab.ModeEval, nil, nil
	c.dv, c.ds, c.dk = 0, -1, -1
	c.reportRef = &lab.DataRef{Name: rep.Dataset.Name, SHA256: rep.Dataset.SHA256, Samples: rep.Dataset.Samples, Features: rep.Dataset.Features,
		Label: rep.Dataset.Label, Classes: rep.Dataset.Classes}
	c.notice = fmt.Sprintf("Evaluation report loaded: %d setting%s × %d splits on %s.", len(rep.Results), plural(len(rep.Results)), len(rep.Splits), rep.Dataset.Name)
	if cfg, err := lab.ConfigFromRequest(rep.Request, c.methods); err != nil {
		c.notice += " " + err.Error()
	} else {
		c.cfg, e.cfg = cfg, cfg
		c.pf = formOf(cfg.Protocol)
		c.topKText = strconv.Itoa(cfg.TopK)
		c.notice += " Its configuration is restored; open the same data and Run repeats it."
	}
	c.announce = c.notice
	e.dirty = true
	c.refreshEvalCharts()
	if c.fileName != rep.Dataset.Name || c.data == 0 {
		c.reloadData(rep.Dataset.Name)
	}
}

// --- the results ---

// evView is the evaluation's view, rebuilt when units have arrived.
func (c *Root) evView() *lab.EvalView {
	e := c.ev
	if e == nil || e.run == nil {
		return nil
	}
	if c.detailReady() && c.dv >= 0 && c.dv < len(e.run.Plan.Header.Variants) && e.run.Full(c.dv) {
		e.dirty = true // the details of the selector shown, read in full
	}
	if e.view == nil || e.dirty {
		e.view = lab.NewEvalView(e.run.View(), e.truth)
		e.dirty = false
		if c.dk < 0 || c.dk >= len(e.view.Rep.K) {
			c.dk = defaultK(e.view.Rep.K)
		}
	}
	return e.view
}

// defaultK is the index of the K the details show first: the largest K up
// to 20, or the smallest.
func defaultK(ks []int) int {
	best := 0
	for i, k := range ks {
		if k <= 20 {
			best = i
		}
	}
	return best
}

// refreshEvalCharts rebuilds the evaluation's charts.
func (c *Root) refreshEvalCharts() {
	c.charts, c.detailCharts = nil, nil
	v := c.evView()
	if v == nil || v.UnitsDone() == 0 {
		return
	}
	add := func(list *[]chartView, f lab.Figure) { *list = append(*list, newChart(f.ID, f.Title, f.SVG, f.Note)) }
	for _, f := range v.AccuracyCharts() {
		add(&c.charts, f)
	}
	if f, ok := v.TruthChart(); ok {
		add(&c.charts, f)
	}
	add(&c.charts, v.RedundancyChart())
	if f, ok := v.SparsityChart(); ok {
		add(&c.charts, f)
	}
	add(&c.charts, v.TimeChart())
	for _, f := range v.ConvergenceCharts() {
		add(&c.charts, f)
	}
	split := c.ds
	if split < 0 {
		split = 0
	}
	if f, ok := v.WeightsChart(c.dv, split, c.dk); ok {
		add(&c.detailCharts, f)
	}
}

// evalSummary is the line above the results table.
func (c *Root) evalSummary() string {
	v := c.evView()
	if v == nil {
		return ""
	}
	r := v.Rep
	p := r.Request.Eval
	proto := fmt.Sprintf("%d-fold cross-validation", p.Protocol.Folds)
	if p.Protocol.Kind == "holdout" {
		proto = fmt.Sprintf("%d holdout splits (%.0f%% training)", p.Protocol.Repeats, 100*p.Protocol.Train)
	}
	s := fmt.Sprintf("%s (%d samples × %d features) · %s · seed %d · %s · K = %s", r.Dataset.Name, r.Dataset.Samples, r.Dataset.Features,
		proto, p.Seed, strings.Join(r.Classifiers, ", "), plan.Text(r.K))
	if len(p.Tune) > 0 {
		s += " · tuned by inner cross-validation: " + plan.GridsText(p.Tune)
	}
	total := len(r.Results) * len(r.Splits)
	if done := v.UnitsDone(); done < total {
		s += fmt.Sprintf(" · partial: %d of %d units, the means are over the splits done", done, total)
	}
	return s
}

func (c *Root) evalWarnings() []string {
	if v := c.evView(); v != nil {
		return v.Rep.Warnings
	}
	return nil
}

func (c *Root) tableHead() []string {
	if v := c.evView(); v != nil {
		h, _ := v.Table()
		return h
	}
	return nil
}

func (c *Root) tableRows() []lab.TableRow {
	if v := c.evView(); v != nil {
		_, rows := v.Table()
		return rows
	}
	return nil
}

// HandleDetailVariant, HandleDetailK and HandleDetailSplit choose what the
// ranking table, the per-class table and the heat map show.
func (c *Root) HandleDetailVariant(ev vugu.DOMEvent) {
	c.dv, _ = strconv.Atoi(ev.PropString("target", "value"))
	c.refreshEvalCharts()
}

func (c *Root) HandleDetailK(ev vugu.DOMEvent) {
	c.dk, _ = strconv.Atoi(ev.PropString("target", "value"))
	c.refreshEvalCharts()
}

func (c *Root) HandleDetailSplit(ev vugu.DOMEvent) {
	c.ds, _ = strconv.Atoi(ev.PropString("target", "value"))
	c.refreshEvalCharts()
}

// HandlePickVariant shows a row of the results table in the details.
func (c *Root) HandlePickVariant(i int) {
	c.dv = i
	c.refreshEvalCharts()
}

func (c *Root) variantLabels() []string {
	if v := c.evView(); v != nil {
		return v.Labels
	}
	return nil
}

func (c *Root) kList() []int {
	if v := c.evView(); v != nil {
		return v.Rep.K
	}
	return nil
}

func (c *Root) splitCount() int {
	if v := c.evView(); v != nil {
		return len(v.Rep.Splits)
	}
	return 0
}

// splitIndices are 0 … splits−1.
func (c *Root) splitIndices() []int {
	out := make([]int, c.splitCount())
	for i := range out {
		out[i] = i
	}
	return out
}

// detailK is the K the details use.
func (c *Root) detailK() int {
	ks := c.kList()
	if c.dk >= 0 && c.dk < len(ks) {
		return ks[c.dk]
	}
	return 0
}

// evalRankRow is one line of the evaluation's ranking table.
type evalRankRow struct {
	Rank, Column               int
	Name, Score, Freq, MeanRnk string
	Truth, TruthClass          string
}

func truthText(kind string) (string, string) {
	switch kind {
	case lab.Informative:
		return "★ informative", "truth informative"
	case lab.Redundant:
		return "redundant", "truth redundant"
	case lab.Irrelevant:
		return "irrelevant", "truth irrelevant"
	}
	return "", "truth"
}

// evalRankRows are the features of the chosen selector: across the splits
// (by how many splits' top K hold them), or one split's own ranking.
func (c *Root) evalRankRows() []evalRankRow {
	v := c.evView()
	if v == nil || c.dv < 0 || c.dv >= len(v.Rep.Results) {
		return nil
	}
	var out []evalRankRow
	if c.ds < 0 {
		for _, r := range v.Frequency(c.dv, c.dk) {
			if len(out) == c.shown {
				break
			}
			row := evalRankRow{Rank: r.Rank, Column: r.Feature, Name: r.Name, Score: chart.Num(r.MeanScore),
				Freq: fmt.Sprintf("%d / %d", r.Count, r.Splits), MeanRnk: strconv.FormatFloat(r.MeanRank, 'f', 1, 64)}
			row.Truth, row.TruthClass = truthText(r.Truth)
			out = append(out, row)
		}
		return out
	}
	for _, r := range v.SplitRanking(c.dv, c.ds, c.dk) {
		if len(out) == c.shown {
			break
		}
		row := evalRankRow{Rank: r.Rank, Column: r.Feature, Name: r.Name, Score: r.Score}
		if r.InTopK {
			row.Freq = "yes"
		}
		row.Truth, row.TruthClass = truthText(r.Truth)
		out = append(out, row)
	}
	return out
}

// perClass is the chosen selector's per-class selection (exl21, elasso) on
// the chosen split (the first, when the table shows all splits).
func (c *Root) perClass() ([]string, [][]string) {
	v := c.evView()
	if v == nil {
		return nil, nil
	}
	return v.PerClass(c.dv, max(c.ds, 0), c.dk, min(c.shown, 20))
}

func (c *Root) perClassHead() []string   { h, _ := c.perClass(); return h }
func (c *Root) perClassRows() [][]string { _, r := c.perClass(); return r }

// detailReady reports whether the details can be shown: the rankings are
// read once the run has ended and its results are drawn.
func (c *Root) detailReady() bool { return c.ev != nil && !c.ev.busy() && !c.ev.detailsLater }

func (c *Root) hasTruth() bool { return c.ev != nil && c.ev.truth != nil }

// unitRow is one line of the units table.
type unitRow struct {
	Label, State, Time, Iterations, Stop, Objective, NZ, Acc string
}

// unitRows describe every unit of the evaluation (at most maxRows).
func (c *Root) unitRows() []unitRow {
	e := c.ev
	if e == nil || e.run == nil {
		return nil
	}
	h := e.run.Plan.Header
	labels := lab.VariantLabels(h.Variants)
	ns := len(h.Splits)
	now := time.Now()
	var rows []unitRow
	for u := range e.run.Parts {
		if len(rows) == maxRows {
			break
		}
		r := unitRow{Label: fmt.Sprintf("%s · split %d", labels[u/ns], u%ns+1), State: "done", Time: "—", Iterations: "—", Stop: "—", Objective: "—", NZ: "—", Acc: "—"}
		if u < len(e.jobs) && e.jobs[u] != nil {
			jobCells(e.jobs[u], now, &r.State, &r.Time, &r.Stop)
		}
		if res := e.run.Units[u]; res != nil {
			r.State, r.Time = "done", secondsText(res.Seconds)
			if len(res.Fits) > 0 {
				f := res.Fits[len(res.Fits)-1]
				r.Stop = strings.ReplaceAll(f.Stop, "_", " ")
				if f.Objective != nil {
					r.Iterations = strconv.Itoa(f.Iterations)
					r.Objective = chart.Num(float64(*f.Objective))
				}
				if f.NonzeroRows != nil {
					r.NZ = strconv.Itoa(*f.NonzeroRows)
				}
			}
			if len(res.Accuracy) > 0 && len(res.Accuracy[0]) > 0 {
				k := len(res.Accuracy[0]) - 1
				r.Acc = strconv.FormatFloat(100*res.Accuracy[0][k], 'f', 1, 64)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func (c *Root) unitCount() int {
	if c.ev == nil || c.ev.run == nil {
		return 0
	}
	return len(c.ev.run.Parts)
}

// lastKText names the K of the units table's accuracy column.
func (c *Root) lastKText() string {
	ks := c.kList()
	if len(ks) == 0 {
		return ""
	}
	return strconv.Itoa(ks[len(ks)-1])
}

// --- exports ---

// HandleExportReport saves the report: the evaluation's (as `sparsefs
// eval` writes it), or the ranking run's.
func (c *Root) HandleExportReport(ev vugu.DOMEvent) {
	if c.showing != lab.ModeEval {
		c.exportRankReport()
		return
	}
	if !c.canSaveReport() {
		return
	}
	c.Backend.Download(reportName(c.ev.run.Report.Dataset.Name), "application/json", string(c.ev.run.ReportJSON))
}

// canSaveReport reports whether there is a report to save.
func (c *Root) canSaveReport() bool {
	if c.showing != lab.ModeEval {
		return c.run != nil
	}
	return c.ev != nil && c.ev.run != nil && c.ev.run.ReportJSON != nil
}

// HandleExportRanking saves the ranking shown as CSV.
func (c *Root) HandleExportRanking(ev vugu.DOMEvent) {
	if c.showing != lab.ModeEval {
		c.exportRankRanking()
		return
	}
	v := c.evView()
	if v == nil || c.dv >= len(v.Labels) {
		return
	}
	name := lab.FileName(v.Labels[c.dv], "ranking")
	if c.ds < 0 {
		c.Backend.Download(name+".csv", "text/csv", lab.FrequencyCSV(v.Frequency(c.dv, c.dk), c.detailK(), v.Truth != nil))
		return
	}
	rows := v.SplitRanking(c.dv, c.ds, c.dk)
	var b strings.Builder
	b.WriteString("rank,feature,index,score\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%d,%s,%d,%s\n", r.Rank, csvField(r.Name), r.Feature, r.Score)
	}
	c.Backend.Download(lab.FileName(v.Labels[c.dv], "split", strconv.Itoa(c.ds+1), "ranking")+".csv", "text/csv", b.String())
}

// csvField quotes a CSV field when it needs it.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// HandleExportReduced saves the data restricted to the top K features of
// the ranking shown, plus the label.
func (c *Root) HandleExportReduced(ev vugu.DOMEvent) {
	if c.showing != lab.ModeEval {
		c.exportRankReduced()
		return
	}
	if !c.canReduce() {
		return
	}
	k := c.detailK()
	var cols []int
	for _, r := range c.evalTop(k) {
		cols = append(cols, r)
	}
	c.exportReduced(c.ev.cfg, cols)
}

// evalTop is the first k features of the ranking shown.
func (c *Root) evalTop(k int) []int {
	v := c.evView()
	var out []int
	if c.ds < 0 {
		for _, r := range v.Frequency(c.dv, c.dk) {
			if len(out) < k {
				out = append(out, r.Feature)
			}
		}
		return out
	}
	for _, r := range v.SplitRanking(c.dv, c.ds, c.dk) {
		if len(out) < k {
			out = append(out, r.Feature)
		}
	}
	return out
}

// canReduce reports whether the reduced data can be written: the data the
// results were computed on are open.
func (c *Root) canReduce() bool {
	if c.showing != lab.ModeEval {
		return c.focused() != nil && c.data != 0 && c.run.loaded == nil
	}
	return c.ev != nil && !c.ev.loaded && c.ev.dataNum == c.data && c.data != 0 && c.evView() != nil && c.evView().UnitsDone() > 0
}

// reducedText is the label of the reduced-data button.
func (c *Root) reducedText() string {
	if c.showing == lab.ModeEval {
		return fmt.Sprintf("Data with these top %d features (CSV)", c.detailK())
	}
	return fmt.Sprintf("Data with the top %d features (CSV)", c.topK())
}
