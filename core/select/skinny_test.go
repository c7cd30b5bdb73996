package selection

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The blocked plain-Go products (used in wasm) and gonum's (native) agree
// with a naive triple loop, for row counts that are and are not multiples
// of the block of four.
func TestSkinnyKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, sz := range [][3]int{{1, 1, 1}, {5, 3, 2}, {8, 7, 1}, {13, 9, 4}, {33, 17, 6}} {
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
		for _, blocked := range []bool{false, true} {
			blockedSkinny = blocked
			aw, atg := randSlice(rng, m*c), randSlice(rng, p*c) // garbage to overwrite
			skinnyMul(aw, a, w, m, p, c)
			skinnyMulT(atg, a, g, m, p, c)
			for i := range aw {
				if math.Abs(aw[i]-wantAW[i]) > 1e-12 {
					t.Fatalf("blocked=%v %v: A·W[%d] = %v, want %v", blocked, sz, i, aw[i], wantAW[i])
				}
			}
			for i := range atg {
				if math.Abs(atg[i]-wantATG[i]) > 1e-12 {
					t.Fatalf("blocked=%v %v: Aᵀ·G[%d] = %v, want %v", blocked, sz, i, atg[i], wantATG[i])
				}
			}
		}
	}
	blockedSkinny = blockedSkinnyDefault
}

func randSlice(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rng.NormFloat64()
	}
	return s
}

// BenchmarkSkinny compares gonum's GEMM and the blocked loops on the
// shapes of l20 and topk: lung_discrete, lymphoma and COIL20 (m × p × c).
// Run natively and with GOOS=js GOARCH=wasm to see why each build uses
// what it does.
func BenchmarkSkinny(b *testing.B) {
	defer func() { blockedSkinny = blockedSkinnyDefault }()
	rng := rand.New(rand.NewPCG(4, 4))
	for _, sz := range [][3]int{{73, 326, 7}, {96, 4027, 9}, {1440, 1025, 20}} {
		m, p, c := sz[0], sz[1], sz[2]
		a, w, g := randSlice(rng, m*p), randSlice(rng, p*c), randSlice(rng, m*c)
		dm, dp := make([]float64, m*c), make([]float64, p*c)
		for _, blocked := range []bool{false, true} {
			kind := "gonum"
			if blocked {
				kind = "blocked"
			}
			b.Run(fmt.Sprintf("%s/Mul_m%d_p%d_c%d", kind, m, p, c), func(b *testing.B) {
				blockedSkinny = blocked
				for b.Loop() {
					skinnyMul(dm, a, w, m, p, c)
				}
			})
			b.Run(fmt.Sprintf("%s/MulT_m%d_p%d_c%d", kind, m, p, c), func(b *testing.B) {
				blockedSkinny = blocked
				for b.Loop() {
					skinnyMulT(dp, a, g, m, p, c)
				}
			})
		}
	}
}
