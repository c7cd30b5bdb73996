package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"unsafe"
)

// The default limits of a read. They are sized for a browser tab, whose
// WebAssembly memory is at most 4 GiB and in practice less: X holds 8 bytes
// a cell, the reader holds it twice while it assembles X (400 MB + 400 MB at
// the cell limit, within a 1 GiB bound), and a fit then needs X, its
// preprocessed copy and the model's own matrices. The largest benchmark sets
// (USPS, 9,298 × 257 = 2.4 million cells; arcene, 2.0 million) are twenty
// times below the cell limit. Text of 50 million cells takes 0.3–1 GB, so
// the byte limit does not refuse a table the cell limit accepts.
const (
	// DefaultMaxBytes is the default limit on the bytes a read consumes,
	// counted after decompression (gzip, the parts of a workbook, the
	// compressed variables of a MATLAB file): 1 GiB.
	DefaultMaxBytes int64 = 1 << 30
	// DefaultMaxCells is the default limit on the cells of the table
	// (samples × columns, the label included): 50 million, 400 MB as
	// float64.
	DefaultMaxCells int64 = 50_000_000
	// maxCellBytes bounds one cell of a text table: a number, a label or
	// a column name is never this long, and a cell this long is usually a
	// quote left open.
	maxCellBytes = 1 << 20
)

// ErrLimit is wrapped by the *Error a read returns when the input exceeds
// Options.MaxBytes or Options.MaxCells; errors.Is(err, ErrLimit) tells a
// caller to offer a higher limit.
var ErrLimit = errors.New("a reading limit was reached")

// limits enforces Options.MaxBytes, Options.MaxCells and the context while
// a read streams.
type limits struct {
	ctx      context.Context
	maxBytes int64 // ≤ 0: none
	maxCells int64 // ≤ 0: none
	raw      int64 // bytes read from the caller's reader
	bytes    int64 // bytes read after decompression
	// compressed is set when bytes come through a decompressor, so that
	// the limit's message can say how much the data expanded.
	compressed bool
	// depth counts nested gzip streams.
	depth int
}

func newLimits(ctx context.Context, opts Options) *limits {
	l := &limits{ctx: ctx, maxBytes: opts.MaxBytes, maxCells: opts.MaxCells}
	if l.maxBytes == 0 {
		l.maxBytes = DefaultMaxBytes
	}
	if l.maxCells == 0 {
		l.maxCells = DefaultMaxCells
	}
	return l
}

// rawReader counts the bytes read from the caller and stops at a cancelled
// context.
type rawReader struct {
	l *limits
	r io.Reader
}

func (c *rawReader) Read(p []byte) (int, error) {
	if err := c.l.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.l.raw += int64(n)
	return n, err
}

// dataReader counts the bytes a parser consumes (after decompression)
// against the byte limit. what names the decompressor for a damaged
// stream's message ("" when the bytes are the file's own).
type dataReader struct {
	l    *limits
	r    io.Reader
	what string
}

// data wraps r, the bytes a parser reads.
func (l *limits) data(r io.Reader, what string) io.Reader {
	if what != "" {
		l.compressed = true
	}
	return &dataReader{l: l, r: r, what: what}
}

func (c *dataReader) Read(p []byte) (int, error) {
	if err := c.l.ctx.Err(); err != nil {
		return 0, err
	}
	if c.l.maxBytes > 0 {
		// Never read past the limit by more than one byte: the byte
		// beyond it is what proves it exceeded.
		if room := c.l.maxBytes - c.l.bytes + 1; int64(len(p)) > room {
			p = p[:max(room, 1)]
		}
	}
	n, err := c.r.Read(p)
	c.l.bytes += int64(n)
	if c.l.maxBytes > 0 && c.l.bytes > c.l.maxBytes {
		return n, c.l.bytesError()
	}
	if err != nil && err != io.EOF && c.what != "" && !isOurs(err) {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return n, &Error{Msg: fmt.Sprintf("the %s data end early: the file is truncated", c.what), Err: err}
		}
		return n, &Error{Msg: fmt.Sprintf("the %s data are damaged: %v", c.what, err), Err: err}
	}
	return n, err
}

