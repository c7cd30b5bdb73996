//go:build e2e

package main

import (
	"context"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/selection"
)

// e2eSlow is a test double for the browser tests, compiled into the worker
// only with -tags e2e (build.sh builds dist-e2e/ with it): an embedded
// "method" with a parameter, a known objective trace and a known W, that
// takes as long as asked. It lets the tests exercise parameter grids, the
// pool's progress and cancel, convergence plots and |W| heat maps before
// the real embedded selectors are merged.
//
// Its "fit" busy-computes for ms milliseconds per iteration (the worker is
// blocked, as by a real solver), with the objective 1 + 1/k after
// iteration k, and stops at max_iter iterations; then it takes certify
// steps of ms milliseconds each, reported as a certificate's steps are
// (api.PhaseCertifying). W[j][q] = (q+1)/(j+1)
// (shape "flat", the default) or (q+1)/(j+1)² (shape "steep", a
// categorical parameter), so the ranking is the column order.
type e2eSlow struct {
	ms      float64
	steep   bool
	certify int
}

// busy computes for ms milliseconds.
func busy(ms float64) {
	end := time.Now().Add(time.Duration(ms * float64(time.Millisecond)))
	x := 0.0
	for time.Now().Before(end) {
		for i := 0; i < 1000; i++ {
			x += math.Sqrt(float64(i))
		}
	}
	_ = x
}

func (s e2eSlow) Fit(ctx context.Context, p *selection.Problem, st *selection.Settings) (*selection.Result, error) {
	_, n := p.X.Dims()
	c := max(p.C, 1)
	w := mat.NewDense(n, c, nil)
	for j := 0; j < n; j++ {
		for q := 0; q < c; q++ {
			d := float64(j + 1)
			if s.steep {
				d *= d
			}
			w.Set(j, q, float64(q+1)/d)
		}
	}
	run, err := selection.Iterate(ctx, st, func(k int) (float64, selection.Status, error) {
		busy(s.ms)
		return 1 + 1/float64(k), selection.NotTerminated, nil
	})
	if err != nil {
		return nil, err
	}
	for step := 0; step <= s.certify && s.certify > 0; step++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if step > 0 {
			busy(s.ms)
		}
		st.Report(selection.Progress{Iteration: run.Iterations, MaxIterations: run.Iterations, Objective: api.Float(run.Objective), Fraction: 1, Phase: api.PhaseCertifying, Steps: step})
	}
	return selection.EmbeddedResult(w, n, run), nil
}

func init() {
	selection.Register(&selection.Spec{
		Name: "e2e_slow", Title: "Slow test double (browser tests only)", Doc: "waits, with a known trace and W",
		Paper: "none: a test double", Kind: selection.Embedded,
		Params: []selection.Param{
			{Name: "ms", Default: 10, Min: 0, Max: 10000, Doc: "milliseconds of work per iteration"},
			{Name: "shape", Default: 0, Choices: []string{"flat", "steep"}, Doc: "how fast the weights fall"},
			{Name: "certify", Default: 0, Min: 0, Max: 10000, Integer: true, Doc: "steps of ms milliseconds after the iterations, reported as a certificate's"},
		},
		New: func(p selection.Params) (selection.Selector, error) {
			return e2eSlow{ms: p["ms"], steep: p["shape"] == 1, certify: int(p["certify"])}, nil
		},
	})
}
