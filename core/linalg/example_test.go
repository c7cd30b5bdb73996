package linalg_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// A weighted ridge system in its dual form, as the IRLS solvers build it:
// G = A·diag(d)·Aᵀ + I is factorised by Cholesky and G·x = b solved.
func Example() {
	a := mat.NewDense(2, 3, []float64{
		1, 0, 2,
		0, 1, 1,
	})
	d := []float64{1, 2, 0.5}
	g := mat.NewDense(2, 2, nil)
	linalg.ADAt(1, a.RawMatrix(), d, 0, g.RawMatrix()) // [1+2, 0.5·2; 1, 2+0.5] = [3 1; 1 2.5]
	for i := 0; i < 2; i++ {
		g.Set(i, i, g.At(i, i)+1)
	}
	fmt.Printf("%.4g\n", mat.Formatted(g))
	if !linalg.Cholesky(g.RawMatrix()) {
		fmt.Println("not positive definite")
		return
	}
	b := mat.NewDense(2, 1, []float64{7, 4.5})
	linalg.CholeskySolve(g.RawMatrix(), b.RawMatrix()) // [4 1; 1 3.5]·x = b
	fmt.Printf("%.4f\n", mat.Formatted(b.T()))
	// Output:
	// ⎡  4    1⎤
	// ⎣  1  3.5⎦
	// [1.5385  0.8462]
}
