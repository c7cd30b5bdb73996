package stats

import (
	"fmt"
	"math"
	"testing"
)

// I_x(k, n−k+1) against scipy.stats.beta.cdf(x, k, n−k+1) (scipy 1.10),
// and the two ends.
func TestOrderStatCDF(t *testing.T) {
	for _, c := range []struct {
		x    float64
		k, n int
		want float64
	}{
		{0.37, 4, 10, 0.5400037926881454},
		{1e-3, 2, 20, 0.00018773447317733578},
		{0.9, 6, 6, 0.531441},
		{0.1, 1, 3, 0.271},
		{0, 1, 3, 0},
		{1, 3, 3, 1},
	} {
		if got := OrderStatCDF(c.x, c.k, c.n); math.Abs(got-c.want) > 1e-14*math.Max(c.want, 1e-300)+1e-300 {
			t.Errorf("OrderStatCDF(%v, %d, %d) = %v, want %v", c.x, c.k, c.n, got, c.want)
		}
	}
}

// RRA by hand for three rankings of ten features. Ranks 1, 2, 10 give
// r = 0.1, 0.2, 1: β₁ = 1 − 0.9³ = 0.271, β₂ = 3·0.2²·0.8 + 0.2³ = 0.104,
// β₃ = 1, so ρ = 0.104 and p = 3ρ = 0.312. Ranks 1, 1, 1: β₃ = 0.1³ =
// 0.001 is the smallest (β₂ = 0.028), ρ = 0.001, p = 0.003. The worst
// ranks 10, 10, 10 give ρ = 1 and p = 1 (capped).
func TestRRAByHand(t *testing.T) {
	for _, c := range []struct {
		r      []float64
		rho, p float64
	}{
		{[]float64{1, 0.1, 0.2}, 0.104, 0.312},
		{[]float64{0.1, 0.1, 0.1}, 0.001, 0.003},
		{[]float64{1, 1, 1}, 1, 1},
	} {
		rho, p := RRA(c.r)
		if math.Abs(rho-c.rho) > 1e-15 || math.Abs(p-c.p) > 1e-15 {
			t.Errorf("RRA(%v) = %v, %v; want %v, %v", c.r, rho, p, c.rho, c.p)
		}
	}
}

// The mean of r = 0.1, 0.2, 1 is 13/30; z = (13/30 − 1/2)·√36 = −0.4 and
// Φ(−0.4) = 0.3445782583896758 (scipy.stats.norm.cdf(-0.4)).
func TestMeanRankByHand(t *testing.T) {
	mean, p := MeanRank([]float64{0.1, 0.2, 1})
	if math.Abs(mean-13.0/30) > 1e-15 || math.Abs(p-0.3445782583896758) > 1e-15 {
		t.Errorf("MeanRank = %v, %v", mean, p)
	}
}

// Two rankings of three features, [0 1 2] and [1 0 2], worked by hand:
// normalised ranks f0 (1/3, 2/3), f1 (2/3, 1/3), f2 (1, 1). Mean: 1/2,
// 1/2, 1 — f0 and f1 tie, the lower index first; scores 1/2, 1/2, 0.
// RRA: ρ(f0) = min(β₁,₂(1/3), β₂,₂(2/3)) = min(1 − (2/3)², (2/3)²) = 4/9,
// the same for f1, ρ(f2) = 1; p = min(1, 2ρ) = 8/9, 8/9, 1.
func TestAggregate(t *testing.T) {
	rankings := [][]int{{0, 1, 2}, {1, 0, 2}}
	order, scores, p := Aggregate(rankings, 3, true)
	if fmt.Sprint(order) != "[0 1 2]" || !close(scores[0], 0.5) || !close(scores[1], 0.5) || !close(scores[2], 0) {
		t.Errorf("mean: order %v, scores %v", order, scores)
	}
	// MeanRank's p-value at the mean 1/2 is Φ(0) = 1/2.
	if !close(p[0], 0.5) {
		t.Errorf("mean: p %v", p)
	}
	order, scores, p = Aggregate(rankings, 3, false)
	if fmt.Sprint(order) != "[0 1 2]" || !close(p[0], 8.0/9) || !close(p[1], 8.0/9) || !close(p[2], 1) || !close(scores[0], -math.Log10(4.0/9)) {
		t.Errorf("rra: order %v, scores %v, p %v", order, scores, p)
	}
	// [2 1 0] and [2 0 1]: ρ(f2) = min(1 − (2/3)², (1/3)²) = 1/9; f0
	// (1, 2/3) and f1 (2/3, 1) both 8/9 with the same mean rank 5/6, so
	// f0, the lower index, comes first.
	order, _, p = Aggregate([][]int{{2, 1, 0}, {2, 0, 1}}, 3, false)
	if fmt.Sprint(order) != "[2 0 1]" || !close(p[2], 2.0/9) {
		t.Errorf("rra of agreeing rankings: %v, p %v", order, p)
	}
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }
