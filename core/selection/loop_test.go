package selection

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// A geometric sequence f(k) = 1 + 2^−k converges by the relative-change
// rule at the first k with 2^−k ≤ tol·f(k), i.e. 2^−k ≤ 1e−6(1+2^−k):
// 2^−19 ≈ 1.9e−6 fails, 2^−20 ≈ 9.5e−7 passes, so k = 20.
func TestIterateConverges(t *testing.T) {
	var reports []Progress
	s := &Settings{Progress: func(p Progress) { reports = append(reports, p) }}
	run, err := Iterate(context.Background(), s, func(k int) (float64, Status, error) {
		return 1 + math.Pow(2, -float64(k)), NotTerminated, nil
	})
	if err != nil || run.Status != Converged || run.Iterations != 20 || len(run.Trace) != 20 || len(reports) != 20 {
		t.Fatalf("run %+v, %d reports, err %v", run, len(reports), err)
	}
	if run.Objective != run.Trace[19] || reports[19].Iteration != 20 || reports[19].MaxIterations != DefaultMaxIterations {
		t.Errorf("objective %v, last report %+v", run.Objective, reports[19])
	}
}

func TestIterateLimitAndMethodRule(t *testing.T) {
	s := &Settings{MaxIterations: 7, Tolerance: -1}
	run, _ := Iterate(context.Background(), s, func(k int) (float64, Status, error) { return 1, NotTerminated, nil })
	if run.Status != IterationLimit || run.Iterations != 7 || !run.Status.Early() {
		t.Errorf("limit: %+v", run)
	}
	run, _ = Iterate(context.Background(), s, func(k int) (float64, Status, error) {
		if k == 3 {
			return 0, MethodConverged, nil
		}
		return float64(10 - k), NotTerminated, nil
	})
	if run.Status != MethodConverged || run.Iterations != 3 || run.Status.Early() {
		t.Errorf("method rule: %+v", run)
	}
}

func TestIterateCancelAndError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	run, err := Iterate(ctx, nil, func(k int) (float64, Status, error) {
		if k == 5 {
			cancel()
		}
		return float64(k), NotTerminated, nil
	})
	if err != context.Canceled || run.Status != Cancelled || run.Iterations != 5 {
		t.Errorf("cancel: %+v, %v", run, err)
	}
	boom := errors.New("singular")
	if _, err := Iterate(context.Background(), nil, func(k int) (float64, Status, error) { return 0, NotTerminated, boom }); err != boom {
		t.Errorf("step error: %v", err)
	}
}

func TestStatusNames(t *testing.T) {
	for s := NotTerminated; s <= ClosedForm; s++ {
		if name := s.String(); name == "unknown" || strings.ContainsAny(name, " -") {
			t.Errorf("Status(%d) = %q", s, name)
		}
	}
}

func TestResolve(t *testing.T) {
	spec := &Spec{Name: "demo", Kind: Embedded, Params: []Param{
		{Name: "gamma", Default: 1, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "regularisation"},
		{Name: "p", Default: 0.5, Min: 0, Max: 1, MinOpen: true, Doc: "norm exponent"},
	}}
	got, err := spec.Resolve(map[string]any{"p": 1.0})
	if err != nil || got["gamma"] != 1 || got["p"] != 1 || got["max_iter"] != DefaultMaxIterations || got["tol"] != DefaultTolerance {
		t.Fatalf("Resolve = %v, %v", got, err)
	}
	if s := got.Settings(); s.MaxIterations != DefaultMaxIterations || s.Tolerance != DefaultTolerance {
		t.Errorf("Settings = %+v", s)
	}
	for user, fragment := range map[string]map[string]any{
		`no parameter "gama"; its parameters are gamma, p, max_iter, tol`: {"gama": 1.0},
		"parameter p = 0 is invalid: it must be a number in (0, 1]":       {"p": 0.0},
		"parameter gamma = NaN is invalid":                                {"gamma": math.NaN()},
		"max_iter = 2.5 is invalid: it must be a whole number":            {"max_iter": "2.5"},
		`parameter gamma: "big" is not a number`:                          {"gamma": "big"},
	} {
		if _, err := spec.Resolve(fragment); err == nil || !strings.Contains(err.Error(), user) {
			t.Errorf("Resolve(%v) error %v, want %q", fragment, err, user)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "fisher") {
		t.Errorf("Lookup(nope): %v", err)
	}
}

// A categorical parameter takes a choice by name (any case) or index, and is
// shown by name.
func TestResolveChoices(t *testing.T) {
	spec := &Spec{Name: "demo", Kind: Filter, Params: []Param{
		{Name: "criterion", Default: 0, Choices: []string{"MID", "MIQ"}, Doc: "difference or quotient"},
		{Name: "k", Default: 10, Min: 1, Max: 100, Integer: true, Doc: "neighbours"},
	}}
	for _, in := range []any{"miq", "MIQ", 1.0, 1, " MIQ "} {
		got, err := spec.Resolve(map[string]any{"criterion": in, "k": "7"})
		if err != nil || got["criterion"] != 1 || got["k"] != 7 {
			t.Errorf("Resolve(%v) = %v, %v", in, got, err)
		}
	}
	shown := spec.Display(Params{"criterion": 1, "k": 7})
	if shown["criterion"] != "MIQ" || shown["k"] != 7.0 {
		t.Errorf("Display = %v", shown)
	}
	for _, bad := range []any{"MIX", 2.0, 0.5} {
		if _, err := spec.Resolve(map[string]any{"criterion": bad}); err == nil || !strings.Contains(err.Error(), "one of MID, MIQ") {
			t.Errorf("Resolve(%v): %v", bad, err)
		}
	}
}
