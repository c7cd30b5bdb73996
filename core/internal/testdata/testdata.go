// Package testdata locates the shared benchmark datasets (the directory
// shared/data beside the repository) for tests and benchmarks, which read
// them in place: they are never copied into the repository. They are the
// feature-selection benchmark collection that scikit-feature redistributes
// (jundongl/scikit-feature, skfeature/data/*.mat), converted to
// gzip-compressed CSV files (GLIOMA.csv.gz, …; the class in the last
// column); docs/results.md#datasets says where they come from.
//
// The directory is $SPARSEFS_DATA when that is set, otherwise the first
// shared/data found beside the working directory or one of its parents.
// Where it is absent (a user's own clone), tests that need it are skipped
// with a message saying so, unless $SPARSEFS_REQUIRE_DATA is set (as CI
// sets it), when they fail instead.
package testdata

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	once sync.Once
	dir  string
)

// Dir returns the shared data directory, or "" if there is none.
func Dir() string {
	once.Do(func() {
		if d := os.Getenv("SPARSEFS_DATA"); d != "" {
			dir = d
			return
		}
		wd, err := os.Getwd()
		if err != nil {
			return
		}
		for d := wd; ; d = filepath.Dir(d) {
			cand := filepath.Join(d, "shared", "data")
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				dir = cand
				return
			}
			if filepath.Dir(d) == d {
				return
			}
		}
	})
	return dir
}

// Path returns the path of a shared dataset file, skipping the test (or
// benchmark) when the shared data are not there.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	d := Dir()
	skip := tb.Skipf
	if os.Getenv("SPARSEFS_REQUIRE_DATA") != "" {
		skip = tb.Fatalf
	}
	if d == "" {
		skip("shared datasets not found (set SPARSEFS_DATA or place shared/data beside the repository); skipping the test on %s", name)
	}
	p := filepath.Join(d, name)
	if _, err := os.Stat(p); err != nil {
		skip("shared dataset %s not found in %s; skipping", name, d)
	}
	return p
}
