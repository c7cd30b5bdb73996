package dataset

import (
	"encoding/binary"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Reader decodes UTF-16 text (the encoding of Excel's "Unicode text"
// and of many Windows tools) into UTF-8 as it is read. An unpaired
// surrogate becomes U+FFFD; an odd last byte is dropped.
type utf16Reader struct {
	r     io.Reader
	order binary.ByteOrder
	in    []byte
	inN   int
	out   []byte
	high  rune // a pending high surrogate, or 0
	err   error
}

func newUTF16Reader(r io.Reader, order binary.ByteOrder) *utf16Reader {
	return &utf16Reader{r: r, order: order, in: make([]byte, 32<<10)}
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			if u.high != 0 {
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
				u.high = 0
				continue
			}
			return 0, u.err
		}
		n, err := u.r.Read(u.in[u.inN:])
		u.inN += n
		if err != nil {
			u.err = err
		}
		even := u.inN &^ 1
		for i := 0; i < even; i += 2 {
			v := rune(u.order.Uint16(u.in[i:]))
			switch {
			case u.high != 0 && utf16.IsSurrogate(v) && v >= 0xDC00:
				u.out = utf8.AppendRune(u.out, utf16.DecodeRune(u.high, v))
				u.high = 0
				continue
			case u.high != 0:
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
				u.high = 0
			}
			switch {
			case v >= 0xD800 && v < 0xDC00:
				u.high = v
			case utf16.IsSurrogate(v):
				u.out = utf8.AppendRune(u.out, utf8.RuneError)
			default:
				u.out = utf8.AppendRune(u.out, v)
			}
		}
		copy(u.in, u.in[even:u.inN])
		u.inN -= even
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// utf16NoBOM reports whether head looks like UTF-16 text without a
// byte-order mark: most characters ASCII, so that one byte of each pair is
// zero; it returns "little-endian" or "big-endian", or "".
func utf16NoBOM(head []byte) string {
	n := min(len(head), 512) &^ 1
	if n < 8 {
		return ""
	}
	var zeroEven, zeroOdd int
	for i := 0; i < n; i += 2 {
		if head[i] == 0 && head[i+1] != 0 {
			zeroEven++
		}
		if head[i+1] == 0 && head[i] != 0 {
			zeroOdd++
		}
	}
	pairs := n / 2
	switch {
	case zeroOdd*10 >= pairs*9:
		return "little-endian"
	case zeroEven*10 >= pairs*9:
		return "big-endian"
	}
	return ""
}
