//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/hack-pad/safejs"
)

// blobChunk is how much of a Blob one read brings into Go memory.
const blobChunk = 256 << 10

// blobOpener returns a function that opens blob (a Blob or File the page
// sent: a reference, not a copy) to be read from its start, a chunk at a
// time with a FileReaderSync (which only workers have).
func blobOpener(blob safejs.Value) (func() (io.ReadCloser, error), error) {
	sizeOf, err := blob.Get("size")
	if err != nil {
		return nil, err
	}
	size, err := sizeOf.Int()
	if err != nil {
		return nil, err
	}
	return func() (io.ReadCloser, error) {
		ctor, err := safejs.Global().Get("FileReaderSync")
		if err != nil || ctor.IsUndefined() {
			return nil, errors.New("this browser cannot read files in a worker (no FileReaderSync)")
		}
		fr, err := ctor.New()
		if err != nil {
			return nil, err
		}
		view, err := safejs.Global().Get("Uint8Array")
		if err != nil {
			return nil, err
		}
		target, err := view.New(blobChunk)
		if err != nil {
			return nil, err
		}
		off := 0
		// fill reads the next chunk with the FileReaderSync, through
		// assets/worker.js's sparsefsReadInto into one Uint8Array, and
		// from it into buf: the file is never held whole in Go memory,
		// and Go holds no reference to the chunks read.
		fill := func(buf []byte) (int, error) {
			if off >= size {
				return 0, nil
			}
			end := min(off+blobChunk, size)
			got, err := safejs.Global().Call("sparsefsReadInto", fr, blob, off, end, target)
			if err != nil {
				return 0, unreadable(err)
			}
			k, err := got.Int()
			if err != nil {
				return 0, err
			}
			// CopyBytesToGo copies as many bytes as the shorter side has.
			if _, err := safejs.CopyBytesToGo(buf[:k], target); err != nil {
				return 0, err
			}
			if k != end-off {
				return 0, errors.New("the file changed while it was read: open it again")
			}
			off = end
			// The read above is synchronous: without a switch to another
			// goroutine the collector's background workers (goroutines
			// too, on wasm's one thread) never run while a file is
			// parsed, its cycles cannot finish, and the heap grows by
			// about the file's text (docs/wasm.md#sync-read-starves-gc).
			runtime.Gosched()
			return k, nil
		}
		return &chunkReader{buf: make([]byte, blobChunk), fill: fill}, nil
	}, nil
}

// unreadable is the error of a read of a file the browser no longer gives
// (a File changed or moved on disk since the user chose it).
func unreadable(err error) error {
	return fmt.Errorf("the file can no longer be read (was it changed or moved since it was opened? open it again): %w", err)
}
