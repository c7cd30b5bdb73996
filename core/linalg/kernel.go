package linalg

// The inner kernels: each adds alpha·Σ_k a[k]⊗b[k] to an mr×nr tile of C,
// where a holds kc packed columns of mr = 4 values (a panel of op(A)) and
// b kc packed rows of nr values (a panel of op(B)). They keep the whole
// tile in local variables, which both compilers keep in registers; the
// loops reslice instead of indexing so that no bounds check remains.
//
// Measured on the development machine (AMD EPYC, Go 1.26, kc = 256, data
// in L1; BenchmarkTile and the candidates of that experiment): natively 4×2
// runs at 9.7 GFLOP/s, 4×3 at 5.6 and 4×4 at 5.2 (amd64 has 16
// floating-point registers: 8 accumulators plus 6 operands fit, 12 + 7
// spill); compiled to wasm under node 4×3 runs at 8.0 GFLOP/s, 6×2 at 7.6,
// 4×2 at 5.7 and 4×4 at 5.6, and in a Chromium worker 4×3 at 7.0, 6×2 at
// 7.0, 5×3 at 6.8, 4×4 at 6.1 and 4×2 at 5.3 (V8 allocates registers
// differently). On amd64 with AVX and FMA3 an assembly 4×8 tile
// (kernel_amd64.s) runs at 53 GFLOP/s and replaces 4×2. In wasm built with
// GOEXPERIMENT=simd (Go 1.27.3) the 4×4 SIMD128 tile (kernel_simd.go) runs
// at 7.4–7.5 GFLOP/s under node where 4×3 ran at 4.4–4.5 in the same run
// (a loaded machine; docs/results.md#wasm-simd) and replaces 4×3; taking
// two steps a pass, 10.9 (docs/results.md#wasm-simd-2).

// mr is the number of rows of a tile (the width of a panel of op(A)).
const mr = 4

// kern4x2 is the 4×2 tile kernel. valid gives the rows and columns of the
// tile that exist in C (edge tiles are smaller; their panels are padded
// with zeros).
func kern4x2(a, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 float64
	for len(a) >= 4 && len(b) >= 2 {
		a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
		b0, b1 := b[0], b[1]
		c00 += a0 * b0
		c01 += a0 * b1
		c10 += a1 * b0
		c11 += a1 * b1
		c20 += a2 * b0
		c21 += a2 * b1
		c30 += a3 * b0
		c31 += a3 * b1
		a, b = a[4:], b[2:]
	}
	if rows == 4 && cols == 2 {
		r := c[:2]
		r[0] += alpha * c00
		r[1] += alpha * c01
		r = c[ldc : ldc+2]
		r[0] += alpha * c10
		r[1] += alpha * c11
		r = c[2*ldc : 2*ldc+2]
		r[0] += alpha * c20
		r[1] += alpha * c21
		r = c[3*ldc : 3*ldc+2]
		r[0] += alpha * c30
		r[1] += alpha * c31
		return
	}
	t := [8]float64{c00, c01, c10, c11, c20, c21, c30, c31}
	storeTile(t[:], 2, alpha, c, ldc, rows, cols)
}

// kern4x3 is the 4×3 tile kernel.
func kern4x3(a, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	var c00, c01, c02, c10, c11, c12, c20, c21, c22, c30, c31, c32 float64
	for len(a) >= 4 && len(b) >= 3 {
		b0, b1, b2 := b[0], b[1], b[2]
		x := a[0]
		c00 += x * b0
		c01 += x * b1
		c02 += x * b2
		x = a[1]
		c10 += x * b0
		c11 += x * b1
		c12 += x * b2
		x = a[2]
		c20 += x * b0
		c21 += x * b1
		c22 += x * b2
		x = a[3]
		c30 += x * b0
		c31 += x * b1
		c32 += x * b2
		a, b = a[4:], b[3:]
	}
	if rows == 4 && cols == 3 {
		r := c[:3]
		r[0] += alpha * c00
		r[1] += alpha * c01
		r[2] += alpha * c02
		r = c[ldc : ldc+3]
		r[0] += alpha * c10
		r[1] += alpha * c11
		r[2] += alpha * c12
		r = c[2*ldc : 2*ldc+3]
		r[0] += alpha * c20
		r[1] += alpha * c21
		r[2] += alpha * c22
		r = c[3*ldc : 3*ldc+3]
		r[0] += alpha * c30
		r[1] += alpha * c31
		r[2] += alpha * c32
		return
	}
	t := [12]float64{c00, c01, c02, c10, c11, c12, c20, c21, c22, c30, c31, c32}
	storeTile(t[:], 3, alpha, c, ldc, rows, cols)
}

// storeTile adds alpha times the valid rows×cols part of the mr×nr tile t
// to c.
func storeTile(t []float64, nr int, alpha float64, c []float64, ldc, rows, cols int) {
	for i := 0; i < rows; i++ {
		r := c[i*ldc : i*ldc+cols]
		for j := range r {
			r[j] += alpha * t[i*nr+j]
		}
	}
}

// tile describes an inner kernel and its width. rows, when set, is the
// same kernel reading the mr rows of A where they are (a0…a3, each of
// the panel's length in inner indices) instead of a packed panel: thin
// products (a few columns of C) then skip packing A, which costs as much
// as their arithmetic (see gemmPanels).
type tile struct {
	nr   int
	kern func(a, b []float64, alpha float64, c []float64, ldc, rows, cols int)
	rows func(a0, a1, a2, a3, b []float64, alpha float64, c []float64, ldc, rows, cols int)
	// strided, when set, is the kernel reading a panel of op(A) = Aᵀ
	// where it is: the four values of inner index p at a[p·lda], …,
	// a[p·lda+3], for as many inner indices as b has (all four values
	// must exist: a full panel).
	strided func(a []float64, lda int, b []float64, alpha float64, c []float64, ldc, rows, cols int)
}

var (
	tile4x2 = tile{nr: 2, kern: kern4x2}
	tile4x3 = tile{nr: 3, kern: kern4x3}
)
