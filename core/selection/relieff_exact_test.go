package selection

import (
	"context"
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
)

// exactReliefF is ReliefF with the neighbours chosen by exact distances on
// whole-number data: d(a, b)·L = Σ_f |x_af − x_bf|·(L/R_f) in int64, L the
// least common multiple of the ranges R_f, ties by lower row; the update
// with diff = |a − b|/R_f. It reads the raw whole numbers, not the
// selector's scaled copy, and shares no code with it.
func exactReliefF(x [][]int64, y []int, c, k int) []float64 {
	m, n := len(x), len(x[0])
	lo, r := make([]int64, n), make([]int64, n)
	l := int64(1)
	for j := 0; j < n; j++ {
		lo[j] = x[0][j]
		hi := x[0][j]
		for i := range x {
			lo[j], hi = min(lo[j], x[i][j]), max(hi, x[i][j])
		}
		r[j] = hi - lo[j]
		if r[j] > 0 {
			g, h := l, r[j]
			for h != 0 {
				g, h = h, g%h
			}
			l = l / g * r[j]
		}
	}
	counts := make([]int, c)
	for _, v := range y {
		counts[v]++
	}
	w := make([]float64, n)
	type cand struct {
		d int64
		j int
	}
	for i := 0; i < m; i++ {
		var all []cand
		for o := 0; o < m; o++ {
			if o == i {
				continue
			}
			var d int64
			for f := 0; f < n; f++ {
				if r[f] > 0 {
					diff := x[i][f] - x[o][f]
					d += max(diff, -diff) * (l / r[f])
				}
			}
			all = append(all, cand{d, o})
		}
		sort.Slice(all, func(a, b int) bool {
			if all[a].d != all[b].d {
				return all[a].d < all[b].d
			}
			return all[a].j < all[b].j
		})
		near := make([][]int, c)
		for _, cd := range all {
			if len(near[y[cd.j]]) < k {
				near[y[cd.j]] = append(near[y[cd.j]], cd.j)
			}
		}
		for f := 0; f < n; f++ {
			if r[f] == 0 {
				continue
			}
			for class, rows := range near {
				if len(rows) == 0 {
					continue
				}
				mean := 0.0
				for _, o := range rows {
					mean += math.Abs(float64(x[i][f]-x[o][f])) / float64(r[f])
				}
				mean /= float64(len(rows))
				if class == y[i] {
					w[f] -= mean / float64(m)
				} else {
					w[f] += float64(counts[class]) / float64(m-counts[y[i]]) * mean / float64(m)
				}
			}
		}
	}
	return w
}

// On whole-number data given z-scored (as a fit receives them), the
// neighbours are those of the exact distances: the UCI handwritten digits
// (integer pixels 0…16, many distances tie) and genotype-like 0/1/2 data
// score as the exact rule says, to rounding. Neighbours chosen by
// floating-point sums of the scaled differences break ties by rounding
// and differ here by up to 10⁻³ relative.
func TestReliefFExactOnWholeNumbers(t *testing.T) {
	ds := demoData(t, "digits.csv.gz")
	step := 1
	if !native() {
		step = 3 // the exact reference is O(m²n) in int64 and slow under wasm
	}
	var rows []int
	for i := 0; i < ds.Rows(); i += step {
		rows = append(rows, i)
	}
	_, n := ds.X.Dims()
	digits := make([][]int64, len(rows))
	y := make([]int, len(rows))
	for a, i := range rows {
		digits[a] = make([]int64, n)
		for j := 0; j < n; j++ {
			digits[a][j] = int64(ds.X.At(i, j))
		}
		y[a] = ds.Y[i]
	}
	// Genotypes: 0/1/2 at random, a few features shifted by the class.
	geno := make([][]int64, 120)
	gy := make([]int, 120)
	seed := uint64(7)
	for i := range geno {
		geno[i] = make([]int64, 30)
		gy[i] = i % 3
		for j := range geno[i] {
			seed = seed*6364136223846793005 + 1442695040888963407
			v := int64(seed>>33) % 3
			if j < 4 && gy[i] == 2 {
				v = min(2, v+1)
			}
			geno[i][j] = v
		}
	}
	for _, c := range []struct {
		name string
		x    [][]int64
		y    []int
		cls  int
	}{{"digits", digits, y, len(ds.Classes)}, {"genotypes", geno, gy, 3}} {
		m, n := len(c.x), len(c.x[0])
		x := mat.NewDense(m, n, nil)
		for i := range c.x {
			for j, v := range c.x[i] {
				x.Set(i, j, float64(v))
			}
		}
		zs := dataset.FitScaler(dataset.ZScore, x).Transform(x)
		got, err := ReliefF{K: 10}.Fit(context.Background(), &Problem{X: zs, Y: c.y, C: c.cls}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := exactReliefF(c.x, c.y, c.cls, 10)
		worst := 0.0
		for j := range want {
			if d := math.Abs(got.Scores[j] - want[j]); d > 1e-12*math.Max(1e-3, math.Abs(want[j])) {
				worst = math.Max(worst, d/math.Max(1e-3, math.Abs(want[j])))
			}
		}
		if worst > 0 {
			t.Errorf("%s (%d×%d): scores differ from the exact rule by up to %.3g relative", c.name, m, n, worst)
		}
	}
}

// The lattice of a feature is found whole numbers or affine images of
// them, and not where a value lies off it.
func TestLatticeCodes(t *testing.T) {
	u, r, ok := latticeCodes([]float64{0.5, 2, 1, 0.5, 3.5}, 0.5, 3.5)
	if !ok || r != 6 || u[1] != 3 || u[4] != 6 {
		t.Errorf("step ½: codes %v, range %d, %v", u, r, ok)
	}
	if _, _, ok := latticeCodes([]float64{0, 1, math.Sqrt2}, 0, math.Sqrt2); ok {
		t.Error("0, 1, √2 taken for a lattice")
	}
	if got := lcm(6, 4); got != 12 {
		t.Errorf("lcm(6, 4) = %d", got)
	}
}
