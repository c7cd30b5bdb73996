package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"

	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
	"sparsefs/ui/wire"
)

// Backend is what the page needs from the browser: the workers (a
// pool.Transport), the user's files, downloads and drawing. browser_js.go
// implements it. Callbacks run with the event environment locked, so they
// may change the Root's state directly.
type Backend interface {
	pool.Transport
	// SetHandler gives the backend the page's handler of worker messages
	// (it must be called before the first Spawn).
	SetHandler(h WorkerEvents)
	// Workers is the default number of workers: the browser's
	// hardwareConcurrency, at least 1, at most maxWorkers.
	Workers() int
	// OpenInput reads the file chosen in a file input (the event's
	// target), OpenDrop the first file of a drop event and OpenURL a file
	// bundled with the app; each keeps the bytes under a new data number.
	OpenInput(ev vugu.DOMEvent, done func(f Opened))
	OpenDrop(ev vugu.DOMEvent, done func(f Opened))
	OpenURL(url, name string, done func(f Opened))
	// Drop forgets the bytes of a data number.
	Drop(data int)
	// ReadText reads the file chosen in a file input as text.
	ReadText(ev vugu.DOMEvent, done func(name, text string, err error))
	// Download saves text as a file; SavePNG draws an SVG chart at twice
	// its size and saves it as a PNG file.
	Download(name, mime, text string)
	SavePNG(name, svg string)
	// Paint puts markup into an element unless it already holds the
	// markup with this key.
	Paint(el vjs.Value, key, markup string)
	// Mark records a moment in the browser's performance timeline.
	Mark(name string)
	// Refresh asks for a render soon (renders are spaced out; call it
	// without holding the page's lock).
	Refresh()
}

// Opened is a file read into memory.
type Opened struct {
	Name string
	Size int
	Data int // the number the bytes are kept under
	Err  error
}

// WorkerEvents receives what the workers say (through the Backend).
type WorkerEvents interface {
	Ready(slot int)
	Loaded(data int, sha256 string)
	Progress(job int, p wire.Progress)
	Result(job int, response []byte)
	Failed(job int, msg string)
	Fatal(slot int, msg string)
}

// maxWorkers caps the pool: each worker holds its own copy of the data
// and its own Go heap.
const maxWorkers = 8

// demo is a dataset bundled with the app.
type demo struct {
	ID, URL, Name, Title string
}

// demos are the bundled datasets (relative URLs: the app works from any
// sub-path of a static host). Their sources and licences are in
// assets/demo/ATTRIBUTION.txt.
var demos = []demo{
	{"breast-cancer", "demo/breast-cancer-wisconsin.csv", "breast-cancer-wisconsin.csv (demo)", "Breast cancer: 569 samples × 30 features, 2 classes"},
	{"digits", "demo/digits.csv.gz", "digits.csv.gz (demo)", "Handwritten digits: 1797 samples × 64 pixels, 10 classes"},
}

// Root is the whole page. Its fields are the page's state; root.vugu
// renders them.
type Root struct {
	Backend Backend `vugu:"data"`

	pool     *pool.Pool
	ee       vugu.EventEnv
	workers  int    // the pool's size
	workText string // the text of the workers field

	// The data.
	demo       string // the chosen demo's ID
	fileName   string
	fileSize   int
	data       int // the data number in the workers (0: none)
	sha256     string
	loading    bool
	inspecting bool
	inspection *wire.Inspection
	dragOver   bool

	// The configuration.
	methods     []wire.MethodInfo
	cfg         lab.Config
	topKText    string
	preset      string   // the preset chosen in the list
	presetNotes []string // what applying it left out

	// The run.
	run    *runState
	focus  int // the job shown in detail (its index in run.jobs)
	shown  int // ranked features listed
	charts []chartView

	errMsg    string
	notice    string // a passing remark (a loaded report, a cancel)
	announce  string // what a screen reader should hear (role=status)
	ready     bool   // the page has rendered once with the methods
	reportRef *lab.DataRef
}

