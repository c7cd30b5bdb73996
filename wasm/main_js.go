//go:build js && wasm

package main

import (
	"fmt"
	"time"

	"github.com/hack-pad/safejs"
)

func main() {
	self := safejs.Global()
	post := func(m message) {
		transfer := []any{}
		// A result's response (an evaluation part: hundreds of kilobytes
		// for a wide dataset) goes as bytes, transferred: the page copies
		// them into its Go memory without decoding a string.
		if r, ok := m["response"].(string); ok {
			if buf, err := arrayBuffer([]byte(r)); err == nil {
				m["response"], transfer = buf, []any{buf}
			}
		}
		if _, err := self.Call("postMessage", m, transfer); err != nil {
			fmt.Println("sparsefs worker: postMessage:", err)
		}
	}
	// time.Sleep parks the goroutine and returns control to the worker's
	// event loop, which then delivers pending messages (a cancel).
	w := newWorker(post, func() { time.Sleep(time.Millisecond) })
	onMessage, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		defer func() {
			if r := recover(); r != nil {
				post(message{"type": "error", "id": -1, "cancelled": false, "message": fmt.Sprintf("internal error in the worker: %v", r)})
			}
		}()
		if len(args) == 0 {
			return nil
		}
		handle(w, args[0], post)
		return nil
	})
	if err != nil {
		panic(err)
	}
	if err := self.Set("onmessage", onMessage); err != nil {
		panic(err)
	}
	// Messages that arrived while the wasm module was loading were queued
	// by worker.js (WASM-NOTES trap 8).
	if queued, err := self.Get("sparsefsQueue"); err == nil && !queued.IsUndefined() {
		n, _ := queued.Length()
		for i := 0; i < n; i++ {
			if ev, err := queued.Index(i); err == nil {
				handle(w, ev, post)
			}
		}
		self.Delete("sparsefsQueue")
	}
	post(message{"type": "ready"})
	select {} // a worker's Go program must never exit (trap 7)
}

// handle dispatches one MessageEvent.
func handle(w *worker, ev safejs.Value, post func(message)) {
	data, err := ev.Get("data")
	if err != nil {
		return
	}
	typ := str(data, "type")
	id := num(data, "id")
	switch typ {
	case "load":
		b, err := bufferField(data, "bytes")
		if err != nil || b == nil {
			post(message{"type": "error", "id": -1, "data": num(data, "data"), "cancelled": false, "message": fmt.Sprintf("cannot read the data: %v", err)})
			return
		}
		w.load(num(data, "data"), str(data, "name"), b)
	case "unload":
		w.unload(num(data, "data"))
	case "job":
		// The data are either a loaded dataset's number or, as in the
		// first version of the protocol, an ArrayBuffer.
		inline, err := bufferField(data, "bytes")
		if err != nil {
			post(message{"type": "error", "id": id, "cancelled": false, "message": "cannot read the data: " + err.Error()})
			return
		}
		var part []byte
		if v, err := data.Get("part"); err == nil && !v.IsUndefined() && !v.IsNull() {
			s, _ := v.String()
			part = []byte(s)
		}
		w.start(id, str(data, "request"), num(data, "data"), inline, part)
	case "cancel":
		w.cancel(id)
	case "peer":
		if port, err := data.Get("port"); err == nil {
			w.link(num(data, "session"), sender(port, num(data, "session")))
		}
	case "collector":
		if port, err := data.Get("port"); err == nil {
			listen(w, port, num(data, "session"))
		}
	default:
		post(message{"type": "error", "id": id, "cancelled": false, "message": fmt.Sprintf("unknown message type %q", typ)})
	}
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

// copyBuffer copies an ArrayBuffer into Go memory through a Uint8Array view.
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

func str(v safejs.Value, key string) string {
	f, err := v.Get(key)
	if err != nil {
		return ""
	}
	s, _ := f.String()
	return s
}

func num(v safejs.Value, key string) int {
	f, err := v.Get(key)
	if err != nil {
		return -1
	}
	n, err := f.Int()
	if err != nil {
		return -1
	}
	return n
}

// sender posts a unit's part and digest on a MessagePort to the worker
// that merges the session: the part's bytes in an ArrayBuffer, transferred.
func sender(port safejs.Value, session int) func(digest, part []byte) error {
	return func(digest, part []byte) error {
		buf, err := arrayBuffer(part)
		if err != nil {
			return err
		}
		// The map goes to Call as it is (WASM-NOTES trap 10).
		_, err = port.Call("postMessage", map[string]any{"session": session, "digest": string(digest), "part": buf}, []any{buf})
		return err
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
			var part []byte
			if part, err = bufferField(d, "part"); err == nil {
				err = w.receive(session, []byte(str(d, "digest")), part)
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
