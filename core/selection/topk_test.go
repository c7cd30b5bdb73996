package selection

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
)

// The Woodbury (m×m) and primal (n×n) forms of the W-update, with XΛ
// tracked in the former, are the same algorithm: run both on one problem
// (m = 73 < n = 120) and compare every objective of the trace and V.
func TestTopKBranchesAgree(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", seededCols(325, 120, 11))
	defer func(f func(m, n int) bool) { topkDual = f }(topkDual)
	run := func(dual bool) *Result {
		topkDual = func(m, n int) bool { return dual }
		res, err := NewTopK(7).Fit(context.Background(), p, &Settings{MaxIterations: 300})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(true), run(false)
	if len(a.Trace) != len(b.Trace) {
		t.Fatalf("trace lengths %d and %d", len(a.Trace), len(b.Trace))
	}
	for k := range a.Trace {
		if math.Abs(a.Trace[k]-b.Trace[k]) > 1e-7*math.Abs(b.Trace[k]) {
			t.Fatalf("iteration %d: Woodbury %.12g, primal %.12g", k+1, a.Trace[k], b.Trace[k])
		}
	}
	if !mat.EqualApprox(a.W, b.W, 1e-6) {
		t.Error("the two forms end at different W")
	}
}

// The reported objective is ||[X 1]W − Y||_{2,1} at the returned W on the
// uncentred data (the intercept converted back from the centred X), W has
// exactly K nonzero feature rows, and the trace ends at the objective.
// Min–max scaled data, so that centring matters.
func TestTopKObjectiveAndIntercept(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", nil)
	raw := p.X
	m, n := raw.Dims()
	// Undo the z-score into a shifted, scaled copy.
	x := mat.NewDense(m, n, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			x.Set(i, j, 3+0.5*raw.At(i, j))
		}
	}
	q := &Problem{X: dataset.FitScaler(dataset.None, x).Transform(x), Y: p.Y, C: p.C, Bias: true}
	for _, k := range []int{1, 5, 20} {
		res, err := NewTopK(k).Fit(context.Background(), q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := l21Objective(q, res.W, 0); math.Abs(got-res.Objective) > 1e-9*got {
			t.Errorf("K=%d: objective %v, recomputed %v", k, res.Objective, got)
		}
		if nz := NonzeroRows(res.Scores, 0); nz != k {
			t.Errorf("K=%d: %d nonzero rows", k, nz)
		}
		if res.Trace[len(res.Trace)-1] != res.Objective || res.Iterations != len(res.Trace) {
			t.Errorf("K=%d: trace end %v, objective %v", k, res.Trace[len(res.Trace)-1], res.Objective)
		}
	}
}

// topk's model is (2.3) with γ = 0: its reported objective is that of a
// feasible point, so it can never be below the global optimum found by
// brute force (the IRLS of l20_test.go with γ = 0). The ALM is a heuristic
// without a guarantee; the ratio is logged.
func TestTopKNotBelowGlobalOptimum(t *testing.T) {
	p := l20Dataset(t, "GLIOMA.csv.gz", seededCols(4434, 9, 3))
	for _, k := range []int{1, 2, 3} {
		opt, _ := bruteForceL20(p, k, 0)
		res, err := NewTopK(k).Fit(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Objective < opt*(1-1e-6) {
			t.Errorf("K=%d: topk objective %.10g below the global optimum %.10g", k, res.Objective, opt)
		}
		t.Logf("K=%d: topk %.8g, optimum %.8g (ratio %.4f)", k, res.Objective, opt, res.Objective/opt)
	}
}
