//go:build js && wasm

package main

import (
	"syscall/js"

	"sparsefs/api"
	"sparsefs/ui/app"
)

// The workers: started by assets/app.js (sparsefsWorkers.spawn), spoken
// to in the worker protocol of package api.

// SetHandler implements Backend.
func (b *browser) SetHandler(h app.WorkerEvents) { b.h = h }

// Workers implements Backend.
func (b *browser) Workers() int {
	n := js.Global().Get("navigator").Get("hardwareConcurrency")
	if n.Type() != js.TypeNumber || n.Int() < 1 {
		return 1
	}
	return min(n.Int(), app.MaxWorkers)
}

// Memory implements Backend.
func (b *browser) Memory() int {
	gib := js.Global().Get("navigator").Get("deviceMemory")
	if gib.Type() != js.TypeNumber || gib.Float() <= 0 {
		return app.DefaultMemoryMiB
	}
	return int(gib.Float() * 1024 / 2)
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
// {head, body, port, file} (api/worker.go): head, body and port
// transferred; file, a Blob, cloned (a Blob's clone is a reference to the
// same bytes, not a copy of them).
func (b *browser) send(slot int, m *api.ToWorker, file js.Value, port js.Value) {
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
		body := arrayBuffer(bytes)
		msg["body"], transfer = body, append(transfer, body)
	}
	if port.Truthy() {
		msg["port"], transfer = port, append(transfer, port)
	}
	if file.Truthy() {
		msg["file"] = file
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

// Load implements pool.Transport: the worker gets the file as a Blob, a
// reference to its bytes, and reads it as it needs (wasm/blob_js.go): the
// file is copied into no worker's memory whole, nor into the page's.
func (b *browser) Load(slot, data int) {
	blob, ok := b.data[data]
	if !ok {
		return
	}
	b.send(slot, &api.ToWorker{Load: &api.Load{Data: data, Name: b.names[data]}}, blob, js.Undefined())
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
