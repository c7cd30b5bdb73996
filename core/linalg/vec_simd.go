//go:build wasm && goexperiment.simd

package linalg

import "simd"

// dot is dotSIMD in wasm builds with GOEXPERIMENT=simd.
func dot(x, y []float64) float64 { return dotSIMD(x, y) }

// axpy is axpySIMD in wasm builds with GOEXPERIMENT=simd.
func axpy(y []float64, alpha float64, x []float64) { axpySIMD(y, alpha, x) }

// dotSIMD is dotScalar in SIMD128: the four partial sums are the lanes of
// two vectors, combined in the same order, so the result is identical.
func dotSIMD(x, y []float64) float64 {
	y = y[:len(x)]
	var lo, hi simd.Float64s
	for len(x) >= 4 && len(y) >= 4 {
		lo = lo.Add(simd.LoadFloat64s(x[0:2]).Mul(simd.LoadFloat64s(y[0:2])))
		hi = hi.Add(simd.LoadFloat64s(x[2:4]).Mul(simd.LoadFloat64s(y[2:4])))
		x, y = x[4:], y[4:]
	}
	var s [4]float64
	lo.Store(s[0:2])
	hi.Store(s[2:4])
	for i, v := range x {
		s[0] += v * y[i]
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// axpySIMD is axpyScalar in SIMD128, two values at a time.
func axpySIMD(y []float64, alpha float64, x []float64) {
	x = x[:len(y)]
	a := simd.BroadcastFloat64s(alpha)
	for len(y) >= 2 && len(x) >= 2 {
		simd.LoadFloat64s(y[0:2]).Add(a.Mul(simd.LoadFloat64s(x[0:2]))).Store(y[0:2])
		x, y = x[2:], y[2:]
	}
	for i, v := range x {
		y[i] += alpha * v
	}
}
