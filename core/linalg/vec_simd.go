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
	// Eight values a pass, then four (see kern4x4simd on the loop's back
	// edges).
	for len(x) >= 8 && len(y) >= 8 {
		lo = lo.Add(simd.LoadFloat64s(x[0:2]).Mul(simd.LoadFloat64s(y[0:2])))
		hi = hi.Add(simd.LoadFloat64s(x[2:4]).Mul(simd.LoadFloat64s(y[2:4])))
		lo = lo.Add(simd.LoadFloat64s(x[4:6]).Mul(simd.LoadFloat64s(y[4:6])))
		hi = hi.Add(simd.LoadFloat64s(x[6:8]).Mul(simd.LoadFloat64s(y[6:8])))
		x, y = x[8:], y[8:]
	}
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

// subComb is subCombSIMD in wasm builds with GOEXPERIMENT=simd.
func subComb(y []float64, l []float64, lo, ls int, b []float64, bo, bs, n int) {
	subCombSIMD(y, l, lo, ls, b, bo, bs, n)
}

// subCombSIMD is subCombScalar in SIMD128: blocks of four values of y in
// two vectors, then one of two, then the last value alone.
func subCombSIMD(y []float64, l []float64, lo, ls int, b []float64, bo, bs, n int) {
	t := 0
	for ; t+4 <= len(y); t += 4 {
		y0 := simd.LoadFloat64s(y[t : t+2])
		y1 := simd.LoadFloat64s(y[t+2 : t+4])
		for s := 0; s < n; s++ {
			c := l[lo+s*ls]
			if c == 0 {
				continue
			}
			x := simd.BroadcastFloat64s(-c)
			off := bo + s*bs + t
			y0 = y0.Add(x.Mul(simd.LoadFloat64s(b[off : off+2])))
			y1 = y1.Add(x.Mul(simd.LoadFloat64s(b[off+2 : off+4])))
		}
		y0.Store(y[t : t+2])
		y1.Store(y[t+2 : t+4])
	}
	if t+2 <= len(y) {
		y0 := simd.LoadFloat64s(y[t : t+2])
		for s := 0; s < n; s++ {
			if c := l[lo+s*ls]; c != 0 {
				off := bo + s*bs + t
				y0 = y0.Add(simd.BroadcastFloat64s(-c).Mul(simd.LoadFloat64s(b[off : off+2])))
			}
		}
		y0.Store(y[t : t+2])
		t += 2
	}
	if t < len(y) {
		yt := y[t]
		for s := 0; s < n; s++ {
			if c := l[lo+s*ls]; c != 0 {
				yt += -c * b[bo+s*bs+t]
			}
		}
		y[t] = yt
	}
}
