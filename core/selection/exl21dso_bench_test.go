package selection

import (
	"context"
	"fmt"
	"testing"
)

// Benchmarks of exl21 and dso on shared datasets, z-scored with the bias on,
// default tolerance (1e−6) and iteration limit. Each reports the iterations
// and the objective reached besides the time. Run with
//
//	go test -run '^$' -bench 'Exl21|DSO' -benchtime 3x ./core/selection
func BenchmarkExl21(b *testing.B) {
	for _, d := range []struct {
		file string
		size string
	}{{"GLIOMA.csv.gz", "50x4434"}, {"lung_discrete.csv.gz", "73x325"}} {
		p := loadProblem(b, d.file, 1, 1)
		for _, sv := range []Exl21Solver{Exl21CD, Exl21FISTA, Exl21ALM} {
			b.Run(fmt.Sprintf("%s_%s/%v", d.file[:len(d.file)-7], d.size, sv), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					res, err = Exl21{Alpha: 1, Beta: 1, Solver: sv}.Fit(context.Background(), p, &Settings{})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Iterations), "iter")
				b.ReportMetric(res.Objective, "objective")
			})
		}
	}
}

func BenchmarkDSO(b *testing.B) {
	for _, d := range []struct {
		file    string
		size    string
		colStep int
	}{{"GLIOMA.csv.gz", "50x4434", 1}, {"ALLAML.csv.gz", "72x7129", 1}, {"lung_discrete.csv.gz", "73x33", 10}} {
		p := loadProblem(b, d.file, 1, d.colStep)
		for _, pw := range []float64{0.5, 1} {
			b.Run(fmt.Sprintf("%s_%s/p=%v", d.file[:len(d.file)-7], d.size, pw), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					res, err = DSO{P: pw}.Fit(context.Background(), p, &Settings{})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Iterations), "iter")
				b.ReportMetric(res.Objective, "objective")
			})
		}
	}
}

// BenchmarkElasso compares the solvers of elasso (α = 0, β = 1) on wide
// data: reweight certifies tol = 1e−6, cd and fista mostly stop at the
// iteration limit (the iterations metric says which).
//
//	go test -run '^$' -bench Elasso -benchtime 1x ./core/selection
func BenchmarkElasso(b *testing.B) {
	for _, d := range []struct {
		file string
		size string
	}{{"GLIOMA.csv.gz", "50x4434"}, {"ALLAML.csv.gz", "72x7129"}, {"lymphoma.csv.gz", "96x4026"}} {
		p := loadProblem(b, d.file, 1, 1)
		for _, sv := range []Exl21Solver{Exl21Reweight, Exl21CD, Exl21FISTA} {
			b.Run(fmt.Sprintf("%s_%s/%v", d.file[:len(d.file)-7], d.size, sv), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					res, err = Exl21{Beta: 1, Solver: sv}.Fit(context.Background(), p, &Settings{})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Iterations), "iter")
				b.ReportMetric(res.Objective, "objective")
			})
		}
	}
}
