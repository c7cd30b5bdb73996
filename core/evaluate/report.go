package evaluate

import (
	"fmt"

	"sparsefs/core/jsonfloat"
	"sparsefs/core/stats"
)

// Summary holds, for each K, the mean and the sample standard deviation
// over the splits (NaN, written null, where undefined).
type Summary struct {
	Mean jsonfloat.Floats `json:"mean"`
	Std  jsonfloat.Floats `json:"std"`
}

// Scalar is the mean and sample standard deviation of one number per split.
type Scalar struct {
	Mean jsonfloat.Float `json:"mean"`
	Std  jsonfloat.Float `json:"std"`
}

// VariantResult is one row of the report: a variant, its measures
// summarised over the splits, and every unit's own values.
type VariantResult struct {
	VariantInfo
	// Accuracy summarises each classifier's accuracy (Report.Classifiers
	// order) for each K.
	Accuracy []Summary `json:"accuracy"`
	// RMSE summarises the least-squares RMSE (null without targets).
	RMSE *Summary `json:"rmse"`
	// Redundancy summarises RED; Sparsity the sparsity level (null for
	// methods without a weight matrix).
	Redundancy Summary  `json:"redundancy"`
	Sparsity   *Summary `json:"sparsity"`
	// FitSeconds summarises the selector's fitting time per split (the
	// sum over its fits for a per-K method).
	FitSeconds Scalar `json:"fit_seconds"`
	// Units are the variant's units in split order.
	Units []*UnitResult `json:"units"`
}

// Report is the merged outcome of an evaluation.
type Report struct {
	K           []int           `json:"k"`
	Classifiers []string        `json:"classifiers"`
	Splits      []SplitInfo     `json:"splits"`
	Results     []VariantResult `json:"results"`
}

// Merge assembles the report from every unit of an evaluation, given its
// header, in whatever order the units were computed. Each unit must be
// present exactly once.
func Merge(h *Header, units []*UnitResult) (*Report, error) {
	ns := len(h.Splits)
	byIndex := make([]*UnitResult, h.Units)
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
		if err := u.check(h); err != nil {
			return nil, fmt.Errorf("unit %d: %w", u.Unit, err)
		}
		byIndex[u.Unit] = u
	}
	for i, u := range byIndex {
		if u == nil {
			return nil, fmt.Errorf("unit %d is missing (variant %d, split %d)", i, i/ns, i%ns)
		}
	}
	r := &Report{K: h.K, Classifiers: h.Classifiers, Splits: h.Splits, Results: make([]VariantResult, len(h.Variants))}
	nk := len(h.K)
	for v, info := range h.Variants {
		us := byIndex[v*ns : (v+1)*ns]
		vr := VariantResult{VariantInfo: info, Units: us, Accuracy: make([]Summary, len(h.Classifiers))}
		for q := range h.Classifiers {
			vr.Accuracy[q] = summarize(nk, us, func(u *UnitResult) []float64 { return u.Accuracy[q] })
		}
		if h.Targets {
			s := summarize(nk, us, func(u *UnitResult) []float64 { return u.RMSE })
			vr.RMSE = &s
		}
		vr.Redundancy = summarize(nk, us, func(u *UnitResult) []float64 { return u.Redundancy })
		if anySparsity(us) {
			s := summarize(nk, us, func(u *UnitResult) []float64 {
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
		secs := make([]float64, ns)
		for s, u := range us {
			for _, f := range u.Fits {
				secs[s] += f.Seconds
			}
		}
		mean, std := stats.MeanStd(secs)
		vr.FitSeconds = Scalar{Mean: jsonfloat.Float(mean), Std: jsonfloat.Float(std)}
		r.Results[v] = vr
	}
	return r, nil
}

// check verifies the shape of a unit's arrays against the header.
func (u *UnitResult) check(h *Header) error {
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
func summarize(nk int, us []*UnitResult, get func(*UnitResult) []float64) Summary {
	rows := make([][]float64, len(us))
	for j, u := range us {
		rows[j] = get(u)
	}
	mean, std := stats.ColumnMeanStd(rows, nk)
	return Summary{Mean: mean, Std: std}
}

// anySparsity reports whether some unit has a sparsity level (the method has
// a weight matrix).
func anySparsity(us []*UnitResult) bool {
	for _, u := range us {
		for _, p := range u.Sparsity {
			if p != nil {
				return true
			}
		}
	}
	return false
}
