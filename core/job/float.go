package job

import "sparsefs/core/jsonfloat"

// Float is a float64 whose JSON form is always a number: +Inf and −Inf are
// written as ±1.7976931348623157e308 (the largest finite double, as
// METHODS.md asks) and NaN as null (see package jsonfloat).
type Float = jsonfloat.Float

// Floats is a slice of float64 marshalled as Float values.
type Floats = jsonfloat.Floats
