//go:build js && wasm

package main

import "io"

// chunkReader serves reads out of one buffer that fill refills with the
// next chunk of a file (its length, 0 at the end): the file's readers
// (blobOpener's, streamOpener's) differ only in how a chunk is fetched.
type chunkReader struct {
	buf  []byte
	rest []byte // what is left of the last chunk
	eof  bool
	fill func(buf []byte) (int, error)
	// end, if set, releases what the reader holds; it is told whether the
	// file was read to its end.
	end func(eof bool)
}

// Read implements io.Reader.
func (r *chunkReader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		n, err := r.fill(r.buf)
		if err != nil {
			return 0, err
		}
		if n == 0 {
			r.eof = true
			continue
		}
		r.rest = r.buf[:n]
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// Close implements io.Closer.
func (r *chunkReader) Close() error {
	if r.end != nil {
		r.end(r.eof)
		r.end = nil
	}
	return nil
}
