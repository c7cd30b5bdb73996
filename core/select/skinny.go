package selection

import (
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// The products of the first-order solvers (l20, topk) are skinny: an m×p
// design A times a p×c weight matrix, or Aᵀ times an m×c residual, with c
// (classes) small. Natively gonum's assembly GEMM is fastest; compiled to
// wasm gonum runs generic Go code and the row-blocked loops below are 2–3×
// faster (BenchmarkSkinny, in both builds). All matrices are row-major
// slices with stride equal to their column count.
var blockedSkinny = blockedSkinnyDefault

const blockedSkinnyDefault = runtime.GOARCH == "wasm"

// general wraps a row-major r×c slice for BLAS.
func general(r, c int, d []float64) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: d}
}

// skinnyMul sets dst (m×c) = A (m×p) · W (p×c).
func skinnyMul(dst, a, w []float64, m, p, c int) {
	if blockedSkinny {
		blockedMul(dst, a, w, m, p, c)
		return
	}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(m, p, a), general(p, c, w), 0, general(m, c, dst))
}

// skinnyMulT sets dst (p×c) = Aᵀ · G, with A m×p and G m×c.
func skinnyMulT(dst, a, g []float64, m, p, c int) {
	if blockedSkinny {
		blockedMulT(dst, a, g, m, p, c)
		return
	}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(m, p, a), general(m, c, g), 0, general(p, c, dst))
}

// blockedMul is skinnyMul in plain Go: four rows of A at a time, so that
// each row of W is loaded once for four output rows.
func blockedMul(dst, a, w []float64, m, p, c int) {
	clear(dst[:m*c])
	i := 0
	for ; i+4 <= m; i += 4 {
		d0, d1, d2, d3 := dst[i*c:(i+1)*c], dst[(i+1)*c:(i+2)*c], dst[(i+2)*c:(i+3)*c], dst[(i+3)*c:(i+4)*c]
		r0, r1, r2, r3 := a[i*p:(i+1)*p], a[(i+1)*p:(i+2)*p], a[(i+2)*p:(i+3)*p], a[(i+3)*p:(i+4)*p]
		for j := 0; j < p; j++ {
			a0, a1, a2, a3 := r0[j], r1[j], r2[j], r3[j]
			wj := w[j*c : (j+1)*c]
			for l, v := range wj {
				d0[l] += a0 * v
				d1[l] += a1 * v
				d2[l] += a2 * v
				d3[l] += a3 * v
			}
		}
	}
	for ; i < m; i++ {
		d := dst[i*c : (i+1)*c]
		for j, aij := range a[i*p : (i+1)*p] {
			wj := w[j*c : (j+1)*c]
			for l, v := range wj {
				d[l] += aij * v
			}
		}
	}
}

// blockedMulT is skinnyMulT in plain Go, four rows of A (and G) at a time.
func blockedMulT(dst, a, g []float64, m, p, c int) {
	clear(dst[:p*c])
	i := 0
	for ; i+4 <= m; i += 4 {
		g0, g1, g2, g3 := g[i*c:(i+1)*c], g[(i+1)*c:(i+2)*c], g[(i+2)*c:(i+3)*c], g[(i+3)*c:(i+4)*c]
		r0, r1, r2, r3 := a[i*p:(i+1)*p], a[(i+1)*p:(i+2)*p], a[(i+2)*p:(i+3)*p], a[(i+3)*p:(i+4)*p]
		for j := 0; j < p; j++ {
			a0, a1, a2, a3 := r0[j], r1[j], r2[j], r3[j]
			d := dst[j*c : (j+1)*c]
			for l := range d {
				d[l] += a0*g0[l] + a1*g1[l] + a2*g2[l] + a3*g3[l]
			}
		}
	}
	for ; i < m; i++ {
		gi := g[i*c : (i+1)*c]
		for j, aij := range a[i*p : (i+1)*p] {
			d := dst[j*c : (j+1)*c]
			for l, v := range gi {
				d[l] += aij * v
			}
		}
	}
}
