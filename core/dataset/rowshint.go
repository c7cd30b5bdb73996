package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
)

// RowsHint reads a file as ReadContext would (gzip detected) and returns
// a bound on its rows for Options.Rows: the number of its lines, when it
// is delimited text read with its samples in rows; 0 — no hint — for any
// other format, for features in rows (Transpose), for UTF-16 text, and
// when the file is larger than opts.MaxBytes allows. A caller that can
// read a file twice (a file on disk, a Blob) gives the hint to the read
// that follows, which then holds the matrix once rather than twice
// (Options.Rows).
func RowsHint(ctx context.Context, r io.Reader, opts Options) (int, error) {
	if opts.Transpose {
		return 0, nil
	}
	maxBytes := opts.MaxBytes
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	br := bufio.NewReaderSize(r, sniffSize)
	for depth := 0; ; depth++ {
		head, _ := br.Peek(2)
		if !bytes.Equal(head, magicGzip) {
			break
		}
		if depth == 3 {
			return 0, nil
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return 0, nil // the read says what is wrong
		}
		br = bufio.NewReaderSize(zr, sniffSize)
	}
	head, err := br.Peek(sniffSize)
	whole := err != nil
	if bytes.HasPrefix(head, bomUTF16LE) || bytes.HasPrefix(head, bomUTF16BE) {
		return 0, nil
	}
	f := opts.Format
	if f == FormatAuto {
		f, _ = sniff(bytes.TrimPrefix(head, bomUTF8), whole)
	}
	if f != CSV {
		return 0, nil
	}
	buf := make([]byte, 64<<10)
	lines, total, last := 0, int64(0), byte('\n')
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n, err := br.Read(buf)
		if n > 0 {
			lines += bytes.Count(buf[:n], []byte{'\n'})
			total += int64(n)
			last = buf[n-1]
			if maxBytes > 0 && total > maxBytes {
				return 0, nil
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, nil // the read says what is wrong
		}
	}
	if last != '\n' {
		lines++
	}
	return lines, nil
}
