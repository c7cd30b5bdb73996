//go:build !js

package linalg

import (
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Native builds. On amd64 processors with AVX and FMA3 (kernel_amd64.s)
// the packed kernels run a 4×8 assembly tile that beats gonum, whose amd64
// assembly is SSE2 (go test -bench 'Kernels|Cholesky', one goroutine for
// the packed kernels; GFLOP/s, packed vs gonum, development machine, 2-core
// AMD EPYC, shared):
//
//	ADAt 50×4435 (GLIOMA dual Gram)   15.8 vs 7.3
//	ADAt 96×4027 (lymphoma)           34.1 vs 12.1
//	AtDA 2600×501 (madelon primal)    46.2 vs 10.2
//	Gemm 1000³                        37.5 vs 5.0 (Dgemm on 2 goroutines)
//	Gemm 4435×4×50 (W = Zᵀ·Λ)         11.0 vs 2.5
//	Cholesky 50 / 100 / 200           3.2 / 2.5 / 6.6 vs 8.4 / 5.4 / 6.6
//	Cholesky 400 / 1000               12.4 / 19.3 vs 6.5 / 10.1
//
// so they run everywhere except Cholesky below 128, where gonum's Dpotrf
// stays. The packed Cholesky runs in blocks of cholBlock = 32 natively
// (the trailing updates on the assembly tile; the order of the IRLS
// systems of 189 × 500 data), and the triangular solves are the packed
// ones with the row combinations of subComb (CPU time, µs, one
// factorisation / one solve with 7 right-hand sides, best of 15 rounds,
// loaded machine):
//
//	order  Dpotrf  packed, blocks of 96 / 32  Dpotrs  packed, 96 / 32
//	20     1.5     –    / 2.5                3.1     3.2 / 3.1
//	64     9.4     –    / 24                 23      24  / 15
//	100    62      84   / 63                 55      52  / 25
//	189    342     368  / 266                193     119 / 65
//	300    1302    1069 / 767                513     223 / 145 Without the assembly tile (other
// architectures, older processors, the purego tag) the portable 4×2 tile
// runs at half gonum's speed for the large products (ADAt 50×4435: 5.6 vs
// 11.1; Gemm 1000³: 6.8 vs 10.7) and twice it for thin ones (4435×4×50:
// 3.9 vs 1.9), and the choice follows: gonum for SYRK, Cholesky and
// products with at least 16 rows and columns, packed for thinner products
// and for AᵀDA/ADAᵀ with a negative weight (which a √d-scaled copy cannot
// express).
//
// Large products are split between two goroutines (as numpy's OpenBLAS
// uses both cores, and gonum's Dgemm splits its work): the rows of a
// thin product, the inner dimension of a SYRK.

// fast reports whether the assembly tile is in use.
var fast = buildTile.nr == 8

// thin is the width below which the portable build keeps the packed GEMM.
const thin = 16

// parallelWork is the number of multiply-adds above which a product is
// split between two goroutines (a 64×64 Gram over 1000).
const parallelWork = 2e6

// cholPacked is the order from which Cholesky runs the packed form when
// the assembly tile is in use.
const cholPacked = 128

// cholBlock is the block size of the packed Cholesky and solve natively
// (see above; in wasm dispatch_js.go sets it).
const cholBlock = 32

func gemm(transA, transB bool, alpha float64, a, b General, beta float64, c General) {
	gemmSplit(transA, transB, alpha, a, nil, b, beta, c)
}

func gemmPacked(p *Packed, alpha float64, b General, beta float64, c General) {
	gemmSplit(p.trans, false, alpha, p.a, &p.pre, b, beta, c)
}

// gemmSplit is gemm, with the panels of op(A) from pre when it is set.
func gemmSplit(transA, transB bool, alpha float64, a General, pre *panels, b General, beta float64, c General) {
	if !fast && c.Rows >= thin && c.Cols >= thin {
		gonumGemm(transA, transB, alpha, a, b, beta, c)
		return
	}
	m, k := opDims(a, transA)
	if float64(m)*float64(c.Cols)*float64(k) < parallelWork || m < 2*mr || runtime.GOMAXPROCS(0) < 2 {
		gemmPanels(buildTile, transA, transB, alpha, a, nil, pre, b, beta, c, false)
		return
	}
	// The two halves of the rows of C on two goroutines.
	h := (m / 2) &^ (mr - 1)
	top, bottom := a, a
	if transA {
		top.Cols, bottom.Cols = h, m-h
		bottom.Data = a.Data[h:]
	} else {
		top.Rows, bottom.Rows = h, m-h
		bottom.Data = a.Data[h*a.Stride:]
	}
	var preBottom *panels
	if pre != nil {
		q := *pre
		q.off += h
		preBottom = &q
	}
	ctop, cbottom := c, c
	ctop.Rows, cbottom.Rows = h, m-h
	cbottom.Data = c.Data[h*c.Stride:]
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		gemmPanels(buildTile, transA, transB, alpha, bottom, nil, preBottom, b, beta, cbottom, false)
	}()
	gemmPanels(buildTile, transA, transB, alpha, top, nil, pre, b, beta, ctop, false)
	wg.Wait()
}

