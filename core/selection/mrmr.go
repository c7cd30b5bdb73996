package selection

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
)

// The criteria of mRMR: the index of a choice of the `criterion`
// parameter.
const (
	// MID is the mutual-information difference: relevance − redundancy.
	MID = 0
	// MIQ is the mutual-information quotient: relevance / redundancy.
	MIQ = 1
)

// MRMR is the minimum-redundancy maximum-relevance filter of H. Peng,
// F. Long & C. Ding, "Feature selection based on mutual information:
// criteria of max-dependency, max-relevance, and min-redundancy", IEEE
// TPAMI 27 (2005) 1226–1238, §2 (its incremental search; the quotient form
// MIQ is from C. Ding & H. Peng, J. Bioinform. Comput. Biol. 3 (2005)
// 185–205, Table 1):
//
//	S₁ = {argmax_f I(f; c)},
//	S_{t+1} = S_t ∪ {argmax_{f ∉ S_t} I(f; c) − (1/t) Σ_{s∈S_t} I(f; s)}   (MID),
//	                 or  I(f; c) / [(1/t) Σ_{s∈S_t} I(f; s)]              (MIQ),
//
// with every feature discretised to 3 states by its mean μ and population
// standard deviation σ on the data given (the training part): −1 below
// μ − σ, +1 above μ + σ, 0 between (threeStateCuts), and I the mutual
// information in bits of the empirical joint distribution. The ranking is
// the greedy order; the score of a feature is the criterion value at the
// step it was chosen (for the first, its relevance I(f; c)). These scores
// are not monotone along the ranking: consumers must use the ranking.
//
// K bounds the greedy search: the first K features are chosen greedily and
// the other n − K follow by relevance I(f; c) (ties to the lower index),
// which is then their score; K = 0, the default, ranks every feature
// greedily as docs/methods.md#mrmr says. Choosing the top 100 of 10,000
// features costs 100 passes over the features, not the full O(n²) search.
//
// Decisions where the paper is silent (docs/methods.md#mrmr):
//   - Ties go to the lower index, and criterion values within
//     tieTolerance (1e−12 relative) of the best count as tied: mutual
//     informations carry rounding of about 1e−15 bits, and mathematically
//     equal values (a feature and its duplicate or mirror image, or two
//     different tables with the same information) must not be ordered by
//     rounding noise. The same rule orders the rest after K (rankTied).
//   - A mutual information below 1e−13 bits is taken as 0: computed as
//     H(A) + H(B) − H(A,B) it carries an error of a few 1e−15 bits, so it
//     cannot be told from the rounding residue of an exact zero (and with
//     up to a few thousand samples no nonzero value is that small: a 2×2
//     table's is at least 8/(m⁴ ln 2) bits). MIQ's zero denominators then
//     follow docs/methods.md#zero-denominators: 0/0 = 0 and x/0 = +Inf for a
//     feature with no redundancy.
//
// Cost: O(mn) to discretise (each feature becomes two bit sets, one per
// extreme state) and for the relevances, then for each greedy step one
// mutual information per remaining feature, from four AND-popcounts over
// m/64 words: O(K·n·m/64) time and O(n·m/32) bits of memory; no n×n matrix.
// The Result's Iterations is the number of greedy steps, K; progress is
// reported (as a fraction of the pairs to evaluate) at every step.
type MRMR struct {
	// Criterion is MID (the default) or MIQ.
	Criterion int
	// K is the number of features chosen greedily; 0 means all.
	K int
}

var _ Selector = MRMR{}

// miZero is the mutual information below which a computed value is taken
// as an exact zero (see MRMR).
const miZero = 1e-13

