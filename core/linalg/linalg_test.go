package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// tiles are the inner kernels; every build tests the portable two, the
// assembly one where the processor runs it, and the SIMD128 one in wasm
// builds with GOEXPERIMENT=simd, each of the last two also without its
// kernels that read A in place (so that thin products test both ways).
var tiles = func() []struct {
	name string
	t    tile
} {
	type named = struct {
		name string
		t    tile
	}
	ts := []named{{"4x2", tile4x2}, {"4x3", tile4x3}}
	for _, tl := range []named{{"4x8fma", tile4x8}, {"4x4simd", tile4x4simd}} {
		if tl.t.nr != 0 {
			ts = append(ts, tl, named{tl.name + " packed", tile{nr: tl.t.nr, kern: tl.t.kern}})
		}
	}
	return ts
}()

// randGeneral returns an r×c matrix with entries in [−1, 1) and a stride
// larger than c (to catch stride mistakes); the padding holds NaN.
func randGeneral(rng *rand.Rand, r, c int) General {
	stride := c + 3
	data := make([]float64, r*stride)
	for i := range data {
		data[i] = math.NaN()
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			data[i*stride+j] = 2*rng.Float64() - 1
		}
	}
	return General{Rows: r, Cols: c, Stride: stride, Data: data}
}

func clone(a General) General {
	return General{Rows: a.Rows, Cols: a.Cols, Stride: a.Stride, Data: append([]float64(nil), a.Data...)}
}

func transposed(a General, t bool) General {
	if !t {
		return a
	}
	out := General{Rows: a.Cols, Cols: a.Rows, Stride: a.Rows, Data: make([]float64, a.Rows*a.Cols)}
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			out.Data[j*out.Stride+i] = a.Data[i*a.Stride+j]
		}
	}
	return out
}

// maxDiff returns the largest |a−b| over the matrix entries (not the
// padding), relative to the largest |b|.
func maxDiff(a, b General) float64 {
	d, s := 0.0, 0.0
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			x, y := a.Data[i*a.Stride+j], b.Data[i*b.Stride+j]
			d = math.Max(d, math.Abs(x-y))
			if math.IsNaN(x) || math.IsNaN(y) {
				return math.Inf(1)
			}
			s = math.Max(s, math.Abs(y))
		}
	}
	return d / math.Max(s, 1e-300)
}

// The products agree with gonum's Dgemm to a few ulps times the inner
// dimension (both sum k products in different orders; 1e-13 is about
// k·ε for k ≤ 600).
const productTol = 1e-13

// Shapes straddle the block sizes (kc = 256, mc = 128, nc = 1024) and the
// tile sizes (4 rows, 2 or 3 columns).
var gemmShapes = [][3]int{{1, 1, 1}, {3, 2, 5}, {4, 3, 8}, {7, 5, 9}, {50, 4, 300}, {130, 9, 257}, {33, 1030, 20}, {129, 131, 513}, {4437, 9, 97}}

// forEachProduct calls f for each shape m×n×k and each pair of transpose
// flags with random op(A) m×k, op(B) k×n and C m×n.
func forEachProduct(rng *rand.Rand, shapes [][3]int, f func(m, n, k int, tA, tB bool, a, b, c General)) {
	for _, sh := range shapes {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				a := transposed(randGeneral(rng, m, k), tA)
				b := transposed(randGeneral(rng, k, n), tB)
				f(m, n, k, tA, tB, a, b, randGeneral(rng, m, n))
			}
		}
	}
}

func TestGemmMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	forEachProduct(rng, gemmShapes, func(m, n, k int, tA, tB bool, a, b, c0 General) {
		want := clone(c0)
		gonumGemm(tA, tB, 1.5, a, b, -0.5, want)
		for _, tl := range tiles {
			got := clone(c0)
			gemmWith(tl.t, tA, tB, 1.5, a, nil, b, -0.5, got, false)
			if d := maxDiff(got, want); d > productTol {
				t.Errorf("%dx%dx%d tA=%v tB=%v tile %s: relative difference %g", m, n, k, tA, tB, tl.name, d)
			}
		}
		got := clone(c0)
		Gemm(tA, tB, 1.5, a, b, -0.5, got)
		if d := maxDiff(got, want); d > productTol {
			t.Errorf("Gemm %dx%dx%d tA=%v tB=%v: relative difference %g", m, n, k, tA, tB, d)
		}
	})
}

// beta = 0 must ignore NaNs already in C (BLAS semantics).
func TestGemmBetaZeroIgnoresC(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := randGeneral(rng, 6, 5), randGeneral(rng, 5, 7)
	c := randGeneral(rng, 6, 7)
	for i := range c.Data {
		c.Data[i] = math.NaN()
	}
	want := General{Rows: 6, Cols: 7, Stride: 7, Data: make([]float64, 42)}
	gonumGemm(false, false, 1, a, b, 0, want)
	Gemm(false, false, 1, a, b, 0, c)
	if d := maxDiff(c, want); d > productTol {
		t.Errorf("relative difference %g", d)
	}
}

func TestSyrkDiagMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sh := range [][2]int{{1, 1}, {5, 3}, {4, 9}, {50, 300}, {300, 50}, {131, 260}} {
		m, n := sh[0], sh[1]
		a := randGeneral(rng, m, n)
		dm, dn := make([]float64, m), make([]float64, n)
		for i := range dm {
			dm[i] = rng.Float64()
		}
		for i := range dn {
			dn[i] = rng.Float64()
		}
		// References: gonum's Dgemm on an explicitly scaled copy.
		wantAt := General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
		gonumAtDA(a, dm, wantAt, General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)})
		wantA := General{Rows: m, Cols: m, Stride: m, Data: make([]float64, m*m)}
		gonumADAt(a, dn, wantA, General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)})
		for _, tl := range tiles {
			got := randGeneral(rng, n, n)
			gemmWith(tl.t, true, false, 1, a, dm, a, 0, got, true)
			mirror(got)
			if d := maxDiff(got, wantAt); d > productTol {
				t.Errorf("AᵀDA %dx%d tile %s: relative difference %g", m, n, tl.name, d)
			}
			got = randGeneral(rng, m, m)
			gemmWith(tl.t, false, true, 1, a, dn, a, 0, got, true)
			mirror(got)
			if d := maxDiff(got, wantA); d > productTol {
				t.Errorf("ADAᵀ %dx%d tile %s: relative difference %g", m, n, tl.name, d)
			}
		}
		// The exported forms, with beta = 1 on a symmetric C: C + AᵀDA.
		c := randGeneral(rng, n, n)
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				c.Data[j*c.Stride+i] = c.Data[i*c.Stride+j]
			}
		}
		got := clone(c)
		AtDA(2, a, dm, 1, got)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				w := c.Data[i*c.Stride+j] + 2*wantAt.Data[i*n+j]
				if g := got.Data[i*got.Stride+j]; math.Abs(g-w) > productTol*(1+math.Abs(w))*10 {
					t.Fatalf("AtDA(beta=1) %dx%d at (%d,%d): %g, want %g", m, n, i, j, g, w)
				}
			}
		}
		got = randGeneral(rng, m, m)
		ADAt(1, a, dn, 0, got)
		if d := maxDiff(got, wantA); d > productTol {
			t.Errorf("ADAt %dx%d: relative difference %g", m, n, d)
		}
		// d = nil is the identity.
		got = randGeneral(rng, m, m)
		ADAt(1, a, nil, 0, got)
		ones := make([]float64, n)
		for i := range ones {
			ones[i] = 1
		}
		gonumADAt(a, ones, wantA, General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)})
		if d := maxDiff(got, wantA); d > productTol {
			t.Errorf("ADAt(d=nil) %dx%d: relative difference %g", m, n, d)
		}
	}
}

