package selection

import (
	"context"
	"math"
	"os"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
)

// Helpers for the checks of the filters against independent reference
// implementations on the shared benchmark datasets.

var (
	realMu    sync.Mutex
	realCache = map[string]*dataset.Dataset{}
)

// realData reads a shared dataset once per test binary (the parse of the
// larger files costs seconds under wasm).
func realData(t testing.TB, file string) *dataset.Dataset {
	t.Helper()
	path := testdata.Path(t, file)
	realMu.Lock()
	defer realMu.Unlock()
	if ds, ok := realCache[file]; ok {
		return ds
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := dataset.Read(f, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	realCache[file] = ds
	return ds
}

// realProblem returns every rowStep-th sample and every colStep-th feature
// of a shared dataset (steps of 1 keep everything), raw and z-scored as the
// CLI preprocesses by default. Taking every rowStep-th row keeps the class
// proportions of files whose rows are grouped by class.
func realProblem(t testing.TB, file string, rowStep, colStep int) (raw, zs *Problem) {
	t.Helper()
	ds := realData(t, file)
	m, n := ds.X.Dims()
	var rows, cols []int
	for i := 0; i < m; i += rowStep {
		rows = append(rows, i)
	}
	for j := 0; j < n; j += colStep {
		cols = append(cols, j)
	}
	x := mat.NewDense(len(rows), len(cols), nil)
	y := make([]int, len(rows))
	for a, i := range rows {
		for b, j := range cols {
			x.Set(a, b, ds.X.At(i, j))
		}
		y[a] = ds.Y[i]
	}
	c := len(ds.Classes)
	raw = &Problem{X: x, Y: y, C: c}
	zs = &Problem{X: dataset.FitScaler(dataset.ZScore, x).Transform(x), Y: y, C: c}
	return raw, zs
}

// native reports whether the tests run natively (not compiled to wasm,
// where they are 5–15× slower): full-size checks run only there.
func native() bool { return runtime.GOARCH != "wasm" }

// newSelector builds a registered method with the given parameters (the
// others take their defaults) and returns it with its loop settings.
func newSelector(tb testing.TB, name string, params map[string]any) (Selector, Settings) {
	tb.Helper()
	spec, err := Lookup(name)
	if err != nil {
		tb.Fatal(err)
	}
	ps, err := spec.Resolve(params)
	if err != nil {
		tb.Fatal(err)
	}
	sel, err := spec.New(ps)
	if err != nil {
		tb.Fatal(err)
	}
	return sel, ps.Settings()
}

// fitWith runs a registered method with the given parameters.
func fitWith(t testing.TB, name string, p *Problem, params map[string]any) *Result {
	t.Helper()
	sel, s := newSelector(t, name, params)
	res, err := sel.Fit(context.Background(), p, &s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// agree checks got against want to rel relative, measured against
// max(|want|, floor): a score that is zero in exact arithmetic comes out
// of either computation as a rounding residue, which the floor absorbs.
// Infinite scores must match exactly; NaN is always an error. It returns
// the worst relative difference.
func agree(t *testing.T, what string, got, want []float64, rel, floor float64) float64 {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d scores, want %d", what, len(got), len(want))
	}
	worst := 0.0
	bad := 0
	for j := range want {
		if math.IsNaN(got[j]) || math.IsNaN(want[j]) {
			t.Fatalf("%s: feature %d: got %v, want %v", what, j, got[j], want[j])
		}
		if math.IsInf(want[j], 0) || math.IsInf(got[j], 0) {
			if got[j] != want[j] {
				t.Errorf("%s: feature %d: got %v, want %v", what, j, got[j], want[j])
			}
			continue
		}
		d := math.Abs(got[j]-want[j]) / math.Max(math.Abs(want[j]), floor)
		worst = math.Max(worst, d)
		if d > rel && bad < 5 {
			bad++
			t.Errorf("%s: feature %d: got %.17g, want %.17g (relative %.2g)", what, j, got[j], want[j], d)
		}
	}
	return worst
}

// checkRanking checks a ranking against independently computed scores: no
// feature is ranked before one with a clearly larger reference score
// (beyond 1e−10 relative), and features whose reference scores agree to
// 1e−13 relative — ties in exact arithmetic, whatever the rounding of
// either computation — are in increasing column order.
func checkRanking(t *testing.T, what string, ranking []int, ref []float64) {
	t.Helper()
	for r := 1; r < len(ranking); r++ {
		a, b := ranking[r-1], ranking[r]
		scale := math.Max(1, math.Abs(ref[a]))
		if math.IsInf(ref[a], 0) || math.IsInf(ref[b], 0) {
			if ref[a] < ref[b] || (ref[a] == ref[b] && a > b) {
				t.Fatalf("%s: rank %d is %d (%v), rank %d is %d (%v)", what, r, a, ref[a], r+1, b, ref[b])
			}
			continue
		}
		if ref[a] < ref[b]-1e-10*scale || (math.Abs(ref[a]-ref[b]) <= 1e-13*scale && a > b) {
			t.Fatalf("%s: rank %d is %d (%.17g), rank %d is %d (%.17g)", what, r, a, ref[a], r+1, b, ref[b])
		}
	}
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	// Two collections empty the sync.Pools (core/linalg's packing space),
	// which a fit's memory estimate counts: f allocates them afresh
	// whatever ran before.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
