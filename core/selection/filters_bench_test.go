package selection

import (
	"context"
	"fmt"
	"testing"
)

// Benchmarks of the six filters on real data (z-scored, as the CLI runs
// them), with the sizes in the names:
//
//	go test ./core/selection -run '^$' -bench Filters -benchtime 1x
//
// GLIOMA is a typical microarray (few samples, many features), USPS the
// largest sample count of the shared datasets (ReliefF's O(m²n) worst
// case) and arcene the largest feature count (mRMR's O(n²m) worst case
// when every feature is ranked greedily).
func BenchmarkFilters(b *testing.B) {
	for _, file := range []string{"GLIOMA.csv.gz", "USPS.csv.gz"} {
		_, zs := realProblem(b, file, 1, 1)
		m, n := zs.X.Dims()
		for _, name := range []string{"fisher", "fstat", "ttest", "infogain", "relieff", "mrmr"} {
			benchFilter(b, fmt.Sprintf("%s/%s_%dx%d", name, file[:len(file)-7], m, n), name, zs, nil)
		}
	}
}

// BenchmarkMRMRTop100 is the scale requirement of mRMR: the top 100 of
// arcene's 10,000 features, against the full greedy order.
func BenchmarkMRMRTop100(b *testing.B) {
	_, zs := realProblem(b, "arcene.csv.gz", 1, 1)
	m, n := zs.X.Dims()
	for _, k := range []int{100, 0} {
		benchFilter(b, fmt.Sprintf("arcene_%dx%d/k=%d", m, n, k), "mrmr", zs, map[string]any{"k": k})
	}
}

func benchFilter(b *testing.B, label, name string, p *Problem, params map[string]any) {
	sel, _ := newSelector(b, name, params)
	b.Run(label, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sel.Fit(context.Background(), p, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