// Fit ranks the features greedily, reporting progress and honouring
// cancellation at every step.
func (g MRMR) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if g.Criterion != MID && g.Criterion != MIQ {
		return nil, fmt.Errorf("mrmr: unknown criterion %d (use MID or MIQ)", g.Criterion)
	}
	m, n := p.X.Dims()
	K := g.K
	if K <= 0 || K > n {
		K = n
	}
	words := (m + 63) / 64
	if err := p.CheckMemory("mrmr",
		Need{What: "the classes' bit sets over the samples", Rows: p.C, RowsOf: "classes", Cols: words + 4, ColsOf: "words"},
		Need{What: "the features' bit sets over the samples", Rows: n, RowsOf: "features", Cols: 2*words + 10, ColsOf: "words"},
		Need{What: "a column and the entropy terms", Rows: m + 1, RowsOf: "samples", Cols: 2, ColsOf: "vectors"}); err != nil {
		return nil, err
	}
	d := newThreeStates(p.X)
	terms := newEntropyTerms(m)
	// Relevance I(f; c), the first term of the criterion.
	rel := make([]float64, n)
	classCounts := make([]int, p.C)
	cls := make([]uint64, p.C*d.words)
	for i, y := range p.Y {
		classCounts[y]++
		cls[y*d.words+i/64] |= 1 << (i % 64)
	}
	hClass := terms.entropy(classCounts)
	joint := make([]int, 3*p.C)
	for f := 0; f < n; f++ {
		lo, hi := d.bits(f)
		for k, mk := range classCounts {
			ck := cls[k*d.words : (k+1)*d.words]
			a, b := popAnd(lo, ck), popAnd(hi, ck)
			joint[3*k], joint[3*k+1], joint[3*k+2] = a, b, mk-a-b
		}
		rel[f] = snapZero(terms.mutualInfo(d.h[f], hClass, joint))
	}

	scores := make([]float64, n)
	ranking := make([]int, 0, n)
	remaining := make([]int, n) // features not chosen, in increasing order
	for f := range remaining {
		remaining[f] = f
	}
	red := make([]float64, n) // Σ_{s∈S} I(f; s)
	crit := make([]float64, n)
	choose := func() {
		at := bestTied(remaining, crit)
		f := remaining[at]
		scores[f] = crit[f]
		ranking = append(ranking, f)
		remaining = append(remaining[:at], remaining[at+1:]...)
	}
	copy(crit, rel)
	choose()
	total := float64(K-1) * float64(2*n-K) / 2 // Σ_{t=1}^{K−1} (n − t)
	done := 0.0
	var cells [9]int
	for t := 1; t < K; t++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: done / total})
		last := ranking[t-1]
		for _, f := range remaining {
			red[f] += d.mutualInfo(terms, f, last, &cells)
			mean := red[f] / float64(t) // (1/|S|) Σ_{s∈S} I(f; s)
			if g.Criterion == MID {
				crit[f] = rel[f] - mean // MID
			} else {
				crit[f] = ratio(rel[f], mean) // MIQ
			}
		}
		done += float64(len(remaining))
		choose()
	}
	var notes []string
	if len(remaining) > 0 {
		// The rest by relevance, ties to the lower index.
		restScores := make([]float64, len(remaining))
		for t, f := range remaining {
			restScores[t] = rel[f]
			scores[f] = rel[f]
		}
		for _, t := range rankTied(restScores) {
			ranking = append(ranking, remaining[t])
		}
		notes = append(notes, fmt.Sprintf("mrmr: the first %d features are in greedy order (score: the criterion when chosen); the other %d follow by relevance I(f;class), their score", K, n-K))
	}
	return &Result{
		Scores: scores, Ranking: ranking, Objective: math.NaN(), Iterations: K,
		Status: ClosedForm, Trace: []float64{}, Notes: notes,
	}, nil
}

// bestTied returns the position in among of the feature with the largest
// value, ties (values within tieTolerance·max(1, |best|) of the best) to
// the lowest feature index; among is in increasing order.
func bestTied(among []int, value []float64) int {
	best := math.Inf(-1)
	for _, f := range among {
		if value[f] > best {
			best = value[f]
		}
	}
	for at, f := range among {
		if tied(best, value[f]) {
			return at
		}
	}
	return 0
}

func snapZero(i float64) float64 {
	if i < miZero {
		return 0
	}
	return i
}

