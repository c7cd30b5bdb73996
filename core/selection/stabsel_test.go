package selection

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/rng"
)

// The bounds evaluated by hand: q = 4, p = 30, π = 0.9, B = 50 give
// Meinshausen–Bühlmann's 16/(0.8·30) = 2/3 and, π being above 3/4, Shah
// and Samworth's (16/30)·4(0.1 + 0.01)/1.02 = 0.2300653…; at π = 0.7 the
// unimodal bound is (16/30)/(2(0.4 − 0.01)) = 0.6837606… (π ≥ 1/2 +
// min(θ², 1/100 + 3θ²/4) with θ = 4/30), and at π = 0.51 it does not
// apply (π < 1/2 + 1/100 + 3θ²/4). MB's needs π > 1/2.
func TestStabilityBounds(t *testing.T) {
	for _, c := range []struct {
		pi, mb, um float64
	}{
		{0.9, 2.0 / 3, 16.0 / 30 * 4 * 0.11 / 1.02},
		{0.7, 16 / (0.4 * 30), 16.0 / 30 / (2 * 0.39)},
		{0.51, 16 / (0.02 * 30), math.NaN()},
		{0.5, math.NaN(), math.NaN()},
	} {
		mb, um := boundMB(4, 30, c.pi), boundUnimodal(4, 30, 50, c.pi)
		same := func(a, b float64) bool { return math.Abs(a-b) <= 1e-14*math.Abs(b) || math.IsNaN(a) && math.IsNaN(b) }
		if !same(mb, c.mb) || !same(um, c.um) {
			t.Errorf("π = %v: bounds %v, %v; want %v, %v", c.pi, mb, um, c.mb, c.um)
		}
	}
	if q := autoQ(30, 0.9); q != 4 || boundMB(q, 30, 0.9) > 1 || boundMB(q+1, 30, 0.9) <= 1 {
		t.Errorf("autoQ(30, 0.9) = %d", q)
	}
}

// Complementary halves are disjoint, of ⌊m/2⌋ samples each, and split
// every class as evenly as its size allows (a class of odd size puts its
// last sample in the pool dealt alternately).
func TestHalves(t *testing.T) {
	y := []int{0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2}
	for seed := uint64(0); seed < 20; seed++ {
		a, b := halves(y, 3, len(y), rng.New(seed, 0))
		if len(a) != 7 || len(b) != 7 {
			t.Fatalf("sizes %d, %d", len(a), len(b))
		}
		count := [2][3]int{}
		for h, half := range [][]int{a, b} {
			for _, i := range half {
				count[h][y[i]]++
				if slices.Contains(a, i) && slices.Contains(b, i) {
					t.Fatalf("sample %d in both halves", i)
				}
			}
		}
		for c, size := range []int{5, 3, 7} {
			if lo := size / 2; count[0][c] < lo || count[1][c] < lo || count[0][c]+count[1][c] > size {
				t.Errorf("class %d of %d split %d / %d", c, size, count[0][c], count[1][c])
			}
		}
	}
	a, b := halves(nil, 0, 9, rng.New(1, 0))
	if len(a) != 4 || len(b) != 4 {
		t.Errorf("without classes: %v, %v", a, b)
	}
}

// The same seed gives the same result whatever the number of workers
// (with rfs as the base too, whose fits are lent their half's rows: the
// halves' copies are theirs alone, fitted side by side); a different seed
// draws other halves.
func TestStabSelWorkersDeterministic(t *testing.T) {
	p := cyclic(40, 12, 3, 5)
	var first *Result
	for _, base := range []string{"rfs", "l1svm"} {
		first = nil
		for _, w := range []int{1, 2, 5} {
			sel, s := newSelector(t, "stabsel", map[string]any{"base": base, "pairs": 10, "q": 3})
			s.Workers = w
			res, err := sel.Fit(context.Background(), p, &s)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = res
			} else if !reflect.DeepEqual(res.Scores, first.Scores) || !reflect.DeepEqual(res.Ranking, first.Ranking) || !reflect.DeepEqual(res.Stability, first.Stability) {
				t.Errorf("%s, %d workers: %v, one worker: %v", base, w, res.Scores, first.Scores)
			}
		}
	}
	half := p.rows([]int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18})
	if !half.Lend || !lendable(half.X, true) {
		t.Errorf("a half's rows: lent %v, room for the bias row %v", half.Lend, lendable(half.X, true))
	}
	other := fitWith(t, "stabsel", p, map[string]any{"base": "l1svm", "pairs": 10, "q": 3, "seed": 1})
	if reflect.DeepEqual(other.Scores, first.Scores) {
		t.Error("seed 1 gives the selection probabilities of seed 0")
	}
	for j, pr := range first.Scores {
		if k := pr * 20; k != math.Trunc(k) {
			t.Errorf("probability %v of feature %d is not a count over 20 fits", pr, j)
		}
	}
}

