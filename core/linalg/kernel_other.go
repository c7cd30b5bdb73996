//go:build !js

package linalg

// buildTile is the inner kernel of native builds: the 4×8 AVX/FMA3 tile
// in assembly where the processor has it (amd64), else 4×2 (see kernel.go
// for the measurements).
var buildTile = func() tile {
	if tile4x8.nr != 0 {
		return tile4x8
	}
	return tile4x2
}()