// randSPD returns B·Bᵀ/n + I for a random n×n B (eigenvalues ≥ 1, so the
// factor is well conditioned and the comparison meaningful).
func randSPD(rng *rand.Rand, n int) General {
	b := randGeneral(rng, n, n)
	a := General{Rows: n, Cols: n, Stride: n + 1, Data: make([]float64, n*(n+1))}
	gonumGemm(false, true, 1/float64(n), b, b, 0, a)
	for i := 0; i < n; i++ {
		a.Data[i*a.Stride+i] += 1
	}
	return a
}

// choleskies are the implementations under test: the exported one (gonum
// natively, packed in wasm) and the packed one in every build.
var choleskies = []struct {
	name  string
	chol  func(General) bool
	solve func(General, General)
}{{"Cholesky", Cholesky, CholeskySolve}, {"packed", choleskyPacked, choleskySolvePacked}}

func TestCholeskyMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 5, 95, 96, 97, 200, 301} {
		a := randSPD(rng, n)
		want := clone(a)
		if !gonumCholesky(want) {
			t.Fatalf("n=%d: gonum failed", n)
		}
		for i := 0; i < n; i++ {
			clear(want.Data[i*want.Stride+i+1 : i*want.Stride+n])
		}
		// 3 and 9 right-hand sides: every path of subComb (blocks of four,
		// of two, one value).
		bs := []General{randGeneral(rng, n, 3), randGeneral(rng, n, 9)}
		xgs := make([]General, len(bs))
		for i, b := range bs {
			xgs[i] = clone(b)
			gonumCholeskySolve(want, xgs[i])
		}
		for _, impl := range choleskies {
			got := clone(a)
			// Garbage in the upper triangle must be ignored.
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					got.Data[i*got.Stride+j] = math.NaN()
				}
			}
			if !impl.chol(got) {
				t.Fatalf("%s n=%d: failed on an SPD matrix", impl.name, n)
			}
			// L is unique; both are backward stable, and with eigenvalues
			// in [1, ~n/3] the factors agree to a small multiple of n·ε.
			if d := maxDiff(got, want); d > 1e-12 {
				t.Errorf("%s n=%d: relative difference from gonum's factor %g", impl.name, n, d)
			}
			// Solve; compare with gonum and check the residual A·X − B.
			for i, b := range bs {
				x := clone(b)
				impl.solve(got, x)
				if d := maxDiff(x, xgs[i]); d > 1e-12 {
					t.Errorf("%s n=%d k=%d: solve differs from gonum's by %g", impl.name, n, b.Cols, d)
				}
				full := clone(a)
				mirrorLowerTest(full)
				ax := clone(b)
				gonumGemm(false, false, 1, full, x, 0, ax)
				if d := maxDiff(ax, b); d > 1e-12 {
					t.Errorf("%s n=%d k=%d: relative residual %g", impl.name, n, b.Cols, d)
				}
				// The forward half: L·Y = B, checked by multiplying back
				// with gonum's factor.
				y := clone(b)
				CholeskyForward(got, y)
				ly := clone(b)
				gonumGemm(false, false, 1, want, y, 0, ly)
				if d := maxDiff(ly, b); d > 1e-12 {
					t.Errorf("%s n=%d k=%d: forward solve's relative residual %g", impl.name, n, b.Cols, d)
				}
			}
		}
	}
}

func mirrorLowerTest(a General) {
	for i := 0; i < a.Rows; i++ {
		for j := i + 1; j < a.Cols; j++ {
			a.Data[i*a.Stride+j] = a.Data[j*a.Stride+i]
		}
	}
}

func TestCholeskyRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    []float64
	}{
		{"indefinite", []float64{1, 0, 2, 1}},   // [[1,2],[2,1]]: eigenvalue −1
		{"singular", []float64{1, 0, 1, 1}},     // [[1,1],[1,1]]
		{"nan", []float64{1, 0, math.NaN(), 1}}, // not finite
		{"negative", []float64{-1, 0, 0, 1}},    // a negative pivot
		{"infinite", []float64{math.Inf(1), 0, 0, 1}},
	} {
		for _, impl := range choleskies {
			a := General{Rows: 2, Cols: 2, Stride: 2, Data: append([]float64(nil), tc.a...)}
			if impl.chol(a) {
				t.Errorf("%s %s: reported success", impl.name, tc.name)
			}
		}
	}
	// A 200×200 matrix indefinite only in its last trailing block.
	rng := rand.New(rand.NewPCG(9, 10))
	a := randSPD(rng, 200)
	a.Data[199*a.Stride+199] = -5
	for _, impl := range choleskies {
		if impl.chol(clone(a)) {
			t.Errorf("%s 200×200 with a negative last pivot: reported success", impl.name)
		}
	}
}

func TestShapePanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	a, b := randGeneral(rng, 3, 4), randGeneral(rng, 5, 2)
	for name, f := range map[string]func(){
		"Gemm":          func() { Gemm(false, false, 1, a, b, 0, randGeneral(rng, 3, 2)) },
		"AtDA":          func() { AtDA(1, a, nil, 0, randGeneral(rng, 3, 3)) },
		"ADAt d":        func() { ADAt(1, a, make([]float64, 3), 0, randGeneral(rng, 3, 3)) },
		"Cholesky":      func() { Cholesky(a) },
		"CholeskySolve": func() { CholeskySolve(randGeneral(rng, 3, 3), b) },
	} {
		func() {
			defer func() {
				if r := recover(); r != ErrShape {
					t.Errorf("%s: recovered %v, want ErrShape", name, r)
				}
			}()
			f()
		}()
	}
}

// A negative weight cannot go through a √d-scaled copy: the native build
// then runs the packed kernel. Reference: Dgemm of Aᵀ and diag(d)·A.
func TestSyrkDiagNegativeWeight(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	a := randGeneral(rng, 30, 7)
	d := make([]float64, 30)
	for i := range d {
		d[i] = 2*rng.Float64() - 1
	}
	da := clone(a)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			da.Data[i*da.Stride+j] *= d[i]
		}
	}
	want := General{Rows: 7, Cols: 7, Stride: 7, Data: make([]float64, 49)}
	gonumGemm(true, false, 1, a, da, 0, want)
	got := randGeneral(rng, 7, 7)
	AtDA(1, a, d, 0, got)
	if diff := maxDiff(got, want); diff > productTol {
		t.Errorf("relative difference %g", diff)
	}
}

// CholeskySolveVec must give gonum's solution with the factor gonum
// computes, to 10⁻¹² relative, on the sizes of TestCholeskyMatchesGonum,
// and reject a right-hand side of the wrong length.
func TestCholeskySolveVecMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 5, 95, 96, 97, 200, 301} {
		l := randSPD(rng, n)
		if !gonumCholesky(l) {
			t.Fatalf("n=%d: gonum failed", n)
		}
		for i := 0; i < n; i++ {
			clear(l.Data[i*l.Stride+i+1 : i*l.Stride+n])
		}
		b := randGeneral(rng, n, 1)
		want := clone(b)
		gonumCholeskySolve(l, want)
		got := clone(b)
		x := make([]float64, n) // b's column, contiguous
		for i := range x {
			x[i] = b.Data[i*b.Stride]
		}
		CholeskySolveVec(l, x)
		for i, v := range x {
			got.Data[i*got.Stride] = v
		}
		if d := maxDiff(got, want); d > 1e-12 {
			t.Errorf("n=%d: differs from gonum's solve by %g", n, d)
		}
	}
	defer func() {
		if recover() != ErrShape {
			t.Error("a right-hand side of the wrong length: want a panic with ErrShape")
		}
	}()
	CholeskySolveVec(randSPD(rng, 3), make([]float64, 2))
}
