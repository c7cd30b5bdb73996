//go:build js && wasm

package main

import (
	"errors"
	"io"

	"github.com/hack-pad/safejs"
)

// streamOpener returns a function that opens blob's stream with a reader
// that reads into one buffer (assets/worker.js's sparsefsStreamOpen), or
// nil where the browser has no such reader for Blob streams (the jobs then
// read with blobOpener's FileReaderSync). Its reads wait for the browser:
// they must run on a goroutine that may block — a job's — never in a
// message's callback.
func streamOpener(blob safejs.Value) func() (io.ReadCloser, error) {
	probe, err := safejs.Global().Call("sparsefsStreamOpen", blob, 0)
	if err != nil || probe.IsNull() || probe.IsUndefined() {
		return nil
	}
	if r, err := probe.Get("reader"); err == nil {
		r.Call("cancel")
	}
	return func() (io.ReadCloser, error) {
		s, err := safejs.Global().Call("sparsefsStreamOpen", blob, blobChunk)
		if err == nil && s.IsNull() {
			err = errors.New("no stream")
		}
		if err != nil {
			return nil, unreadable(err)
		}
		r := &streamReader{state: s, chunk: make([]byte, blobChunk), done: make(chan streamResult, 1)}
		r.fn, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
			n, _ := args[0].Int()
			res := streamResult{n: n}
			switch {
			case n > 0:
				if _, err := safejs.CopyBytesToGo(r.chunk[:n], args[1]); err != nil {
					res.err = err
				}
			case n < 0:
				msg, _ := args[1].String()
				res.err = errors.New(msg)
			}
			r.done <- res
			return nil
		})
		if err != nil {
			return nil, err
		}
		return r, nil
	}
}

// streamReader reads a Blob's stream a chunk at a time into one Go buffer
// (see streamOpener).
type streamReader struct {
	state safejs.Value // {reader, buf}, as sparsefsStreamOpen returns it
	fn    safejs.Func  // the callback of sparsefsStreamRead
	done  chan streamResult
	chunk []byte // the Go buffer chunks are copied into
	rest  []byte // what is left of the last chunk read
	eof   bool
}

// streamResult is what the callback of one read passes on.
type streamResult struct {
	n   int
	err error
}

// Read implements io.Reader.
func (r *streamReader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		if _, err := safejs.Global().Call("sparsefsStreamRead", r.state, r.fn); err != nil {
			return 0, err
		}
		res := <-r.done
		if res.err != nil {
			return 0, unreadable(res.err)
		}
		if res.n == 0 {
			r.eof = true
			continue
		}
		r.rest = r.chunk[:res.n]
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// Close implements io.Closer: it cancels the stream where it was not read
// to its end, and releases the callback.
func (r *streamReader) Close() error {
	if !r.eof {
		if rd, err := r.state.Get("reader"); err == nil {
			rd.Call("cancel")
		}
	}
	r.fn.Release()
	return nil
}
