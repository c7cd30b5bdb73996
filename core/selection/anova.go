package selection

import (
	"context"
	"math"

	"sparsefs/api"
)

// classSums holds, per feature j, the between-class sum of squares
// SSB_j = Σ_k m_k (μ_kj − μ_j)² and the within-class sum of squares
// SSW_j = Σ_i (x_ij − μ_{y_i} j)², the two halves of a one-way analysis of
// variance. Both are computed in two passes over X (class means first, then
// deviations from them), which keeps full accuracy when a feature's mean is
// large compared with its spread (the one-pass Σx² − (Σx)²/m loses it).
type classSums struct {
	between, within []float64
	counts          []int
}

func anova(ctx context.Context, p *Problem, s *Settings) (*classSums, error) {
	m, n := p.X.Dims()
	counts := make([]int, p.C)
	means := make([][]float64, p.C)
	for k := range means {
		means[k] = make([]float64, n)
	}
	for i := 0; i < m; i++ {
		counts[p.Y[i]]++
		acc := means[p.Y[i]]
		for j, v := range p.X.RawRowView(i) {
			acc[j] += v
		}
	}
	total := make([]float64, n)
	for k, mk := range means {
		for j := range mk {
			total[j] += mk[j]
			if counts[k] > 0 {
				mk[j] /= float64(counts[k])
			}
		}
	}
	for j := range total {
		total[j] /= float64(m)
	}
	cs := &classSums{between: make([]float64, n), within: make([]float64, n), counts: counts}
	for k, mk := range means {
		for j := range mk {
			d := mk[j] - total[j]
			cs.between[j] += float64(counts[k]) * d * d
		}
	}
	for i := 0; i < m; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: float64(i) / float64(m)})
		}
		mk := means[p.Y[i]]
		for j, v := range p.X.RawRowView(i) {
			d := v - mk[j]
			cs.within[j] += d * d
		}
	}
	return cs, nil
}

// ratio returns a/b with the conventions for a zero denominator
// (docs/methods.md#zero-denominators): 0/0 = 0 and x/0 = +Inf for x > 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return a / b
}
