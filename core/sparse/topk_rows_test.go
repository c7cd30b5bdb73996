package sparse

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// sortedTopK is the reference selection: indices sorted by norm descending,
// ties by lower index, first k.
func sortedTopK(norms []float64, k int) map[int]bool {
	idx := make([]int, len(norms))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return norms[idx[a]] > norms[idx[b]] })
	out := map[int]bool{}
	for _, i := range idx[:max(0, min(k, len(idx)))] {
		out[i] = true
	}
	return out
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func rowNormsRef(w []float64, c int) []float64 {
	out := make([]float64, len(w)/c)
	for i := range out {
		s := 0.0
		for _, v := range w[i*c : (i+1)*c] {
			s += v * v
		}
		out[i] = math.Sqrt(s)
	}
	return out
}

// The quickselect picks exactly the rows the sorted order picks, with heavy
// ties (norms drawn from a handful of values) and for every k.
func TestSelectMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var ws TopKRows
	for trial := 0; trial < 300; trial++ {
		r := 1 + rng.IntN(40)
		w := make([]float64, r)
		for i := range w {
			w[i] = float64(rng.IntN(1 + trial%6)) // c = 1: the norm is |w|
			if rng.IntN(2) == 0 {
				w[i] = -w[i]
			}
		}
		for k := 0; k <= r+1; k++ {
			_, keep := ws.Select(w, 1, k)
			want := sortedTopK(rowNormsRef(w, 1), k)
			for i, kp := range keep {
				if kp != want[i] {
					t.Fatalf("r=%d k=%d w=%v: row %d kept=%v, want %v", r, k, w, i, kp, want[i])
				}
			}
		}
	}
}

// phi is the prox objective ½||W − U||² + α(||W||_{2,1} − ||W||_{K,21}),
// with ||W||_{K,21} computed by sorting (independently of TopKRows).
func phi(w, u []float64, c, k int, alpha float64) float64 {
	d := 0.0
	for i := range w {
		d += (w[i] - u[i]) * (w[i] - u[i])
	}
	norms := rowNormsRef(w, c)
	sort.Sort(sort.Reverse(sort.Float64Slice(norms)))
	gap := 0.0
	for _, v := range norms[k:] {
		gap += v
	}
	return d/2 + alpha*gap
}

// rowMin minimises f(w) = ½||w − u||² + α||w|| over w ∈ R^c by brute force:
// a pattern search (halving steps) along the axes, the direction of u and
// random directions, from the best of 0, u and a coarse grid. It knows
// nothing of soft thresholding. f is convex and smooth away from 0; the
// non-axis directions let the search leave the kink at 0 when the descent
// cone there contains no axis.
func rowMin(u []float64, alpha float64, rng *rand.Rand) (float64, []float64) {
	c := len(u)
	f := func(w []float64) float64 {
		d, n := 0.0, 0.0
		for j := range w {
			d += (w[j] - u[j]) * (w[j] - u[j])
			n += w[j] * w[j]
		}
		return d/2 + alpha*math.Sqrt(n)
	}
	scale := 0.0
	for _, v := range u {
		scale = math.Max(scale, math.Abs(v))
	}
	scale = math.Max(scale, 1e-3)
	best := make([]float64, c)
	bestF := f(best)
	try := func(w []float64) {
		if v := f(w); v < bestF {
			bestF = v
			copy(best, w)
		}
	}
	try(u)
	// Coarse grid over [−scale, scale]^c.
	const g = 8
	w := make([]float64, c)
	var rec func(j int)
	rec = func(j int) {
		if j == c {
			try(w)
			return
		}
		for s := -g; s <= g; s++ {
			w[j] = scale * float64(s) / g
			rec(j + 1)
		}
	}
	rec(0)
	// Search directions: the axes, u and 16 random unit vectors.
	var dirs [][]float64
	for j := 0; j < c; j++ {
		d := make([]float64, c)
		d[j] = 1
		dirs = append(dirs, d)
	}
	if n := math.Sqrt(dot(u, u)); n > 0 {
		d := make([]float64, c)
		for j := range d {
			d[j] = u[j] / n
		}
		dirs = append(dirs, d)
	}
	for range 16 {
		d := make([]float64, c)
		for j := range d {
			d[j] = rng.NormFloat64()
		}
		n := math.Sqrt(dot(d, d))
		for j := range d {
			d[j] /= n
		}
		dirs = append(dirs, d)
	}
	step := scale / g
	cur := append([]float64(nil), best...)
	for step > 1e-13*scale {
		moved := false
		for _, d := range dirs {
			for _, sgn := range []float64{1, -1} {
				for j := range cur {
					cur[j] += sgn * step * d[j]
				}
				if v := f(cur); v < bestF {
					bestF = v
					copy(best, cur)
					moved = true
				} else {
					copy(cur, best)
				}
			}
		}
		if !moved {
			step /= 2
		}
	}
	return bestF, best
}

