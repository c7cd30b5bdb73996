package selection

import (
	"context"
	"math"
	"testing"
)

// BenchmarkL20Lipschitz compares the two step constants of nmAPG on real
// data (K = 10, γ = 0.1, ρ = 0.01ρ_max, Algorithm 2, no refinement): the
// tight spectral L_μ = (σ_max(A)² + γ)/μ and the paper's (||A||_F² + pγ)/μ.
// Besides the time of a fit it reports the exact objective (3.2) at the
// end of the penalised phase (F_pen), the objective of (2.3) returned, and
// iters_to_ref: the first iteration at which F (3.2) comes within 0.1% of
// the best F_pen of the two rules, and iters_to_other: the first at which
// it comes within 0.1% of the other rule's final F_pen (the same
// objective, reached sooner or not at all).
func BenchmarkL20Lipschitz(b *testing.B) {
	for _, name := range []string{"lung_discrete.csv.gz", "lymphoma.csv.gz"} {
		p := l20Dataset(b, name, nil)
		fits := map[LipschitzRule]*L20Fit{}
		ref := math.Inf(1)
		for _, rule := range []LipschitzRule{SpectralLipschitz, FrobeniusLipschitz} {
			l := NewL20(10)
			l.Lipschitz, l.Swaps = rule, 0
			f, err := l.SolvePath(context.Background(), p, nil, []int{10})
			if err != nil {
				b.Fatal(err)
			}
			fits[rule] = f[0]
			ref = math.Min(ref, penalisedEnd(f[0]))
		}
		for _, rule := range []LipschitzRule{SpectralLipschitz, FrobeniusLipschitz} {
			b.Run(name[:len(name)-7]+"_K10/"+lipschitzNames[rule], func(b *testing.B) {
				l := NewL20(10)
				l.Lipschitz, l.Swaps = rule, 0
				for b.Loop() {
					if _, err := l.SolvePath(context.Background(), p, nil, []int{10}); err != nil {
						b.Fatal(err)
					}
				}
				f, other := fits[rule], fits[1-rule]
				b.ReportMetric(penalisedEnd(f), "F_pen")
				b.ReportMetric(f.Objective, "objective")
				b.ReportMetric(float64(f.Iterations-f.ReoptIterations), "iters_pen")
				b.ReportMetric(reached(f, ref), "iters_to_ref")
				b.ReportMetric(reached(f, penalisedEnd(other)), "iters_to_other")
			})
		}
	}
}

// reached returns the first iteration of the penalised phase of f at which
// F (3.2) is within 0.1% of target, or NaN.
func reached(f *L20Fit, target float64) float64 {
	for k, v := range f.Exact[:f.Iterations-f.ReoptIterations] {
		if v <= target*1.001 {
			return float64(k + 1)
		}
	}
	return math.NaN()
}

// penalisedEnd is the exact objective (3.2) at the end of the penalised
// phase.
func penalisedEnd(f *L20Fit) float64 { return f.Exact[f.Iterations-f.ReoptIterations-1] }

// BenchmarkTopK times the ALM (1000 iterations at most) on real data.
func BenchmarkTopK(b *testing.B) {
	benchmarkFits(b, func(p *Problem) (*Result, error) { return NewTopK(10).Fit(context.Background(), p, nil) })
}

// BenchmarkL20 times a default fit (Algorithm 2, projection, refinement)
// on real data.
func BenchmarkL20(b *testing.B) {
	benchmarkFits(b, func(p *Problem) (*Result, error) { return NewL20(10).Fit(context.Background(), p, nil) })
}

// benchmarkFits times fit with K = 10 on lung_discrete and lymphoma and
// reports the objective and the iterations.
func benchmarkFits(b *testing.B, fit func(*Problem) (*Result, error)) {
	for _, name := range []string{"lung_discrete.csv.gz", "lymphoma.csv.gz"} {
		p := l20Dataset(b, name, nil)
		b.Run(name[:len(name)-7]+"_K10", func(b *testing.B) {
			var res *Result
			for b.Loop() {
				var err error
				if res, err = fit(p); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(res.Objective, "objective")
			b.ReportMetric(float64(res.Iterations), "iters")
		})
	}
}
