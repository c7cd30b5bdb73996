//go:build !(wasm && goexperiment.simd)

package linalg

// dot is dotScalar in builds without the SIMD128 kernels.
func dot(x, y []float64) float64 { return dotScalar(x, y) }

// axpy is axpyScalar in builds without the SIMD128 kernels.
func axpy(y []float64, alpha float64, x []float64) { axpyScalar(y, alpha, x) }

// subComb is subCombScalar in builds without the SIMD128 kernels.
func subComb(y []float64, l []float64, lo, ls int, b []float64, bo, bs, n int) {
	subCombScalar(y, l, lo, ls, b, bo, bs, n)
}
