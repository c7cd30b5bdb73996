//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"

	"sparsefs/api"
)

// browser implements Backend with the File API and Web Workers started by
// assets/app.js (sparsefsWorkers.spawn: a worker built from a blob, so that
// it inherits the page's Content-Security-Policy, running the worker.wasm
// module the page compiled once).
//
// JS callbacks never touch the page's state directly: they copy what they
// need out of the JS values and queue a closure; drain runs the queue in
// order with the event environment locked and then re-renders
// (docs/wasm.md#eventenv-locking).
type browser struct {
	ee vugu.EventEnv
	h  WorkerEvents

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

// Pace implements Backend. The end of a run is drawn at once.
func (b *browser) Pace(busy bool) {
	b.mu.Lock()
	was := b.busy
	b.busy = busy
	b.mu.Unlock()
	if was && !busy {
		go func() {
			b.ee.Lock()
			b.mu.Lock()
			b.lastRender = time.Now()
			b.mu.Unlock()
			b.ee.UnlockRender()
			b.rendered()
		}()
	}
}

// SetHandler implements Backend.
func (b *browser) SetHandler(h WorkerEvents) { b.h = h }

// Workers implements Backend.
func (b *browser) Workers() int {
	n := js.Global().Get("navigator").Get("hardwareConcurrency")
	if n.Type() != js.TypeNumber || n.Int() < 1 {
		return 1
	}
	return min(n.Int(), maxWorkers)
}

// Spawn implements pool.Transport.
func (b *browser) Spawn(slot int) {
	b.gen[slot]++
	gen := b.gen[slot]
	current := func() bool { return b.gen[slot] == gen && b.workers[slot] != nil }
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		b.message(slot, current, args[0])
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := args[0].String()
		b.later(func() {
			if current() {
				b.h.Fatal(slot, msg)
			}
		})
		return nil
	})
	v := js.Global().Get("sparsefsWorkers").Call("spawn", onMessage, onError)
	b.workers[slot] = &handle{v: v, funcs: []js.Func{onMessage, onError}}
}

// Terminate implements pool.Transport.
func (b *browser) Terminate(slot int) {
	h := b.workers[slot]
	if h == nil {
		return
	}
	delete(b.workers, slot)
	h.v.Call("terminate")
	for _, f := range h.funcs {
		f.Release()
	}
}

// send posts a message of the worker protocol to a slot's worker:
// {head, body, port}, each transferred (api/worker.go).
func (b *browser) send(slot int, m *api.ToWorker, body js.Value, port js.Value) {
	h := b.workers[slot]
	if h == nil {
		return
	}
	head, bytes, err := m.Encode()
	if err != nil {
		b.later(func() { b.h.Message(slot, &api.FromWorker{Failed: &api.Failed{ID: -1, Message: err.Error()}}) })
		return
	}
	hb := arrayBuffer(head)
	msg, transfer := map[string]any{"head": hb}, []any{hb}
	if bytes != nil {
		body = arrayBuffer(bytes)
	}
	if body.Truthy() {
		msg["body"], transfer = body, append(transfer, body)
	}
	if port.Truthy() {
		msg["port"], transfer = port, append(transfer, port)
	}
	h.v.Call("post", js.ValueOf(msg), js.ValueOf(transfer))
}

// Link implements Backend: a MessageChannel, one port to each worker
// (transferred).
func (b *browser) Link(session, from, to int) {
	ch := js.Global().Get("MessageChannel").New()
	b.send(from, &api.ToWorker{Link: &api.Link{Session: session}}, js.Undefined(), ch.Get("port1"))
	b.send(to, &api.ToWorker{Link: &api.Link{Session: session, Merger: true}}, js.Undefined(), ch.Get("port2"))
}

// Load implements pool.Transport: the worker gets its own copy of the
// bytes, transferred (not cloned); the page keeps the original.
func (b *browser) Load(slot, data int) {
	buf, ok := b.data[data]
	if !ok {
		return
	}
	b.send(slot, &api.ToWorker{Load: &api.Load{Data: data, Name: b.names[data]}}, buf.Call("slice", 0), js.Undefined())
}

// Unload implements pool.Transport.
func (b *browser) Unload(slot, data int) {
	b.send(slot, &api.ToWorker{Unload: &api.Unload{Data: data}}, js.Undefined(), js.Undefined())
}

// Start implements pool.Transport.
func (b *browser) Start(slot int, j *api.Job) {
	b.send(slot, &api.ToWorker{Job: j}, js.Undefined(), js.Undefined())
}

// message handles one message from a worker (in the JS callback: copy out,
// then queue).
func (b *browser) message(slot int, current func() bool, d js.Value) {
	m, err := api.DecodeFromWorker(bytesOf(d.Get("head")), bytesOf(d.Get("body")))
	if err != nil {
		m = &api.FromWorker{Failed: &api.Failed{ID: -1, Message: err.Error()}}
	}
	b.later(func() {
		if current() {
			b.h.Message(slot, m)
		}
	})
}

