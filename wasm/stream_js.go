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
		done := make(chan streamResult, 1)
		var chunk []byte // the buffer the pending read copies into
		fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
			n, _ := args[0].Int()
			res := streamResult{n: n}
			switch {
			case n > 0:
				if _, err := safejs.CopyBytesToGo(chunk[:n], args[1]); err != nil {
					res.err = err
				}
			case n < 0:
				msg, _ := args[1].String()
				res.err = errors.New(msg)
			}
			done <- res
			return nil
		})
		if err != nil {
			return nil, err
		}
		fill := func(buf []byte) (int, error) {
			chunk = buf
			if _, err := safejs.Global().Call("sparsefsStreamRead", s, fn); err != nil {
				return 0, err
			}
			res := <-done
			if res.err != nil {
				return 0, unreadable(res.err)
			}
			return res.n, nil
		}
		// The stream is cancelled where it was not read to its end.
		end := func(eof bool) {
			if !eof {
				if rd, err := s.Get("reader"); err == nil {
					rd.Call("cancel")
				}
			}
			fn.Release()
		}
		return &chunkReader{buf: make([]byte, blobChunk), fill: fill, end: end}, nil
	}
}

// streamResult is what the callback of one read passes on.
type streamResult struct {
	n   int
	err error
}
