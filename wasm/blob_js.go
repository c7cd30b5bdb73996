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
// sent: a reference, not a copy) to be read from its start.
func blobOpener(blob safejs.Value) (func() (io.ReadCloser, error), error) {
	size, err := blob.Get("size")
	if err != nil {
		return nil, err
	}
	n, err := size.Int()
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
		return &blobReader{blob: blob, reader: fr, size: n}, nil
	}, nil
}

// blobReader reads a Blob a chunk at a time with a FileReaderSync (which
// only workers have), through assets/worker.js's sparsefsReadInto into one
// Uint8Array and from it into one Go buffer: the file is never held whole
// in Go memory, and Go holds no reference to the chunks read.
type blobReader struct {
	blob, reader safejs.Value
	off, size    int
	target       safejs.Value // the Uint8Array chunks are read into
	chunk        []byte       // the Go buffer they are copied into
	rest         []byte       // what is left of the last chunk read
}

// Read implements io.Reader.
func (r *blobReader) Read(p []byte) (int, error) {
	if len(r.rest) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		end := min(r.off+blobChunk, r.size)
		if r.chunk == nil {
			r.chunk = make([]byte, blobChunk)
			view, err := safejs.Global().Get("Uint8Array")
			if err == nil {
				r.target, err = view.New(blobChunk)
			}
			if err != nil {
				return 0, err
			}
		}
		got, err := safejs.Global().Call("sparsefsReadInto", r.reader, r.blob, r.off, end, r.target)
		if err != nil {
			return 0, unreadable(err)
		}
		n, err := got.Int()
		if err != nil {
			return 0, err
		}
		// CopyBytesToGo copies as many bytes as the shorter side has.
		if _, err := safejs.CopyBytesToGo(r.chunk[:n], r.target); err != nil {
			return 0, err
		}
		if n != end-r.off {
			return 0, errors.New("the file changed while it was read: open it again")
		}
		r.rest, r.off = r.chunk[:n], end
		// The read above is synchronous: without a switch to another
		// goroutine the collector's background workers (goroutines too,
		// on wasm's one thread) never run while a file is parsed, its
		// cycles cannot finish, and the heap grows by about the file's
		// text (docs/wasm.md#sync-read-starves-gc).
		runtime.Gosched()
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// Close implements io.Closer.
func (r *blobReader) Close() error { return nil }

// unreadable is the error of a read of a file the browser no longer gives
// (a File changed or moved on disk since the user chose it).
func unreadable(err error) error {
	return fmt.Errorf("the file can no longer be read (was it changed or moved since it was opened? open it again): %w", err)
}
