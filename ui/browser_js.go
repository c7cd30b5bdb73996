//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/vugu/vugu"

	"sparsefs/core/job"
)

// browser implements Backend with the File API and one Web Worker.
//
// JS callbacks never touch the page's state directly: they copy what they
// need out of the JS values and queue a closure; drain runs the queue in
// order with the event environment locked and then re-renders (WASM-NOTES
// trap 6).
type browser struct {
	ee vugu.EventEnv

	mu    sync.Mutex
	queue []func()

	worker js.Value
	funcs  []js.Func // the worker's listeners, released with it
	next   int
	calls  map[int]*call
	data   js.Value // the current file's bytes (an ArrayBuffer)
}

type call struct {
	progress func(job.Progress)
	done     func([]byte, error, bool)
}

func newBrowser(ee vugu.EventEnv) *browser {
	b := &browser{ee: ee, calls: map[int]*call{}, data: js.Undefined()}
	b.spawn()
	return b
}

// later queues f to run with the page locked.
func (b *browser) later(f func()) {
	b.mu.Lock()
	b.queue = append(b.queue, f)
	b.mu.Unlock()
	go b.drain()
}

func (b *browser) drain() {
	b.ee.Lock()
	b.mu.Lock()
	q := b.queue
	b.queue = nil
	b.mu.Unlock()
	for _, f := range q {
		f()
	}
	b.ee.UnlockRender()
}

// spawn starts a worker and listens to it.
func (b *browser) spawn() {
	w := js.Global().Get("Worker").New("worker.js")
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		b.message(args[0].Get("data"))
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the computing worker failed to start"
		if m := args[0].Get("message"); m.Type() == js.TypeString {
			msg += ": " + m.String()
		}
		args[0].Call("preventDefault")
		b.later(func() { b.failAll(errors.New(msg)) })
		return nil
	})
	w.Call("addEventListener", "message", onMessage)
	w.Call("addEventListener", "error", onError)
	b.worker, b.funcs = w, []js.Func{onMessage, onError}
}

// replace terminates the worker at once and starts a fresh one.
func (b *browser) replace() {
	b.worker.Call("terminate")
	for _, f := range b.funcs {
		f.Release()
	}
	b.spawn()
}

// failAll ends every pending call with err and replaces the worker.
func (b *browser) failAll(err error) {
	calls := b.calls
	b.calls = map[int]*call{}
	b.replace()
	for _, c := range calls {
		c.done(nil, err, false)
	}
}

// message handles one message from the worker (in the JS callback: copy
// out, then queue).
func (b *browser) message(d js.Value) {
	typ := d.Get("type").String()
	id := -1
	if v := d.Get("id"); v.Type() == js.TypeNumber {
		id = v.Int()
	}
	switch typ {
	case "progress":
		p := job.Progress{
			Iteration: d.Get("iteration").Int(), MaxIterations: d.Get("maxIterations").Int(),
			Objective: d.Get("objective").Float(), Fraction: d.Get("fraction").Float(),
		}
		b.later(func() {
			if c := b.calls[id]; c != nil && c.progress != nil {
				c.progress(p)
			}
		})
	case "result":
		resp := []byte(d.Get("response").String())
		b.later(func() { b.finish(id, resp, nil, false) })
	case "error":
		err := errors.New(d.Get("message").String())
		cancelled := d.Get("cancelled").Truthy()
		b.later(func() { b.finish(id, nil, err, cancelled) })
	case "fatal":
		err := fmt.Errorf("the computing worker stopped (%s); it has been restarted, please try again", d.Get("message").String())
		b.later(func() { b.failAll(err) })
	}
}

func (b *browser) finish(id int, resp []byte, err error, cancelled bool) {
	c := b.calls[id]
	if c == nil {
		return // cancelled already
	}
	delete(b.calls, id)
	c.done(resp, err, cancelled)
}

// Submit implements Backend.
func (b *browser) Submit(req *job.Request, progress func(job.Progress), done func([]byte, error, bool)) int {
	b.next++
	id := b.next
	text, err := json.Marshal(req)
	if err != nil {
		done(nil, err, false)
		return id
	}
	msg := map[string]any{"type": "job", "id": id, "request": string(text)}
	transfer := []any{}
	if req.Op != job.OpMethods && b.data.Truthy() {
		// Each job gets its own copy, transferred (not cloned) to the
		// worker; the page keeps the original for the next job.
		cp := b.data.Call("slice", 0)
		msg["data"] = cp
		transfer = append(transfer, cp)
	}
	b.calls[id] = &call{progress: progress, done: done}
	b.worker.Call("postMessage", js.ValueOf(msg), js.ValueOf(transfer))
	return id
}

// Cancel implements Backend: the worker is terminated at once (a compute
// loop cannot be interrupted otherwise) and replaced.
func (b *browser) Cancel(id int) {
	c := b.calls[id]
	if c == nil {
		return
	}
	delete(b.calls, id)
	others := b.calls
	b.calls = map[int]*call{}
	b.replace()
	c.done(nil, nil, true)
	for _, o := range others {
		o.done(nil, errors.New("interrupted by a cancel"), false)
	}
}

// OpenInput implements Backend.
func (b *browser) OpenInput(ev vugu.DOMEvent, done func(string, int, error)) {
	target := js.Value(ev.JSEventTarget())
	files := target.Get("files")
	if files.Length() == 0 {
		done("", 0, errors.New("no file was chosen"))
		return
	}
	b.read(files.Index(0), done)
	target.Set("value", "") // choosing the same file again fires change again
}

// OpenDrop implements Backend.
func (b *browser) OpenDrop(ev vugu.DOMEvent, done func(string, int, error)) {
	dt := js.Value(ev.JSEvent()).Get("dataTransfer")
	if !dt.Truthy() || dt.Get("files").Length() == 0 {
		done("", 0, errors.New("nothing was dropped: drop a file (CSV or TSV)"))
		return
	}
	b.read(dt.Get("files").Index(0), done)
}

// read loads a File's bytes.
func (b *browser) read(file js.Value, done func(string, int, error)) {
	name, size := file.Get("name").String(), file.Get("size").Int()
	await(file.Call("arrayBuffer"), func(buf js.Value) {
		b.later(func() {
			b.data = buf
			done(name, size, nil)
		})
	}, func(msg string) {
		b.later(func() { done(name, size, fmt.Errorf("cannot read %s: %s", name, msg)) })
	})
}

// OpenURL implements Backend.
func (b *browser) OpenURL(url, name string, done func(string, int, error)) {
	fail := func(msg string) {
		b.later(func() { done(name, 0, fmt.Errorf("cannot load %s: %s", url, msg)) })
	}
	await(js.Global().Call("fetch", url), func(resp js.Value) {
		if !resp.Get("ok").Bool() {
			fail(fmt.Sprintf("HTTP %d", resp.Get("status").Int()))
			return
		}
		await(resp.Call("arrayBuffer"), func(buf js.Value) {
			b.later(func() {
				b.data = buf
				done(name, buf.Get("byteLength").Int(), nil)
			})
		}, fail)
	}, fail)
}

// await calls ok or fail once a promise settles, releasing its callbacks.
func await(promise js.Value, ok func(js.Value), fail func(string)) {
	var onOK, onErr js.Func
	release := func() { onOK.Release(); onErr.Release() }
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		ok(args[0])
		return nil
	})
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		fail(js.Global().Get("String").Invoke(args[0]).String())
		return nil
	})
	promise.Call("then", onOK, onErr)
}
