package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// subCombCases calls f with vectors y of lengths 0 to 11 and rows of b
// taken forwards and backwards (the two triangular solves), some
// coefficients zero (skipped), one an infinity in some cases.
func subCombCases(f func(y, l []float64, lo, ls int, b []float64, bo, bs, n int)) {
	rng := rand.New(rand.NewPCG(16, 3))
	for k := 0; k <= 11; k++ {
		for _, n := range []int{0, 1, 2, 7} {
			for _, back := range []bool{false, true} {
				stride := k + 2
				b := make([]float64, (n+1)*stride)
				for i := range b {
					b[i] = 2*rng.Float64() - 1
				}
				l := make([]float64, 3*n+3)
				for i := range l {
					if rng.IntN(4) > 0 {
						l[i] = 2*rng.Float64() - 1
					}
				}
				if k == 5 && n == 7 {
					b[stride+3] = math.Inf(1)
				}
				y := make([]float64, k)
				for i := range y {
					y[i] = 2*rng.Float64() - 1
				}
				lo, ls, bo, bs := 1, 3, 0, stride
				if back {
					lo, ls, bo, bs = 3*n, -3, n*stride, -stride
				}
				f(y, l, lo, ls, b, bo, bs, n)
			}
		}
	}
}

// subCombScalar gives, bit for bit, what the axpy calls it replaces gave
// (the triangular solves' results are the same as before it).
func TestSubCombMatchesAxpy(t *testing.T) {
	subCombCases(func(y, l []float64, lo, ls int, b []float64, bo, bs, n int) {
		want := append([]float64(nil), y...)
		for s := 0; s < n; s++ {
			if c := l[lo+s*ls]; c != 0 {
				off := bo + s*bs
				axpyScalar(want, -c, b[off:off+len(y)])
			}
		}
		got := append([]float64(nil), y...)
		subCombScalar(got, l, lo, ls, b, bo, bs, n)
		if i := sameBits(got, want); i >= 0 {
			t.Errorf("len %d, %d rows, step %d: differs at %d: %v, want %v", len(y), n, bs, i, got[i], want[i])
		}
	})
}

// sameBits reports the first index where a and b differ bitwise, or −1.
func sameBits(a, b []float64) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}
