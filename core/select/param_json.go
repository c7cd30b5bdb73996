package selection

import (
	"encoding/json"
	"math"

	"sparsefs/core/jsonfloat"
)

// MarshalJSON implements json.Marshaler: an unbounded range (Min = −∞ or
// Max = +∞, as a regularisation weight in (0, ∞) has) is written as the
// largest finite double, which JSON can carry.
func (p Param) MarshalJSON() ([]byte, error) {
	type plain Param
	return json.Marshal(struct {
		plain
		Min jsonfloat.Float `json:"min"`
		Max jsonfloat.Float `json:"max"`
	}{plain(p), jsonfloat.Float(p.Min), jsonfloat.Float(p.Max)})
}

// UnmarshalJSON implements json.Unmarshaler, reading the largest finite
// double back as an infinite bound.
func (p *Param) UnmarshalJSON(b []byte) error {
	type plain Param
	var q plain
	if err := json.Unmarshal(b, &q); err != nil {
		return err
	}
	if q.Max == math.MaxFloat64 {
		q.Max = math.Inf(1)
	}
	if q.Min == -math.MaxFloat64 {
		q.Min = math.Inf(-1)
	}
	*p = Param(q)
	return nil
}
