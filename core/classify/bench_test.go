package classify

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/rng"
)

func benchData(m, d, classes int) (*mat.Dense, []int) {
	r := rng.New(uint64(m*d+classes), 0)
	x := mat.NewDense(m, d, nil)
	y := make([]int, m)
	for i := 0; i < m; i++ {
		y[i] = i % classes
		for j := 0; j < d; j++ {
			v := r.Normal()
			if j < 5 {
				v += 0.8 * float64(y[i])
			}
			x.Set(i, j, v)
		}
	}
	return x, y
}

// Training the linear SVM on seeded data: the free bias (LIBSVM's dual with
// the equality constraint) against the regularised one (Hsieh's DCD).
func BenchmarkSVMTrain(b *testing.B) {
	for _, c := range []struct{ m, d, classes int }{{60, 20, 2}, {200, 100, 2}, {200, 50, 4}, {1000, 50, 2}, {3000, 20, 2}} {
		x, y := benchData(c.m, c.d, c.classes)
		for _, bias := range []string{FreeBias, RegularizedBias} {
			b.Run(fmt.Sprintf("m=%d/d=%d/c=%d/%s", c.m, c.d, c.classes, bias), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := (SVM{C: 1, Bias: bias}).Train(x, y, c.classes); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// 1-NN: every test sample against every training sample.
func BenchmarkKNN(b *testing.B) {
	for _, c := range []struct{ train, test, d int }{{100, 25, 50}, {1000, 250, 50}} {
		x, y := benchData(c.train+c.test, c.d, 3)
		train := x.Slice(0, c.train, 0, c.d).(*mat.Dense)
		test := x.Slice(c.train, c.train+c.test, 0, c.d).(*mat.Dense)
		b.Run(fmt.Sprintf("train=%d/test=%d/d=%d", c.train, c.test, c.d), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				Accuracy(NewKNN(1, train, y[:c.train], 3), test, y[c.train:])
			}
		})
	}
}

// LIBLINEAR's solver 5 to its default tolerance on a binary problem with
// more features than samples.
func BenchmarkL1SVM(b *testing.B) {
	for _, c := range []struct{ m, d int }{{72, 2000}, {200, 5000}} {
		x, yi := benchData(c.m, c.d, 2)
		y := make([]float64, c.m)
		for i, v := range yi {
			y[i] = float64(2*v - 1)
		}
		a := l1Design(x)
		b.Run(fmt.Sprintf("m=%d/d=%d", c.m, c.d), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := NewL1SVM(a, y, 1, 1)
				for it := 0; it < 1000; it++ {
					if _, ok := s.Sweep(1e-4); ok {
						break
					}
				}
			}
		})
	}
}
