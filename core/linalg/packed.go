package linalg

// Packed is op(A) packed once into the panels the inner kernels read, for
// repeated products op(A)·B with the same A and a changing B. The
// first-order solvers multiply a fixed design (or its transpose) by a new
// thin matrix at every iteration; there, packing A on every product was a
// fifth of the time natively and in wasm (profiles of l20 on lymphoma,
// docs/l20.md#performance), and a product with a Packed operand skips it.
//
// It holds a copy of op(A) (rounded up to a multiple of four rows) and,
// for the native builds that hand wide products to gonum, a reference to
// A itself: A must not change while the Packed is in use.
type Packed struct {
	a     General
	trans bool
	pre   panels
}

// panels is op(A) (m×k) packed block by block of kc inner indices: block
// p0 starts at p0·mPad and holds the panels of mr rows of op(A) for its
// inner indices, one after another (as packA writes them), so that the
// panel of rows i…i+mr−1 (i a multiple of mr) is at p0·mPad + i·kb. off
// shifts the rows (a product over a slice of rows of op(A)).
type panels struct {
	data      []float64
	mPad, off int
}

// panel returns the packed panel of rows i…i+mr−1 (counted from off) for
// the block of inner indices p0…p0+kb−1.
func (q *panels) panel(p0, kb, i int) []float64 {
	o := p0*q.mPad + (q.off+i)*kb
	return q.data[o : o+mr*kb]
}

// Pack packs op(A) — A, or Aᵀ when trans is set — for Mul.
func Pack(a General, trans bool) *Packed {
	m, k := opDims(a, trans)
	mPad := (m + mr - 1) / mr * mr
	p := &Packed{a: a, trans: trans, pre: panels{data: make([]float64, mPad*k), mPad: mPad}}
	for p0 := 0; p0 < k; p0 += kc {
		kb := min(kc, k-p0)
		packA(p.pre.data[p0*mPad:p0*mPad+mPad*kb], a, trans, 0, m, p0, kb, nil)
	}
	return p
}

// Dims returns the dimensions of op(A).
func (p *Packed) Dims() (rows, cols int) { return opDims(p.a, p.trans) }

// Mul sets C = alpha·op(A)·B + beta·C, as Gemm(trans, false, alpha, A, B,
// beta, C) does and with the same implementation in each build, the
// packing of op(A) excepted. C must not overlap B.
func (p *Packed) Mul(alpha float64, b General, beta float64, c General) {
	m, k := p.Dims()
	if b.Rows != k || c.Rows != m || c.Cols != b.Cols {
		panic(ErrShape)
	}
	gemmPacked(p, alpha, b, beta, c)
}
