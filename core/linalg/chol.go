package linalg

import "math"

// The blocked factorisation works in blocks of cholBlock (set per build,
// dispatch_js.go and dispatch_other.go): below it the unblocked (bordered,
// dot-product) form runs; above it, each block column is factored
// unblocked and the trailing matrix updated by the packed SYRK-style
// kernel.

// Cholesky factorises the symmetric positive definite n×n matrix a as
// L·Lᵀ, overwriting its lower triangle with L and zeroing the strict upper
// triangle; only the lower triangle is read. It reports false, leaving a
// partly overwritten, when a is not positive definite to working precision
// (a pivot is not positive or not finite).
//
// In wasm it is a right-looking blocked factorisation (Golub & Van Loan,
// Matrix Computations, 4th ed., §4.2.9) whose trailing updates run on the
// packed kernels of this package; natively the same from order 128 where
// the assembly tile runs, else gonum's Dpotrf (see cholesky in
// dispatch_js.go and dispatch_other.go for the measurements).
func Cholesky(a General) bool {
	if a.Cols != a.Rows {
		panic(ErrShape)
	}
	return cholesky(a)
}

// choleskyPacked is Cholesky with the packed kernels.
func choleskyPacked(a General) bool {
	n := a.Rows
	for j0 := 0; j0 < n; j0 += cholBlock {
		jb := min(cholBlock, n-j0)
		if !cholUnblocked(a, j0, jb) {
			return false
		}
		if j0+jb == n {
			break
		}
		// L21 = A21·L11⁻ᵀ: each row x of A21 solves x·L11ᵀ = a by
		// forward substitution.
		for i := j0 + jb; i < n; i++ {
			x := a.Data[i*a.Stride+j0 : i*a.Stride+j0+jb]
			for k := range x {
				lk := a.Data[(j0+k)*a.Stride+j0 : (j0+k)*a.Stride+j0+k+1]
				x[k] = (x[k] - dot(x[:k], lk[:k])) / lk[k]
			}
		}
		// A22 −= L21·L21ᵀ (lower triangle).
		l21 := General{Rows: n - j0 - jb, Cols: jb, Stride: a.Stride, Data: a.Data[(j0+jb)*a.Stride+j0:]}
		a22 := General{Rows: n - j0 - jb, Cols: n - j0 - jb, Stride: a.Stride, Data: a.Data[(j0+jb)*a.Stride+j0+jb:]}
		gemmWith(buildTile, false, true, -1, l21, nil, l21, 1, a22, true)
	}
	for i := 0; i < n; i++ {
		clear(a.Data[i*a.Stride+i+1 : i*a.Stride+n])
	}
	return true
}

// cholUnblocked factorises the diagonal block a[j0:j0+jb, j0:j0+jb] in
// place, row by row (the bordered form: row i of L from the rows above it,
// by dot products of contiguous row prefixes).
func cholUnblocked(a General, j0, jb int) bool {
	for i := 0; i < jb; i++ {
		ri := a.Data[(j0+i)*a.Stride+j0 : (j0+i)*a.Stride+j0+i+1]
		for k := 0; k < i; k++ {
			rk := a.Data[(j0+k)*a.Stride+j0 : (j0+k)*a.Stride+j0+k+1]
			ri[k] = (ri[k] - dot(ri[:k], rk[:k])) / rk[k]
		}
		d := ri[i] - dot(ri[:i], ri[:i])
		if !(d > 0) || math.IsInf(d, 1) {
			return false
		}
		ri[i] = math.Sqrt(d)
	}
	return true
}

// CholeskySolve solves L·Lᵀ·X = B in place for the factor l of Cholesky
// (n×n) and B n×k. It runs the packed kernels in wasm and natively where
// the assembly tile runs, else gonum's Dpotrs.
func CholeskySolve(l General, b General) {
	if l.Cols != l.Rows || b.Rows != l.Rows {
		panic(ErrShape)
	}
	choleskySolve(l, b)
}

// CholeskyForward solves L·Y = B in place for the factor l of Cholesky
// (n×n) and B n×k: the first half of CholeskySolve, so that Y = L⁻¹B gives
// BᵀA⁻¹B as YᵀY. It runs the packed kernels in every build.
func CholeskyForward(l General, b General) {
	if l.Cols != l.Rows || b.Rows != l.Rows {
		panic(ErrShape)
	}
	forwardPacked(l, b)
}

// forwardPacked solves L·Y = B in place in blocks of cholBlock rows, top
// block first: the off-diagonal blocks are applied with the packed
// product, the diagonal ones by row operations.
func forwardPacked(l General, b General) {
	n := l.Rows
	for i0 := 0; i0 < n; i0 += cholBlock {
		i1 := min(i0+cholBlock, n)
		if i0 > 0 {
			gemmWith(buildTile, false, false, -1, sub(l, i0, 0, i1-i0, i0), nil, sub(b, 0, 0, i0, b.Cols), 1, sub(b, i0, 0, i1-i0, b.Cols), false)
		}
		forwardBlock(l, b, i0, i1)
	}
}

// choleskySolvePacked is CholeskySolve by forward and back substitution in
// blocks of cholBlock rows (forwardPacked, then the same for Lᵀ·X = Y).
func choleskySolvePacked(l General, b General) {
	n := l.Rows
	forwardPacked(l, b)
	// Lᵀ·X = Y, bottom block first.
	for i1 := n; i1 > 0; i1 -= cholBlock {
		i0 := max(i1-cholBlock, 0)
		if i1 < n {
			gemmWith(buildTile, true, false, -1, sub(l, i1, i0, n-i1, i1-i0), nil, sub(b, i1, 0, n-i1, b.Cols), 1, sub(b, i0, 0, i1-i0, b.Cols), false)
		}
		backBlock(l, b, i0, i1)
	}
}

// sub returns the r×c block of a at (i, j).
func sub(a General, i, j, r, c int) General {
	if r == 0 || c == 0 {
		return General{Rows: r, Cols: c, Stride: a.Stride}
	}
	return General{Rows: r, Cols: c, Stride: a.Stride, Data: a.Data[i*a.Stride+j : (i+r-1)*a.Stride+j+c]}
}

// forwardBlock solves L[i0:i1, i0:i1]·Y = B[i0:i1] in place, row by row:
// y_i = (b_i − Σ_{i0≤j<i} l_ij·y_j)/l_ii, the sum taken in the order of j
// (subComb).
func forwardBlock(l, b General, i0, i1 int) {
	k := b.Cols
	for i := i0; i < i1; i++ {
		bi := b.Data[i*b.Stride : i*b.Stride+k]
		subComb(bi, l.Data, i*l.Stride+i0, 1, b.Data, i0*b.Stride, b.Stride, i-i0)
		inv := 1 / l.Data[i*l.Stride+i]
		for t := range bi {
			bi[t] *= inv
		}
	}
}

// backBlock solves L[i0:i1, i0:i1]ᵀ·X = Y[i0:i1] in place, from the last
// row up: x_j = (y_j − Σ_{j<i<i1} l_ij·x_i)/l_jj, the sum taken from the
// last i down (column j of L, read with the stride of L).
func backBlock(l, b General, i0, i1 int) {
	k := b.Cols
	for j := i1 - 1; j >= i0; j-- {
		bj := b.Data[j*b.Stride : j*b.Stride+k]
		subComb(bj, l.Data, (i1-1)*l.Stride+j, -l.Stride, b.Data, (i1-1)*b.Stride, -b.Stride, i1-1-j)
		inv := 1 / l.Data[j*l.Stride+j]
		for t := range bj {
			bj[t] *= inv
		}
	}
}