// scratch holds the partial Grams and the scaled copies of syrkDiag.
var scratch = sync.Pool{New: func() any { return new([]float64) }}

func syrkDiag(trans bool, alpha float64, a General, d []float64, beta float64, c General) {
	negative := false
	for _, v := range d {
		negative = negative || !(v >= 0)
	}
	n, k := a.Rows, a.Cols
	if trans {
		n, k = k, n
	}
	split := float64(n)*float64(n)*float64(k)/2 >= parallelWork && runtime.GOMAXPROCS(0) >= 2 && k >= 2
	if fast || negative {
		if !split {
			syrkPacked(buildTile, trans, alpha, a, d, beta, c)
			return
		}
		splitSyrk(trans, alpha, a, d, beta, c, func(half General, dh []float64, beta float64, c General) {
			gemmWith(buildTile, trans, !trans, alpha, half, dh, half, beta, c, true)
		})
		return
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
	if !split {
		gonumSyrk(trans, alpha, src, beta, c)
		mirror(c)
		return
	}
	splitSyrk(trans, alpha, src, nil, beta, c, func(half General, _ []float64, beta float64, c General) {
		gonumSyrk(trans, alpha, half, beta, c)
	})
}

// splitSyrk computes the lower triangle of a SYRK-style product as the sum
// of two halves of its inner dimension (the rows of a when trans, else its
// columns; d split alike), run by syrk on two goroutines, the second into
// a scratch triangle; then mirrors it.
func splitSyrk(trans bool, alpha float64, a General, d []float64, beta float64, c General, syrk func(half General, d []float64, beta float64, c General)) {
	k := a.Cols
	if trans {
		k = a.Rows
	}
	h := k / 2
	first, second := a, a
	var d1, d2 []float64
	if d != nil {
		d1, d2 = d[:h], d[h:]
	}
	if trans {
		first.Rows, second.Rows = h, k-h
		second.Data = a.Data[h*a.Stride:]
	} else {
		first.Cols, second.Cols = h, k-h
		second.Data = a.Data[h:]
	}
	n := c.Rows
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
		syrk(second, d2, 0, part)
	}()
	syrk(first, d1, beta, c)
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

// cholesky is Dpotrf (or the packed form from order cholPacked with the
// assembly tile). Dpotrf accepts an infinite pivot: that is refused here
// as in the packed form.
func cholesky(a General) bool {
	if fast && a.Rows >= cholPacked {
		return choleskyPacked(a)
	}
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

// choleskySolve is the packed solve with the assembly tile, else Dpotrs.
func choleskySolve(l, b General) {
	if fast {
		choleskySolvePacked(l, b)
		return
	}
	gonumCholeskySolve(l, b)
}
