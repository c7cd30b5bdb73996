package evaluate

import (
	"fmt"

	"sparsefs/api"
	"sparsefs/core/stats"
)

// Merge assembles the report from every unit of an evaluation, given its
// header, in whatever order the units were computed. Each unit must be
// present exactly once.
func Merge(h *api.Header, units []*api.UnitResult) (*api.Report, error) {
	ns := len(h.Splits)
	byIndex := make([]*api.UnitResult, h.Units)
	for _, u := range units {
		if u == nil || u.Unit < 0 || u.Unit >= h.Units {
			return nil, fmt.Errorf("a unit result is missing its index or has one outside 0…%d", h.Units-1)
		}
		if u.Variant != u.Unit/ns || u.Split != u.Unit%ns {
			return nil, fmt.Errorf("unit %d claims variant %d and split %d, not %d and %d", u.Unit, u.Variant, u.Split, u.Unit/ns, u.Unit%ns)
		}
		if byIndex[u.Unit] != nil {
			return nil, fmt.Errorf("unit %d is given twice", u.Unit)
		}
		if err := checkUnit(u, h); err != nil {
			return nil, fmt.Errorf("unit %d: %w", u.Unit, err)
		}
		byIndex[u.Unit] = u
	}
	for i, u := range byIndex {
		if u == nil {
			return nil, fmt.Errorf("unit %d is missing (variant %d, split %d)", i, i/ns, i%ns)
		}
	}
	r := &api.Report{K: h.K, Classifiers: h.Classifiers, Splits: h.Splits, Results: make([]api.VariantResult, len(h.Variants))}
	nk := len(h.K)
	for v, info := range h.Variants {
		us := byIndex[v*ns : (v+1)*ns]
		vr := api.VariantResult{VariantInfo: info, Units: us, Accuracy: make([]api.Summary, len(h.Classifiers))}
		for q := range h.Classifiers {
			vr.Accuracy[q] = summarize(nk, us, func(u *api.UnitResult) []float64 { return u.Accuracy[q] })
		}
		if h.Targets {
			s := summarize(nk, us, func(u *api.UnitResult) []float64 { return u.RMSE })
			vr.RMSE = &s
		}
		vr.Redundancy = summarize(nk, us, func(u *api.UnitResult) []float64 { return u.Redundancy })
		if anySparsity(us) {
			s := summarize(nk, us, func(u *api.UnitResult) []float64 {
				out := make([]float64, nk)
				for i, p := range u.Sparsity {
					out[i] = nan
					if p != nil {
						out[i] = float64(*p)
					}
				}
				return out
			})
			vr.Sparsity = &s
		}
		if info.Kind != api.FixedKind {
			vr.Stability = stability(nk, h.Features, us)
		}
		secs := make([]float64, ns)
		for s, u := range us {
			for _, f := range u.Fits {
				secs[s] += f.Seconds
			}
		}
		mean, std := stats.MeanStd(secs)
		vr.FitSeconds = api.Scalar{Mean: api.Float(mean), Std: api.Float(std)}
		r.Results[v] = vr
	}
	return r, nil
}

// checkUnit verifies the shape of a unit's arrays against the header.
func checkUnit(u *api.UnitResult, h *api.Header) error {
	nk := len(h.K)
	if len(u.Accuracy) != len(h.Classifiers) || len(u.Redundancy) != nk || len(u.Sparsity) != nk || len(u.Selected) != nk {
		return fmt.Errorf("its arrays do not match the header's %d classifiers and %d values of K", len(h.Classifiers), nk)
	}
	for _, a := range u.Accuracy {
		if len(a) != nk {
			return fmt.Errorf("an accuracy array has %d values for %d values of K", len(a), nk)
		}
	}
	if h.Targets && len(u.RMSE) != nk {
		return fmt.Errorf("its RMSE array has %d values for %d values of K", len(u.RMSE), nk)
	}
	return nil
}

// summarize is the summary over the splits of one per-K measure of the
// units.
func summarize(nk int, us []*api.UnitResult, get func(*api.UnitResult) []float64) api.Summary {
	rows := make([][]float64, len(us))
	for j, u := range us {
		rows[j] = get(u)
	}
	mean, std := stats.ColumnMeanStd(rows, nk)
	return api.Summary{Mean: mean, Std: std}
}

// anySparsity reports whether some unit has a sparsity level (the method has
// a weight matrix).
func anySparsity(us []*api.UnitResult) bool {
	for _, u := range us {
		for _, p := range u.Sparsity {
			if p != nil {
				return true
			}
		}
	}
	return false
}

// stability is the stability across the splits of the units' top-K
// subsets of d features, for each K (docs/methods.md#stability).
func stability(nk, d int, us []*api.UnitResult) *api.Stability {
	sets := make([][][]int, len(us))
	for s, u := range us {
		sets[s] = u.Selected
	}
	st := stats.StabilityPerK(sets, nk, d)
	out := &api.Stability{Index: make(api.Floats, nk), CILow: make(api.Floats, nk), CIHigh: make(api.Floats, nk)}
	for i, v := range st {
		out.Index[i], out.CILow[i], out.CIHigh[i] = v.Index, v.Low, v.High
	}
	return out
}
