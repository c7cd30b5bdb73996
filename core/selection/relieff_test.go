package selection

import (
	"context"
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Three samples by hand: x₀ = (0, 0), x₁ = (1, 2) of class 0 and
// x₂ = (4, 1) of class 1. Ranges 4 and 2 give diffs (scaled values
// z₀ = (0, 0), z₁ = (¼, 1), z₂ = (1, ½)); priors P(0) = ⅔, P(1) = ⅓, so
// every miss weight P(C)/(1 − P(y)) is 1. With k = 10 (capped by the class
// sizes):
//
//	probe x₀: hit x₁ −(¼, 1); miss x₂ +(1, ½)                = (¾, −½)
//	probe x₁: hit x₀ −(¼, 1); miss x₂ +(¾, ½)                = (½, −½)
//	probe x₂: no hit (alone in its class); misses x₀, x₁
//	          averaged: ((1, ½) + (¾, ½))/2                  = (⅞, ½)
//	W = ((¾ + ½ + ⅞), (−½ − ½ + ½))/3 = (17/24, −1/6).
//
// With k = 1, x₂'s nearest miss is x₁ (distance ¾ + ½ = 1.25 against
// 1 + ½ = 1.5 to x₀): its term is (¾, ½) and W = (2/3, −1/6).
func TestReliefFHandThreeSamples(t *testing.T) {
	p := &Problem{X: mat.NewDense(3, 2, []float64{0, 0, 1, 2, 4, 1}), Y: []int{0, 0, 1}, C: 2}
	for _, c := range []struct {
		k    int
		want []float64
	}{{10, []float64{17.0 / 24, -1.0 / 6}}, {1, []float64{2.0 / 3, -1.0 / 6}}} {
		res := fitWith(t, "relieff", p, map[string]any{"k": c.k})
		for j := range c.want {
			if !relClose(res.Scores[j], c.want[j], 1e-14) {
				t.Errorf("k=%d: W[%d] = %.17g, want %.17g", c.k, j, res.Scores[j], c.want[j])
			}
		}
	}
}

// Three classes by hand, where the prior weights differ from 1: one
// feature x = (0, 1, 3, 6) with classes (0, 0, 1, 2), range 6, so
// z = (0, ⅙, ½, 1); P = (½, ¼, ¼). Weights P(C)/(1 − P(y)): ½ for a probe of
// class 0, ⅔ (class 0) and ⅓ (the other) for probes of classes 1 and 2.
//
//	probe 0: −⅙ + ½·½ + ½·1               = 7/12
//	probe 1: −⅙ + ½·⅓ + ½·⅚               = 5/12
//	probe 2: ⅔·(½ + ⅓)/2 + ⅓·½             = 4/9
//	probe 3: ⅔·(1 + ⅚)/2 + ⅓·½             = 7/9
//	W = (7/12 + 5/12 + 4/9 + 7/9)/4 = 5/9.
//
// A second, constant feature scores 0 (never NaN).
func TestReliefFHandThreeClasses(t *testing.T) {
	p := &Problem{X: mat.NewDense(4, 2, []float64{0, 7, 1, 7, 3, 7, 6, 7}), Y: []int{0, 0, 1, 2}, C: 3}
	res := fit(t, "relieff", p)
	if !relClose(res.Scores[0], 5.0/9, 1e-14) || res.Scores[1] != 0 {
		t.Errorf("W = %v, want [5/9 0]", res.Scores)
	}
}

// Neighbours at equal distance are taken by lower row index. Five samples
// of two features, both of range 2, k = 1: z = (0,0), (½,0), (0,½), (1,1),
// (0,1) for rows 0…4 of classes 0, 1, 1, 0, 0; priors ⅗ and ⅖ make every
// miss weight 1. By hand (ties marked, the lower row taken):
//
//	probe 0: hit 4 (1 < 2)          −(0, 1); misses 1, 2 tie at ½: 1 +(½, 0) = (½, −1)
//	probe 1: hit 2                  −(½, ½); miss 0 (½)              +(½, 0) = (0, −½)
//	probe 2: hit 1                  −(½, ½); misses 0, 4 tie at ½: 0 +(0, ½) = (−½, 0)
//	probe 3: hit 4 (1 < 2)          −(1, 0); misses 1, 2 tie at 1½: 1 +(½, 1) = (−½, 1)
//	probe 4: hits 0, 3 tie at 1: 0  −(0, 1); miss 2 (½ < 1½)          +(0, ½) = (0, −½)
//	W = (−½, −1)/5 = (−0.1, −0.2).
//
// Taking the higher row at every tie gives (−0.3, 0) instead.
func TestReliefFTiesByLowerIndex(t *testing.T) {
	p := &Problem{X: mat.NewDense(5, 2, []float64{
		0, 0,
		1, 0,
		0, 1,
		2, 2,
		0, 2,
	}), Y: []int{0, 1, 1, 0, 0}, C: 2}
	res := fitWith(t, "relieff", p, map[string]any{"k": 1})
	if !relClose(res.Scores[0], -0.1, 1e-14) || !relClose(res.Scores[1], -0.2, 1e-14) {
		t.Errorf("W = %v, want [−0.1 −0.2]", res.Scores)
	}
}

// referenceReliefF is the ReliefF algorithm of the paper (§2.2) written
// literally: for every probe, the distances to all other samples, sorted
// by (distance, row); the first k of each class kept; then the update
// with diff = |a − b|/(max − min) computed from the values themselves. It
// shares with the selector only the arithmetic of the distance (each
// feature's z = (x − min)/(max − min), |z_a − z_b| summed in increasing
// feature order), which decides the neighbours bit for bit where
// distances tie; everything else is independent.
func referenceReliefF(p *Problem, k int) []float64 {
	m, n := p.X.Dims()
	lo, hi := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		lo[j], hi[j] = math.Inf(1), math.Inf(-1)
		for i := 0; i < m; i++ {
			lo[j] = math.Min(lo[j], p.X.At(i, j))
			hi[j] = math.Max(hi[j], p.X.At(i, j))
		}
	}
	z := func(i, j int) float64 {
		if hi[j] == lo[j] {
			return 0
		}
		return (p.X.At(i, j) - lo[j]) / (hi[j] - lo[j])
	}
	diff := func(j, a, b int) float64 {
		if hi[j] == lo[j] {
			return 0
		}
		return math.Abs(p.X.At(a, j)-p.X.At(b, j)) / (hi[j] - lo[j])
	}
	prior := make([]float64, p.C)
	for _, y := range p.Y {
		prior[y] += 1 / float64(m)
	}
	w := make([]float64, n)
	type cand struct {
		d float64
		j int
	}
	for i := 0; i < m; i++ {
		var all []cand
		for l := 0; l < m; l++ {
			if l == i {
				continue
			}
			d := 0.0
			for j := 0; j < n; j++ {
				d += math.Abs(z(i, j) - z(l, j))
			}
			all = append(all, cand{d, l})
		}
		sort.Slice(all, func(a, b int) bool {
			if all[a].d != all[b].d {
				return all[a].d < all[b].d
			}
			return all[a].j < all[b].j
		})
		near := make([][]int, p.C)
		for _, c := range all {
			if y := p.Y[c.j]; len(near[y]) < k {
				near[y] = append(near[y], c.j)
			}
		}
		for j := 0; j < n; j++ {
			term := 0.0
			for class, rows := range near {
				if len(rows) == 0 {
					continue
				}
				mean := 0.0
				for _, l := range rows {
					mean += diff(j, i, l)
				}
				mean /= float64(len(rows))
				if class == p.Y[i] {
					term -= mean
				} else {
					term += prior[class] / (1 - prior[p.Y[i]]) * mean
				}
			}
			w[j] += term / float64(m)
		}
	}
	return w
}

