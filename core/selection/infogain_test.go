package selection

import (
	"math"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The binning rule of docs/methods.md#infogain, by hand: bin = ⌊r·B/m⌋ with
// r the position of the value's first occurrence in sorted order.
func TestEqualFrequencyBins(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		b    int
		want []int
	}{
		// Distinct values, B = 3, m = 6: r = 0…5 → ⌊r/2⌋.
		{[]float64{6, 5, 4, 3, 2, 1}, 3, []int{2, 2, 1, 1, 0, 0}},
		// Ties share the bin of their first occurrence: sorted 1 2 2 2 3 3,
		// first positions 0, 1, 4 → ⌊0⌋, ⌊2/6⌋ = 0, ⌊8/6⌋ = 1 (a plain
		// equal-frequency split would cut the 2s in two).
		{[]float64{3, 2, 1, 2, 3, 2}, 2, []int{1, 0, 0, 0, 1, 0}},
		// B = 10 > m = 4: ⌊r·10/4⌋ for r = 0…3 → 0, 2, 5, 7.
		{[]float64{0.5, -1, 7, 2}, 10, []int{2, 0, 7, 5}},
		// A constant feature is one bin.
		{[]float64{4, 4, 4}, 10, []int{0, 0, 0}},
	} {
		bins, order := make([]int, len(c.v)), make([]int, len(c.v))
		equalFrequencyBins(c.v, c.b, bins, order)
		if !reflect.DeepEqual(bins, c.want) {
			t.Errorf("bins(%v, B=%d) = %v, want %v", c.v, c.b, bins, c.want)
		}
		for r := 1; r < len(order); r++ {
			if c.v[order[r-1]] > c.v[order[r]] {
				t.Errorf("order %v does not sort %v", order, c.v)
			}
		}
	}
}

// h2 is the binary entropy in bits.
func h2(p float64) float64 {
	if p == 0 || p == 1 {
		return 0
	}
	return -p*math.Log2(p) - (1-p)*math.Log2(1-p)
}

// Quinlan's small training set of 14 Saturday mornings (J. R. Quinlan,
// "Induction of decision trees", Machine Learning 1 (1986) 81–106), coded
// as numbers: outlook sunny 0, overcast 1, rain 2; temperature cool 0,
// mild 1, hot 2; humidity normal 0, high 1; windy false 0, true 1; class
// N 0, P 1. Every attribute
// has at most three values, each of which falls in its own bin for B = 10
// (and for B = 14, the identity binning), so the information gain is
// Quinlan's gain. By hand, with H the binary entropy and I = H(9/14):
//
//	outlook     I − [5/14·H(2/5) + 4/14·0 + 5/14·H(3/5)]       = 0.2467…
//	temperature I − [4/14·H(2/4) + 6/14·H(4/6) + 4/14·H(3/4)]  = 0.0292…
//	humidity    I − [7/14·H(3/7) + 7/14·H(6/7)]                = 0.1518…
//	windy       I − [8/14·H(6/8) + 6/14·H(3/6)]                = 0.0481…
//
// Quinlan prints 0.246, 0.029, 0.151 and 0.048 bits (truncated).
func TestInfoGainQuinlan(t *testing.T) {
	rows := [][5]float64{
		{0, 2, 1, 0, 0}, {0, 2, 1, 1, 0}, {1, 2, 1, 0, 1}, {2, 1, 1, 0, 1}, {2, 0, 0, 0, 1},
		{2, 0, 0, 1, 0}, {1, 0, 0, 1, 1}, {0, 1, 1, 0, 0}, {0, 0, 0, 0, 1}, {2, 1, 0, 0, 1},
		{0, 1, 0, 1, 1}, {1, 1, 1, 1, 1}, {1, 2, 0, 0, 1}, {2, 1, 1, 1, 0},
	}
	x := mat.NewDense(14, 4, nil)
	y := make([]int, 14)
	for i, r := range rows {
		x.SetRow(i, r[:4])
		y[i] = int(r[4])
	}
	p := &Problem{X: x, Y: y, C: 2}
	i := h2(9.0 / 14)
	want := []float64{
		i - (5.0/14*h2(2.0/5) + 5.0/14*h2(3.0/5)),
		i - (4.0/14*h2(2.0/4) + 6.0/14*h2(4.0/6) + 4.0/14*h2(3.0/4)),
		i - (7.0/14*h2(3.0/7) + 7.0/14*h2(6.0/7)),
		i - (8.0/14*h2(6.0/8) + 6.0/14*h2(3.0/6)),
	}
	quinlan := []float64{0.246, 0.029, 0.151, 0.048}
	for _, bins := range []any{10, 14} {
		res := fitWith(t, "infogain", p, map[string]any{"bins": bins})
		for j := range want {
			if !relClose(res.Scores[j], want[j], 1e-13) || math.Abs(res.Scores[j]-quinlan[j]) >= 1e-3 {
				t.Errorf("B=%v: gain[%d] = %.17g, want %.17g (Quinlan %v)", bins, j, res.Scores[j], want[j], quinlan[j])
			}
		}
		if !reflect.DeepEqual(res.Ranking, []int{0, 2, 3, 1}) {
			t.Errorf("B=%v: ranking %v, want outlook, humidity, windy, temperature", bins, res.Ranking)
		}
	}
}

