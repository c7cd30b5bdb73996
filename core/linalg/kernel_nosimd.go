//go:build !(wasm && goexperiment.simd)

package linalg

// tile4x4simd exists only in wasm builds with GOEXPERIMENT=simd
// (kernel_simd.go).
var tile4x4simd tile
