//go:build js && wasm

package main

import (
	"fmt"
	"time"

	"github.com/hack-pad/safejs"

	"sparsefs/api"
)

func main() {
	self := safejs.Global()
	post := func(m *api.FromWorker) {
		head, body, err := m.Encode()
		if err == nil {
			err = postEnvelope(self, head, body)
		}
		if err != nil {
			fmt.Println("sparsefs worker: postMessage:", err)
		}
	}
	// time.Sleep parks the goroutine and returns control to the worker's
	// event loop, which then delivers pending messages (a cancel).
	w := newWorker(post, func() { time.Sleep(time.Millisecond) })
	onMessage, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		defer func() {
			if r := recover(); r != nil {
				post(&api.FromWorker{Failed: &api.Failed{ID: -1, Message: fmt.Sprintf("internal error in the worker: %v", r)}})
			}
		}()
		if len(args) > 0 {
			receive(w, args[0], post)
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	if err := self.Set("onmessage", onMessage); err != nil {
		panic(err)
	}
	// Messages that arrived while the wasm module was loading were queued
	// by worker.js (docs/wasm.md#messages-before-onmessage).
	if queued, err := self.Get("sparsefsQueue"); err == nil && !queued.IsUndefined() {
		n, _ := queued.Length()
		for i := 0; i < n; i++ {
			if ev, err := queued.Index(i); err == nil {
				receive(w, ev, post)
			}
		}
		self.Delete("sparsefsQueue")
	}
	post(&api.FromWorker{Ready: &api.Ready{}})
	select {} // a worker's Go program must never exit (docs/wasm.md#worker-main-never-returns)
}

// receive reads one MessageEvent from the page and acts on it.
func receive(w *worker, ev safejs.Value, post func(*api.FromWorker)) {
	data, err := ev.Get("data")
	if err != nil {
		return
	}
	head, body, err := envelope(data)
	var m *api.ToWorker
	if err == nil {
		m, err = api.DecodeToWorker(head, body)
	}
	if err != nil {
		post(&api.FromWorker{Failed: &api.Failed{ID: -1, Message: err.Error()}})
		return
	}
	if m.Load != nil {
		// The page sends the file as a Blob (a reference, not a copy) in
		// the message's file field; bytes in its body also do.
		if file, err := data.Get("file"); err == nil && !file.IsUndefined() {
			if m.Load.Open, err = blobOpener(file); err != nil {
				post(&api.FromWorker{Failed: &api.Failed{ID: -1, Message: "cannot read the file sent: " + err.Error()}})
				return
			}
			m.Load.Stream = streamOpener(file)
		}
	}
	if l := m.Link; l != nil {
		port, err := data.Get("port")
		if err != nil || port.IsUndefined() {
			post(&api.FromWorker{Failed: &api.Failed{ID: -1, Message: "a link came without its port"}})
			return
		}
		if l.Merger {
			listen(w, port, l.Session)
		} else {
			w.link(l.Session, sender(port))
		}
		return
	}
	w.handle(m)
}

// envelope copies a message's head and body (ArrayBuffers) into Go memory.
func envelope(data safejs.Value) (head, body []byte, err error) {
	if head, err = bufferField(data, "head"); err != nil || head == nil {
		return nil, nil, fmt.Errorf("a message without its head: %v", err)
	}
	body, err = bufferField(data, "body")
	return head, body, err
}

// postEnvelope posts {head, body} on target (the worker's scope, or a
// port), both transferred.
func postEnvelope(target safejs.Value, head, body []byte) error {
	h, err := arrayBuffer(head)
	if err != nil {
		return err
	}
	// The map goes to Call as it is (docs/wasm.md#safejs-valueof-map).
	msg, transfer := map[string]any{"head": h}, []any{h}
	if body != nil {
		b, err := arrayBuffer(body)
		if err != nil {
			return err
		}
		msg["body"], transfer = b, append(transfer, b)
	}
	_, err = target.Call("postMessage", msg, transfer)
	return err
}

// bufferField copies the ArrayBuffer in data[key] into Go memory; nil when
// there is none.
func bufferField(data safejs.Value, key string) ([]byte, error) {
	buf, err := data.Get(key)
	if err != nil || buf.IsUndefined() || buf.IsNull() {
		return nil, nil
	}
	return copyBuffer(buf)
}

// arrayBuffer copies b into a new ArrayBuffer.
func arrayBuffer(b []byte) (safejs.Value, error) {
	ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return safejs.Value{}, err
	}
	view, err := ctor.New(len(b))
	if err != nil {
		return safejs.Value{}, err
	}
	if _, err := safejs.CopyBytesToJS(view, b); err != nil {
		return safejs.Value{}, err
	}
	return view.Get("buffer")
}

// copyBuffer copies an ArrayBuffer into Go memory through a Uint8Array
// view (docs/wasm.md#copybytes-uint8array).
func copyBuffer(buf safejs.Value) ([]byte, error) {
	ctor, err := safejs.Global().Get("Uint8Array")
	if err != nil {
		return nil, err
	}
	view, err := ctor.New(buf)
	if err != nil {
		return nil, err
	}
	n, err := view.Length()
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := safejs.CopyBytesToGo(b, view); err != nil {
		return nil, err
	}
	return b, nil
}

// sender posts the parts of a session's units on a MessagePort to the
// worker that merges the session.
func sender(port safejs.Value) func(*api.Collect) error {
	return func(c *api.Collect) error {
		head, body, err := c.Encode()
		if err != nil {
			return err
		}
		return postEnvelope(port, head, body)
	}
}

// collector is the port this worker receives a session's parts on.
var collector struct {
	port safejs.Value
	fn   safejs.Func
	set  bool
}

// listen receives on port the parts other workers send for session
// (replacing the port of an earlier session, which it closes).
func listen(w *worker, port safejs.Value, session int) {
	if collector.set {
		collector.port.Call("close")
		collector.fn.Release()
	}
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		if len(args) == 0 {
			return nil
		}
		d, err := args[0].Get("data")
		if err == nil {
			var head, body []byte
			if head, body, err = envelope(d); err == nil {
				var c *api.Collect
				if c, err = api.DecodeCollect(head, body); err == nil {
					err = w.receive(c)
				}
			}
		}
		if err != nil {
			fmt.Println("sparsefs worker: a part sent by another worker:", err)
		}
		return nil
	})
	if err != nil {
		fmt.Println("sparsefs worker:", err)
		return
	}
	collector.port, collector.fn, collector.set = port, fn, true
	w.collectFrom(session)
	port.Set("onmessage", fn)
}
