package selection

import (
	"os"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
)

// realData caches the shared datasets read by the tests and benchmarks of
// this package.
var realData sync.Map

type realEntry struct {
	raw *mat.Dense // as read
	p   *Problem   // z-scored on the whole file, bias on, as the CLI does
}

func realLoad(tb testing.TB, file string) realEntry {
	tb.Helper()
	path := testdata.Path(tb, file)
	if e, ok := realData.Load(path); ok {
		return e.(realEntry)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	ds, err := dataset.Parse(raw, dataset.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	x := dataset.FitScaler(dataset.ZScore, ds.X).Transform(ds.X)
	e := realEntry{raw: ds.X, p: &Problem{X: x, Y: ds.Y, C: len(ds.Classes), Bias: true}}
	realData.Store(path, e)
	return e
}

// realProblem returns the problem of a shared dataset, skipping when the
// shared data are absent (failing when SPARSEFS_REQUIRE_DATA is set).
func realProblem(tb testing.TB, file string) *Problem { return realLoad(tb, file).p }

// rawData returns the unscaled matrix of a shared dataset.
func rawData(tb testing.TB, file string) *mat.Dense { return realLoad(tb, file).raw }
