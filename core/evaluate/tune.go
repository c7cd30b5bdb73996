package evaluate

import (
	"fmt"
	"math"

	"sparsefs/api"
	"sparsefs/core/internal/rng"
	"sparsefs/core/plan"
)

// innerFolds is the number of inner folds for a training part of m samples.
func (e *Evaluation) innerFolds(m int) int {
	k := e.plan.InnerFolds
	if k == 0 {
		// dso-fs-peng-fan-2016 §5.1: 3 folds below 200 training samples,
		// 8 otherwise.
		k = 3
		if m >= 200 {
			k = 8
		}
	}
	return min(k, m)
}

// candidate is one setting of one classifier's tuned parameters.
type candidate struct {
	q    int // the classifier's index in the plan
	vals map[string]any
	cfg  api.Classifier
}

// tune chooses the tuned parameters of a unit by stratified k-fold
// cross-validation inside its training part tr (the folds come from the
// seed and the outer split, so every variant sees the same inner folds).
// Every combination of the method's grids is fitted on each inner training
// part and scored on its inner test part; the combination kept is the one
// whose best setting of the first classifier's grids (its defaults when it
// has none) has the highest mean accuracy — or, without classifiers, the
// lowest RMSE — ties to the earlier combination; then each classifier
// keeps its best setting for that combination. It returns the selector
// overrides and the classifiers to train, and nil when nothing is tuned.
func (e *Evaluation) tune(rc runCtx, v *variant, tr *part, split int) (map[string]any, []api.Classifier, *api.Tuning, error) {
	var clsGrids []api.Grid
	for _, g := range e.plan.Tune {
		if c, _ := plan.SplitGridParam(g.Param); c != "" {
			clsGrids = append(clsGrids, g)
		}
	}
	if len(v.grids) == 0 && len(clsGrids) == 0 {
		return map[string]any{}, e.plan.Classifiers, nil, nil
	}
	selCombos := cartesian(v.grids)
	var cands []candidate
	for q, c := range e.plan.Classifiers {
		var own []api.Grid
		for _, g := range clsGrids {
			if name, _ := plan.SplitGridParam(g.Param); name == c.Name {
				own = append(own, g)
			}
		}
		for _, vals := range cartesian(own) {
			cfg := e.classifierConfigs(vals)[q]
			cands = append(cands, candidate{q: q, vals: vals, cfg: cfg})
		}
	}
	cfgs := make([]api.Classifier, len(cands))
	for i, c := range cands {
		cfgs[i] = c.cfg
	}
	m, _ := tr.x.Dims()
	if m < 2 {
		return nil, nil, nil, fmt.Errorf("a training part of %d sample cannot be cross-validated to tune parameters", m)
	}
	k := e.innerFolds(m)
	inner := kfold(tr.y, e.data.Classes, m, k, rng.New(e.plan.Seed, streamInner+uint64(split)))
	// acc[g][c] and rmse[g] collect the per-fold means over the K list.
	acc := make([][][]float64, len(selCombos))
	rmse := make([][]float64, len(selCombos))
	for g, over := range selCombos {
		acc[g] = make([][]float64, len(cands))
		for _, s := range inner {
			itr, ite := tr.rows(s.Train), tr.rows(s.Test)
			f, err := e.train(rc, v, over, cfgs, itr)
			if err != nil {
				return nil, nil, nil, err
			}
			a, r := f.test(ite)
			for c := range cands {
				acc[g][c] = append(acc[g][c], nanMean(a[c]))
			}
			if r != nil {
				rmse[g] = append(rmse[g], nanMean(r))
			}
		}
	}
	t := &api.Tuning{InnerFolds: k, Chosen: map[string]any{}}
	score := func(g, c int) float64 { return nanMean(acc[g][c]) }
	// better reports whether a beats b, NaN losing to everything.
	better := func(a, b float64, larger bool) bool {
		switch {
		case math.IsNaN(a):
			return false
		case math.IsNaN(b):
			return true
		case larger:
			return a > b
		}
		return a < b
	}
	best, bestScore := 0, math.NaN()
	for g := range selCombos {
		var s float64
		if len(cands) > 0 {
			s = math.NaN()
			for c, cand := range cands {
				if cand.q == 0 && better(score(g, c), s, true) {
					s = score(g, c)
				}
			}
		} else {
			s = nanMean(rmse[g])
		}
		if better(s, bestScore, len(cands) > 0) {
			best, bestScore = g, s
		}
	}
	for name, val := range selCombos[best] {
		t.Chosen[name] = val
	}
	chosen := make([]int, len(e.plan.Classifiers))
	for q := range chosen {
		chosen[q] = -1
	}
	for c, cand := range cands {
		if chosen[cand.q] < 0 || better(score(best, c), score(best, chosen[cand.q]), true) {
			chosen[cand.q] = c
		}
	}
	cls := make([]api.Classifier, len(e.plan.Classifiers))
	for q, c := range chosen {
		cls[q] = cands[c].cfg
		for name, val := range cands[c].vals {
			t.Chosen[name] = val
		}
	}
	for g, over := range selCombos {
		for c, cand := range cands {
			p := map[string]any{}
			for name, val := range over {
				p[name] = val
			}
			for name, val := range cand.vals {
				p[name] = val
			}
			t.Grid = append(t.Grid, api.TuneScore{Params: p, Measure: e.header.Classifiers[cand.q], Score: api.Float(score(g, c))})
		}
		if rmse[g] != nil {
			t.Grid = append(t.Grid, api.TuneScore{Params: copyMap(over), Measure: "rmse", Score: api.Float(nanMean(rmse[g]))})
		}
	}
	return selCombos[best], cls, t, nil
}

// cartesian returns every combination of the grids' values, the first grid
// varying slowest ({} when there are no grids).
func cartesian(grids []api.Grid) []map[string]any {
	out := []map[string]any{{}}
	for _, g := range grids {
		var next []map[string]any
		for _, c := range out {
			for _, v := range g.Values {
				d := copyMap(c)
				d[g.Param] = v
				next = append(next, d)
			}
		}
		out = next
	}
	return out
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
