//go:build wasm && goexperiment.simd

package linalg

import "simd"

// kern4x4simd is the 4×4 tile kernel in WebAssembly SIMD128 (the simd
// package under GOEXPERIMENT=simd; a Float64s holds two float64 in wasm).
// Each row of the tile is two vectors; each step broadcasts one value of
// the A panel and multiplies it into the two halves of the B row. Mul then
// Add, not MulAdd: wasm has no fused multiply-add, and MulAdd is emulated
// more slowly. Every entry of the tile is the same sequence of rounded
// products and sums as in the scalar tiles, so the results are identical.
func kern4x4simd(a, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	var c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h simd.Float64s
	// Two steps per pass, each loading and broadcasting its operands
	// before its arithmetic (step4x4): Go's wasm code goes through its
	// block dispatch on every jump, so halving the loop's back edges pays,
	// and V8 schedules the grouped loads better. Node, CPU time of the
	// tile in L1, best of 30 alternating rounds on a loaded machine: 10.9
	// GFLOP/s, against 8.9 for two steps with each broadcast next to its
	// products, 7.3 for one step a pass, 8.2 for four, 8.1–9.2 for 4×6
	// tiles.
	for len(a) >= 8 && len(b) >= 8 {
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[0:4], a[0], a[1], a[2], a[3])
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4:8], a[4], a[5], a[6], a[7])
		a, b = a[8:], b[8:]
	}
	if len(a) >= 4 && len(b) >= 4 {
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[0:4], a[0], a[1], a[2], a[3])
	}
	storeTile4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, alpha, c, ldc, rows, cols)
}

// step4x4 is one inner step of the 4×4 tile: row t of the tile (ctl, cth)
// plus a_t times the B row b (four values, two vectors).
func step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h simd.Float64s, b []float64, a0, a1, a2, a3 float64) (_, _, _, _, _, _, _, _ simd.Float64s) {
	bl := simd.LoadFloat64s(b[0:2])
	bh := simd.LoadFloat64s(b[2:4])
	x0 := simd.BroadcastFloat64s(a0)
	x1 := simd.BroadcastFloat64s(a1)
	x2 := simd.BroadcastFloat64s(a2)
	x3 := simd.BroadcastFloat64s(a3)
	return c0l.Add(x0.Mul(bl)), c0h.Add(x0.Mul(bh)), c1l.Add(x1.Mul(bl)), c1h.Add(x1.Mul(bh)),
		c2l.Add(x2.Mul(bl)), c2h.Add(x2.Mul(bh)), c3l.Add(x3.Mul(bl)), c3h.Add(x3.Mul(bh))
}

// kern4x4simdRows is kern4x4simd reading the four rows of A in place
// (a0…a3, one value of each per inner index) instead of a packed panel:
// the same products and sums, so the same results.
func kern4x4simdRows(a0, a1, a2, a3, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	var c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h simd.Float64s
	n := len(a0)
	a1, a2, a3, b = a1[:n], a2[:n], a3[:n], b[:4*n]
	k := 0
	for ; k+2 <= n; k += 2 {
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4*k:4*k+4], a0[k], a1[k], a2[k], a3[k])
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4*k+4:4*k+8], a0[k+1], a1[k+1], a2[k+1], a3[k+1])
	}
	if k < n {
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4*k:4*k+4], a0[k], a1[k], a2[k], a3[k])
	}
	storeTile4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, alpha, c, ldc, rows, cols)
}

// kern4x4simdStrided is kern4x4simd reading its panel in place in Aᵀ
// (see tile.strided): the four values of inner index k at a[k·lda], …,
// a[k·lda+3]; the same products and sums, so the same results.
func kern4x4simdStrided(a []float64, lda int, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	var c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h simd.Float64s
	n := len(b) / 4
	if n > 0 {
		a = a[:(n-1)*lda+4]
	}
	k := 0
	for ; k+2 <= n; k += 2 {
		x, y := a[k*lda:k*lda+4], a[(k+1)*lda:(k+1)*lda+4]
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4*k:4*k+4], x[0], x[1], x[2], x[3])
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4*k+4:4*k+8], y[0], y[1], y[2], y[3])
	}
	if k < n {
		x := a[k*lda : k*lda+4]
		c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h = step4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, b[4*k:4*k+4], x[0], x[1], x[2], x[3])
	}
	storeTile4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h, alpha, c, ldc, rows, cols)
}

// storeTile4x4 adds alpha times the valid rows×cols part of the 4×4 tile
// (c0l, c0h; …; c3l, c3h), one row in two vectors, to c.
func storeTile4x4(c0l, c0h, c1l, c1h, c2l, c2h, c3l, c3h simd.Float64s, alpha float64, c []float64, ldc, rows, cols int) {
	if rows == 4 && cols == 4 {
		al := simd.BroadcastFloat64s(alpha)
		addRow2(c[0:4], al, c0l, c0h)
		addRow2(c[ldc:ldc+4], al, c1l, c1h)
		addRow2(c[2*ldc:2*ldc+4], al, c2l, c2h)
		addRow2(c[3*ldc:3*ldc+4], al, c3l, c3h)
		return
	}
	var t [16]float64
	c0l.Store(t[0:2])
	c0h.Store(t[2:4])
	c1l.Store(t[4:6])
	c1h.Store(t[6:8])
	c2l.Store(t[8:10])
	c2h.Store(t[10:12])
	c3l.Store(t[12:14])
	c3h.Store(t[14:16])
	storeTile(t[:], 4, alpha, c, ldc, rows, cols)
}

// addRow2 adds alpha·(lo, hi) to the four values of r.
func addRow2(r []float64, alpha, lo, hi simd.Float64s) {
	simd.LoadFloat64s(r[0:2]).Add(alpha.Mul(lo)).Store(r[0:2])
	simd.LoadFloat64s(r[2:4]).Add(alpha.Mul(hi)).Store(r[2:4])
}

// tile4x4simd is the SIMD128 tile.
var tile4x4simd = tile{nr: 4, kern: kern4x4simd, rows: kern4x4simdRows, strided: kern4x4simdStrided}
