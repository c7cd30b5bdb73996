//go:build wasm && goexperiment.simd

package linalg

import (
	"math"
	"math/rand/v2"
	"simd"
	"testing"
)

// The SIMD128 kernels perform, for every output value, the same rounded
// products and sums in the same order as their scalar counterparts (wasm
// has no fused multiply-add, so no product is fused into a sum), so the
// tests require bitwise equality. The comparison takes in the padding of
// each matrix (NaN, from randGeneral), so a write outside C fails too.

// The kernels load two float64 to a vector: SIMD128.
func TestSIMDLanes(t *testing.T) {
	if n := simd.BroadcastFloat64s(1).Len(); n != 2 {
		t.Fatalf("simd.Float64s holds %d float64, the kernels assume 2", n)
	}
}

// Shapes m×n×k: empty, single, one short of, equal to and one past the
// tile (4×4) and the block sizes (kc = 256, mc = 128, nc = 1024).
var simdShapes = [][3]int{
	{0, 0, 0}, {0, 5, 3}, {5, 0, 3}, {5, 3, 0}, {1, 1, 1}, {1, 9, 1}, {9, 1, 2},
	{3, 3, 3}, {4, 4, 4}, {5, 5, 5}, {7, 6, 255}, {8, 8, 256}, {9, 10, 257},
	{127, 131, 20}, {129, 3, 513}, {6, 1025, 7},
}

func TestTileSIMDMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	forEachProduct(rng, simdShapes, func(m, n, k int, tA, tB bool, a, b, c0 General) {
		var d []float64
		if (m+n+k)%2 == 1 {
			d = make([]float64, k)
			for i := range d {
				d[i] = rng.Float64()
			}
		}
		want, got := clone(c0), clone(c0)
		gemmWith(tile4x3, tA, tB, 1.5, a, d, b, -0.5, want, false)
		gemmWith(tile4x4simd, tA, tB, 1.5, a, d, b, -0.5, got, false)
		if i := sameBits(got.Data, want.Data); i >= 0 {
			t.Errorf("gemm %dx%dx%d tA=%v tB=%v d=%v: differs at %d", m, n, k, tA, tB, d != nil, i)
		}
	})
	for _, sh := range simdShapes {
		m, k := sh[0], sh[2]
		// The SYRK form (the lower triangle of op(A)·D·op(A)ᵀ), as AtDA
		// and ADAt run it.
		a := randGeneral(rng, m, k)
		d := make([]float64, k)
		for i := range d {
			d[i] = rng.Float64()
		}
		want := randGeneral(rng, m, m)
		got := clone(want)
		syrkPacked(tile4x3, false, 2, a, d, 0.5, want)
		syrkPacked(tile4x4simd, false, 2, a, d, 0.5, got)
		if i := sameBits(got.Data, want.Data); i >= 0 {
			t.Errorf("syrk %dx%d: differs at %d", m, k, i)
		}
	}
}

// Lengths 0 to 41 cover every remainder of the unrolled loops; the values
// include a zero, a negative zero, an infinity and a NaN (in separate
// vectors, so that the sums stay finite in most cases).
func TestVecSIMDMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	lengths := []int{1000, 1001, 1002, 1003}
	for n := 0; n <= 41; n++ {
		lengths = append(lengths, n)
	}
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.NaN()}
	for _, n := range lengths {
		for trial := 0; trial < 5; trial++ {
			x := make([]float64, n+3) // longer than y: only the first n are read
			y := make([]float64, n)
			for i := range x {
				x[i] = 2*rng.Float64() - 1
			}
			for i := range y {
				y[i] = 2*rng.Float64() - 1
			}
			if trial > 0 && n > 0 {
				x[rng.IntN(n)] = specials[trial-1]
			}
			ds, dv := dotScalar(x[:n], y), dotSIMD(x[:n], y)
			if math.Float64bits(ds) != math.Float64bits(dv) && !(math.IsNaN(ds) && math.IsNaN(dv)) {
				t.Errorf("dot n=%d trial %d: SIMD %v, scalar %v", n, trial, dv, ds)
			}
			alpha := 2*rng.Float64() - 1
			ys, yv := append([]float64(nil), y...), append([]float64(nil), y...)
			axpyScalar(ys, alpha, x)
			axpySIMD(yv, alpha, x)
			for i := range ys {
				if math.Float64bits(ys[i]) != math.Float64bits(yv[i]) && !(math.IsNaN(ys[i]) && math.IsNaN(yv[i])) {
					t.Errorf("axpy n=%d trial %d at %d: SIMD %v, scalar %v", n, trial, i, yv[i], ys[i])
					break
				}
			}
		}
	}
}

func TestSubCombSIMDMatchesScalar(t *testing.T) {
	subCombCases(func(y, l []float64, lo, ls int, b []float64, bo, bs, n int) {
		want := append([]float64(nil), y...)
		subCombScalar(want, l, lo, ls, b, bo, bs, n)
		got := append([]float64(nil), y...)
		subCombSIMD(got, l, lo, ls, b, bo, bs, n)
		if i := sameBits(got, want); i >= 0 {
			t.Errorf("len %d, %d rows, step %d: differs at %d: %v, want %v", len(y), n, bs, i, got[i], want[i])
		}
	})
}