// arrayBuffer copies bytes into a new ArrayBuffer.
func arrayBuffer(p []byte) js.Value {
	view := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(view, p)
	return view.Get("buffer")
}

// bytesOf copies an ArrayBuffer into Go memory (nil for undefined).
func bytesOf(v js.Value) []byte {
	if !v.Truthy() {
		return nil
	}
	view := js.Global().Get("Uint8Array").New(v)
	p := make([]byte, view.Length())
	js.CopyBytesToGo(p, view)
	return p
}

// keep stores a file's bytes under a new data number.
func (b *browser) keep(name string, buf js.Value) int {
	b.next++
	b.data[b.next], b.names[b.next] = buf, name
	return b.next
}

// KeepText implements Backend: the text, encoded as UTF-8, becomes a
// file's bytes.
func (b *browser) KeepText(name, text string) Opened {
	enc := js.Global().Get("TextEncoder").New()
	buf := enc.Call("encode", text).Get("buffer")
	return Opened{Name: name, Size: buf.Get("byteLength").Int(), Data: b.keep(name, buf)}
}

// Drop implements Backend.
func (b *browser) Drop(data int) {
	delete(b.data, data)
	delete(b.names, data)
}

// OpenInput implements Backend.
func (b *browser) OpenInput(ev vugu.DOMEvent, done func(Opened)) {
	target := js.Value(ev.JSEventTarget())
	files := target.Get("files")
	if files.Length() == 0 {
		done(Opened{Err: errors.New("no file was chosen")})
		return
	}
	b.read(files.Index(0), done)
	target.Set("value", "") // choosing the same file again fires change again
}

// OpenDrop implements Backend.
func (b *browser) OpenDrop(ev vugu.DOMEvent, done func(Opened)) {
	dt := js.Value(ev.JSEvent()).Get("dataTransfer")
	if !dt.Truthy() || dt.Get("files").Length() == 0 {
		done(Opened{Err: errors.New("nothing was dropped: drop a file (CSV or TSV)")})
		return
	}
	b.read(dt.Get("files").Index(0), done)
}

// read loads a File's bytes.
func (b *browser) read(file js.Value, done func(Opened)) {
	name, size := file.Get("name").String(), file.Get("size").Int()
	await(file.Call("arrayBuffer"), func(buf js.Value) {
		b.later(func() { done(Opened{Name: name, Size: size, Data: b.keep(name, buf)}) })
	}, func(msg string) {
		b.later(func() { done(Opened{Name: name, Size: size, Err: fmt.Errorf("cannot read %s: %s", name, msg)}) })
	})
}

// OpenURL implements Backend.
func (b *browser) OpenURL(url, name string, done func(Opened)) {
	fail := func(msg string) {
		b.later(func() { done(Opened{Name: name, Err: fmt.Errorf("cannot load %s: %s", url, msg)}) })
	}
	await(js.Global().Call("fetch", url), func(resp js.Value) {
		if !resp.Get("ok").Bool() {
			fail(fmt.Sprintf("HTTP %d", resp.Get("status").Int()))
			return
		}
		await(resp.Call("arrayBuffer"), func(buf js.Value) {
			b.later(func() {
				done(Opened{Name: name, Size: buf.Get("byteLength").Int(), Data: b.keep(name, buf)})
			})
		}, fail)
	}, fail)
}

// ReadText implements Backend.
func (b *browser) ReadText(ev vugu.DOMEvent, done func(name, text string, err error)) {
	target := js.Value(ev.JSEventTarget())
	files := target.Get("files")
	if files.Length() == 0 {
		done("", "", errors.New("no file was chosen"))
		return
	}
	file := files.Index(0)
	name := file.Get("name").String()
	target.Set("value", "")
	await(file.Call("text"), func(text js.Value) {
		s := text.String()
		b.later(func() { done(name, s, nil) })
	}, func(msg string) {
		b.later(func() { done(name, "", fmt.Errorf("cannot read %s: %s", name, msg)) })
	})
}

// Download implements Backend.
func (b *browser) Download(name, mime, text string) {
	js.Global().Call("sparsefsDownload", name, mime, text)
}

// SavePNG implements Backend.
func (b *browser) SavePNG(name, svg string) {
	js.Global().Call("sparsefsSavePNG", name, svg)
}

// Paint implements Backend.
func (b *browser) Paint(el vjs.Value, key, markup string) {
	v := js.Value(el)
	if k := v.Get("sparsefsKey"); k.Type() == js.TypeString && k.String() == key {
		return
	}
	v.Set("innerHTML", markup)
	v.Set("sparsefsKey", key)
}

// Mark implements Backend.
func (b *browser) Mark(name string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", name)
	}
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
