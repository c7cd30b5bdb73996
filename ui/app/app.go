// Package app is the page's state and behaviour, in plain Go and tested
// natively: the data (the file, its inspection, the label, the imputation,
// generated data), the configuration (the workers' methods, lab.Config,
// the protocol's form, presets, the plan line), the runs (a ranking on all
// the data and an evaluation: planning, units on the pool, collecting and
// merging, cancel and resume, the progress), the results' views and the
// exports.
//
// It talks to the browser only through a Backend, which has no vugu or
// syscall/js type: the Vugu components of the page (ui/data, ui/configure,
// ui/run, ui/results) read an App and call its typed methods, and
// ui/browser_js.go implements the Backend with Web Workers; the tests
// implement it with core/job.
//
// An App is not safe for concurrent use: the page calls it, and the
// Backend calls back into it, with the page's event environment locked.
package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"sparsefs/api"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// Backend is what the page's state needs from the browser: the workers (a
// pool.Transport), files made or bundled, downloads, and when to render.
// Callbacks (done, f) run with the page locked, so they may change the
// App directly.
type Backend interface {
	pool.Transport
	// SetHandler gives the backend the handler of the workers' messages
	// (it is called before the first Spawn).
	SetHandler(h WorkerEvents)
	// Workers is the default number of workers: the browser's
	// hardwareConcurrency, at least 1, at most MaxWorkers.
	Workers() int
	// Memory is the memory the workers may use together, in MiB: half
	// the device's, where the browser says (navigator.deviceMemory), else
	// DefaultMemoryMiB.
	Memory() int
	// OpenURL reads a file bundled with the app and keeps its bytes under
	// a new data number.
	OpenURL(url, name string, done func(f Opened))
	// KeepText keeps text made by the page (generated data) as a file.
	KeepText(name, text string) Opened
	// Drop forgets the bytes of a data number.
	Drop(data int)
	// Download saves text as a file; SavePNG draws an SVG chart at twice
	// its size and saves it as a PNG file.
	Download(name, mime, text string)
	SavePNG(name, svg string)
	// Mark records a moment in the browser's performance timeline.
	Mark(name string)
	// Refresh asks for a render soon (renders are spaced out); Pace
	// spaces them out more while a run goes on (busy), and draws the end
	// of a run at once.
	Refresh()
	Pace(busy bool)
	// Every runs f with the page locked every interval d, asking for a
	// render after each call, until f returns false.
	Every(d time.Duration, f func() bool)
	// Link gives the workers of two slots a channel of their own for a
	// run (session): the worker of from sends the parts of that session's
	// units straight to the worker of to, which merges them.
	Link(session, from, to int)
	// AfterRender runs f, with the page locked, once the next render has
	// been drawn, and renders again: work whose result can wait until
	// what is already there is on the screen.
	AfterRender(f func())
	// Focus moves the keyboard focus to the element with that id (if
	// there is one).
	Focus(id string)
}

// Opened is a file read into memory.
type Opened struct {
	Name string
	Size int
	Data int // the number the bytes are kept under
	Err  error
}

// WorkerEvents receives what the workers say (through the Backend). App
// implements it.
type WorkerEvents interface {
	// Message is what a slot's worker said.
	Message(slot int, m *api.FromWorker)
	// Fatal says a slot's worker died.
	Fatal(slot int, msg string)
}

// MaxWorkers caps the pool's default size: each worker holds its own copy
// of the data and its own Go heap.
const MaxWorkers = 8

// Demo is a dataset bundled with the app.
type Demo struct {
	ID, URL, Name, Title string
}

// Demos are the bundled datasets (relative URLs: the app works from any
// sub-path of a static host). Their sources and licences are in
// assets/demo/ATTRIBUTION.txt.
var Demos = []Demo{
	{"breast-cancer", "demo/breast-cancer-wisconsin.csv", "breast-cancer-wisconsin.csv (demo)", "Breast cancer: 569 samples × 30 features, 2 classes"},
	{"digits", "demo/digits.csv.gz", "digits.csv.gz (demo)", "Handwritten digits: 1797 samples × 64 pixels, 10 classes"},
}

