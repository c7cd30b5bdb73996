package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Nogueira et al.'s definitions evaluated by hand on three subsets of size
// 3 of d = 6 features, {0,1,2}, {0,1,3}, {0,2,4}: p̂ = (1, 2/3, 2/3, 1/3,
// 1/3, 0), Σ p̂(1 − p̂) = 8/9, k̄/d = 1/2, so Φ̂ = 1 − (3/2)(8/54)/(1/4) =
// 1/9 — the mean of Kuncheva's index over the three pairs, whose overlaps
// are 2, 2, 1: (2 − 1.5)/1.5, (2 − 1.5)/1.5, (1 − 1.5)/1.5. Then φ =
// 4·(Σ_{f∈S} p̂_f/6 − 1/4 + Φ̂/4) = 2/3, 4/9, 4/9, mean 14/27, and the
// variance is (4/9)·(16 + 4 + 4)/729 = 96/6561. z = 1.959963984540054 is
// the normal 0.975 quantile (scipy.stats.norm.ppf(0.975)).
func TestNogueiraByHand(t *testing.T) {
	s := NogueiraStability([][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 4}}, 6)
	half := 1.959963984540054 * math.Sqrt(96.0/6561)
	want := Stability{Index: 1.0 / 9, Variance: 96.0 / 6561, Low: 1.0/9 - half, High: 1.0/9 + half}
	if d := math.Max(math.Max(math.Abs(s.Index-want.Index), math.Abs(s.Variance-want.Variance)),
		math.Max(math.Abs(s.Low-want.Low), math.Abs(s.High-want.High))); d > 1e-15 {
		t.Errorf("got %+v, want %+v", s, want)
	}
}

// The edge values: identical subsets give 1 with no spread; subsets that
// never overlap give the minimum −1 for two halves of the features
// ({0,1}, {2,3} of 4: Kuncheva's (0 − 1)/(2 − 1)); two subsets sharing
// exactly the expected overlap K²/d give 0; and it is undefined for one
// run or when every run takes every feature.
func TestNogueiraEdges(t *testing.T) {
	for _, c := range []struct {
		sets  [][]int
		d     int
		index float64
	}{
		{[][]int{{0, 1}, {1, 0}, {0, 1}}, 5, 1},
		{[][]int{{0, 1}, {2, 3}}, 4, -1},
		{[][]int{{0, 1}, {0, 2}}, 4, 0},
		{[][]int{{0, 1}}, 4, math.NaN()},
		{[][]int{{0, 1}, {1, 0}}, 2, math.NaN()},
		{[][]int{nil, nil}, 3, math.NaN()},
	} {
		s := NogueiraStability(c.sets, c.d)
		if !(math.Abs(s.Index-c.index) <= 1e-15 || math.IsNaN(s.Index) && math.IsNaN(c.index)) {
			t.Errorf("%v of %d: index %v, want %v", c.sets, c.d, s.Index, c.index)
		}
		if c.index == 1 && (s.Variance != 0 || s.Low != 1 || s.High != 1) {
			t.Errorf("identical subsets: %+v, want no spread", s)
		}
	}
}

// For subsets of one size K, Φ̂ is the mean over pairs of Kuncheva's
// consistency index (L. I. Kuncheva, "A stability index for feature
// selection", IASTED AIAP 2007), computed here directly from the overlaps.
func TestNogueiraIsMeanKuncheva(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 50; trial++ {
		d := 5 + r.IntN(40)
		K := 1 + r.IntN(d-1)
		M := 2 + r.IntN(8)
		sets := make([][]int, M)
		for i := range sets {
			sets[i] = r.Perm(d)[:K]
		}
		sum, pairs := 0.0, 0
		for a := 0; a < M; a++ {
			for b := a + 1; b < M; b++ {
				in := map[int]bool{}
				for _, f := range sets[a] {
					in[f] = true
				}
				overlap := 0
				for _, f := range sets[b] {
					if in[f] {
						overlap++
					}
				}
				e := float64(K*K) / float64(d)
				sum += (float64(overlap) - e) / (float64(K) - e)
				pairs++
			}
		}
		if got, want := NogueiraStability(sets, d).Index, sum/float64(pairs); math.Abs(got-want) > 1e-12 {
			t.Fatalf("d=%d K=%d M=%d: Φ̂ = %v, mean Kuncheva index %v", d, K, M, got, want)
		}
	}
}

// StabilityPerK takes each K's column of the runs' subsets; a run shorter
// than the K list counts as an empty subset there.
func TestStabilityPerK(t *testing.T) {
	sets := [][][]int{{{0}, {0, 1}}, {{0}, {0, 2}}}
	got := StabilityPerK(sets, 2, 4)
	if got[0].Index != 1 || got[1].Index != NogueiraStability([][]int{{0, 1}, {0, 2}}, 4).Index {
		t.Errorf("per K: %+v", got)
	}
}
