package stats

import (
	"math"
	"testing"
)

// The worked example of Benjamini & Hochberg (J. R. Stat. Soc. B 57, 1995,
// §4.1): fifteen p-values from a study of myocardial infarction; at a
// false discovery rate of 0.05 their procedure rejects the four smallest.
// The q-values by hand from the step-up rule: the fourth is 0.0095·15/4 =
// 0.035625; the fifth is the smallest of 15·p₍ⱼ₎/j over j ≥ 5 (0.0603,
// 0.0695, 0.0639, 0.0645, 0.0765, then larger), 15·0.0201/5 = 0.0603.
func TestBHPaperExample(t *testing.T) {
	p := []float64{0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000}
	q := BH(p)
	rejected := 0
	for _, v := range q {
		if v <= 0.05 {
			rejected++
		}
	}
	if rejected != 4 {
		t.Errorf("%d q-values ≤ 0.05, the paper rejects 4: %v", rejected, q)
	}
	for i, want := range map[int]float64{3: 0.0095 * 15 / 4, 4: 0.0201 * 15 / 5, 14: 1} {
		if math.Abs(q[i]-want) > 1e-15 {
			t.Errorf("q[%d] = %v, want %v", i, q[i], want)
		}
	}
}

// Small cases by hand (m = number of defined p-values):
//   - {0.01, 0.04, 0.03, 0.005, 0.5, NaN}, m = 5: m·p/rank = 0.025, 0.025,
//     0.05, 0.05, 0.5 in sorted order, already non-decreasing;
//   - {0.02, 0.021, 0.9}: 0.06, 0.0315, 0.9, so the step-up minimum lowers
//     the first to 0.0315;
//   - {0.6, 0.9}: 1.2 is capped by the later 0.9;
//   - ties {0.01, 0.01}: 0.02 and 0.01, both 0.01.
func TestBHByHand(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct{ p, q []float64 }{
		{[]float64{0.01, 0.04, 0.03, 0.005, 0.5, nan}, []float64{0.025, 0.05, 0.05, 0.025, 0.5, nan}},
		{[]float64{0.02, 0.021, 0.9}, []float64{0.0315, 0.0315, 0.9}},
		{[]float64{0.6, 0.9}, []float64{0.9, 0.9}},
		{[]float64{0.01, 0.01}, []float64{0.01, 0.01}},
		{nil, []float64{}},
	} {
		q := BH(c.p)
		if len(q) != len(c.q) {
			t.Fatalf("BH(%v) has %d values", c.p, len(q))
		}
		for i := range q {
			if !(math.Abs(q[i]-c.q[i]) <= 1e-15 || math.IsNaN(q[i]) && math.IsNaN(c.q[i])) {
				t.Errorf("BH(%v) = %v, want %v", c.p, q, c.q)
				break
			}
		}
	}
}
