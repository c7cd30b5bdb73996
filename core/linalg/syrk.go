package linalg

// AtDA sets C = alpha·Aᵀ·diag(d)·A + beta·C for A m×n, d of length m (nil
// means the identity) and C n×n symmetric. Only the lower triangle is
// computed, about half the work of a general product; it is then mirrored,
// so all of C is set on return. With beta ≠ 0 only C's lower triangle is
// read. C must not overlap A.
//
// In wasm it runs the packed kernels of this package; natively too where
// the assembly tile runs, else gonum's Dsyrk on a copy of A scaled by √d
// (see syrkDiag in dispatch_js.go and dispatch_other.go for the
// measurements).
func AtDA(alpha float64, a General, d []float64, beta float64, c General) {
	if c.Rows != a.Cols || c.Cols != a.Cols || (d != nil && len(d) != a.Rows) {
		panic(ErrShape)
	}
	syrkDiag(true, alpha, a, d, beta, c)
}

// ADAt sets C = alpha·A·diag(d)·Aᵀ + beta·C for A m×n, d of length n (nil
// means the identity) and C m×m symmetric, computing the lower triangle
// and mirroring it as AtDA does. With beta ≠ 0 only C's lower triangle is
// read. C must not overlap A. It runs the same code as AtDA.
func ADAt(alpha float64, a General, d []float64, beta float64, c General) {
	if c.Rows != a.Rows || c.Cols != a.Rows || (d != nil && len(d) != a.Cols) {
		panic(ErrShape)
	}
	syrkDiag(false, alpha, a, d, beta, c)
}

// syrkPacked is AtDA (trans) or ADAt with the packed kernels and the tile
// t: the tiles meeting the lower triangle, then the mirror.
func syrkPacked(t tile, trans bool, alpha float64, a General, d []float64, beta float64, c General) {
	gemmWith(t, trans, !trans, alpha, a, d, a, beta, c, true)
	mirror(c)
}

// mirror copies the strict lower triangle of the square c onto its upper
// triangle.
func mirror(c General) {
	n := c.Rows
	for i := 0; i < n; i++ {
		row := c.Data[i*c.Stride : i*c.Stride+i]
		for j, v := range row {
			c.Data[j*c.Stride+i] = v
		}
	}
}
