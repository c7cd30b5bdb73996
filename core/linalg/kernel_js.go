//go:build js

package linalg

// buildTile is the inner kernel of wasm builds: the 4×4 SIMD128 tile when
// the build has it (GOEXPERIMENT=simd, kernel_simd.go), else 4×3 (see
// kernel.go for the measurements).
var buildTile = func() tile {
	if tile4x4simd.nr != 0 {
		return tile4x4simd
	}
	return tile4x3
}()
