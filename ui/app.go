package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"

	"sparsefs/api"
	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
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
	// KeepText keeps text made by the page (generated data) as a file.
	KeepText(name, text string) Opened
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
	// without holding the page's lock); Pace spaces them out more while a
	// run goes on.
	Refresh()
	Pace(busy bool)
	// Link gives the workers of two slots a channel of their own for a
	// run (session): the worker of from sends the parts of that session's
	// units straight to the worker of to, which merges them.
	Link(session, from, to int)
	// AfterRender runs f, with the page locked, once the next render has
	// been drawn, and renders again: work whose result can wait until
	// what is already there is on the screen.
	AfterRender(f func())
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
	// Message is what a slot's worker said.
	Message(slot int, m *api.FromWorker)
	// Fatal says a slot's worker died.
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
	inspection *api.Inspection
	warmKey    string // what the workers last warmed up for (warmPlan)
	// labels are labelChoices of labelsOf (every render asks for them).
	labelsOf  *api.Inspection
	labels    []string
	dragOver  bool
	synth     synthForm
	generated string // the CSV of generated data now open
	// synthOpen and unitsOpen keep the generator's and the units' panels
	// (<details>) open across renders.
	synthOpen, unitsOpen bool

	// The configuration.
	methods     []api.MethodInfo
	cfg         lab.Config
	topKText    string
	pf          protocolForm
	preset      string   // the preset chosen in the list
	presetNotes []string // what applying it left out

	// The runs: a ranking on all the data (run) and an evaluation (ev);
	// showing says which of them the results section shows.
	run     *runState
	ev      *evalState
	showing string
	runs    int // runs started (the tests wait for the next one)
	focus   int // the job shown in detail (its index in run.jobs)
	shown   int // ranked features listed
	charts  []chartView
	// The evaluation's details: the row (variant) of the results table,
	// the index of K, the split (−1: across the splits), and their charts.
	dv, dk, ds   int
	detailCharts []chartView

	errMsg    string
	notice    string // a passing remark (a loaded report, a cancel)
	announce  string // what a screen reader should hear (role=status)
	ready     bool   // the page has rendered once with the methods
	reportRef *lab.DataRef
}

// chartView is a chart ready to show. Key identifies its markup (a hash),
// so that an unchanged chart is not redrawn.
type chartView struct {
	ID, Key, Title, SVG, Note string
}

// newChart makes a chartView.
func newChart(id, title, svg, note string) chartView {
	h := fnv.New64a()
	h.Write([]byte(svg))
	return chartView{ID: id, Key: fmt.Sprintf("%s/%x", id, h.Sum64()), Title: title, SVG: svg, Note: note}
}

