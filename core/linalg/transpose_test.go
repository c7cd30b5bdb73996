package linalg

import (
	"math/rand/v2"
	"testing"
)

// TestTransposeInPlace compares the in-place transpose with the
// definition, (Aᵀ)ᵢⱼ = Aⱼᵢ, on wide, tall and square shapes (with and
// without a remainder of columns past the last square block, and with
// values past the matrix that must not change), and checks that
// transposing back restores every bit.
func TestTransposeInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := [][2]int{{1, 1}, {1, 7}, {7, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 7}, {7, 3},
		{4, 8}, {8, 4}, {5, 5}, {33, 33}, {40, 100}, {100, 40}, {37, 1000}, {1000, 37}, {64, 64 * 5}, {31, 97}}
	for range 20 {
		shapes = append(shapes, [2]int{1 + rng.IntN(60), 1 + rng.IntN(300)})
	}
	for _, s := range shapes {
		rows, cols := s[0], s[1]
		const tail = 5
		a := make([]float64, rows*cols+tail)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		orig := append([]float64(nil), a...)
		TransposeInPlace(a[:rows*cols], rows, cols)
		for i := 0; i < rows; i++ {
			for j := 0; j < cols; j++ {
				if got, want := a[j*rows+i], orig[i*cols+j]; got != want {
					t.Fatalf("%d×%d: (Aᵀ)[%d,%d] = %v, want A[%d,%d] = %v", rows, cols, j, i, got, i, j, want)
				}
			}
		}
		for i := rows * cols; i < len(a); i++ {
			if a[i] != orig[i] {
				t.Fatalf("%d×%d: value %d past the matrix changed", rows, cols, i)
			}
		}
		TransposeInPlace(a[:rows*cols], cols, rows)
		for i := range a {
			if a[i] != orig[i] {
				t.Fatalf("%d×%d: transposed back, value %d is %v, was %v", rows, cols, i, a[i], orig[i])
			}
		}
	}
}
