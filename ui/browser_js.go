//go:build js && wasm

package main

import (
	"sync"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"

	"sparsefs/ui/app"
)

// browser implements Backend with the File API (files_js.go) and Web
// Workers started by assets/app.js (workers_js.go; sparsefsWorkers.spawn:
// a worker built from a blob, so that it inherits the page's
// Content-Security-Policy, running the worker.wasm module the page
// compiled once). This file holds the queue of what the workers said and
// the pacing of renders.
//
// JS callbacks never touch the page's state directly: they copy what they
// need out of the JS values and queue a closure; drain runs the queue in
// order with the event environment locked and then re-renders
// (docs/wasm.md#eventenv-locking).
type browser struct {
	ee vugu.EventEnv
	h  app.WorkerEvents

	mu            sync.Mutex
	queue         []func()
	renderPending bool
	lastRender    time.Time
	busy          bool // a run goes on: render less often
	after         []func()

	workers map[int]*handle // by slot
	gen     map[int]int     // spawns per slot: messages of a replaced worker are dropped
	data    map[int]js.Value
	names   map[int]string
	next    int
}

// handle is one worker.
type handle struct {
	v     js.Value
	funcs []js.Func
}

func newBrowser(ee vugu.EventEnv) *browser {
	return &browser{ee: ee, workers: map[int]*handle{}, gen: map[int]int{}, data: map[int]js.Value{}, names: map[int]string{}}
}

// later queues f to run with the page locked.
func (b *browser) later(f func()) {
	b.mu.Lock()
	b.queue = append(b.queue, f)
	b.mu.Unlock()
	go b.drain()
}

// drain runs the queued closures, then asks for a render.
func (b *browser) drain() {
	b.ee.Lock()
	b.mu.Lock()
	q := b.queue
	b.queue = nil
	b.mu.Unlock()
	for _, f := range q {
		f()
	}
	b.ee.UnlockOnly()
	b.Refresh()
}

// renderEvery is the shortest interval between two renders asked for by
// the workers' messages: several workers report progress ten times a
// second each, and Go's wasm port returns to the browser's event loop only
// when it is idle, so rendering on every message would starve the page.
// While a run goes on (Pace), renders are rarer still: a render of the
// page with an evaluation's results takes tens of milliseconds of the main
// thread, which the workers need too on a machine with few cores; two a
// second keep the progress moving.
const (
	renderEvery     = 100 * time.Millisecond
	renderEveryBusy = 500 * time.Millisecond
)

// Refresh implements Backend: one render soon, at most one per
// renderEvery, however many are asked for meanwhile.
func (b *browser) Refresh() {
	b.mu.Lock()
	if b.renderPending {
		b.mu.Unlock()
		return
	}
	b.renderPending = true
	every := renderEvery
	if b.busy {
		every = renderEveryBusy
	}
	wait := every - time.Since(b.lastRender)
	b.mu.Unlock()
	go func() {
		if wait > 0 {
			time.Sleep(wait) // yields to the browser's event loop
		}
		b.ee.Lock()
		b.mu.Lock()
		b.renderPending, b.lastRender = false, time.Now()
		b.mu.Unlock()
		b.ee.UnlockRender()
		b.rendered()
	}()
}

// afterFrame is how long AfterRender's work waits after a render: time
// for the browser to draw it.
const afterFrame = 30 * time.Millisecond

// AfterRender implements Backend.
func (b *browser) AfterRender(f func()) {
	b.mu.Lock()
	b.after = append(b.after, f)
	b.mu.Unlock()
}

// rendered runs, a frame after a render, the work AfterRender queued for
// then, and renders again.
func (b *browser) rendered() {
	b.mu.Lock()
	fs := b.after
	b.after = nil
	b.mu.Unlock()
	if len(fs) == 0 {
		return
	}
	go func() {
		time.Sleep(afterFrame) // back to the browser's event loop, which draws
		b.ee.Lock()
		for _, f := range fs {
			f()
		}
		b.mu.Lock()
		b.lastRender = time.Now()
		b.mu.Unlock()
		b.ee.UnlockRender()
		b.rendered()
	}()
}

// Pace implements Backend. The end of a run is drawn at once — in a task
// of its own: when a click ends the run (Cancel), the click's own render
// goes first, and the two together would hold the page's thread twice as
// long.
func (b *browser) Pace(busy bool) {
	b.mu.Lock()
	was := b.busy
	b.busy = busy
	b.mu.Unlock()
	if was && !busy {
		go func() {
			time.Sleep(time.Millisecond) // back to the browser's event loop first
			b.ee.Lock()
			b.mu.Lock()
			b.lastRender = time.Now()
			b.mu.Unlock()
			b.ee.UnlockRender()
			b.rendered()
		}()
	}
}

// Every implements Backend: f runs with the page locked every d, and a
// render follows, until f returns false.
func (b *browser) Every(d time.Duration, f func() bool) {
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for range t.C {
			b.ee.Lock()
			more := f()
			b.ee.UnlockOnly()
			b.Refresh()
			if !more {
				return
			}
		}
	}()
}

// Focus implements app.Backend. The element is focused from the browser's
// event loop, not here: Focus runs with the page locked, and moving the
// focus can dispatch DOM events within the call (from a <select> just
// changed) whose handlers take the lock — called here, they would wait
// for it forever (docs/wasm.md#eventenv-locking).
func (b *browser) Focus(id string) {
	if el := js.Global().Get("document").Call("getElementById", id); el.Truthy() {
		js.Global().Call("setTimeout", el.Get("focus").Call("bind", el), 0)
	}
}

// Mark implements app.Backend.
func (b *browser) Mark(name string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", name)
	}
}