// On real data the selector agrees with the literal algorithm to 1e−9
// relative (weights, which lie in [−1, 1], below 1e−4 in magnitude to
// 1e−13 absolute), and ranks as its weights say: discrete
// data where distances tie (lung_discrete, colon), many classes, classes
// smaller than k (lymphoma has classes of 2 samples), the two sizes the
// issue names (USPS, orlraws10P; USPS subsampled except natively), and the
// chunked search (probes in chunks smaller than m, rows not a multiple of
// the tile).
func TestReliefFMatchesReferenceOnRealData(t *testing.T) {
	type tc struct {
		file             string
		rowStep, colStep int
		k, chunk         int
	}
	cases := []tc{
		{"lung_discrete.csv.gz", 1, 1, 10, 0},
		{"colon.csv.gz", 1, 4, 10, 0},
		{"lymphoma.csv.gz", 1, 8, 10, 0},
		{"lymphoma.csv.gz", 1, 8, 3, 0},
		{"GLIOMA.csv.gz", 1, 3, 10, 0},
		{"lung_discrete.csv.gz", 1, 1, 10, 9},
		{"USPS.csv.gz", 31, 1, 10, 0}, // 300 × 256
		{"orlraws10P.csv.gz", 1, 8, 10, 0},
	}
	if native() {
		cases = append(cases, tc{"orlraws10P.csv.gz", 1, 1, 10, 0}, tc{"USPS.csv.gz", 5, 1, 10, 0}, tc{"USPS.csv.gz", 9, 1, 10, 50})
	}
	for _, c := range cases {
		_, zs := realProblem(t, c.file, c.rowStep, c.colStep)
		m, n := zs.X.Dims()
		got, err := ReliefF{K: c.k, chunk: c.chunk}.Fit(context.Background(), zs, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := referenceReliefF(zs, c.k)
		worst := agree(t, c.file, got.Scores, want, 1e-9, 1e-4)
		checkRanking(t, c.file, got.Ranking, want)
		t.Logf("%s %d×%d k=%d chunk=%d: worst relative difference %.2g", c.file, m, n, c.k, c.chunk, worst)
	}
}

// Scale: the search must not build an m×m (let alone m×m×n) array. With
// m = 3000 samples of 4 features an m×m matrix of distances alone would be
// 72 MB; the whole fit must allocate far less (X is 96 kB).
func TestReliefFMemory(t *testing.T) {
	const m, n = 3000, 4
	p := cyclic(m, n, 3, 1)
	var err error
	if alloc := allocated(func() { _, err = (ReliefF{}).Fit(context.Background(), p, nil) }); err != nil || alloc > 8<<20 {
		t.Errorf("ReliefF on %d×%d allocated %d bytes (err %v); an m×m array is %d", m, n, alloc, err, m*m*8)
	}
}

// Progress rises to 1 and a cancelled context stops the search.
func TestReliefFProgressAndCancel(t *testing.T) {
	_, zs := realProblem(t, "lung_discrete.csv.gz", 1, 1)
	last := 0.0
	s := &Settings{Progress: func(p Progress) {
		if p.Fraction < last || p.Fraction > 1+1e-12 {
			t.Errorf("fraction %v after %v", p.Fraction, last)
		}
		last = p.Fraction
	}}
	if _, err := (ReliefF{}).Fit(context.Background(), zs, s); err != nil || last < 0.99 {
		t.Errorf("err %v, last fraction %v", err, last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s = &Settings{Progress: func(Progress) { cancel() }}
	if _, err := (ReliefF{}).Fit(ctx, zs, s); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