// threeStates holds the 3-state discretisation of every feature as two bit
// sets over the samples, one for state −1 (lo) and one for +1 (hi), with
// the counts and the entropy of each feature's states.
type threeStates struct {
	m, words int
	lo, hi   []uint64
	nlo, nhi []int
	h        []float64
}

func newThreeStates(x *mat.Dense) *threeStates {
	m, n := x.Dims()
	words := (m + 63) / 64
	d := &threeStates{m: m, words: words,
		lo: make([]uint64, n*words), hi: make([]uint64, n*words),
		nlo: make([]int, n), nhi: make([]int, n), h: make([]float64, n)}
	terms := newEntropyTerms(m)
	col := make([]float64, m)
	for f := 0; f < n; f++ {
		loCut, hiCut := threeStateCuts(column(col, x, f))
		lo, hi := d.bits(f)
		for i, v := range col {
			switch {
			case v < loCut:
				lo[i/64] |= 1 << (i % 64)
				d.nlo[f]++
			case v > hiCut:
				hi[i/64] |= 1 << (i % 64)
				d.nhi[f]++
			}
		}
		states := [3]int{d.nlo[f], m - d.nlo[f] - d.nhi[f], d.nhi[f]}
		d.h[f] = terms.entropy(states[:])
	}
	return d
}

// bits returns the two bit sets of feature f.
func (d *threeStates) bits(f int) (lo, hi []uint64) {
	return d.lo[f*d.words : (f+1)*d.words], d.hi[f*d.words : (f+1)*d.words]
}

// mutualInfo returns I(f; s) in bits from the 3×3 joint table of the two
// features' states, whose four corner cells are AND-popcounts of their bit
// sets and the rest follow from the margins.
func (d *threeStates) mutualInfo(terms entropyTerms, f, s int, cells *[9]int) float64 {
	if d.h[f] == 0 || d.h[s] == 0 {
		return 0 // a feature with one state carries no information
	}
	lf, hf := d.bits(f)
	ls, hs := d.bits(s)
	var ll, lh, hl, hh int
	for w := range lf {
		ll += bits.OnesCount64(lf[w] & ls[w])
		lh += bits.OnesCount64(lf[w] & hs[w])
		hl += bits.OnesCount64(hf[w] & ls[w])
		hh += bits.OnesCount64(hf[w] & hs[w])
	}
	*cells = [9]int{
		ll, lh, d.nlo[f] - ll - lh,
		hl, hh, d.nhi[f] - hl - hh,
		d.nlo[s] - ll - hl, d.nhi[s] - lh - hh,
		d.m - d.nlo[f] - d.nhi[f] - d.nlo[s] - d.nhi[s] + ll + lh + hl + hh,
	}
	return snapZero(terms.mutualInfo(d.h[f], d.h[s], cells[:]))
}

// popAnd returns the number of bits set in both a and b.
func popAnd(a, b []uint64) int {
	b = b[:len(a)]
	k := 0
	for w, v := range a {
		k += bits.OnesCount64(v & b[w])
	}
	return k
}

func init() {
	Register(&Spec{
		Name:   "mrmr",
		Title:  "mRMR",
		Doc:    "greedy minimum-redundancy maximum-relevance order on 3-state discretised features (mutual information in bits)",
		Paper:  "Peng, Long & Ding, IEEE TPAMI 27 (2005) §2",
		Kind:   Filter,
		KDepth: true,
		Params: []Param{
			{Name: "criterion", Default: MID, Choices: []string{"MID", "MIQ"}, Doc: "relevance minus (MID) or divided by (MIQ) the mean redundancy with the features already chosen"},
			{Name: "k", Default: 0, Min: 0, Max: 1e9, Integer: true, Doc: "features chosen greedily (0 = all); the others follow by relevance I(f;class)"},
		},
		New: func(p Params) (Selector, error) { return MRMR{Criterion: int(p["criterion"]), K: int(p["k"])}, nil },
	})
}
