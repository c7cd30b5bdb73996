package selection

import "context"

// FStat is the one-way ANOVA F statistic of each feature against the class,
//
//	F(j) = [SSB_j / (c − 1)] / [SSW_j / (m − c)],
//
// with SSB and SSW the between- and within-class sums of squares. It is the
// statistic of scikit-learn's sklearn.feature_selection.f_classif (whose
// docstring example, X = [[1,2],[2,4],[3,7],[4,9]] with y = [0,0,1,1], gives
// F = [50, 16]). Zero denominators follow docs/methods.md#zero-denominators:
// 0/0 = 0 and x/0 = +Inf, where scikit-learn would return NaN or Inf; in
// particular when every class has a single sample (m = c) the within-class
// spread is unknown and F is 0 or +Inf.
//
// Its p-value (docs/methods.md#pvalues), computed when Settings.PValues
// asks for it, is P(F(c − 1, m − c) ≥ F), that of scipy.stats.f_oneway and
// f_classif; a feature constant within every class but not overall (F =
// +Inf) has p = 0, a constant one (F = 0) p = 1, and with m = c it is
// undefined (NaN).
type FStat struct{}

var _ Selector = FStat{}

// Fit scores every feature; it ignores s except for progress reports.
func (FStat) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cs, err := anova(ctx, p, s)
	if err != nil {
		return nil, err
	}
	// Degrees of freedom count the classes present (a training part may
	// lack a class), as f_classif does.
	present := 0
	for _, mk := range cs.counts {
		if mk > 0 {
			present++
		}
	}
	dfb, dfw := float64(present-1), float64(len(p.Y)-present)
	scores := make([]float64, len(cs.between))
	for j := range scores {
		msw := 0.0
		if dfw > 0 {
			msw = cs.within[j] / dfw
		}
		scores[j] = ratio(cs.between[j]/dfb, msw)
	}
	res := tiedFilterResult(scores)
	if s.wantPValues() {
		res.PValues = make([]float64, len(scores))
		for j, f := range scores {
			res.PValues[j] = fisherP(f, dfb, dfw)
		}
	}
	return res, nil
}

func init() {
	Register(&Spec{
		Name:    "fstat",
		Title:   "ANOVA F-statistic",
		Doc:     "one-way analysis-of-variance F of each feature against the class (scikit-learn's f_classif)",
		Paper:   "Fisher, Statistical Methods for Research Workers (1925); scikit-learn f_classif",
		Kind:    Filter,
		PValues: true,
		New:     func(Params) (Selector, error) { return FStat{}, nil },
	})
}