// Init is called once by Vugu before the first render.
func (c *Root) Init(ctx vugu.InitCtx) {
	c.ee = ctx.EventEnv()
	c.cfg = lab.DefaultConfig()
	c.cfg.Toggle("fisher", true)
	c.topKText = strconv.Itoa(c.cfg.TopK)
	c.pf = formOf(c.cfg.Protocol)
	c.synth = synthFormOf(lab.DefaultSynth)
	c.shown, c.demo, c.focus = 20, demos[0].ID, -1
	c.Backend.SetHandler(c)
	c.workers = c.Backend.Workers()
	c.workText = strconv.Itoa(c.workers)
	c.pool = pool.New(c.Backend, c.workers, nil)
	c.pool.Submit("list the methods", api.Task{Run: &api.Request{Op: api.OpMethods}}, 0, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			c.errMsg = "The computing worker did not start: " + j.Err
			return
		}
		var list api.MethodList
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

// --- worker events ---

// Message implements WorkerEvents: what a slot's worker said.
func (c *Root) Message(slot int, m *api.FromWorker) {
	switch {
	case m.Ready != nil:
		c.pool.Ready(slot)
		if c.pool.ReadyCount() == c.pool.Size() {
			c.Backend.Mark("sparsefs-workers-ready")
		}
	case m.Loaded != nil:
		// The first worker to receive the data reports their SHA-256
		// (recorded in reports).
		if m.Loaded.Data == c.data && c.sha256 == "" {
			c.sha256 = m.Loaded.SHA256
		}
	case m.Started != nil:
		c.pool.Started(m.Started.ID)
	case m.Progress != nil:
		c.pool.Progress(m.Progress.ID, m.Progress.Progress)
	case m.Result != nil:
		c.pool.Result(m.Result)
	case m.Failed != nil && m.Failed.ID < 0:
		c.errMsg = "A computing worker reported: " + m.Failed.Message
	case m.Failed != nil:
		c.pool.Failed(m.Failed.ID, m.Failed.Message)
	case m.Fatal != nil:
		c.Fatal(slot, m.Fatal.Message)
	}
}

// Fatal implements WorkerEvents: a slot's worker died.
func (c *Root) Fatal(slot int, msg string) {
	c.pool.Fatal(slot, "the computing worker stopped ("+msg+"); it has been restarted")
}

// --- data ---

// opened is called when a file has been read into memory.
func (c *Root) opened(f Opened) { c.openedAs(f, "", nil) }

// openedAs takes a file read into memory, with the label column and the
// target columns to read it with.
func (c *Root) openedAs(f Opened, label string, targets []string) {
	c.loading = false
	if f.Err != nil {
		c.errMsg = f.Err.Error()
		return
	}
	if c.data != 0 {
		c.pool.Forget(c.data)
		c.Backend.Drop(c.data)
	}
	c.fileName, c.fileSize, c.data, c.sha256, c.generated = f.Name, f.Size, f.Data, "", ""
	c.cfg.Label, c.cfg.Missing, c.cfg.Targets = label, "", targets
	c.inspection = nil
	c.inspect()
}

// inspect asks a worker to describe the current file.
func (c *Root) inspect() {
	c.errMsg, c.inspecting = "", true
	req := api.Request{Op: api.OpInspect, Data: api.Data{Name: c.fileName, Label: c.cfg.Label, Targets: c.cfg.Targets}, PreviewRows: 5}
	data := c.data
	c.pool.Submit("read the data", api.Task{Run: &req}, data, true, nil, func(j *pool.Job) {
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
		var in api.Inspection
		if err := json.Unmarshal(j.Response, &in); err != nil {
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		c.inspection = &in
		c.prepare()
	})
}

// prepare has every worker read the data as a run will, and warm its code
// up on them while the user configures — with the configuration's plan
// when there is one (see warm) — so that a run's first units need
// neither.
func (c *Root) prepare() {
	plan, key := c.warmPlan()
	c.warmKey = key
	task := api.Task{Prepare: &api.Prepare{Data: api.Data{Name: c.fileName, Label: c.cfg.Label, Missing: c.cfg.Missing, Targets: c.cfg.Targets}, Eval: plan}}
	for _, slot := range c.pool.Live() {
		c.pool.SubmitTo(slot, "prepare the data", task, c.data, false, nil, nil)
	}
}

// warmPlan is the configuration's evaluation plan, which the workers'
// warm-up runs on a slice of the data (nil when the configuration cannot
// run yet), and what of it the warm-up depends on: the methods, the
// classifiers and the preprocessing.
func (c *Root) warmPlan() (*api.Plan, string) {
	if c.inspection == nil {
		return nil, ""
	}
	req, _, err := c.evalRequest()
	if err != nil || req.Eval == nil {
		return nil, ""
	}
	names := []string{}
	for _, m := range req.Eval.Methods {
		names = append(names, m.Method)
	}
	return req.Eval, string(mustJSON([]any{names, req.Eval.Classifiers, req.Eval.Preprocess}))
}

// warm has the workers warm up again when the configuration has changed
// what the warm-up runs (a preset applied, a method or classifier chosen,
// the preprocessing), not during a run. Each worker warms up a method
// once; any job a worker receives stops its warm-up at once.
func (c *Root) warm() {
	if c.data == 0 || c.inspection == nil || c.running() {
		return
	}
	if _, key := c.warmPlan(); key != "" && key != c.warmKey {
		c.prepare()
	}
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
	c.cfg.Targets = nil
	c.inspect()
}

// HandleImpute toggles the imputation of missing values.
func (c *Root) HandleImpute(ev vugu.DOMEvent) {
	c.cfg.Missing = ""
	if ev.PropBool("target", "checked") {
		c.cfg.Missing = "mean"
	}
	c.prepare()
}

// --- configuration ---

// HandleMethodToggle chooses or drops a method.
func (c *Root) HandleMethodToggle(name string, ev vugu.DOMEvent) {
	c.cfg.Toggle(name, ev.PropBool("target", "checked"))
	c.cfg.Preset = ""
	c.warm()
}

// HandleParam records the text of a parameter field.
func (c *Root) HandleParam(method, param string, ev vugu.DOMEvent) {
	c.cfg.SetValue(method, param, ev.PropString("target", "value"))
}

// HandleChoice ticks or unticks a choice of a categorical parameter.
func (c *Root) HandleChoice(method string, p api.Param, choice string, ev vugu.DOMEvent) {
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
	c.cfg.Mode = lab.ModeEval
	c.topKText = strconv.Itoa(c.cfg.TopK)
	c.pf = formOf(c.cfg.Protocol)
	c.warm()
}

// HandlePreprocess changes the preprocessing.
func (c *Root) HandlePreprocess(ev vugu.DOMEvent) {
	c.cfg.Preprocess = ev.PropString("target", "value")
	c.warm()
}

// HandleBias toggles the bias column.
func (c *Root) HandleBias(ev vugu.DOMEvent) { c.cfg.Bias = ev.PropBool("target", "checked") }

// HandleMode chooses between evaluating and ranking on all the data.
func (c *Root) HandleMode(mode string) { c.cfg.Mode = mode }

// HandleTopK records the number of top features of a ranking.
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

// HandleToggle opens or closes a <details> panel from a click on its
// summary: the page keeps the state (a render would otherwise undo the
// browser's own toggling).
func (c *Root) HandleToggle(which string, ev vugu.DOMEvent) {
	ev.PreventDefault()
	switch which {
	case "generate":
		c.synthOpen = !c.synthOpen
	case "units":
		c.unitsOpen = !c.unitsOpen
	}
}

// evalMode reports whether Run evaluates (rather than ranks).
func (c *Root) evalMode() bool { return c.cfg.Mode != lab.ModeRank }

// --- runs ---

// running reports whether a run is going on.
func (c *Root) running() bool {
	return (c.run != nil && c.run.loaded == nil && c.runBusy()) || (c.ev != nil && c.ev.busy())
}

// HandleRun starts a run: an evaluation, or a ranking on all the data.
func (c *Root) HandleRun(ev vugu.DOMEvent) {
	if !c.canRun() {
		return
	}
	c.errMsg, c.notice = "", ""
	c.runs++
	if c.evalMode() {
		c.startEval()
	} else {
		c.startRank()
	}
	go c.tick()
}

// tick re-renders the page every half second while a run goes on, so
// that the elapsed time and the estimate move even when no worker
// reports, and redraws the charts when results have come in.
func (c *Root) tick() {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	c.Backend.Pace(true)
	defer c.Backend.Pace(false)
	for range t.C {
		c.ee.Lock()
		done := !c.running()
		if c.ev != nil && c.ev.dirty {
			c.refreshCharts()
		}
		c.ee.UnlockOnly()
		c.Backend.Refresh()
		if done {
			return
		}
	}
}

// HandleCancel stops every worker at once; finished results stay.
func (c *Root) HandleCancel(ev vugu.DOMEvent) {
	if !c.running() {
		return
	}
	n := c.pool.Cancel()
	if c.showing == lab.ModeEval && c.ev != nil {
		e := c.ev
		c.notice = fmt.Sprintf("Cancelled. The %d unit%s already finished are kept (the charts show them); Run with the same settings finishes the other %d.",
			e.run.Done(), plural(e.run.Done()), len(e.run.Parts)-e.run.Done())
		if e.run == nil || e.planJob.State == pool.Cancelled {
			c.notice = "Cancelled before the evaluation started."
		}
	} else {
		c.notice = fmt.Sprintf("Cancelled %d job%s; the results already finished are kept.", n, plural(n))
	}
	c.announce = c.notice
	c.refreshCharts()
}

// refreshCharts rebuilds the charts of the results shown.
func (c *Root) refreshCharts() {
	if c.showing == lab.ModeEval {
		c.refreshEvalCharts()
		return
	}
	c.refreshRankCharts()
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

// HandleShown changes how many ranked features are listed.
func (c *Root) HandleShown(ev vugu.DOMEvent) {
	if k, err := strconv.Atoi(ev.PropString("target", "value")); err == nil && k > 0 {
		c.shown = k
	}
}

// reportName is the file name of a report on the data named name.
func reportName(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, " (demo)"), ".gz"), ".csv")
	return lab.FileName("sparsefs", name, "report") + ".json"
}

