package selection

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"sparsefs/api"
	"sparsefs/core/internal/budget"
	"sparsefs/core/internal/rng"
)

// StabSel is stability selection by complementary pairs
// (docs/methods.md#stabsel; Shah & Samworth, J. R. Stat. Soc. B 75, 2013,
// after Meinshausen & Bühlmann, J. R. Stat. Soc. B 72, 2010) around any
// other registered method, the base: for each of B pairs of disjoint
// half-samples of the problem it is given (stratified by class; halves),
// the base is fitted to each half and its top q features noted. A
// feature's score is its selection probability Π̂ = (times in a top q)/2B;
// the ranking orders by Π̂, then by the mean position in the 2B rankings,
// then by column. The features with Π̂ ≥ π are the stable set, and the
// bounds on its expected number of false selections are those of
// stabbound.go.
//
// The half-samples come from the method's own seed, pair b from stream b,
// and the 2B fits are independent: they run on Settings.Workers
// goroutines and the result does not depend on their number (each fit
// running beside others has their share of the memory budget,
// Problem.share, so that a refusal may). In an
// evaluation the problem is a training part, so the stability selection
// never sees a test sample.
type StabSel struct {
	base      *Spec
	params    Params
	q         int
	pairs     int
	threshold float64
	seed      uint64
}

var _ Selector = (*StabSel)(nil)

// Fit runs the 2B fits of the base and combines them.
func (st *StabSel) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.ValidateTargets(); err != nil {
		return nil, err
	}
	m, n := p.X.Dims()
	if m < 4 {
		return nil, fmt.Errorf("stabsel: %d samples cannot be split into two halves of at least two", m)
	}
	q := st.q
	if q == 0 {
		q = autoQ(n, st.threshold)
	}
	if q > n {
		return nil, fmt.Errorf("stabsel: q = %d exceeds the %d features", q, n)
	}
	params := Params{}
	for k, v := range st.params {
		params[k] = v
	}
	if st.base.SelectsK || (st.base.KDepth && params[KParam] == 0) {
		params[KParam] = float64(q)
	}
	base, err := st.base.New(params)
	if err != nil {
		return nil, err
	}
	total := 2 * st.pairs
	if s != nil && s.Tallies != nil {
		t, err := combineTallies(s.Tallies, total, n)
		if err != nil {
			return nil, err
		}
		return st.result(t, q, n), nil
	}
	from, to := 0, total
	if s != nil && s.Halves != nil {
		if len(s.Halves) != 2 || s.Halves[0] < 0 || s.Halves[0] >= s.Halves[1] || s.Halves[1] > total {
			return nil, fmt.Errorf("stabsel: halves %v are not a range of its %d half-sample fits", s.Halves, total)
		}
		from, to = s.Halves[0], s.Halves[1]
	}
	var y []int
	if p.Targets == nil {
		y = p.Y
	}
	halvesOf := make([][2][]int, st.pairs)
	for b := from / 2; b <= (to-1)/2; b++ {
		halvesOf[b][0], halvesOf[b][1] = halves(y, p.C, m, rng.New(st.seed, uint64(b)))
	}
	side := min(s.workers(), to-from)
	shared, err := p.halvesBudget(side)
	if err != nil {
		return nil, err
	}
	shared = shared.share(side)
	fits, err := fitAll(ctx, to-from, s.workers(), func(ctx context.Context, k int) (*Result, error) {
		i := from + k
		bs := params.Settings()
		res, err := base.Fit(ctx, shared.rows(halvesOf[i/2][i%2]), &bs)
		if err != nil && ctx.Err() == nil {
			err = fmt.Errorf("stabsel: %s on half %d of pair %d: %w", st.base.Name, i%2+1, i/2+1, err)
		}
		return res, err
	}, func(done int) {
		s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: float64(done) / float64(to-from)})
	})
	if err != nil {
		return nil, budget.Shared(err, side)
	}
	t := &api.StabilityTally{From: from, To: to, Counts: make([]int, n), Positions: make([]int, n), Notes: []string{}}
	for _, f := range fits {
		for pos, j := range f.Ranking {
			t.Positions[j] += pos
			if pos < q {
				t.Counts[j]++
			}
		}
		if f.Status.Early() {
			t.Early++
		}
		t.Notes = append(t.Notes, f.Notes...)
	}
	if s != nil && s.Halves != nil {
		return &Result{Tally: t, Objective: math.NaN(), Status: ClosedForm, Trace: []float64{}}, nil
	}
	return st.result(t, q, n), nil
}

