//go:build !js

package linalg

import (
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Native builds use gonum where its amd64 assembly (and, for Dgemm, its
// goroutines) wins. Measured on the development machine (2-core AMD EPYC,
// shared, so ±25%; go test -bench 'Kernels|Cholesky'; GFLOP/s, packed vs
// gonum):
//
//	ADAt 50×4435 (GLIOMA dual Gram)   5.6 vs 11.1   → gonum Dsyrk
//	ADAt 96×4027 (lymphoma)           6.8 vs 13.0   → gonum Dsyrk
//	AtDA 2600×501 (madelon primal)    6.8 vs 10.4   → gonum Dsyrk
//	Gemm 1000³                        6.8 vs 10.7   → gonum Dgemm
//	Gemm 32×32×1000                   5.7 vs 8.1    → gonum Dgemm
//	Gemm 4435×4×50 (W = Zᵀ·Λ)         3.9 vs 1.9    → packed (thin)
//	Gemm 7130×2×72                    2.8 vs 1.2    → packed (thin)
//	Cholesky 50 / 200 / 1000          3.3 / 3.3 / 4.3 vs 11.6 / 6.0 / 6.6 → gonum
//
// so the packed kernels run natively only for thin products (fewer than 16
// rows or columns; split over two goroutines when they have many rows, as
// Dgemm splits its work) and for AᵀDA/ADAᵀ with a negative weight (which a
// √d-scaled copy cannot express).

// thin is the width below which the native build keeps the packed GEMM.
const thin = 16

func gemm(transA, transB bool, alpha float64, a, b General, beta float64, c General) {
	if c.Rows >= thin && c.Cols >= thin {
		gonumGemm(transA, transB, alpha, a, b, beta, c)
		return
	}
	m, k := opDims(a, transA)
	if float64(m)*float64(c.Cols)*float64(k) < parallelSyrk || m < 2*mr || runtime.GOMAXPROCS(0) < 2 {
		gemmWith(buildTile, transA, transB, alpha, a, nil, b, beta, c, false)
		return
	}
	// A thin product with many rows (W = ZᵀΛ over thousands of features):
	// the two halves of the rows of C on two goroutines.
	h := (m / 2) &^ (mr - 1)
	top, bottom := a, a
	if transA {
		top.Cols, bottom.Cols = h, m-h
		bottom.Data = a.Data[h:]
	} else {
		top.Rows, bottom.Rows = h, m-h
		bottom.Data = a.Data[h*a.Stride:]
	}
	ctop, cbottom := c, c
	ctop.Rows, cbottom.Rows = h, m-h
	cbottom.Data = c.Data[h*c.Stride:]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		gemmWith(buildTile, transA, transB, alpha, bottom, nil, b, beta, cbottom, false)
	}()
	gemmWith(buildTile, transA, transB, alpha, top, nil, b, beta, ctop, false)
	wg.Wait()
}

// scratch holds the scaled copies of syrkDiag.
var scratch = sync.Pool{New: func() any { return new([]float64) }}

// parallelSyrk is the work (M²K/2 multiply-adds) above which syrkDiag
// splits the inner dimension between two goroutines, each running Dsyrk
// on its half into its own triangle, then adds the halves: as numpy's
// OpenBLAS uses both cores, so may this. (Dsyrk itself runs on one
// goroutine; Dgemm already splits.) It pays from about 2·10⁶ (a 64×64
// Gram over 1000).
const parallelSyrk = 2e6

func syrkDiag(trans bool, alpha float64, a General, d []float64, beta float64, c General) {
	for _, v := range d {
		if !(v >= 0) {
			syrkPacked(buildTile, trans, alpha, a, d, beta, c)
			return
		}
	}
	src := a
	if d != nil {
		bufp := scratch.Get().(*[]float64)
		defer scratch.Put(bufp)
		if cap(*bufp) < a.Rows*a.Cols {
			*bufp = make([]float64, a.Rows*a.Cols)
		}
		src = General{Rows: a.Rows, Cols: a.Cols, Stride: a.Cols, Data: (*bufp)[:a.Rows*a.Cols]}
		scaledCopy(src, a, d, trans)
	}
	n, k := a.Rows, a.Cols
	if trans {
		n, k = k, n
	}
	if float64(n)*float64(n)*float64(k)/2 < parallelSyrk || runtime.GOMAXPROCS(0) < 2 {
		gonumSyrk(trans, alpha, src, beta, c)
		mirror(c)
		return
	}
	// Split the inner dimension: rows of A (trans) or columns.
	h := k / 2
	first, second := src, src
	if trans {
		first.Rows, second.Rows = h, k-h
		second.Data = src.Data[h*src.Stride:]
	} else {
		first.Cols, second.Cols = h, k-h
		second.Data = src.Data[h:]
	}
	bufp := scratch.Get().(*[]float64)
	defer scratch.Put(bufp)
	if cap(*bufp) < n*n {
		*bufp = make([]float64, n*n)
	}
	part := General{Rows: n, Cols: n, Stride: n, Data: (*bufp)[:n*n]}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		gonumSyrk(trans, alpha, second, 0, part)
	}()
	gonumSyrk(trans, alpha, first, beta, c)
	wg.Wait()
	for i := 0; i < n; i++ {
		row := c.Data[i*c.Stride : i*c.Stride+i+1]
		for j, v := range part.Data[i*n : i*n+i+1] {
			row[j] += v
		}
	}
	mirror(c)
}

// gonumSyrk is Dsyrk on the lower triangle of c: alpha·op(a)·op(a)ᵀ +
// beta·c with op(a) = aᵀ when trans.
func gonumSyrk(trans bool, alpha float64, a General, beta float64, c General) {
	t := blas.NoTrans
	if trans {
		t = blas.Trans
	}
	blas64.Syrk(t, alpha, a, beta, blas64.Symmetric{N: c.Rows, Stride: c.Stride, Data: c.Data, Uplo: blas.Lower})
}

// cholesky is Dpotrf, which accepts an infinite pivot: that is refused
// here as in the packed form.
func cholesky(a General) bool {
	if !gonumCholesky(a) {
		return false
	}
	for i := 0; i < a.Rows; i++ {
		if math.IsInf(a.Data[i*a.Stride+i], 0) {
			return false
		}
	}
	for i := 0; i < a.Rows; i++ {
		clear(a.Data[i*a.Stride+i+1 : i*a.Stride+a.Cols])
	}
	return true
}

func choleskySolve(l, b General) { gonumCholeskySolve(l, b) }
