//go:build !amd64 || purego

package linalg

// tile4x8 exists only on amd64 (kernel_amd64.go).
var tile4x8 tile