// subsets calls f with every k-subset of {0,…,r−1} as a membership slice.
func subsets(r, k int, f func(in []bool)) {
	in := make([]bool, r)
	var rec func(i, left int)
	rec = func(i, left int) {
		if left == 0 {
			f(in)
			return
		}
		if r-i < left {
			return
		}
		in[i] = true
		rec(i+1, left-1)
		in[i] = false
		rec(i+1, left)
	}
	rec(0, k)
}

// The prox of α(ℓ2,1 − ℓK,21) against brute force: −||W||_{K,21} is the
// minimum over K-sets S of −Σ_{i∈S}||w^i||, so min_W Φ is the minimum over
// all K-subsets S of the separable convex problems with the rows of S free;
// each row problem is minimised numerically by rowMin. Rows with ||u^i|| < α
// (where the paper's formula without the max(0,·) fails) occur often here.
func TestProxAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var ws TopKRows
	for trial := 0; trial < 120; trial++ {
		r, c := 2+rng.IntN(4), 1+rng.IntN(3)
		k := 1 + rng.IntN(r-1)
		alpha := 0.05 + 2*rng.Float64()
		u := make([]float64, r*c)
		for i := range u {
			u[i] = rng.NormFloat64()
		}
		if trial%5 == 0 { // a zero row
			clear(u[:c])
		}
		got := make([]float64, len(u))
		gap := ws.Prox(got, u, c, k, alpha)
		if want := phi(got, got, c, k, alpha) / alpha; math.Abs(gap-want) > 1e-12 {
			t.Fatalf("trial %d: Prox returned the penalty %v, its value at the result is %v", trial, gap, want)
		}
		// Brute force: the best K-subset, each row minimised numerically.
		bestF := math.Inf(1)
		var bestW []float64
		subsets(r, k, func(in []bool) {
			total := 0.0
			w := make([]float64, len(u))
			for i := 0; i < r; i++ {
				ui := u[i*c : (i+1)*c]
				if in[i] {
					copy(w[i*c:], ui)
					continue
				}
				f, wi := rowMin(ui, alpha, rng)
				total += f
				copy(w[i*c:], wi)
			}
			if total < bestF {
				bestF, bestW = total, w
			}
		})
		fGot := phi(got, u, c, k, alpha)
		if fGot > bestF+1e-9 {
			t.Fatalf("trial %d (r=%d c=%d k=%d α=%.3g): Φ(prox) = %.12g > brute-force minimum %.12g\nu=%v\nprox=%v\nbrute=%v", trial, r, c, k, alpha, fGot, bestF, u, got, bestW)
		}
		if fGot < bestF-1e-6 {
			t.Fatalf("trial %d: Φ(prox) = %.12g below the brute-force minimum %.12g: the brute force is wrong", trial, fGot, bestF)
		}
		// The minimiser is unique when the k-th and (k+1)-th norms differ.
		norms := rowNormsRef(u, c)
		sorted := append([]float64(nil), norms...)
		sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
		if sorted[k-1]-sorted[k] > 1e-3 {
			for i := range got {
				if math.Abs(got[i]-bestW[i]) > 1e-6 {
					t.Fatalf("trial %d: prox %v, brute-force minimiser %v", trial, got, bestW)
				}
			}
		}
	}
}

