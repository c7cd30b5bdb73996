package selection

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"sparsefs/api"
	"sparsefs/core/internal/budget"
	"sparsefs/core/stats"
)

// Consensus aggregates the rankings of several methods fitted to the same
// problem into one (docs/methods.md#consensus). A feature's normalised
// rank in a ranking of n features is its position (from 1) divided by n;
// with L rankings:
//
//   - rra, robust rank aggregation (Kolde et al., Bioinformatics 28(4),
//     2012): the feature's ρ = min_k β_{k,L}(r₍ₖ₎) and p-value min(1, Lρ)
//     (stats.RRA); features are ordered by ρ, and scored −log₁₀ ρ;
//   - mean: the mean normalised rank and the p-value of its normal
//     approximation (stats.MeanRank); features are ordered by it, and
//     scored 1 − mean.
//
// Ties go to the lower mean rank (under rra), then to the lower column
// (stats.Aggregate).
// The p-values test the hypothesis that the methods' rankings are random
// and unrelated; methods fitted to one data set are never unrelated, so a
// small p-value says that they agree on the feature more than chance
// would, not by itself that the feature is associated with the class.
// The member fits are independent and run on Settings.Workers goroutines,
// each with its share of the memory budget (Problem.share).
type Consensus struct {
	members []member
	mean    bool
}

// member is one method of a consensus with its parameters.
type member struct {
	spec   *Spec
	params Params
}

var _ Selector = (*Consensus)(nil)

// Fit fits every member and aggregates their rankings.
func (c *Consensus) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	_, n := p.X.Dims()
	total := len(c.members)
	side := min(s.workers(), total)
	shared := p.share(side)
	fits, err := fitAll(ctx, total, s.workers(), func(ctx context.Context, i int) (*Result, error) {
		m := c.members[i]
		sel, err := m.spec.New(m.params)
		if err != nil {
			return nil, err
		}
		ms := m.params.Settings()
		res, err := sel.Fit(ctx, shared, &ms)
		if err != nil && ctx.Err() == nil {
			err = fmt.Errorf("consensus: %s: %w", m.spec.Name, err)
		}
		return res, err
	}, func(done int) {
		s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: float64(done) / float64(total)})
	})
	if err != nil {
		return nil, budget.Shared(err, side)
	}
	info := &api.Consensus{Aggregation: "rra", Rankings: make([][]int, total)}
	if c.mean {
		info.Aggregation = "mean"
	}
	var notes []string
	for i, f := range fits {
		info.Methods = append(info.Methods, c.members[i].spec.Name)
		info.Rankings[i] = f.Ranking
		for _, note := range f.Notes {
			notes = append(notes, c.members[i].spec.Name+": "+note)
		}
		if f.Status.Early() {
			notes = append(notes, fmt.Sprintf("%s stopped early (%s) after %d iterations", c.members[i].spec.Name, f.Status, f.Iterations))
		}
	}
	res := &Result{Objective: math.NaN(), Status: ClosedForm, Trace: []float64{}, Consensus: info, Notes: notes}
	res.Ranking, res.Scores, res.PValues = stats.Aggregate(info.Rankings, n, c.mean)
	return res, nil
}

// consensusSlots are the parameters of consensus that each choose a
// method.
var consensusSlots = []string{"m1", "m2", "m3", "m4"}

func init() {
	registerEnsemble(func() *Spec {
		choices := append([]string{api.NoMethod}, memberNames()...)
		params := make([]Param, 0, len(consensusSlots)+1)
		for i, slot := range consensusSlots {
			def := []string{"fstat", "relieff", "l1svm", api.NoMethod}[i]
			params = append(params, Param{Name: slot, Default: float64(slices.Index(choices, def)), Choices: choices,
				Doc: fmt.Sprintf("method %d of the consensus, or none (its parameters as %s.NAME)", i+1, slot)})
		}
		params = append(params, Param{Name: "aggregation", Choices: []string{"rra", "mean"},
			Doc: "rra: robust rank aggregation (Kolde et al. 2012), with p-values; mean: the mean rank"})
		return &Spec{
			Name:    "consensus",
			Title:   "Consensus of rankings",
			Doc:     "one ranking aggregated from several methods' rankings, by robust rank aggregation or the mean rank, with a p-value per feature",
			Paper:   "Kolde, Laur, Adler & Vilo, Bioinformatics 28(4) (2012); R package RobustRankAggreg",
			Kind:    Ensemble,
			PValues: true,
			Wraps:   consensusSlots,
			Params:  params,
			New: func(p Params) (Selector, error) {
				c := &Consensus{mean: p["aggregation"] == 1}
				for _, slot := range consensusSlots {
					name := choices[int(p[slot])]
					if name == api.NoMethod {
						continue
					}
					spec, err := Lookup(name)
					if err != nil {
						return nil, err
					}
					c.members = append(c.members, member{spec: spec, params: p.Sub(slot)})
				}
				if len(c.members) < 2 {
					return nil, errors.New("consensus: choose at least two methods (m1 … m4)")
				}
				return c, nil
			},
		}
	})
}
