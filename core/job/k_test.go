package job

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sparsefs/api"
)

// kCSV is a small classification file: 30 samples, 6 features, 3 classes;
// feature f2 tells the classes apart.
func kCSV() []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("f0,f1,f2,f3,f4,f5,label\n")
	for i := 0; i < 30; i++ {
		c := i % 3
		for j := 0; j < 6; j++ {
			v := rng.NormFloat64()
			if j == 2 {
				v += 4 * float64(c)
			}
			fmt.Fprintf(&b, "%.6f,", v)
		}
		fmt.Fprintf(&b, "c%d\n", c)
	}
	return []byte(b.String())
}

// The request's k is the K of the methods that select exactly K features
// (l20, topk): it fills their parameter k, the answer selects K features
// and W has at most K nonzero feature rows.
func TestKFillsTheParameter(t *testing.T) {
	for _, method := range []string{"l20", "topk"} {
		resp, err := Run(context.Background(), &api.Request{Method: method, K: 2}, Input{Raw: kCSV()}, nil)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		s := resp.Selection
		if s.Params["k"] != 2.0 || len(s.Selected) != 2 || s.NonzeroRows == nil || *s.NonzeroRows > 2 || s.Objective == nil {
			t.Errorf("%s: params %v, selected %v, nonzero rows %v", method, s.Params, s.Selected, s.NonzeroRows)
		}
		if s.Ranking[0] != 2 {
			t.Errorf("%s: ranking %v, want feature 2 first", method, s.Ranking)
		}
	}
	// Without the request's k, the parameter (here given) decides and
	// Selected lists that many.
	resp, err := Run(context.Background(), &api.Request{Method: "l20", Params: map[string]any{"k": "3"}}, Input{Raw: kCSV()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := resp.Selection; len(s.Selected) != 3 || s.Params["k"] != 3.0 {
		t.Errorf("param k=3: selected %v, params %v", s.Selected, s.Params)
	}
	// Both, disagreeing: an error naming k.
	_, err = Run(context.Background(), &api.Request{Method: "topk", K: 2, Params: map[string]any{"k": 3.0}}, Input{Raw: kCSV()}, nil)
	if err == nil || !strings.Contains(err.Error(), "k is given twice") {
		t.Errorf("conflicting k: %v", err)
	}
	// More than the data have: an error naming k.
	_, err = Run(context.Background(), &api.Request{Method: "l20", Params: map[string]any{"k": 9.0}}, Input{Raw: kCSV()}, nil)
	if err == nil || !strings.Contains(err.Error(), "k = 9 is out of range") {
		t.Errorf("k = 9 of 6 features: %v", err)
	}
}

// l20 declares its own tol (the switching rule (6.1), 1e−7) and max_iter;
// the method list shows each parameter once with l20's defaults.
func TestL20ParamsListedOnce(t *testing.T) {
	for _, m := range Methods().Methods {
		if m.Name != "l20" && m.Name != "topk" {
			continue
		}
		seen := map[string]int{}
		for _, p := range m.Params {
			seen[p.Name]++
			if m.Name == "l20" && p.Name == "tol" && p.Default != 1e-7 {
				t.Errorf("l20 tol default %v", p.Default)
			}
		}
		for name, n := range seen {
			if n != 1 {
				t.Errorf("%s: parameter %s listed %d times", m.Name, name, n)
			}
		}
		if seen["k"] != 1 || seen["max_iter"] != 1 || seen["tol"] != 1 {
			t.Errorf("%s: params %v", m.Name, seen)
		}
	}
}
