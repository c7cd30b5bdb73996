package selection_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
	"sparsefs/core/selection"
)

// demoFold returns the training part of split (0-based) of the four folds
// (seed 7) of the breast-cancer demo, z-scored on itself with the bias on,
// as job.Run's eval plan builds it for the page and the CLI.
func demoFold(t testing.TB, split int) *selection.Problem {
	t.Helper()
	const demo = "../../assets/demo/breast-cancer-wisconsin.csv"
	raw, err := os.ReadFile(demo)
	if err != nil {
		t.Fatal(err)
	}
	var req api.Request
	plan := `{"op":"eval-plan","eval":{"methods":[{"method":"rfs"}],"k":[10],"protocol":{"kind":"cv","folds":4},"seed":7}}`
	if err := json.Unmarshal([]byte(plan), &req); err != nil {
		t.Fatal(err)
	}
	resp, err := job.Run(context.Background(), &req, job.Input{Raw: raw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	test := resp.EvalPart.Header.Splits[split].Test
	ds, err := dataset.Parse(raw, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, n := ds.X.Dims()
	var rows []int
	for i := 0; i < m; i++ {
		if !slices.Contains(test, i) {
			rows = append(rows, i)
		}
	}
	x := mat.NewDense(len(rows), n, nil)
	y := make([]int, len(rows))
	for k, i := range rows {
		x.SetRow(k, ds.X.RawRowView(i))
		y[k] = ds.Y[i]
	}
	return &selection.Problem{X: dataset.FitScaler(dataset.ZScore, x).Transform(x), Y: y, C: len(ds.Classes), Bias: true}
}

// On the second of the four folds (seed 7) of the breast-cancer demo that
// the page evaluates, rfs at the default rule stopped, natively, 1.2·10⁻⁴
// above the optimum with feature 29 tenth and 12 eleventh, where the
// optimum (and the wasm build, whose rounding took another path) has 12
// ninth with a clear margin (0.132 against 0.109): the window of three
// plain steps after an accelerated one had been met by a lull whose
// decreases were growing (settled in irls.go, docs/notes/irls-demo-fold.md).
// The default solver must now stop within 2·10⁻⁵ of the optimum of the
// independent Newton solver (irls_ref_test.go) on the fold's training part,
// as job.Run builds it, and with the optimum's top 10.
func TestRFSDemoFoldStopsNearOptimum(t *testing.T) {
	p := demoFold(t, 1)
	_, n := p.X.Dims()
	wOpt, jOpt := selection.IRLSNewtonOptimum(t, p.Design(), p.Response(selection.OneHot), 1, 1)
	opt := make([]float64, n)
	for j := range opt {
		opt[j] = mat.Norm(wOpt.RowView(j), 2)
	}
	want := selection.RankByScore(opt)[:10]
	slices.Sort(want)
	res, err := selection.RFS{}.Fit(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(res.Ranking[:10])
	slices.Sort(got)
	gap := (res.Objective - jOpt) / jOpt
	t.Logf("J − J* = %.2g relative after %d iterations; top 10 %v, the optimum's %v", gap, res.Iterations, got, want)
	if gap > 2e-5 || gap < -1e-9 {
		t.Errorf("J − J* = %.3g relative, want within [−1e−9, 2e−5]", gap)
	}
	if !slices.Equal(got, want) {
		t.Errorf("top 10 %v, the optimum's %v", got, want)
	}
}

// rfs (γ = 1) on the whole breast-cancer demo, z-scored with the bias on as
// the CLI and the page fit it, stops certified (status converged, gap
// ≤ 10⁻⁶, a bound: dual ≤ J* of the independent Newton solver) and its
// smoothed Newton minimum stops at the first stage that certifies 10⁻⁶
// (with one full Newton step after a stage that does not): at most 36
// Newton steps (measured 28 natively, 35 in wasm, where the iteration
// stops farther from the optimum; gap 4·10⁻⁷). Before, its three stages
// and two full steps always ran: 40 + 2 steps natively (45 + 2 in wasm)
// to a gap of 4.3·10⁻⁸, more work than the fit's 94 iterations.
func TestRFSDemoCertifiedStopIsBounded(t *testing.T) {
	p := selection.DemoProblem(t, "breast-cancer-wisconsin.csv")
	res, err := selection.RFS{}.Fit(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, jOpt := selection.IRLSNewtonOptimum(t, p.Design(), p.Response(selection.OneHot), 1, 1)
	c := res.Certificate
	if c == nil || res.Status != selection.Converged || c.Gap > 1e-6 || c.Dual > jOpt*(1+1e-12) {
		t.Fatalf("status %s, certificate %+v (J* %.15g): want converged, gap ≤ 1e−6, dual ≤ J*", res.Status, c, jOpt)
	}
	t.Logf("gap %.2g, J − J* = %.2g, %d Newton steps, %d iterations", c.Gap, (res.Objective-jOpt)/jOpt, c.NewtonSteps, res.Iterations)
	if c.NewtonSteps > 36 {
		t.Errorf("%d Newton steps to a gap of %.2g: want at most 36 (the first stage that certifies 1e−6)", c.NewtonSteps, c.Gap)
	}
}
