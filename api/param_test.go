package api

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

var (
	gamma   = Param{Name: "gamma", Default: 1, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "regularisation"}
	maxIter = Param{Name: "max_iter", Default: 100, Min: 1, Max: 1e7, Integer: true, Doc: "iteration limit"}
	tol     = Param{Name: "tol", Default: 1e-6, Min: 1e-12, Max: 1, MaxOpen: true, Doc: "tolerance"}
	loss    = Param{Name: "loss", Choices: []string{"l21", "frobenius"}, Doc: "loss"}
)

// The ranges as written by hand from the declarations (an infinite bound,
// and the largest double JSON carries for it, read ∞).
func TestRange(t *testing.T) {
	fromJSON := gamma
	fromJSON.Max = math.MaxFloat64
	neg := Param{Min: -math.MaxFloat64, Max: 0}
	for _, c := range []struct {
		p    Param
		want string
	}{
		{gamma, "a number in (0, ∞]"},
		{fromJSON, "a number in (0, ∞]"},
		{neg, "a number in [−∞, 0]"},
		{maxIter, "a whole number in [1, 10000000]"},
		{tol, "a number in [1e-12, 1)"},
		{loss, "one of l21, frobenius"},
	} {
		if got := c.p.Range(); got != c.want {
			t.Errorf("%s: %q, want %q", c.p.Name, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		p    Param
		v    float64
		want string // "" for no error
	}{
		{gamma, 0.5, ""},
		{gamma, 0, "m: parameter gamma = 0 is invalid: it must be a number in (0, ∞] (regularisation)"},
		{gamma, math.Inf(1), "m: parameter gamma = +Inf is invalid"},
		{gamma, math.NaN(), "m: parameter gamma = NaN is invalid"},
		{maxIter, 1e7, ""},
		{maxIter, 2.5, "m: parameter max_iter = 2.5 is invalid: it must be a whole number in [1, 10000000] (iteration limit)"},
		{tol, 1, "parameter tol = 1 is invalid"},
		{tol, 1e-12, ""},
		{loss, 1, ""},
		{loss, 2, "m: parameter loss must be one of l21, frobenius (loss)"},
		{loss, 0.5, "must be one of"},
	} {
		err := c.p.Check("m", c.v)
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s = %v: %v, want %q", c.p.Name, c.v, err, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		p    Param
		v    any
		want float64
		err  string
	}{
		{gamma, 0.25, 0.25, ""},
		{gamma, 3, 3, ""},
		{gamma, " 1e-3 ", 0.001, ""},
		{gamma, "abc", 0, `m: parameter gamma: "abc" is not a number`},
		{gamma, true, 0, "m: parameter gamma: true is not a number"},
		{loss, "FROBENIUS", 1, ""},
		{loss, " l21", 0, ""},
		{loss, "1", 1, ""}, // an index, checked by Check
		{loss, 1.0, 1, ""},
		{loss, "l1", 0, `m: parameter loss must be one of l21, frobenius, not "l1"`},
	} {
		got, err := c.p.Parse("m", c.v)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s %#v: %v, %v; want %v", c.p.Name, c.v, got, err, c.want)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s %#v: error %v, want %q", c.p.Name, c.v, err, c.err)
		}
	}
}

// JSON has no infinity: the bound is written as the largest double.
func TestMarshalJSON(t *testing.T) {
	b, err := json.Marshal(Param{Name: "a", Min: math.Inf(-1), Max: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"name":"a","default":0,"min":-1.7976931348623157e+308,"max":1.7976931348623157e+308,"doc":""}`; string(b) != want {
		t.Errorf("%s, want %s", b, want)
	}
}