// isOurs reports whether err is a cancellation or one of this package's
// errors, which pass through unchanged.
func isOurs(err error) bool {
	var e *Error
	return errors.As(err, &e) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func (l *limits) bytesError() *Error {
	msg := fmt.Sprintf("the data exceed the limit of %s", byteSize(l.maxBytes))
	if l.compressed {
		msg = fmt.Sprintf("the data expand beyond the limit of %s when decompressed", byteSize(l.maxBytes))
		if l.raw > 0 && l.bytes/l.raw >= 100 {
			msg += fmt.Sprintf(" (from %s read: %s to 1, as a decompression bomb expands)", byteSize(l.raw), thousands(l.bytes/l.raw))
		}
	}
	return &Error{Msg: msg + "; reading stopped there. If the file is genuine, raise the limit on bytes read", Err: ErrLimit}
}

// cells checks that a table of rows × cols cells is within the limit;
// line says where the read is, for the message (0: nowhere in particular).
func (l *limits) cells(rows, cols int64, line int) *Error {
	if l.maxCells <= 0 || cols <= 0 || rows <= l.maxCells/cols {
		return nil
	}
	bomb := ""
	if l.compressed && l.raw > 0 && l.bytes/l.raw >= 100 {
		bomb = fmt.Sprintf(" (the data expand %s to 1 from their compressed form, as a decompression bomb does)", thousands(l.bytes/l.raw))
	}
	return &Error{Line: line, Msg: fmt.Sprintf("the table exceeds the limit of %s cells (%s rows × %s columns so far)%s; reading stopped there. If the file is genuine, raise the limit on cells",
		thousands(l.maxCells), thousands(rows), thousands(cols), bomb), Err: ErrLimit}
}

// alive returns the context's error, if it is done.
func (l *limits) alive() error { return l.ctx.Err() }

// store accumulates a table's values in chunks, so that growing never
// copies what has been read: X is assembled once at the end.
type store[T any] struct {
	chunks [][]T
	n      int
	// room is spare capacity wanted past the values (Options.Rows: one
	// column's worth), which slice keeps.
	room int
}

type floats = store[float64]

const storeChunkMax = 1 << 20

func (f *store[T]) add(v T) {
	k := len(f.chunks)
	if k == 0 || len(f.chunks[k-1]) == cap(f.chunks[k-1]) {
		size := 1024
		if k > 0 {
			size = min(2*cap(f.chunks[k-1]), storeChunkMax)
		}
		f.chunks = append(f.chunks, make([]T, 0, size))
		k++
	}
	f.chunks[k-1] = append(f.chunks[k-1], v)
	f.n++
}

// reserve makes the store's first chunk hold n values (Options.Rows).
func (f *store[T]) reserve(n int) {
	if len(f.chunks) == 0 {
		f.chunks = [][]T{make([]T, 0, n)}
	}
}

// reserveIn is reserve in buf when buf's capacity is n up to a sixteenth
// more (Options.Buffer, which slice then returns without a copy). A large
// buffer not used is dropped and the collector run before the chunk is
// allocated, so that, where nothing else holds the buffer, the two are
// not held at once.
func (f *store[T]) reserveIn(buf []T, n int) {
	if len(f.chunks) == 0 && cap(buf) >= n && cap(buf)-n <= n/16 {
		f.chunks = [][]T{buf[:0]}
		return
	}
	if int64(cap(buf))*int64(unsafe.Sizeof(*new(T))) >= collectBytes {
		buf = nil
		runtime.GC()
	}
	f.reserve(n)
}

// slice returns the values in one slice and releases the chunks. When
// they were large the garbage collector runs at once, so that their memory
// is free for what the caller allocates next (the scaled copy, a solver's
// design) rather than adding to the peak until the collector's next cycle.
// Values that fit in their first chunk (reserve) are returned in it, not
// copied, unless it is more than a sixteenth larger than they and the
// room; the slice keeps the chunk's spare capacity.
func (f *store[T]) slice() []T {
	var out []T
	if len(f.chunks) == 1 && cap(f.chunks[0])-f.n-f.room <= (f.n+f.room)/16 {
		out = f.chunks[0][:f.n]
	} else {
		out = make([]T, 0, f.n)
		for i, c := range f.chunks {
			out = append(out, c...)
			f.chunks[i] = nil
		}
	}
	f.chunks = nil
	if int64(len(out))*int64(unsafe.Sizeof(*new(T))) >= collectBytes {
		runtime.GC()
	}
	return out
}

// collectBytes is the size of a table's values from which reading it ends
// with a garbage collection (see store.slice).
const collectBytes = 32 << 20