// HandleOpenReport loads a saved report — an evaluation report (the page's
// or `sparsefs eval`'s) or a ranking report: its results are shown again
// and its configuration restored, ready to run again on the same data.
func (c *Root) HandleOpenReport(ev vugu.DOMEvent) {
	c.errMsg, c.notice = "", ""
	c.Backend.ReadText(ev, func(name, text string, err error) {
		if err != nil {
			c.errMsg = err.Error()
			return
		}
		if lab.IsEvalReport([]byte(text)) {
			c.openEvalReport(name, []byte(text))
			return
		}
		rep, err := lab.DecodeReport([]byte(text))
		if err != nil {
			c.errMsg = name + ": " + err.Error()
			return
		}
		c.openRankReport(rep)
	})
}

// reloadData opens the data a report was computed on again when the page
// can make them itself: a bundled demo or generated data.
func (c *Root) reloadData(name string) {
	for _, d := range demos {
		if d.Name == name {
			c.notice += " The demo data are being loaded."
			c.loadDemo(d.ID)
			return
		}
	}
	if s, ok := lab.ParseSynthName(name); ok {
		c.notice += " The synthetic data are being generated again."
		c.synth = synthFormOf(s)
		c.generate(s)
	}
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
	_, ok := c.planText()
	return ok
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
	workers := fmt.Sprintf("%d worker%s", c.pool.Size(), plural(c.pool.Size()))
	if !c.evalMode() {
		u, err := c.units()
		if err != nil {
			return err.Error(), false
		}
		return fmt.Sprintf("Run will fit %d job%s on %s.", len(u), plural(len(u)), workers), true
	}
	_, size, err := c.evalRequest()
	if err != nil {
		return err.Error(), false
	}
	splits := fmt.Sprintf("%d folds", size.Splits)
	if c.pf.Scheme == "holdout" {
		splits = fmt.Sprintf("%d holdout splits", size.Splits)
	}
	s := fmt.Sprintf("Run will evaluate %d setting%s × %s = %d unit%s on %s.", size.Variants, plural(size.Variants), splits, size.Units, plural(size.Units), workers)
	for _, n := range size.Notes {
		s += " " + n + "."
	}
	return s, true
}

