package api

// Parameters of a selection method: their defaults, ranges, choices and
// documentation, how a value given by a person or in JSON is read, and how
// it is checked, with the messages people see. Package selection
// (core/selection) registers its methods with them and checks every request;
// the page (ui/) checks what is typed into its forms with the same code
// (through core/plan), so that both accept the same values and say the
// same things.

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Param describes one parameter of a method. A numeric parameter has a
// range; a categorical one has Choices, and its value (and Default) is the
// index of the choice — people and JSON name the choice instead.
type Param struct {
	Name    string  `json:"name"`
	Default float64 `json:"default"`
	// Choices, if set, make the parameter categorical.
	Choices []string `json:"choices,omitempty"`
	// Min and Max bound the value (inclusive unless MinOpen/MaxOpen).
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	MinOpen bool    `json:"min_open,omitempty"`
	MaxOpen bool    `json:"max_open,omitempty"`
	// Integer requires a whole number.
	Integer bool `json:"integer,omitempty"`
	// Doc is a one-line explanation for people.
	Doc string `json:"doc"`
}

// MarshalJSON writes an infinite bound as the largest finite double, as
// every response writes +Inf (JSON has no infinity; see Float).
func (p Param) MarshalJSON() ([]byte, error) {
	type plain Param
	q := plain(p)
	finite := func(v float64) float64 {
		if math.IsInf(v, 0) {
			return math.Copysign(math.MaxFloat64, v)
		}
		return v
	}
	q.Min, q.Max = finite(q.Min), finite(q.Max)
	return json.Marshal(q)
}

// Check returns an error naming the method and the parameter if v is
// outside the parameter's range (or, for a categorical parameter, is not
// the index of a choice).
func (p *Param) Check(method string, v float64) error {
	if len(p.Choices) > 0 {
		if v < 0 || v >= float64(len(p.Choices)) || v != math.Trunc(v) {
			return fmt.Errorf("%s: parameter %s must be %s (%s)", method, p.Name, p.Range(), p.Doc)
		}
		return nil
	}
	bad := math.IsNaN(v) || math.IsInf(v, 0) ||
		v < p.Min || (p.MinOpen && v == p.Min) ||
		v > p.Max || (p.MaxOpen && v == p.Max) ||
		(p.Integer && v != math.Trunc(v))
	if !bad {
		return nil
	}
	return fmt.Errorf("%s: parameter %s = %v is invalid: it must be %s (%s)", method, p.Name, v, p.Range(), p.Doc)
}

// Range describes the values the parameter allows: "one of l21,
// frobenius", "a whole number in [1, 10000000]", "a number in (0, ∞]".
// A bound of ±1.7976931348623157e308 (an infinite one, as JSON carries
// it) reads as ±∞.
func (p *Param) Range() string {
	if len(p.Choices) > 0 {
		return "one of " + strings.Join(p.Choices, ", ")
	}
	lo, hi := "[", "]"
	if p.MinOpen {
		lo = "("
	}
	if p.MaxOpen {
		hi = ")"
	}
	kind := "a number"
	if p.Integer {
		kind = "a whole number"
	}
	return kind + " in " + lo + bound(p.Min) + ", " + bound(p.Max) + hi
}

// bound writes a range's bound: ±∞, a whole number in full, or the
// shortest exact form.
func bound(v float64) string {
	switch {
	case v >= math.MaxFloat64:
		return "∞"
	case v <= -math.MaxFloat64:
		return "−∞"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Parse reads a value given by a person or in JSON: a number, or for a
// categorical parameter the name of a choice (case-insensitive) or its
// index. It does not check the range (Check does).
func (p *Param) Parse(method string, v any) (float64, error) {
	if s, ok := v.(string); ok {
		s = strings.TrimSpace(s)
		for i, c := range p.Choices {
			if strings.EqualFold(c, s) {
				return float64(i), nil
			}
		}
		if _, err := Number(s); err != nil && len(p.Choices) > 0 {
			return 0, fmt.Errorf("%s: parameter %s must be one of %s, not %q", method, p.Name, strings.Join(p.Choices, ", "), s)
		}
	}
	f, err := Number(v)
	if err != nil {
		return 0, fmt.Errorf("%s: parameter %s: %w", method, p.Name, err)
	}
	return f, nil
}

// Number reads a number given in JSON (a float64, or an int from Go) or as
// decimal text (surrounding space ignored; Go's hexadecimal and
// underscored literals, which no spreadsheet writes, are refused).
func Number(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case string:
		t := strings.TrimSpace(x)
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || strings.ContainsAny(t, "xX_") {
			return 0, fmt.Errorf("%q is not a number", x)
		}
		return f, nil
	}
	return 0, fmt.Errorf("%v is not a number", v)
}
