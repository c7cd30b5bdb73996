//go:build js

package linalg

// The wasm build runs the packed kernels everywhere. Measured under node 20
// (V8; GOOS=js GOARCH=wasm go test -bench 'Kernels|Cholesky', 3 runs each;
// figures in GFLOP/s, packed vs gonum):
//
//	ADAt 50×4435 (GLIOMA dual Gram)   4.4 vs 0.71
//	ADAt 96×4027 (lymphoma)           5.3 vs 0.71
//	AtDA 2600×501 (madelon primal)    6.2 vs 1.19
//	Gemm 1000³                        5.5 vs 1.25
//	Gemm 4435×4×50 (W = Zᵀ·Λ)         1.8 vs 1.10
//	Cholesky 400                      3.9 vs 0.76
//	Cholesky 1000                     4.1 vs 0.80
//
// and in a Chromium worker (scripts/bench_irls.sh) the same order. Built
// with GOEXPERIMENT=simd (the worker's build) the packed kernels run on the
// SIMD128 tile: 1.5–1.75× the scalar build's GFLOP/s for the products
// above, 1.0–1.3× for the Cholesky (docs/results.md#wasm-simd).

// cholBlock is the block size of the packed Cholesky and solve in wasm
// (BenchmarkCholesky: 64 and 128 within 5%, 32 slower).
const cholBlock = 96

func gemm(transA, transB bool, alpha float64, a, b General, beta float64, c General) {
	gemmWith(buildTile, transA, transB, alpha, a, nil, b, beta, c, false)
}

func syrkDiag(trans bool, alpha float64, a General, d []float64, beta float64, c General) {
	syrkPacked(buildTile, trans, alpha, a, d, beta, c)
}

func cholesky(a General) bool { return choleskyPacked(a) }

func choleskySolve(l, b General) { choleskySolvePacked(l, b) }

func gemmPacked(p *Packed, alpha float64, b General, beta float64, c General) {
	gemmPanels(buildTile, p.trans, false, alpha, p.a, nil, &p.pre, b, beta, c, false)
}
