package selection

import (
	"context"
	"math"

	"sparsefs/api"
)

// DefaultBins is the number of equal-frequency bins of infogain
// (docs/methods.md#infogain: B = 10).
const DefaultBins = 10

// InfoGain is the information-gain filter of docs/methods.md#infogain: the
// score of feature j is
//
//	IG(j) = H(class) − H(class | b_j) = I(class; b_j)   (bits),
//
// the mutual information between the class and the feature discretised into
// B equal-frequency bins b_j, with H the Shannon entropy of the empirical
// distribution (log base 2). The bins are fitted on the data given (the
// training part): sort the values; a value's bin is ⌊r·B/m⌋ with r the
// 0-based position of its first occurrence in the sorted order, so ties
// share a bin (equalFrequencyBins). Reference: J. R. Quinlan, "Induction of
// decision trees", Machine Learning 1 (1986) 81–106 (ID3's gain(A) =
// I(p,n) − E(A)); T. M. Cover & J. A. Thomas, Elements of Information
// Theory, 2nd ed. (2006), §2.3–2.4.
//
// A feature with one distinct value scores exactly 0. With fewer than B
// distinct values (or m < B) some bins stay empty; a feature with m
// distinct values and B ≥ m is then the identity discretisation. Cost:
// O(n·m log m) for the sorts, O(n·B·c) for the tables.
type InfoGain struct {
	// Bins is B, the number of equal-frequency bins (DefaultBins if zero).
	Bins int
}

var _ Selector = InfoGain{}

// Fit scores every feature; it ignores s except for progress reports.
func (g InfoGain) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	nbins := g.Bins
	if nbins <= 0 {
		nbins = DefaultBins
	}
	m, n := p.X.Dims()
	c := p.C
	if err := p.CheckMemory("infogain",
		Need{What: "the joint table of bins and classes", Rows: min(nbins, m) + 1, RowsOf: "bins", Cols: c, ColsOf: "classes"},
		Need{What: "a column, its bins, its order and the entropy terms", Rows: m + 1, RowsOf: "samples", Cols: 4, ColsOf: "vectors"}); err != nil {
		return nil, err
	}
	terms := newEntropyTerms(m)
	classCounts := make([]int, c)
	for _, y := range p.Y {
		classCounts[y]++
	}
	hClass := terms.entropy(classCounts)
	col := make([]float64, m)
	bins, order := make([]int, m), make([]int, m)
	// At most min(B, m) bins are occupied; they are numbered 0, 1, … in
	// increasing order for the tables (entropies depend on counts only).
	used := min(nbins, m)
	binCounts := make([]int, used)
	joint := make([]int, used*c)
	scores := make([]float64, n)
	for j := 0; j < n; j++ {
		if j%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: float64(j) / float64(n)})
		}
		equalFrequencyBins(column(col, p.X, j), nbins, bins, order)
		clear(binCounts)
		clear(joint)
		id, prev := -1, -1
		for _, i := range order {
			if bins[i] != prev {
				id, prev = id+1, bins[i]
			}
			binCounts[id]++
			joint[id*c+p.Y[i]]++
		}
		// IG = H(class) + H(bin) − H(class, bin) (Cover & Thomas, Theorem 2.4.1).
		scores[j] = terms.mutualInfo(hClass, terms.entropy(binCounts), joint)
	}
	return tiedFilterResult(scores), nil
}

func init() {
	Register(&Spec{
		Name:  "infogain",
		Title: "Information gain",
		Doc:   "mutual information (bits) between the class and each feature cut into equal-frequency bins",
		Paper: "Quinlan, Induction of decision trees, Machine Learning 1 (1986): the gain criterion of ID3",
		Kind:  Filter,
		Params: []Param{
			{Name: "bins", Default: DefaultBins, Min: 2, Max: 1e6, Integer: true, Doc: "number of equal-frequency bins fitted on the training part"},
		},
		New: func(p Params) (Selector, error) { return InfoGain{Bins: int(p["bins"])}, nil },
	})
}
