package evaluate

import (
	"math"
	"testing"

	"sparsefs/api"
)

// The report's stability is the index of Nogueira et al. over the splits'
// top-K subsets, K by K, of the header's number of features. The
// units here are written by hand: for K = 3 the three splits chose {0,1,2},
// {0,1,3}, {0,2,4} of 6 features, whose index is 1/9 and variance 96/6561
// by hand (core/stats TestNogueiraByHand); for K = 1 every split chose
// feature 0 (index 1, no spread). The fixed subset has no stability.
func TestMergeStability(t *testing.T) {
	h := api.Header{K: []int{1, 3}, Classifiers: []string{}, Features: 6, Splits: make([]api.SplitInfo, 3),
		Variants: []api.VariantInfo{{Method: "m", Kind: api.Filter}, {Method: api.FixedMethod, Kind: api.FixedKind}}, Units: 6}
	top3 := [][]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 4}}
	var units []*api.UnitResult
	for u := 0; u < 6; u++ {
		unit := &api.UnitResult{Unit: u, Variant: u / 3, Split: u % 3, Accuracy: []api.Floats{},
			Redundancy: api.Floats{math.NaN(), 0}, Sparsity: []*int{nil, nil}, Selected: [][]int{{0}, top3[u%3]}}
		units = append(units, unit)
	}
	r, err := Merge(&h, units)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Results[0].Stability
	half := 1.959963984540054 * math.Sqrt(96.0/6561)
	want := [][3]float64{{1, 1, 1}, {1.0 / 9, 1.0/9 - half, 1.0/9 + half}}
	for i, w := range want {
		if got := [3]float64{st.Index[i], st.CILow[i], st.CIHigh[i]}; math.Abs(got[0]-w[0]) > 1e-15 || math.Abs(got[1]-w[1]) > 1e-15 || math.Abs(got[2]-w[2]) > 1e-15 {
			t.Errorf("K = %d: %v, want %v", h.K[i], got, w)
		}
	}
	if r.Results[1].Stability != nil {
		t.Errorf("the fixed subset has a stability %+v", r.Results[1].Stability)
	}
}
