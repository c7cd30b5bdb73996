//go:build js

package linalg

// buildTile is the inner kernel of wasm builds: 4×3 (see kernel.go for the
// measurements).
var buildTile = tile4x3
