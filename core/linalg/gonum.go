package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// The gonum counterparts of the kernels, used by the tests as references
// and by the benchmarks as the competition. They are not used by the
// exported functions in any build: the measurements in BenchmarkKernels
// and BenchmarkCholesky showed the packed kernels ahead in both (see each
// function's doc comment).

// gonumGemm is blas64.Gemm.
func gonumGemm(transA, transB bool, alpha float64, a, b General, beta float64, c General) {
	blas64.Gemm(trans(transA), trans(transB), alpha, a, b, beta, c)
}

// gonumAtDA computes C = Aᵀ·diag(d)·A with gonum: a copy of A with row i
// scaled by √d_i, then Dsyrk, then the mirror (so d must be non-negative).
func gonumAtDA(a General, d []float64, c General, scratch General) {
	scaledCopy(scratch, a, d, true)
	blas64.Syrk(blas.Trans, 1, scratch, 0, blas64.Symmetric{N: c.Rows, Stride: c.Stride, Data: c.Data, Uplo: blas.Upper})
	mirrorUpper(c)
}

// gonumADAt computes C = A·diag(d)·Aᵀ with gonum as gonumAtDA does, with
// column j of the copy scaled by √d_j.
func gonumADAt(a General, d []float64, c General, scratch General) {
	scaledCopy(scratch, a, d, false)
	blas64.Syrk(blas.NoTrans, 1, scratch, 0, blas64.Symmetric{N: c.Rows, Stride: c.Stride, Data: c.Data, Uplo: blas.Upper})
	mirrorUpper(c)
}

// gonumCholesky is lapack64.Potrf on the lower triangle.
func gonumCholesky(a General) bool {
	_, ok := lapack64.Potrf(blas64.Symmetric{N: a.Rows, Stride: a.Stride, Data: a.Data, Uplo: blas.Lower})
	return ok
}

// gonumCholeskySolve is lapack64.Potrs with the lower factor.
func gonumCholeskySolve(l General, b General) {
	lapack64.Potrs(blas64.Triangular{N: l.Rows, Stride: l.Stride, Data: l.Data, Uplo: blas.Lower, Diag: blas.NonUnit}, b)
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// scaledCopy sets dst = a with its rows (byRow) or columns scaled by √d.
func scaledCopy(dst, a General, d []float64, byRow bool) {
	sq := make([]float64, len(d))
	for i, v := range d {
		sq[i] = math.Sqrt(v)
	}
	for i := 0; i < a.Rows; i++ {
		src := a.Data[i*a.Stride : i*a.Stride+a.Cols]
		out := dst.Data[i*dst.Stride : i*dst.Stride+a.Cols]
		if byRow {
			for j, v := range src {
				out[j] = v * sq[i]
			}
			continue
		}
		for j, v := range src {
			out[j] = v * sq[j]
		}
	}
}

// mirrorUpper copies the strict upper triangle of c onto its lower one.
func mirrorUpper(c General) {
	for i := 0; i < c.Rows; i++ {
		for j := 0; j < i; j++ {
			c.Data[i*c.Stride+j] = c.Data[j*c.Stride+i]
		}
	}
}
