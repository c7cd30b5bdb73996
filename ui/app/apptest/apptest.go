// Package apptest is a fake app.Backend for native tests of the page: its
// workers answer jobs as wasm/worker.go does, with core/job. It is for
// tests only (it links the solvers, which the page must not).
package apptest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"sparsefs/api"
	"sparsefs/ui/app"
)

// Backend is the page's Backend for native tests: its workers answer jobs
// as wasm/worker.go does, with core/job — a Run by job.Run on the loaded
// bytes; a unit with a session keeps its part in the worker, or sends it
// to the worker linked as the session's merger (Forwarded); Collect keeps
// a part; Merge merges a session's parts with job.Merge (light: without
// the units) and WriteReport writes the report a light merge kept. Nothing
// happens on its own: the test delivers the workers' messages and runs
// their jobs (Pump), draws (Render) and ticks (Tick).
type Backend struct {
	t       testing.TB
	h       app.WorkerEvents
	workers int // Backend.Workers
	// MemoryMiB is Backend.Memory (0: app.DefaultMemoryMiB).
	MemoryMiB int
	// Now is the clock's time (Clock): each job a worker runs advances it
	// by 10 ms.
	Now time.Time

	files   map[int]file
	next    int
	slots   map[int]*worker
	pending []func() // messages and callbacks not delivered yet
	rr      int      // the slot whose job runs next (round robin)
	ticks   []func() bool
	after   []func()

	// FailMerge makes every Merge fail (the page then merges every part
	// in a Run of op merge).
	FailMerge bool
	// URLs are the files OpenURL finds.
	URLs map[string][]byte

	// Downloads are the files the page saved, PNGs the names of the
	// charts it saved as PNG, Marks the moments it marked, Paces its calls
	// of Pace, Refreshes its calls of Refresh.
	Downloads []Download
	PNGs      []string
	Marks     []string
	Paces     []bool
	Refreshes int
	// Focused is the element last given the focus.
	Focused string
	// Tasks are every task the workers were sent, in order.
	Tasks []api.Task
}

type file struct {
	name  string
	bytes []byte
}

// Download is a file the page saved.
type Download struct{ Name, Mime, Text string }

// New makes a Backend with a number of workers (Workers).
func New(t testing.TB, workers int) *Backend {
	return &Backend{t: t, workers: workers, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		files: map[int]file{}, slots: map[int]*worker{}, URLs: map[string][]byte{}}
}

// App makes an App on f, with f's clock, and lets its workers list their
// methods.
func (f *Backend) App() *app.App {
	f.t.Helper()
	a := app.New(f, app.Options{Version: "test", Now: f.Clock})
	f.Pump(-1)
	if !a.Ready() || len(a.Config.Methods()) == 0 {
		f.t.Fatalf("the workers did not list their methods: %q", a.Error())
	}
	return a
}

// Clock is the fake clock (Now).
func (f *Backend) Clock() time.Time { return f.Now }

// Later queues what the browser would do on a later turn of its event
// loop (Deliver runs it).
func (f *Backend) Later(fn func()) { f.pending = append(f.pending, fn) }

// post queues a worker's message to the page (dropped if the worker has
// been terminated meanwhile).
func (f *Backend) post(w *worker, m *api.FromWorker) {
	f.Later(func() {
		if w.alive && f.slots[w.slot] == w {
			f.h.Message(w.slot, m)
		}
	})
}

// Deliver delivers the pending messages, and those they cause.
func (f *Backend) Deliver() {
	for len(f.pending) > 0 {
		fn := f.pending[0]
		f.pending = f.pending[1:]
		fn()
	}
}

// Pump delivers messages and runs the workers' jobs, one at a time and
// the workers in turn, until none is left or max jobs have run (max < 0:
// no limit). It returns how many ran.
func (f *Backend) Pump(max int) int {
	ran := 0
	for {
		f.Deliver()
		if max >= 0 && ran == max {
			return ran
		}
		w := f.nextWorker()
		if w == nil {
			return ran
		}
		j := w.queue[0]
		w.queue = w.queue[1:]
		f.Now = f.Now.Add(10 * time.Millisecond)
		f.post(w, &api.FromWorker{Started: &api.Started{ID: j.ID}})
		f.run(w, j)
		ran++
	}
}

// nextWorker is the next worker, in turn, with a job to run.
func (f *Backend) nextWorker() *worker {
	n := 0
	for s := range f.slots {
		n = max(n, s+1)
	}
	for i := 0; i < n; i++ {
		s := (f.rr + i) % n
		if w := f.slots[s]; w != nil && len(w.queue) > 0 {
			f.rr = s + 1
			return w
		}
	}
	return nil
}