// runState is one run: its configuration, its jobs and their results.
type runState struct {
	cfg     lab.Config
	data    lab.DataRef
	units   []lab.Unit
	jobs    []*pool.Job
	results map[int]*wire.Selection // by job index
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

// chartView is a chart ready to show. Key identifies its markup (a hash),
// so that an unchanged chart is not redrawn.
type chartView struct {
	ID, Key, Title, SVG, Note string
}

// Init is called once by Vugu before the first render.
func (c *Root) Init(ctx vugu.InitCtx) {
	c.ee = ctx.EventEnv()
	c.cfg = lab.DefaultConfig()
	c.cfg.Toggle("fisher", true)
	c.topKText = strconv.Itoa(c.cfg.TopK)
	c.shown, c.demo, c.focus = 20, demos[0].ID, -1
	c.Backend.SetHandler(c)
	c.workers = c.Backend.Workers()
	c.workText = strconv.Itoa(c.workers)
	c.pool = pool.New(c.Backend, c.workers, nil)
	c.pool.Submit("list the methods", mustJSON(wire.Request{Op: wire.OpMethods}), -1, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			c.errMsg = "The computing worker did not start: " + j.Err
			return
		}
		var list wire.MethodList
		if err := json.Unmarshal(j.Response, &list); err != nil {
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		c.methods = list.Methods
		c.ready = true
		c.Backend.Mark("sparsefs-methods")
	})
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// --- worker events (WorkerEvents) ---

// Ready implements WorkerEvents.
func (c *Root) Ready(slot int) {
	c.pool.Ready(slot)
	if c.pool.ReadyCount() == c.pool.Size() {
		c.Backend.Mark("sparsefs-workers-ready")
	}
}

// Loaded implements WorkerEvents: the first worker to receive the data
// reports their SHA-256 (recorded in reports).
func (c *Root) Loaded(data int, sha string) {
	if data == c.data && c.sha256 == "" {
		c.sha256 = sha
	}
}

// Progress implements WorkerEvents.
func (c *Root) Progress(job int, p wire.Progress) { c.pool.Progress(job, p) }

// Result implements WorkerEvents.
func (c *Root) Result(job int, response []byte) { c.pool.Result(job, response) }

// Failed implements WorkerEvents.
func (c *Root) Failed(job int, msg string) {
	if job < 0 {
		c.errMsg = "A computing worker reported: " + msg
		return
	}
	c.pool.Failed(job, msg)
}

// Fatal implements WorkerEvents.
func (c *Root) Fatal(slot int, msg string) {
	c.pool.Fatal(slot, "the computing worker stopped ("+msg+"); it has been restarted")
}

// --- data ---

// opened is called when a file has been read into memory.
func (c *Root) opened(f Opened) {
	c.loading = false
	if f.Err != nil {
		c.errMsg = f.Err.Error()
		return
	}
	if c.data != 0 {
		c.pool.Forget(c.data)
		c.Backend.Drop(c.data)
	}
	c.fileName, c.fileSize, c.data, c.sha256 = f.Name, f.Size, f.Data, ""
	c.cfg.Label, c.cfg.Missing = "", ""
	c.inspection = nil
	c.inspect()
}

// inspect asks a worker to describe the current file.
func (c *Root) inspect() {
	c.errMsg, c.inspecting = "", true
	req := wire.Request{Op: wire.OpInspect, Data: wire.Data{Name: c.fileName, Label: c.cfg.Label}, PreviewRows: 5}
	data := c.data
	c.pool.Submit("read the data", mustJSON(req), data, true, nil, func(j *pool.Job) {
		if data != c.data {
			return // another file was opened meanwhile
		}
		c.inspecting = false
		if j.State != pool.Done {
			c.inspection = nil
			if j.State != pool.Cancelled {
				c.errMsg = j.Err
			}
			return
		}
		var in wire.Inspection
		if err := json.Unmarshal(j.Response, &in); err != nil {
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		c.inspection = &in
	})
}

// HandleFile handles the file input's change event.
func (c *Root) HandleFile(ev vugu.DOMEvent) {
	c.loading, c.errMsg, c.notice = true, "", ""
	c.Backend.OpenInput(ev, c.opened)
}

// HandleDragOver lets the drop zone accept files.
func (c *Root) HandleDragOver(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.dragOver = true
}

// HandleDragLeave resets the drop zone's highlight.
func (c *Root) HandleDragLeave(ev vugu.DOMEvent) { c.dragOver = false }

// HandleDrop reads a dropped file.
func (c *Root) HandleDrop(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.dragOver = false
	if c.running() {
		c.errMsg = "A run is going on: cancel it before opening another file."
		return
	}
	c.loading, c.errMsg, c.notice = true, "", ""
	c.Backend.OpenDrop(ev, c.opened)
}

// HandleDemoChoice records the demo chosen in the list.
func (c *Root) HandleDemoChoice(ev vugu.DOMEvent) { c.demo = ev.PropString("target", "value") }

// HandleDemo loads the chosen demo dataset.
func (c *Root) HandleDemo(ev vugu.DOMEvent) {
	c.notice = ""
	c.loadDemo(c.demo)
}

func (c *Root) loadDemo(id string) {
	for _, d := range demos {
		if d.ID == id {
			c.loading, c.errMsg = true, ""
			c.Backend.OpenURL(d.URL, d.Name, c.opened)
			return
		}
	}
}

// HandleLabel changes the label column and describes the file again.
func (c *Root) HandleLabel(ev vugu.DOMEvent) {
	c.cfg.Label = ev.PropString("target", "value")
	c.inspect()
}

// HandleImpute toggles the imputation of missing values.
func (c *Root) HandleImpute(ev vugu.DOMEvent) {
	c.cfg.Missing = ""
	if ev.PropBool("target", "checked") {
		c.cfg.Missing = "mean"
	}
}

// --- configuration ---

// HandleMethodToggle chooses or drops a method.
func (c *Root) HandleMethodToggle(name string, ev vugu.DOMEvent) {
	c.cfg.Toggle(name, ev.PropBool("target", "checked"))
	c.cfg.Preset = ""
}

// HandleParam records the text of a parameter field.
func (c *Root) HandleParam(method, param string, ev vugu.DOMEvent) {
	c.cfg.SetValue(method, param, ev.PropString("target", "value"))
}

// HandleChoice ticks or unticks a choice of a categorical parameter.
func (c *Root) HandleChoice(method string, p wire.Param, choice string, ev vugu.DOMEvent) {
	text, _ := c.cfg.Value(method, p.Name)
	c.cfg.SetValue(method, p.Name, lab.ToggleChoice(p, text, choice, ev.PropBool("target", "checked")))
}

// HandlePresetChoice records the preset chosen in the list.
func (c *Root) HandlePresetChoice(ev vugu.DOMEvent) { c.preset = ev.PropString("target", "value") }

// HandleApplyPreset fills the configuration from the chosen preset.
func (c *Root) HandleApplyPreset(ev vugu.DOMEvent) {
	p := lab.FindPreset(c.preset)
	if p == nil {
		return
	}
	c.presetNotes = p.Apply(&c.cfg, c.methods)
	c.topKText = strconv.Itoa(c.cfg.TopK)
}

// HandlePreprocess changes the preprocessing.
func (c *Root) HandlePreprocess(ev vugu.DOMEvent) {
	c.cfg.Preprocess = ev.PropString("target", "value")
}

// HandleBias toggles the bias column.
func (c *Root) HandleBias(ev vugu.DOMEvent) { c.cfg.Bias = ev.PropBool("target", "checked") }

// HandleTopK records the number of top features.
func (c *Root) HandleTopK(ev vugu.DOMEvent) {
	c.topKText = ev.PropString("target", "value")
	if k, err := strconv.Atoi(strings.TrimSpace(c.topKText)); err == nil && k > 0 {
		c.cfg.TopK = k
	}
}

// HandleWorkers resizes the pool.
func (c *Root) HandleWorkers(ev vugu.DOMEvent) {
	c.workText = ev.PropString("target", "value")
	if n, err := strconv.Atoi(strings.TrimSpace(c.workText)); err == nil && n >= 1 && n <= 2*maxWorkers {
		c.workers = n
		c.pool.Resize(n)
	}
}

// units expands the configuration (nil and the error when it is not
// valid).
func (c *Root) units() ([]lab.Unit, error) {
	if c.inspection == nil {
		return nil, nil
	}
	if k, err := strconv.Atoi(strings.TrimSpace(c.topKText)); err != nil || k < 1 {
		return nil, fmt.Errorf("the number of top features must be a whole number of at least 1, not %q", c.topKText)
	}
	return lab.Expand(&c.cfg, c.methods, wire.Data{Name: c.fileName}, c.inspection.Dataset.Features)
}

// --- the run ---

func (c *Root) running() bool {
	return c.run != nil && c.run.loaded == nil && c.pool.Busy() && c.runBusy()
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

// HandleRun starts a run: every unit becomes a job of the pool.
func (c *Root) HandleRun(ev vugu.DOMEvent) {
	if !c.canRun() {
		return
	}
	units, err := c.units()
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	c.errMsg, c.notice = "", ""
	d := c.inspection.Dataset
	r := &runState{cfg: c.cfg, units: units, results: map[int]*wire.Selection{}, started: time.Now(),
		data: lab.DataRef{Name: c.fileName, SHA256: c.sha256, Size: c.fileSize, Samples: d.Samples, Features: d.Features, Label: d.Label, Classes: d.Classes}}
	r.cfg.Methods = append([]lab.MethodConfig(nil), c.cfg.Methods...)
	c.run, c.focus, c.reportRef = r, -1, nil
	c.refreshCharts()
	for i, u := range units {
		i := i
		j := c.pool.Submit(u.Label, mustJSON(u.Request), c.data, false, nil, func(j *pool.Job) { c.jobDone(r, i, j) })
		r.jobs = append(r.jobs, j)
	}
	c.announce = fmt.Sprintf("Run started: %d job%s.", len(units), plural(len(units)))
	go c.tick(r)
}

// tick re-renders the page every half second while r runs, so that the
// elapsed time and the estimate move even when no worker reports.
func (c *Root) tick(r *runState) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for range t.C {
		c.ee.RLock()
		done := c.run != r || !c.runBusy()
		c.ee.RUnlock()
		c.Backend.Refresh()
		if done {
			return
		}
	}
}

// jobDone records a finished job of run r.
func (c *Root) jobDone(r *runState, i int, j *pool.Job) {
	if j.State == pool.Done {
		var s wire.Selection
		if err := json.Unmarshal(j.Response, &s); err != nil {
			j.State, j.Err = pool.Failed, "unexpected answer from the worker: "+err.Error()
		} else {
			r.results[i] = &s
			if c.run == r && c.focus < 0 {
				c.focus = i
			}
		}
	}
	if c.run != r {
		return
	}
	c.refreshCharts()
	if !c.runBusy() {
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

// HandleCancel stops every worker at once; finished results stay.
func (c *Root) HandleCancel(ev vugu.DOMEvent) {
	if !c.running() {
		return
	}
	n := c.pool.Cancel()
	c.notice = fmt.Sprintf("Cancelled %d job%s; the results already finished are kept.", n, plural(n))
	c.announce = c.notice
	c.refreshCharts()
}

// HandleFocus shows a job's result in detail.
func (c *Root) HandleFocus(i int) {
	c.focus = i
	c.refreshCharts()
}

// HandleShown changes how many ranked features are listed.
func (c *Root) HandleShown(ev vugu.DOMEvent) {
	if k, err := strconv.Atoi(ev.PropString("target", "value")); err == nil && k > 0 {
		c.shown = k
	}
}

// --- results ---

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

// refreshCharts rebuilds the charts from the results.
func (c *Root) refreshCharts() {
	c.charts = nil
	rs := c.results()
	if len(rs) == 0 {
		return
	}
	k := c.run.k()
	add := func(id, title, svg, note string) {
		h := fnv.New64a()
		h.Write([]byte(svg))
		key := fmt.Sprintf("%s/%x", id, h.Sum64())
		c.charts = append(c.charts, chartView{ID: id, Key: key, Title: title, SVG: svg, Note: note})
	}
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

// paint puts a chart's markup into its box, unless the box holds it
// already.
func (c *Root) paint(el vjs.Value, ch chartView) {
	c.Backend.Paint(el, ch.Key, ch.SVG)
}

// HandleSaveSVG saves a chart as an SVG file.
func (c *Root) HandleSaveSVG(ch chartView) {
	c.Backend.Download(lab.FileName("sparsefs", ch.ID)+".svg", "image/svg+xml", `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+ch.SVG+"\n")
}

// HandleSavePNG saves a chart as a PNG file.
func (c *Root) HandleSavePNG(ch chartView) {
	c.Backend.SavePNG(lab.FileName("sparsefs", ch.ID)+".png", ch.SVG)
}

// HandleExportRanking saves the focused result's ranking as CSV.
func (c *Root) HandleExportRanking(ev vugu.DOMEvent) {
	f := c.focused()
	if f == nil {
		return
	}
	rs := c.results()
	k := c.run.k()
	text := lab.RankingCSV(*f, lab.Frequency(rs, k), len(rs), k)
	c.Backend.Download(lab.FileName(f.Label, "ranking")+".csv", "text/csv", text)
}

// HandleExportReduced asks a worker for the data restricted to the
// focused result's top K features, and saves it.
func (c *Root) HandleExportReduced(ev vugu.DOMEvent) {
	f := c.focused()
	if f == nil || c.data == 0 || c.run.loaded != nil {
		return
	}
	k := min(c.run.k(), len(f.Sel.Ranking))
	req := wire.Request{Op: wire.OpReduce, Data: wire.Data{Name: strings.TrimSuffix(c.fileName, " (demo)"), Label: c.run.cfg.Label, Missing: c.run.cfg.Missing},
		Columns: append([]int(nil), f.Sel.Ranking[:k]...)}
	c.pool.Submit("reduced data", mustJSON(req), c.data, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			c.errMsg = "Cannot write the reduced data: " + j.Err
			return
		}
		var out wire.Reduced
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

// HandleExportReport saves the full report as JSON.
func (c *Root) HandleExportReport(ev vugu.DOMEvent) {
	if c.run == nil {
		return
	}
	b, err := c.report().Encode()
	if err != nil {
		c.errMsg = "Cannot write the report: " + err.Error()
		return
	}
	name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(c.run.data.Name, " (demo)"), ".gz"), ".csv")
	c.Backend.Download(lab.FileName("sparsefs", name, "report")+".json", "application/json", string(b))
}

// HandleOpenReport loads a saved report: its results are shown again and
// its configuration restored, ready to run again on the same data.
func (c *Root) HandleOpenReport(ev vugu.DOMEvent) {
	c.errMsg, c.notice = "", ""
	c.Backend.ReadText(ev, func(name, text string, err error) {
		if err != nil {
			c.errMsg = err.Error()
			return
		}
		rep, err := lab.DecodeReport([]byte(text))
		if err != nil {
			c.errMsg = name + ": " + err.Error()
			return
		}
		if c.running() {
			c.pool.Cancel()
		}
		c.cfg = rep.Config
		c.topKText = strconv.Itoa(c.cfg.TopK)
		r := &runState{cfg: rep.Config, data: rep.Data, results: map[int]*wire.Selection{}, loaded: rep.Jobs, started: time.Now()}
		for i, jr := range rep.Jobs {
			r.units = append(r.units, lab.Unit{Label: jr.Label, Method: jr.Request.Method, Request: jr.Request})
			if jr.State == "done" {
				if s, err := jr.Selection(); err == nil {
					r.results[i] = s
				}
			}
		}
		c.run, c.focus = r, -1
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
		// A bundled demo can be opened again at once.
		if c.data == 0 || c.sha256 != rep.Data.SHA256 {
			for _, d := range demos {
				if d.Name == rep.Data.Name {
					c.notice += " The demo data are being loaded."
					c.loadDemo(d.ID)
				}
			}
		}
	})
}

// --- helpers for the template ---

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (c *Root) busy() bool { return c.loading || c.inspecting }

func (c *Root) canRun() bool {
	if c.inspection == nil || c.busy() || c.running() || len(c.methods) == 0 {
		return false
	}
	u, err := c.units()
	return err == nil && len(u) > 0
}

// planText says what Run will do, or what is wrong with the
// configuration.
func (c *Root) planText() (string, bool) {
	if len(c.methods) == 0 {
		return "Starting the computing workers…", true
	}
	if c.inspection == nil {
		return "Load data first.", true
	}
	u, err := c.units()
	if err != nil {
		return err.Error(), false
	}
	return fmt.Sprintf("Run will fit %d job%s on %d worker%s.", len(u), plural(len(u)), c.pool.Size(), plural(c.pool.Size())), true
}

func (c *Root) planOK() bool     { _, ok := c.planText(); return ok }
func (c *Root) planLine() string { s, _ := c.planText(); return s }

// methodsOf returns the registry's methods of a kind.
func (c *Root) methodsOf(kind string) []wire.MethodInfo {
	var out []wire.MethodInfo
	for _, m := range c.methods {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// chosen returns the chosen methods' descriptions, in the order chosen.
func (c *Root) chosen() []wire.MethodInfo {
	var out []wire.MethodInfo
	for _, mc := range c.cfg.Methods {
		for _, m := range c.methods {
			if m.Name == mc.Name {
				out = append(out, m)
			}
		}
	}
	return out
}

func (c *Root) paramText(method, param string) string {
	v, _ := c.cfg.Value(method, param)
	return v
}

func (c *Root) presets() []lab.Preset {
	ps, _ := lab.Presets()
	return ps
}

func (c *Root) presetInfo() *lab.Preset {
	if c.cfg.Preset != "" {
		return lab.FindPreset(c.cfg.Preset)
	}
	return nil
}

func (c *Root) protocolText() string { return lab.ProtocolText(c.cfg.Protocol) }

// dataSummary is the line under the file name.
func (c *Root) dataSummary() string {
	d := c.inspection.Dataset
	delim := map[string]string{",": "comma", ";": "semicolon", "\t": "tab"}[d.Delimiter]
	header := "no header row"
	if d.Header {
		header = "header row"
	}
	return fmt.Sprintf("%d samples × %d features · %s-separated · %s · %s", d.Samples, d.Features, delim, header, sizeText(c.fileSize))
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// previewCols are the column indices the preview table shows: the first
// few features and the label.
func (c *Root) previewCols() []int {
	in := c.inspection
	var cols []int
	for j := range in.Columns {
		if j != in.LabelColumn && len(cols) < 8 {
			cols = append(cols, j)
		}
	}
	return append(cols, in.LabelColumn)
}

func (c *Root) moreColumns() int { return len(c.inspection.Columns) - len(c.previewCols()) }

// labelChoices are the columns offered as the label: the current one,
// columns whose preview holds text, and the first and last few. A file with
// thousands of columns would make a select unusable.
func (c *Root) labelChoices() []string {
	in := c.inspection
	n := len(in.Columns)
	pick := map[int]bool{in.LabelColumn: true}
	for j := 0; j < n; j++ {
		if j < 5 || j >= n-5 {
			pick[j] = true
			continue
		}
		for _, row := range in.Preview {
			if j < len(row) {
				if _, err := strconv.ParseFloat(row[j], 64); err != nil && row[j] != "" {
					pick[j] = true
				}
			}
		}
		if len(pick) > 60 {
			break
		}
	}
	idx := make([]int, 0, len(pick))
	for j := range pick {
		idx = append(idx, j)
	}
	sort.Ints(idx)
	names := make([]string, len(idx))
	for i, j := range idx {
		names[i] = in.Columns[j]
	}
	return names
}

func (c *Root) labelName() string { return c.inspection.Columns[c.inspection.LabelColumn] }

func (c *Root) dropClass() string {
	if c.dragOver {
		return "dropzone over"
	}
	return "dropzone"
}

func (c *Root) colClass(j int) string {
	if j == c.inspection.LabelColumn {
		return "label-col"
	}
	return ""
}

// dataWarnings are the things about the data the user should know before
// running: constant features, missing cells, odd headers.
func (c *Root) dataWarnings() []string {
	d := c.inspection.Dataset
	var w []string
	if n := len(d.Constant); n > 0 {
		w = append(w, fmt.Sprintf("%d constant feature(s), e.g. %q: they carry no information and score 0.", n, c.featureName(d.Constant[0])))
	}
	if d.Missing > 0 {
		w = append(w, fmt.Sprintf("%d missing value(s) in %d column(s): fill them with the column mean (below), or fix the file.", d.Missing, len(d.MissingColumns)))
	}
	for i, k := range d.Counts {
		if k == 1 {
			w = append(w, fmt.Sprintf("class %q has a single sample.", d.Classes[i]))
		}
	}
	return append(w, c.inspection.Warnings...)
}

// featureName maps a 0-based feature index (label excluded) to its name.
func (c *Root) featureName(k int) string {
	if k >= c.inspection.LabelColumn {
		k++
	}
	return c.inspection.Columns[k]
}

// --- progress ---

func (c *Root) summary() pool.Summary {
	if c.run == nil || c.run.loaded != nil {
		return pool.Summary{}
	}
	return pool.Summarize(c.run.jobs, time.Now())
}

func (c *Root) progressValue() string {
	return strconv.FormatFloat(c.summary().Fraction, 'f', 3, 64)
}

func (c *Root) progressText() string {
	switch {
	case c.run == nil:
		return "Nothing has run yet."
	case c.run.loaded != nil:
		return "Results loaded from a report."
	}
	s := c.summary()
	el := time.Since(c.run.started).Seconds()
	return fmt.Sprintf("%s · %.1f s", s.Text(), el)
}

// workerLines says what each worker is doing: one line per worker, so
// that the list keeps its height while jobs come and go.
func (c *Root) workerLines() []string {
	var out []string
	now := time.Now()
	for i, j := range c.pool.Slots() {
		if j == nil {
			out = append(out, fmt.Sprintf("worker %d · idle", i+1))
			continue
		}
		s := fmt.Sprintf("worker %d · %s", i+1, j.Label)
		if p := j.Progress; p.MaxIterations > 0 && p.Iteration > 0 {
			s += fmt.Sprintf(" — iteration %d, objective %s", p.Iteration, chart.Num(p.Objective))
		}
		out = append(out, s+fmt.Sprintf(" · %.1f s", j.Seconds(now)))
	}
	return out
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
			j := c.run.jobs[i]
			r.State = j.State.String()
			if j.State == pool.Running && j.Progress.Fraction > 0 {
				r.State = fmt.Sprintf("running %.0f%%", 100*j.Fraction())
			}
			if !j.Started.IsZero() {
				r.Time = secondsText(j.Seconds(now))
			}
			if j.State == pool.Failed {
				r.Stop = j.Err
			}
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

func secondsText(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}

func (c *Root) stateClass(r resultRow) string {
	st, _, _ := strings.Cut(r.State, " ")
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

func (c *Root) canReduce() bool { return c.focused() != nil && c.data != 0 && c.run.loaded == nil }

// reportNote says which data a loaded report was computed on.
func (c *Root) reportNote() string {
	r := c.reportRef
	if r == nil {
		return ""
	}
	s := fmt.Sprintf("This report was computed on %s (%d samples × %d features", r.Name, r.Samples, r.Features)
	if r.SHA256 != "" {
		s += ", SHA-256 " + r.SHA256[:min(12, len(r.SHA256))] + "…"
	}
	s += ")."
	if c.data != 0 && c.sha256 != "" && c.sha256 == r.SHA256 {
		s += " The data now open are the same file: Run repeats it."
	} else if c.data != 0 && c.sha256 != "" {
		s += " The data now open are a different file."
	}
	return s
}

// appVersion identifies the build in reports (build.sh sets it with
// -ldflags "-X main.appVersion=…").
var appVersion = "dev"
