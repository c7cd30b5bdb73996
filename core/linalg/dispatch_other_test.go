//go:build !js

package linalg

import (
	"math/rand/v2"
	"testing"
)

// Both native dispatches — with the assembly tile (fast) and without (the
// gonum paths of other processors) — against gonum's products, on shapes
// below and above the two-goroutine threshold.
func TestNativeDispatch(t *testing.T) {
	defer func(f bool) { fast = f }(fast)
	rng := rand.New(rand.NewPCG(21, 22))
	for _, f := range []bool{true, false} {
		if f && buildTile.nr != 8 {
			continue // no assembly tile on this processor
		}
		fast = f
		for _, sh := range [][2]int{{20, 30}, {131, 260}, {300, 60}} {
			m, n := sh[0], sh[1]
			a := randGeneral(rng, m, n)
			dm, dn := make([]float64, m), make([]float64, n)
			for i := range dm {
				dm[i] = rng.Float64()
			}
			for i := range dn {
				dn[i] = rng.Float64()
			}
			want := General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
			gonumAtDA(a, dm, want, General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)})
			got := randGeneral(rng, n, n)
			AtDA(1, a, dm, 0, got)
			if d := maxDiff(got, want); d > productTol {
				t.Errorf("fast=%v AtDA %dx%d: relative difference %g", f, m, n, d)
			}
			want = General{Rows: m, Cols: m, Stride: m, Data: make([]float64, m*m)}
			gonumADAt(a, dn, want, General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)})
			got = randGeneral(rng, m, m)
			ADAt(1, a, dn, 0, got)
			if d := maxDiff(got, want); d > productTol {
				t.Errorf("fast=%v ADAt %dx%d: relative difference %g", f, m, n, d)
			}
			b := randGeneral(rng, n, 9)
			wantC := General{Rows: m, Cols: 9, Stride: 9, Data: make([]float64, m*9)}
			gonumGemm(false, false, 1, a, b, 0, wantC)
			gotC := randGeneral(rng, m, 9)
			Gemm(false, false, 1, a, b, 0, gotC)
			if d := maxDiff(gotC, wantC); d > productTol {
				t.Errorf("fast=%v Gemm %dx9x%d: relative difference %g", f, m, n, d)
			}
			gotC = randGeneral(rng, m, 9)
			Pack(a, false).Mul(1, b, 0, gotC)
			if d := maxDiff(gotC, wantC); d > productTol {
				t.Errorf("fast=%v Packed.Mul %dx9x%d: relative difference %g", f, m, n, d)
			}
			bt := randGeneral(rng, m, 20) // Aᵀ·B is n×20: wide enough for gonum without the assembly tile
			wantT := General{Rows: n, Cols: 20, Stride: 20, Data: make([]float64, n*20)}
			gonumGemm(true, false, 1, a, bt, 0, wantT)
			gotT := randGeneral(rng, n, 20)
			Pack(a, true).Mul(1, bt, 0, gotT)
			if d := maxDiff(gotT, wantT); d > productTol {
				t.Errorf("fast=%v Packed.Mul %dx20x%d (transposed): relative difference %g", f, n, m, d)
			}
		}
		for _, n := range []int{50, 250} {
			a := randSPD(rng, n)
			want := clone(a)
			gonumCholesky(want)
			for i := 0; i < n; i++ {
				clear(want.Data[i*want.Stride+i+1 : i*want.Stride+n])
			}
			got := clone(a)
			if !Cholesky(got) {
				t.Fatalf("fast=%v n=%d: Cholesky failed", f, n)
			}
			if d := maxDiff(got, want); d > 1e-12 {
				t.Errorf("fast=%v Cholesky %d: relative difference %g", f, n, d)
			}
		}
	}
}
