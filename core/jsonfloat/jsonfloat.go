// Package jsonfloat writes floating-point numbers to JSON the way every
// sparsefs response does: always as a number or null, never failing on
// the values encoding/json refuses. +Inf and −Inf become ±1.7976931348623157e308
// (the largest finite double, as METHODS.md asks) and NaN becomes null,
// which reads back as NaN.
//
// It is a leaf package (the standard library only) so that the web page
// can read responses without linking the solvers.
package jsonfloat

import (
	"encoding/json"
	"math"
	"strconv"
)

// Float is a float64 whose JSON form is always a number: +Inf and −Inf are
// written as ±1.7976931348623157e308 (the largest finite double, as
// METHODS.md asks) and NaN as null.
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

// UnmarshalJSON implements json.Unmarshaler.
func (fs *Floats) UnmarshalJSON(b []byte) error {
	var raw []Float
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make([]float64, len(raw))
	for i, v := range raw {
		out[i] = float64(v)
	}
	*fs = out
	return nil
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
