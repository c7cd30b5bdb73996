package linalg

// CholeskySolveVec solves L·Lᵀ·x = b in place for the factor l of
// Cholesky (n×n) and one right-hand side b (n entries), reading each row
// of L's lower triangle once in each half: forward, x_i = (b_i −
// L[i, :i]·x[:i])/l_ii (dot); back, from the last row up, x_i /= l_ii and
// then x[:i] −= x_i·L[i, :i] (axpy). It is the memory-bound solve of an
// iterative method preconditioned with a factor, where CholeskySolve's
// blocked products would pack L in every call.
func CholeskySolveVec(l General, b []float64) {
	n := l.Rows
	if l.Cols != n || len(b) != n {
		panic(ErrShape)
	}
	for i := 0; i < n; i++ {
		row := l.Data[i*l.Stride : i*l.Stride+i+1]
		b[i] = (b[i] - dot(row[:i], b[:i])) / row[i]
	}
	for i := n - 1; i >= 0; i-- {
		row := l.Data[i*l.Stride : i*l.Stride+i+1]
		b[i] /= row[i]
		axpy(b[:i], -b[i], row[:i])
	}
}