// combineTallies adds up tallies that cover the fits 0 … total−1 once
// each, of n features.
func combineTallies(tallies []api.StabilityTally, total, n int) (*api.StabilityTally, error) {
	sum := &api.StabilityTally{To: total, Counts: make([]int, n), Positions: make([]int, n), Notes: []string{}}
	covered := make([]bool, total)
	for _, t := range tallies {
		if t.From < 0 || t.From >= t.To || t.To > total || len(t.Counts) != n || len(t.Positions) != n {
			return nil, fmt.Errorf("stabsel: a tally of fits %d…%d of %d features does not belong to %d fits of %d features", t.From, t.To, len(t.Counts), total, n)
		}
		for i := t.From; i < t.To; i++ {
			if covered[i] {
				return nil, fmt.Errorf("stabsel: half-sample fit %d is tallied twice", i)
			}
			covered[i] = true
		}
		for j := range sum.Counts {
			sum.Counts[j] += t.Counts[j]
			sum.Positions[j] += t.Positions[j]
		}
		sum.Early += t.Early
		sum.Notes = append(sum.Notes, t.Notes...)
	}
	for i, c := range covered {
		if !c {
			return nil, fmt.Errorf("stabsel: half-sample fit %d of %d is in no tally", i, total)
		}
	}
	return sum, nil
}

// result turns the tally of all 2B fits into the selection: the
// probabilities, the ranking, the stable set and the bounds.
func (st *StabSel) result(t *api.StabilityTally, q, n int) *Result {
	total := 2 * st.pairs
	counts, positions := t.Counts, t.Positions
	res := &Result{Scores: make([]float64, n), Ranking: make([]int, n), Objective: math.NaN(), Status: ClosedForm, Trace: []float64{}}
	for j := range res.Scores {
		res.Scores[j] = float64(counts[j]) / float64(total)
		res.Ranking[j] = j
	}
	sort.SliceStable(res.Ranking, func(a, b int) bool {
		ja, jb := res.Ranking[a], res.Ranking[b]
		if counts[ja] != counts[jb] {
			return counts[ja] > counts[jb]
		}
		return positions[ja] < positions[jb]
	})
	info := &api.StabilitySelection{Base: st.base.Name, Q: q, Pairs: st.pairs, Threshold: st.threshold, Stable: []int{},
		Bound: api.Float(boundMB(q, n, st.threshold)), BoundUnimodal: api.Float(boundUnimodal(q, n, st.pairs, st.threshold))}
	for _, j := range res.Ranking {
		if res.Scores[j] >= st.threshold {
			info.Stable = append(info.Stable, j)
		}
	}
	res.Stability = info
	notes := append([]string(nil), t.Notes...)
	if t.Early > 0 {
		notes = append(notes, fmt.Sprintf("%s stopped before meeting its stopping rule in %d of the %d half-sample fits", st.base.Name, t.Early, total))
	}
	slices.Sort(notes)
	res.Notes = slices.Compact(notes)
	return res
}

func init() {
	registerEnsemble(func() *Spec {
		bases := memberNames()
		return &Spec{
			Name:  "stabsel",
			Title: "Stability selection",
			Doc:   "complementary-pairs stability selection around a base method: each feature's probability of being in the base's top q on B pairs of disjoint half-samples, the features above π, and a bound on the expected false selections",
			Paper: "Shah & Samworth, J. R. Stat. Soc. B 75 (2013); Meinshausen & Bühlmann, J. R. Stat. Soc. B 72 (2010)",
			Kind:  Ensemble,
			Wraps: []string{"base"},
			Params: []Param{
				{Name: "base", Default: float64(slices.Index(bases, "l1svm")), Choices: bases, Doc: "the method fitted to every half-sample (its parameters as base.NAME)"},
				{Name: "q", Default: 0, Min: 0, Max: 1e6, Integer: true, Doc: "features taken from each half-sample's ranking (0: the largest q whose Meinshausen–Bühlmann bound is at most 1, ⌊√((2π−1)·features)⌋)"},
				{Name: "pairs", Default: 50, Min: 1, Max: 10000, Integer: true, Doc: "B, the number of complementary pairs of half-samples (2B fits)"},
				{Name: "pi", Default: 0.9, Min: 0.5, Max: 1, MinOpen: true, Doc: "π, the selection probability a feature needs to be stable"},
				{Name: "seed", Default: 0, Min: 0, Max: 1 << 53, MaxOpen: true, Integer: true, Doc: "the seed of the half-samples"},
			},
			New: func(p Params) (Selector, error) {
				base, err := Lookup(bases[int(p["base"])])
				if err != nil {
					return nil, err
				}
				return &StabSel{base: base, params: p.Sub("base"), q: int(p["q"]), pairs: int(p["pairs"]),
					threshold: p["pi"], seed: uint64(p["seed"])}, nil
			},
		}
	})
}