func (c *Root) planOK() bool     { _, ok := c.planText(); return ok }
func (c *Root) planLine() string { s, _ := c.planText(); return s }

// methodsOf returns the registry's methods of a kind.
func (c *Root) methodsOf(kind string) []api.MethodInfo {
	var out []api.MethodInfo
	for _, m := range c.methods {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// chosen returns the chosen methods' descriptions, in the order chosen.
func (c *Root) chosen() []api.MethodInfo {
	var out []api.MethodInfo
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

// paramHidden hides the parameter k of a method that selects exactly K
// features when evaluating: the evaluation sets it to each K of the list.
func (c *Root) paramHidden(m api.MethodInfo, p api.Param) bool {
	return c.evalMode() && m.SelectsK && p.Name == "k"
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

// dataSummary is the line under the file name.
func (c *Root) dataSummary() string {
	d := c.inspection.Dataset
	delim := map[string]string{",": "comma", ";": "semicolon", "\t": "tab"}[d.Delimiter]
	header := "no header row"
	if d.Header {
		header = "header row"
	}
	s := fmt.Sprintf("%d samples × %d features · %s-separated · %s · %s", d.Samples, d.Features, delim, header, sizeText(c.fileSize))
	if len(d.Targets) > 0 {
		s += " · regression targets " + strings.Join(d.Targets, ", ")
	}
	return s
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
	if in.LabelColumn >= 0 {
		cols = append(cols, in.LabelColumn)
	}
	return cols
}

func (c *Root) moreColumns() int { return len(c.inspection.Columns) - len(c.previewCols()) }

// hasLabel reports whether the data have a class column.
func (c *Root) hasLabel() bool {
	return c.inspection != nil && c.inspection.LabelColumn >= 0 && c.inspection.LabelColumn < len(c.inspection.Columns)
}

// labelChoices are the columns offered as the label: the current one,
// columns whose preview holds text, and the first and last few. A file with
// thousands of columns would make a select unusable. They are worked out
// once per inspection: for thousands of numeric columns that takes tens of
// milliseconds, and every render asks.
func (c *Root) labelChoices() []string {
	in := c.inspection
	if c.labelsOf == in {
		return c.labels
	}
	n := len(in.Columns)
	pick := map[int]bool{}
	if c.hasLabel() {
		pick[in.LabelColumn] = true
	}
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
	c.labelsOf, c.labels = in, names
	return names
}

func (c *Root) labelName() string {
	if !c.hasLabel() {
		return ""
	}
	return c.inspection.Columns[c.inspection.LabelColumn]
}

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
	if c.hasLabel() && k >= c.inspection.LabelColumn {
		k++
	}
	if k < len(c.inspection.Columns) {
		return c.inspection.Columns[k]
	}
	return strconv.Itoa(k)
}

// truth is the ground truth of the data now open, when they are
// generated.
func (c *Root) truth() *lab.SynthSpec {
	if s, ok := lab.ParseSynthName(c.fileName); ok {
		return &s
	}
	return nil
}

// --- progress ---

func (c *Root) progressValue() string {
	return strconv.FormatFloat(c.progressFraction(), 'f', 3, 64)
}

func (c *Root) progressFraction() float64 {
	switch {
	case c.showing == lab.ModeEval && c.ev != nil:
		return c.ev.fraction()
	case c.run == nil || c.run.loaded != nil:
		return 0
	}
	return pool.Summarize(c.run.jobs, time.Now()).Fraction
}

func (c *Root) progressText() string {
	if c.showing == lab.ModeEval && c.ev != nil {
		return c.ev.text()
	}
	switch {
	case c.run == nil:
		return "Nothing has run yet."
	case c.run.loaded != nil:
		return "Results loaded from a report."
	}
	s := pool.Summarize(c.run.jobs, time.Now())
	el := time.Since(c.run.started).Seconds()
	return fmt.Sprintf("%s · %.1f s", s.Text(), el)
}

// busyAttr is "yes" while a run goes on (the tests wait for "no").
func (c *Root) busyAttr() string {
	if c.running() {
		return "yes"
	}
	return "no"
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
			s += fmt.Sprintf(" — iteration %d, objective %s", p.Iteration, chart.Num(float64(p.Objective)))
		}
		out = append(out, s+fmt.Sprintf(" · %.1f s", j.Seconds(now)))
	}
	return out
}

func secondsText(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}

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
	switch {
	case c.data == 0:
	case c.fileName == r.Name && c.inspection != nil && c.inspection.Dataset.Samples == r.Samples && c.inspection.Dataset.Features == r.Features:
		s += " The data now open are the same file: Run repeats it."
	case c.sha256 != "" && c.sha256 == r.SHA256:
		s += " The data now open are the same file: Run repeats it."
	default:
		s += " The data now open are a different file."
	}
	return s
}

// appVersion identifies the build in reports (build.sh sets it with
// -ldflags "-X main.appVersion=…").
var appVersion = "dev"
