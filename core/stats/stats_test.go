package stats

import (
	"math"
	"testing"
)

// sameFloat is equality within 1e-15, NaN equal to NaN.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-15
}

// By hand: {1, 2, 3, 4} has mean 5/2 and squared deviations 9/4, 1/4,
// 1/4, 9/4, summing to 5, so the sample deviation is √(5/3); NaN values
// are left out; one value has no deviation, none has no mean either.
func TestMeanStd(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		v         []float64
		mean, std float64
	}{
		{[]float64{1, 2, 3, 4}, 2.5, math.Sqrt(5.0 / 3)},
		{[]float64{nan, 1, 2, nan, 3, 4}, 2.5, math.Sqrt(5.0 / 3)},
		{[]float64{-2, -2}, -2, 0},
		{[]float64{7, nan}, 7, nan},
		{[]float64{nan}, nan, nan},
		{nil, nan, nan},
	} {
		m, s := MeanStd(c.v)
		if !sameFloat(m, c.mean) || !sameFloat(s, c.std) {
			t.Errorf("MeanStd(%v) = %v, %v; want %v, %v", c.v, m, s, c.mean, c.std)
		}
	}
}

// Columns by hand: column 0 holds {1, 3} (mean 2, deviation √2), column 1
// {2} (the second row is too short: mean 2, no deviation), column 2 none.
func TestColumnMeanStd(t *testing.T) {
	mean, std := ColumnMeanStd([][]float64{{1, 2}, {3}}, 3)
	want := [][2]float64{{2, math.Sqrt2}, {2, math.NaN()}, {math.NaN(), math.NaN()}}
	if len(mean) != 3 || len(std) != 3 {
		t.Fatalf("lengths %d, %d", len(mean), len(std))
	}
	for j, w := range want {
		if !sameFloat(mean[j], w[0]) || !sameFloat(std[j], w[1]) {
			t.Errorf("column %d: %v ± %v, want %v ± %v", j, mean[j], std[j], w[0], w[1])
		}
	}
}
