package selection

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"sparsefs/core/linalg"
)

// design's products (core/linalg with A packed once) agree with a naive
// triple loop, for row counts that are and are not multiples of the tile's
// four rows, widths below and above its columns, and an inner dimension
// above the block of 256; twice, to use the packing again.
func TestSkinnyKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, sz := range [][3]int{{1, 1, 1}, {5, 3, 2}, {8, 7, 1}, {13, 9, 4}, {33, 17, 6}, {41, 300, 9}, {7, 600, 20}, {300, 7, 3}} {
		m, p, c := sz[0], sz[1], sz[2]
		a, w, g := randSlice(rng, m*p), randSlice(rng, p*c), randSlice(rng, m*c)
		wantAW, wantATG := make([]float64, m*c), make([]float64, p*c)
		for i := 0; i < m; i++ {
			for j := 0; j < p; j++ {
				for l := 0; l < c; l++ {
					wantAW[i*c+l] += a[i*p+j] * w[j*c+l]
					wantATG[j*c+l] += a[i*p+j] * g[i*c+l]
				}
			}
		}
		d := &design{a: a, m: m, p: p}
		for rep := 0; rep < 2; rep++ {
			aw, atg := randSlice(rng, m*c), randSlice(rng, p*c) // garbage to overwrite
			d.mul(aw, w, c)
			d.mulT(atg, g, c)
			for i := range aw {
				if math.Abs(aw[i]-wantAW[i]) > 1e-12*float64(p) {
					t.Fatalf("%v: A·W[%d] = %v, want %v", sz, i, aw[i], wantAW[i])
				}
			}
			for i := range atg {
				if math.Abs(atg[i]-wantATG[i]) > 1e-12*float64(m) {
					t.Fatalf("%v: Aᵀ·G[%d] = %v, want %v", sz, i, atg[i], wantATG[i])
				}
			}
		}
	}
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}

// BenchmarkSkinny compares the products of l20 and topk (design: core/linalg
// with A packed once) with linalg.Gemm (packing A on every product) and
// gonum's Dgemm on their shapes: lung_discrete, lymphoma and COIL20 (m × p
// × c), and lymphoma's matrix–vector products of the power method (c = 1).
// Run natively and with GOOS=js GOARCH=wasm.
func BenchmarkSkinny(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, sz := range [][3]int{{73, 326, 7}, {96, 4027, 9}, {1440, 1025, 20}, {96, 4027, 1}} {
		m, p, c := sz[0], sz[1], sz[2]
		a, w, g := randSlice(rng, m*p), randSlice(rng, p*c), randSlice(rng, m*c)
		dm, dp := make([]float64, m*c), make([]float64, p*c)
		d := &design{a: a, m: m, p: p}
		b.Run(fmt.Sprintf("packed/Mul_m%d_p%d_c%d", m, p, c), func(b *testing.B) {
			for b.Loop() {
				d.mul(dm, w, c)
			}
		})
		b.Run(fmt.Sprintf("packed/MulT_m%d_p%d_c%d", m, p, c), func(b *testing.B) {
			for b.Loop() {
				d.mulT(dp, g, c)
			}
		})
		b.Run(fmt.Sprintf("linalg/Mul_m%d_p%d_c%d", m, p, c), func(b *testing.B) {
			for b.Loop() {
				linalg.Gemm(false, false, 1, general(m, p, a), general(p, c, w), 0, general(m, c, dm))
			}
		})
		b.Run(fmt.Sprintf("linalg/MulT_m%d_p%d_c%d", m, p, c), func(b *testing.B) {
			for b.Loop() {
				linalg.Gemm(true, false, 1, general(m, p, a), general(m, c, g), 0, general(p, c, dp))
			}
		})
		b.Run(fmt.Sprintf("gonum/Mul_m%d_p%d_c%d", m, p, c), func(b *testing.B) {
			for b.Loop() {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(m, p, a), general(p, c, w), 0, general(m, c, dm))
			}
		})
		b.Run(fmt.Sprintf("gonum/MulT_m%d_p%d_c%d", m, p, c), func(b *testing.B) {
			for b.Loop() {
				blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(m, p, a), general(m, c, g), 0, general(p, c, dp))
			}
		})
	}
}