// The formula of Theorem 5.1 as printed, (1 − α/||u||)·u for every row
// outside the top K, is not a minimiser when a row has ||u|| < α; the
// corrected map is strictly better there. Hand example: U = [(3,0); (0.5,0)],
// K = 1, α = 1: the printed formula gives the second row (−0.5,0), at
// distance 1 from (0.5,0) and of norm 0.5, so Φ = ½·1² + 0.5 = 1; the soft
// threshold gives 0 with Φ = ½·0.5² = 0.125.
func TestPrintedTheorem51Fails(t *testing.T) {
	u := []float64{3, 0, 0.5, 0}
	var ws TopKRows
	got := make([]float64, 4)
	ws.Prox(got, u, 2, 1, 1)
	if got[0] != 3 || got[1] != 0 || got[2] != 0 || got[3] != 0 {
		t.Fatalf("prox = %v, want [3 0 0 0]", got)
	}
	printed := []float64{3, 0, (1 - 1/0.5) * 0.5, 0}
	if a, b := phi(got, u, 2, 1, 1), phi(printed, u, 2, 1, 1); math.Abs(a-0.125) > 1e-15 || math.Abs(b-1) > 1e-15 {
		t.Errorf("Φ(prox) = %v (want 0.125), Φ(printed) = %v (want 1)", a, b)
	}
}

// KNorm, Gap and Project against definitions computed by sorting and, for
// the projection, against every support of size ≤ k.
func TestKNormGapProject(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var ws TopKRows
	for trial := 0; trial < 200; trial++ {
		r, c := 1+rng.IntN(7), 1+rng.IntN(3)
		k := rng.IntN(r + 2)
		u := make([]float64, r*c)
		for i := range u {
			u[i] = float64(rng.IntN(5) - 2) // ties and zero rows
		}
		norms := rowNormsRef(u, c)
		sorted := append([]float64(nil), norms...)
		sort.Sort(sort.Reverse(sort.Float64Slice(sorted)))
		top, rest := 0.0, 0.0
		for i, v := range sorted {
			if i < k {
				top += v
			} else {
				rest += v
			}
		}
		if got := ws.KNorm(u, c, k); math.Abs(got-top) > 1e-12 {
			t.Fatalf("KNorm = %v, want %v", got, top)
		}
		if got := ws.Gap(u, c, k); math.Abs(got-rest) > 1e-12 {
			t.Fatalf("Gap = %v, want %v", got, rest)
		}
		p := make([]float64, len(u))
		ws.Project(p, u, c, k)
		dist := 0.0
		for i := range u {
			dist += (p[i] - u[i]) * (p[i] - u[i])
		}
		best := math.Inf(1)
		for size := 0; size <= min(k, r); size++ {
			subsets(r, size, func(in []bool) {
				d := 0.0
				for i := 0; i < r; i++ {
					if !in[i] {
						d += norms[i] * norms[i]
					}
				}
				best = math.Min(best, d)
			})
		}
		if math.Abs(dist-best) > 1e-12 || ws.Gap(p, c, k) != 0 {
			t.Fatalf("projection distance² %v, brute force %v, gap after %v", dist, best, ws.Gap(p, c, k))
		}
	}
}

func BenchmarkProx_r10000_c20(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const r, c = 10000, 20
	u := make([]float64, r*c)
	for i := range u {
		u[i] = rng.NormFloat64()
	}
	dst := make([]float64, len(u))
	var ws TopKRows
	b.ReportAllocs()
	for b.Loop() {
		ws.Prox(dst, u, c, 50, 0.5)
	}
}
