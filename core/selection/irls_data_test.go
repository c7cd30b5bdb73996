package selection

import (
	"os"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
)

// irlsRealData caches the shared datasets read by the tests and benchmarks of
// this package.
var irlsRealData sync.Map

type irlsRealEntry struct {
	raw *mat.Dense // as read
	p   *Problem   // z-scored on the whole file, bias on, as the CLI does
}

func irlsRealLoad(tb testing.TB, file string) irlsRealEntry {
	tb.Helper()
	path := testdata.Path(tb, file)
	if e, ok := irlsRealData.Load(path); ok {
		return e.(irlsRealEntry)
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
	e := irlsRealEntry{raw: ds.X, p: &Problem{X: x, Y: ds.Y, C: len(ds.Classes), Bias: true}}
	irlsRealData.Store(path, e)
	return e
}

// irlsRealProblem returns the problem of a shared dataset, skipping when the
// shared data are absent (failing when SPARSEFS_REQUIRE_DATA is set).
func irlsRealProblem(tb testing.TB, file string) *Problem { return irlsRealLoad(tb, file).p }

// irlsRawData returns the unscaled matrix of a shared dataset.
func irlsRawData(tb testing.TB, file string) *mat.Dense { return irlsRealLoad(tb, file).raw }

// demoData reads a demo file of assets/demo (as the page's demo choice
// loads it).
func demoData(tb testing.TB, file string) *dataset.Dataset {
	tb.Helper()
	raw, err := os.ReadFile("../../assets/demo/" + file)
	if err != nil {
		tb.Fatal(err)
	}
	ds, err := dataset.Parse(raw, dataset.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}

// demoProblem is a demo file's problem z-scored with the bias on, as the
// CLI and the page fit it.
func demoProblem(tb testing.TB, file string) *Problem {
	ds := demoData(tb, file)
	return &Problem{X: dataset.FitScaler(dataset.ZScore, ds.X).Transform(ds.X), Y: ds.Y, C: len(ds.Classes), Bias: true}
}
