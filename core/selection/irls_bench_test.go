package selection

import (
	"context"
	"testing"
)

// BenchmarkIRLS times rfs (γ = 1) on the microarray sets of the issue to
// the default stopping rule (relative change 10⁻⁶), as numpy_rfs.py does,
// with the default (accelerated) solver and with Algorithm 1 as published
// (rfs-irls), and reports the iterations and the objective.
// scripts/bench_irls.sh puts these figures beside numpy's, node's and
// Chromium's.
func BenchmarkIRLS(b *testing.B) {
	for _, c := range []struct {
		name, file string
		sel        Selector
	}{
		{"rfs/GLIOMA_50x4434", "GLIOMA.csv.gz", RFS{}},
		{"rfs/lymphoma_96x4026", "lymphoma.csv.gz", RFS{}},
		{"rfs/ALLAML_72x7129", "ALLAML.csv.gz", RFS{}},
		{"rfs-irls/GLIOMA_50x4434", "GLIOMA.csv.gz", RFS{Solver: IRLSPlain}},
		{"rfs-irls/lymphoma_96x4026", "lymphoma.csv.gz", RFS{Solver: IRLSPlain}},
		{"rfs-irls/ALLAML_72x7129", "ALLAML.csv.gz", RFS{Solver: IRLSPlain}},
		{"gsr/GLIOMA_50x4434", "GLIOMA.csv.gz", GSR{}},
		{"mtfs/GLIOMA_50x4434", "GLIOMA.csv.gz", MTFS{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p := irlsRealProblem(b, c.file)
			var res *Result
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if res, err = c.sel.Fit(context.Background(), p, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Iterations), "iterations")
			b.ReportMetric(res.Objective, "objective")
		})
	}
}