// Three classes of two samples each. A feature that sorts the classes
// gains H(class) = log2 3 whatever B (≥ 3); one with two tied blocks of
// three values has bins {0,0,1 | 1,2,2} of the classes, so the gain is
// log2 3 − H(1/3) = log2 3 − (log2 3 − 2/3) = 2/3 by hand; a constant
// feature gains exactly 0; and a duplicate ties, ranked by lower index.
func TestInfoGainThreeClasses(t *testing.T) {
	x := mat.NewDense(6, 4, []float64{
		1, 1, 9, 1,
		2, 1, 9, 2,
		3, 1, 9, 3,
		4, 2, 9, 4,
		5, 2, 9, 5,
		6, 2, 9, 6,
	})
	p := &Problem{X: x, Y: []int{0, 0, 1, 1, 2, 2}, C: 3}
	for _, bins := range []any{3, 10} {
		res := fitWith(t, "infogain", p, map[string]any{"bins": bins})
		want := []float64{math.Log2(3), 2.0 / 3, 0, math.Log2(3)}
		for j := range want {
			if !relClose(res.Scores[j], want[j], 1e-14) && !(want[j] == 0 && res.Scores[j] == 0) {
				t.Errorf("B=%v: gain[%d] = %.17g, want %.17g", bins, j, res.Scores[j], want[j])
			}
		}
		if res.Scores[0] != res.Scores[3] || !reflect.DeepEqual(res.Ranking, []int{0, 3, 1, 2}) {
			t.Errorf("B=%v: scores %v ranking %v", bins, res.Scores, res.Ranking)
		}
	}
	// B = 2 merges the middle pair: bins {0,0,0 | 1,1,1} (r = 3 → ⌊6/6⌋),
	// the same partition as the tied feature: 2/3 bits.
	if got := fitWith(t, "infogain", p, map[string]any{"bins": 2}).Scores[0]; !relClose(got, 2.0/3, 1e-14) {
		t.Errorf("B=2: gain = %v, want 2/3", got)
	}
}

// referenceInfoGain computes the gain by the textbook route, on the raw
// data: a value's bin from the number r of values strictly below it (the
// position of its first occurrence in sorted order), found by counting;
// then H(class) − Σ_b P(b) H(class | b) with the entropies as
// −Σ p log2 p over the probabilities of the cells.
func referenceInfoGain(p *Problem, nbins int) []float64 {
	m, n := p.X.Dims()
	entropy := func(counts map[int]int, total int) float64 {
		h := 0.0
		for _, c := range counts {
			if c > 0 {
				q := float64(c) / float64(total)
				h -= q * math.Log2(q)
			}
		}
		return h
	}
	classes := map[int]int{}
	for _, y := range p.Y {
		classes[y]++
	}
	hClass := entropy(classes, m)
	out := make([]float64, n)
	for j := 0; j < n; j++ {
		byBin := map[int]map[int]int{}
		size := map[int]int{}
		for i := 0; i < m; i++ {
			r := 0
			for l := 0; l < m; l++ {
				if p.X.At(l, j) < p.X.At(i, j) {
					r++
				}
			}
			b := r * nbins / m
			if byBin[b] == nil {
				byBin[b] = map[int]int{}
			}
			byBin[b][p.Y[i]]++
			size[b]++
		}
		cond := 0.0
		for b, counts := range byBin {
			cond += float64(size[b]) / float64(m) * entropy(counts, size[b])
		}
		out[j] = hClass - cond
	}
	return out
}

// On real data the selector (z-scored data, as the CLI runs it) agrees with
// the reference (raw data: the bins depend only on the order of the
// values) to 1e−9 relative; gains below 1e−3 bits are compared to 1e−12
// bits absolute (both sides carry rounding of ~1e−15 bits).
func TestInfoGainMatchesReferenceOnRealData(t *testing.T) {
	cases := []struct {
		file             string
		rowStep, colStep int
		bins             int
	}{
		{"GLIOMA.csv.gz", 1, 2, 10},        // 4 classes, continuous
		{"lung_discrete.csv.gz", 1, 1, 10}, // 7 classes, heavy ties
		{"colon.csv.gz", 1, 2, 10},         // 2 classes, values −2…2
		{"lymphoma.csv.gz", 1, 8, 7},       // 9 classes, other B
		{"USPS.csv.gz", 13, 2, 10},         // 716 × 128, ties at the ends
	}
	if native() {
		cases = append(cases, struct {
			file             string
			rowStep, colStep int
			bins             int
		}{"Isolet.csv.gz", 2, 1, 10}) // 780 × 617, 26 classes
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			raw, zs := realProblem(t, c.file, c.rowStep, c.colStep)
			res := fitWith(t, "infogain", zs, map[string]any{"bins": c.bins})
			want := referenceInfoGain(raw, c.bins)
			worst := agree(t, "infogain", res.Scores, want, 1e-9, 1e-3)
			checkRanking(t, "infogain", res.Ranking, want)
			t.Logf("worst relative difference %.2g", worst)
		})
	}
}
