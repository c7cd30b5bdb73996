// Command wasm is the sparsefs Web Worker (build with GOOS=js GOARCH=wasm).
//
// It speaks a small message protocol with the page (ui/); every message is a
// plain object with a "type":
//
//	page → worker  {type: "job", id, request: JSON of job.Request, data?: ArrayBuffer}
//	               {type: "cancel", id}
//	worker → page  {type: "ready"}
//	               {type: "progress", id, iteration, maxIterations, objective, fraction}
//	               {type: "result", id, response: JSON of job.Response}
//	               {type: "error", id, message, cancelled}
//
// The data file's bytes travel as a transferred ArrayBuffer beside the JSON
// request. Every job runs in its own goroutine and every panic becomes an
// "error" message: the page is never left waiting on a dead job.
//
// The logic here is plain Go, tested natively; main_js.go holds the only
// code that touches the browser.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
	"time"

	"sparsefs/core/job"
)

// message is one message to the page.
type message = map[string]any

// Timing of the progress hook: messages are posted at most every
// progressEvery, and the job yields to the worker's event loop every
// yieldEvery so that a cancel message is received while it computes (Go's
// wasm port is not preemptive; see WASM-NOTES trap 9).
const (
	progressEvery = 100 * time.Millisecond
	yieldEvery    = 50 * time.Millisecond
)

// worker runs jobs and posts their messages.
type worker struct {
	post  func(message)
	yield func()
	exec  func(context.Context, *job.Request, func(job.Progress)) (*job.Response, error)

	mu      sync.Mutex
	running map[int]context.CancelFunc
}

func newWorker(post func(message), yield func()) *worker {
	return &worker{post: post, yield: yield, exec: job.Run, running: map[int]context.CancelFunc{}}
}

// start runs a job in a new goroutine.
func (w *worker) start(id int, request string, data []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.running[id] = cancel
	w.mu.Unlock()
	go func() {
		defer func() {
			w.mu.Lock()
			delete(w.running, id)
			w.mu.Unlock()
			cancel()
		}()
		w.run(ctx, id, request, data)
	}()
}

// cancel stops a running job; its error message says it was cancelled.
func (w *worker) cancel(id int) {
	w.mu.Lock()
	c := w.running[id]
	w.mu.Unlock()
	if c != nil {
		c()
	}
}

// run performs one job and posts exactly one "result" or "error" message
// for it, whatever happens.
func (w *worker) run(ctx context.Context, id int, request string, data []byte) {
	defer func() {
		if r := recover(); r != nil {
			w.post(message{"type": "error", "id": id, "cancelled": false,
				"message": fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack())})
		}
	}()
	var req job.Request
	if err := json.Unmarshal([]byte(request), &req); err != nil {
		w.post(message{"type": "error", "id": id, "cancelled": false, "message": "malformed request: " + err.Error()})
		return
	}
	if data != nil {
		req.Data.Bytes = data
	}
	resp, err := w.exec(ctx, &req, w.progress(id))
	if err != nil {
		cancelled := errors.Is(err, context.Canceled)
		msg := err.Error()
		if cancelled {
			msg = "cancelled"
		}
		w.post(message{"type": "error", "id": id, "cancelled": cancelled, "message": msg})
		return
	}
	b, err := job.Marshal(resp, false)
	if err != nil {
		w.post(message{"type": "error", "id": id, "cancelled": false, "message": "cannot encode the result: " + err.Error()})
		return
	}
	w.post(message{"type": "result", "id": id, "response": string(b)})
}

// progress returns the job's progress hook: it posts throttled progress
// messages and yields to the event loop regularly.
func (w *worker) progress(id int) func(job.Progress) {
	var lastPost, lastYield time.Time
	return func(p job.Progress) {
		now := time.Now()
		if now.Sub(lastPost) >= progressEvery {
			lastPost = now
			obj := p.Objective
			if math.IsInf(obj, 0) {
				obj = math.NaN()
			}
			w.post(message{"type": "progress", "id": id, "iteration": p.Iteration,
				"maxIterations": p.MaxIterations, "objective": obj, "fraction": p.Fraction})
		}
		if w.yield != nil && now.Sub(lastYield) >= yieldEvery {
			lastYield = now
			w.yield()
		}
	}
}
