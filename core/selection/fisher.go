package selection

import "context"

// Fisher is the Fisher score filter of docs/methods.md#fisher,
//
//	F(j) = Σ_k m_k (μ_kj − μ_j)² / Σ_k m_k σ_kj²,
//
// the ratio of between-class to within-class scatter of feature j, with m_k
// the size of class k, μ_kj its mean of feature j, μ_j the overall mean and
// σ_kj² the population variance of feature j in class k (so the denominator
// is the within-class sum of squares). A feature constant within every class
// but not overall scores +Inf; a constant feature scores 0.
//
// Reference: R. O. Duda, P. E. Hart, D. G. Stork, Pattern Classification,
// 2nd ed., Wiley 2001, §3.8.2; Q. Gu, Z. Li, J. Han, "Generalized Fisher
// score for feature selection", UAI 2011, Eq. (1).
type Fisher struct{}

var _ Selector = Fisher{}

// Fit scores every feature; it ignores s except for progress reports.
func (Fisher) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cs, err := anova(ctx, p, s)
	if err != nil {
		return nil, err
	}
	scores := make([]float64, len(cs.between))
	for j := range scores {
		scores[j] = ratio(cs.between[j], cs.within[j])
	}
	return tiedFilterResult(scores), nil
}

func init() {
	Register(&Spec{
		Name:  "fisher",
		Title: "Fisher score",
		Doc:   "between-class over within-class scatter of each feature",
		Paper: "Duda, Hart & Stork, Pattern Classification (2001) §3.8.2",
		Kind:  Filter,
		New:   func(Params) (Selector, error) { return Fisher{}, nil },
	})
}