// Stability selection on the synthetic data of gsr-fs §5.1 (the first
// 2·d1 features informative, d1 redundant ones that mix them, d2
// irrelevant ones drawn independently of the class), with fstat as the
// base: over repeated draws of the data and of the half-samples, the mean
// number of irrelevant features in the stable set stays below Meinshausen
// and Bühlmann's bound q²/((2π − 1)p), the bound the method reports, while
// a single half-sample's top q holds more of them than the bound on
// average (Σ Π̂ over the irrelevant features), so that the threshold π is
// what keeps them out. The redundant features are not among the false
// selections the bound speaks of: they depend on the class through the
// informative ones, so their selection probability is high, not at most
// q/p as the theorems' low-probability features.
func TestStabSelBoundOnSyntheticData(t *testing.T) {
	const runs = 10
	d1, d2 := 5, 200
	falseSel, informative := 0, 0
	perHalf := 0.0
	var bound float64
	for r := 0; r < runs; r++ {
		data, err := dataset.Synth{M: 200, D1: d1, D2: d2, C: 3, Seed: uint64(r)}.Generate()
		if err != nil {
			t.Fatal(err)
		}
		p := &Problem{X: data.X, Y: data.Class, C: 3}
		res := fitWith(t, "stabsel", p, map[string]any{"base": "fstat", "pairs": 25, "seed": r})
		bound = float64(res.Stability.Bound)
		for _, j := range res.Stability.Stable {
			switch {
			case j >= 3*d1:
				falseSel++
			case j < 2*d1:
				informative++
			}
		}
		for j := 3 * d1; j < 3*d1+d2; j++ {
			perHalf += res.Scores[j]
		}
	}
	mean := float64(falseSel) / runs
	perHalf /= runs
	t.Logf("irrelevant features: %v stable, %v in a half-sample's top q; bound %v; informative stable %v of %d",
		mean, perHalf, bound, float64(informative)/runs, 2*d1)
	if mean > bound {
		t.Errorf("mean false selections %v exceed the bound %v", mean, bound)
	}
	if perHalf <= bound || informative == 0 {
		t.Errorf("a half-sample's top q holds %v irrelevant features and %d informative ones are stable: the check says nothing", perHalf, informative)
	}
}

// A method that wraps another takes the chosen method's parameters as
// base.NAME, checked by that method, and lists all of them, defaults
// included, under the prefix; a parameter of another method, or a
// prefix that is no slot, is refused.
func TestWrappedParams(t *testing.T) {
	spec, err := Lookup("stabsel")
	if err != nil {
		t.Fatal(err)
	}
	p, err := spec.Resolve(map[string]any{"base": "l1svm", "base.C": "0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Sub("base")["C"] != 0.5 || p.Sub("base")["max_iter"] != DefaultMaxIterations {
		t.Errorf("base parameters %v", p.Sub("base"))
	}
	if d := spec.Display(p); d["base"] != "l1svm" || d["base.C"] != 0.5 || d["base.eps"] != 1e-4 {
		t.Errorf("display %v", d)
	}
	for _, bad := range []map[string]any{
		{"base": "fstat", "base.C": 1},
		{"base": "l1svm", "base.C": -1},
		{"other.C": 1},
		{"base": "stabsel"},
	} {
		if _, err := spec.Resolve(bad); err == nil {
			t.Errorf("Resolve(%v) accepted", bad)
		}
	}
}