// Render draws the page: the work AfterRender queued runs.
func (f *Backend) Render() {
	fs := f.after
	f.after = nil
	for _, fn := range fs {
		fn()
	}
}

// Tick runs the periodic work (Every) once; it reports how many still
// want to run.
func (f *Backend) Tick() int {
	var keep []func() bool
	for _, fn := range f.ticks {
		if fn() {
			keep = append(keep, fn)
		}
	}
	f.ticks = keep
	return len(keep)
}

// Open has the page open a file the user chose, and lets the workers
// describe it.
func (f *Backend) Open(a *app.App, name string, bytes []byte) {
	done := a.Data.OpenFile()
	f.Later(func() { done(f.Keep(name, bytes)) })
	f.Pump(-1)
}

// Keep keeps bytes as a file, as the browser keeps a file read.
func (f *Backend) Keep(name string, bytes []byte) app.Opened {
	f.next++
	f.files[f.next] = file{name, bytes}
	return app.Opened{Name: name, Size: len(bytes), Data: f.next}
}

// LastData is the data number of the file kept last.
func (f *Backend) LastData() int { return f.next }

// File returns the bytes kept under a data number.
func (f *Backend) File(data int) []byte { return f.files[data].bytes }

// LastDownload is the last file the page saved.
func (f *Backend) LastDownload() Download {
	f.t.Helper()
	if len(f.Downloads) == 0 {
		f.t.Fatal("nothing was saved")
	}
	return f.Downloads[len(f.Downloads)-1]
}

// Marked reports whether the page marked a moment.
func (f *Backend) Marked(name string) bool {
	for _, m := range f.Marks {
		if m == name {
			return true
		}
	}
	return false
}

// Prepares returns the Prepare tasks the workers were sent since task
// index from.
func (f *Backend) Prepares(from int) []*api.Prepare {
	var out []*api.Prepare
	for _, t := range f.Tasks[from:] {
		if t.Prepare != nil {
			out = append(out, t.Prepare)
		}
	}
	return out
}

// Fatal says a slot's worker died (as its error event does).
func (f *Backend) Fatal(slot int, msg string) { f.h.Fatal(slot, msg) }

// Message is a message from a slot's worker, delivered at once.
func (f *Backend) Message(slot int, m *api.FromWorker) { f.h.Message(slot, m) }

// RunsOf returns the Run tasks of an operation the workers were sent
// since task index from.
func (f *Backend) RunsOf(op string, from int) []*api.Request {
	var out []*api.Request
	for _, t := range f.Tasks[from:] {
		if t.Run != nil && strings.EqualFold(t.Run.Op, op) {
			out = append(out, t.Run)
		}
	}
	return out
}

// --- app.Backend ---

func (f *Backend) SetHandler(h app.WorkerEvents) { f.h = h }
func (f *Backend) Workers() int                  { return f.workers }
func (f *Backend) Memory() int {
	if f.MemoryMiB > 0 {
		return f.MemoryMiB
	}
	return app.DefaultMemoryMiB
}

func (f *Backend) OpenURL(url, name string, done func(app.Opened)) {
	f.Later(func() {
		b, ok := f.URLs[url]
		if !ok {
			done(app.Opened{Name: name, Err: fmt.Errorf("cannot load %s: HTTP 404", url)})
			return
		}
		done(f.Keep(name, b))
	})
}

func (f *Backend) KeepText(name, text string) app.Opened { return f.Keep(name, []byte(text)) }
func (f *Backend) Drop(data int)                         { delete(f.files, data) }
func (f *Backend) Download(name, mime, text string) {
	f.Downloads = append(f.Downloads, Download{name, mime, text})
}
func (f *Backend) SavePNG(name, svg string)              { f.PNGs = append(f.PNGs, name) }
func (f *Backend) Mark(name string)                      { f.Marks = append(f.Marks, name) }
func (f *Backend) Refresh()                              { f.Refreshes++ }
func (f *Backend) Pace(busy bool)                        { f.Paces = append(f.Paces, busy) }
func (f *Backend) Every(d time.Duration, fn func() bool) { f.ticks = append(f.ticks, fn) }
func (f *Backend) AfterRender(fn func())                 { f.after = append(f.after, fn) }
func (f *Backend) Focus(id string)                       { f.Focused = id }
