package job

import "sparsefs/core/jsonnum"

// Float is a float64 whose JSON form is always a number or null; see
// jsonnum.Float.
type Float = jsonnum.Float

// Floats is a slice of float64 marshalled as Float values.
type Floats = jsonnum.Floats
