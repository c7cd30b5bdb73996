//go:build !js

package linalg

// buildTile is the inner kernel of native builds: 4×2 (see kernel.go for
// the measurements).
var buildTile = tile4x2