// Options tune an App.
type Options struct {
	// Version identifies the build in the reports it saves.
	Version string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// App is the page's state. Its parts follow the page's sections: Data
// (and Synth, the generator), Config, the runs' results (Rank, Eval); the
// App itself runs, cancels, reports progress and holds the messages.
type App struct {
	b       Backend
	now     func() time.Time
	version string
	pool    *pool.Pool

	Data   *Data
	Synth  *Synth
	Config *Config
	Rank   *Rank
	Eval   *Eval

	// showing says which results the results section shows ("",
	// lab.ModeRank or lab.ModeEval); runs counts the runs started.
	showing string
	runs    int
	shown   int     // ranked features listed
	charts  []Chart // the charts of the results shown
	tables  tables  // the charts whose values are shown as a table
	// reportRef names the data of a report loaded.
	reportRef *lab.DataRef

	errMsg   string
	errAt    string // where errMsg shows (AtData, Elsewhere)
	notice   string // a passing remark (a loaded report, a cancel)
	announce string // what a screen reader should hear (role=status)
	// cancelled is set when the last run was cancelled.
	cancelled bool
	ready     bool // the workers have listed their methods
}

// New makes the page's state: the default configuration, and a pool of
// workers (Backend.Workers of them), the first of which is asked for the
// list of methods at once.
func New(b Backend, o Options) *App {
	a := &App{b: b, now: o.Now, version: o.Version, shown: 20}
	if a.now == nil {
		a.now = time.Now
	}
	if a.version == "" {
		a.version = "dev"
	}
	a.Data = &Data{a: a, demo: Demos[0].ID}
	a.Synth = &Synth{a: a, Form: SynthFormOf(lab.DefaultSynth)}
	a.Config = newConfig(a)
	a.Rank = &Rank{a: a, focus: -1}
	a.Eval = &Eval{a: a}
	b.SetHandler(a)
	n := b.Workers()
	a.Config.setWorkers(n)
	a.pool = pool.New(b, n, a.now)
	a.pool.Submit("list the methods", api.Task{Run: &api.Request{Op: api.OpMethods}}, 0, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			a.fail(Elsewhere, "The computing worker did not start: "+j.Err)
			return
		}
		var list api.MethodList
		if err := json.Unmarshal(j.Response, &list); err != nil {
			a.fail(Elsewhere, "Unexpected answer from the worker: "+err.Error())
			return
		}
		a.Config.methods = list.Methods
		a.ready = true
		a.b.Mark("sparsefs-methods")
	})
	return a
}

// Message implements WorkerEvents: what a slot's worker said.
func (a *App) Message(slot int, m *api.FromWorker) {
	switch {
	case m.Ready != nil:
		a.pool.Ready(slot)
		if a.pool.ReadyCount() == a.pool.Size() {
			a.b.Mark("sparsefs-workers-ready")
		}
	case m.Loaded != nil:
		// The first worker to receive the data reports their SHA-256
		// (recorded in reports).
		switch d := a.Data; {
		case m.Loaded.Data == d.num && d.sha256 == "":
			d.sha256 = m.Loaded.SHA256
		case m.Loaded.Data == d.pending && d.pendingSHA == "":
			d.pendingSHA = m.Loaded.SHA256
		}
	case m.Started != nil:
		a.pool.Started(m.Started.ID)
	case m.Progress != nil:
		a.pool.Progress(m.Progress.ID, m.Progress.Progress)
	case m.Result != nil:
		a.pool.Result(m.Result)
	case m.Failed != nil && m.Failed.ID < 0:
		a.fail(Elsewhere, "A computing worker reported: "+m.Failed.Message)
	case m.Failed != nil:
		a.pool.Failed(m.Failed.ID, m.Failed.Message)
	case m.Fatal != nil:
		a.Fatal(slot, m.Fatal.Message)
	}
}

// Fatal implements WorkerEvents: a slot's worker died.
func (a *App) Fatal(slot int, msg string) {
	a.pool.Fatal(slot, "the computing worker stopped ("+msg+"); it has been restarted")
}

// Error is the problem the page reports ("" when none).
func (a *App) Error() string { return a.errMsg }

// Notice is a passing remark: a loaded report, a cancel.
func (a *App) Notice() string { return a.notice }

// Announce is what a screen reader should hear now.
func (a *App) Announce() string { return a.announce }

// Ready reports whether the workers have listed their methods.
func (a *App) Ready() bool { return a.ready }

// Fail shows an error the page met outside the App (a file that could not
// be read).
func (a *App) Fail(err error) { a.fail(Elsewhere, err.Error()) }

// Where the page shows an error: next to what caused it.
const (
	// AtData is the data section (a file, a report or generated data
	// that cannot be read).
	AtData = "data"
	// Elsewhere is the line above the results.
	Elsewhere = ""
)

// fail shows an error for people at a place, announced (the box is an
// ARIA alert) and, once drawn, given the keyboard focus.
func (a *App) fail(at, msg string) {
	a.errMsg, a.errAt = msg, at
	a.b.AfterRender(func() { a.b.Focus("error") })
}

// ErrorAt is the error to show at a place ("" for none there).
func (a *App) ErrorAt(at string) string {
	if a.errAt != at {
		return ""
	}
	return a.errMsg
}

// Showing says which results are shown: "" (none yet), lab.ModeRank or
// lab.ModeEval.
func (a *App) Showing() string { return a.showing }

// Runs counts the runs started (the browser tests wait for the next).
func (a *App) Runs() int { return a.runs }

// Shown is how many ranked features the rankings list.
func (a *App) Shown() int { return a.shown }

// SetShown changes how many ranked features are listed: text is the
// field's, a whole number of at least 1 (anything else is ignored).
func (a *App) SetShown(text string) {
	if n, err := strconv.Atoi(text); err == nil && n > 0 {
		a.shown = n
	}
}

// Plural is "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// SecondsText writes a duration in seconds as the tables show it.
func SecondsText(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}
