package api

// Numbers in JSON: every sparsefs response writes floating-point numbers
// always as a number or null, never failing on the values encoding/json
// refuses. +Inf and −Inf become ±1.7976931348623157e308 (the largest
// finite double, docs/methods.md#zero-denominators) and NaN becomes null,
// which reads back as NaN.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unsafe"
)

// Float is a float64 whose JSON form is always a number: +Inf and −Inf are
// written as ±1.7976931348623157e308 (the largest finite double) and NaN
// as null.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	return appendFloat(nil, float64(f)), nil
}

// UnmarshalJSON implements json.Unmarshaler (null reads as NaN).
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	*f = Float(v)
	return err
}

// Floats is a slice of float64 marshalled as Float values.
type Floats []float64

// MarshalJSON implements json.Marshaler.
func (fs Floats) MarshalJSON() ([]byte, error) {
	if fs == nil {
		return []byte("[]"), nil
	}
	b := make([]byte, 0, 2+len(fs)*20)
	b = append(b, '[')
	for i, v := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, v)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler: an array of numbers and
// nulls (NaN); null reads as an empty array. It reads the array itself
// rather than through encoding/json, which is several times slower on the
// long arrays of a wide dataset's scores (an evaluation's parts and
// reports, read in the browser).
func (fs *Floats) UnmarshalJSON(b []byte) error {
	b = trimSpace(b)
	if string(b) == "null" {
		*fs = Floats{}
		return nil
	}
	if len(b) < 2 || b[0] != '[' || b[len(b)-1] != ']' {
		return fmt.Errorf("api: %.20q is not an array of numbers", b)
	}
	body := trimSpace(b[1 : len(b)-1])
	if len(body) == 0 {
		*fs = Floats{}
		return nil
	}
	out := make([]float64, 0, bytes.Count(body, []byte{','})+1)
	for len(body) > 0 {
		end := bytes.IndexByte(body, ',')
		if end < 0 {
			end = len(body)
		}
		tok := trimSpace(body[:end])
		v, err := parseNumber(tok)
		if err != nil {
			return err
		}
		out = append(out, v)
		if end == len(body) {
			break
		}
		body = body[end+1:]
		if len(trimSpace(body)) == 0 {
			return errors.New("api: an array ends with a comma")
		}
	}
	*fs = out
	return nil
}

// parseNumber reads one element of a Floats array: a JSON number, or null
// (NaN).
func parseNumber(tok []byte) (float64, error) {
	if string(tok) == "null" {
		return math.NaN(), nil
	}
	if !isNumber(tok) {
		return 0, fmt.Errorf("api: %.20q is not a number", tok)
	}
	// The token is not kept: parse it without copying it into a string
	// (an allocation per number), and copy it only into an error.
	v, err := strconv.ParseFloat(unsafe.String(&tok[0], len(tok)), 64)
	if err != nil {
		return 0, fmt.Errorf("api: %q: %w", string(tok), err.(*strconv.NumError).Err)
	}
	return v, nil
}

// isNumber reports whether b is a JSON number:
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func isNumber(b []byte) bool {
	digits := func() int {
		n := 0
		for n < len(b) && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		b = b[n:]
		return n
	}
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) > 0 && b[0] == '0' {
		b = b[1:]
	} else if digits() == 0 {
		return false
	}
	if len(b) > 0 && b[0] == '.' {
		b = b[1:]
		if digits() == 0 {
			return false
		}
	}
	if len(b) > 0 && (b[0] == 'e' || b[0] == 'E') {
		b = b[1:]
		if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
			b = b[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return len(b) == 0
}

// trimSpace drops JSON's white space around b.
func trimSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func appendFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "null"...)
	case math.IsInf(v, 1):
		v = math.MaxFloat64
	case math.IsInf(v, -1):
		v = -math.MaxFloat64
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}
