package evaluate

import (
	"context"
	"fmt"
	"testing"

	"sparsefs/api"
)

// One unit (one split, one method) of the papers' protocol: z-score and
// fstat on the training part, then a linear SVM and 1-NN for K = 10, 20, …,
// 100; and a whole 5-fold evaluation with one and two workers.
func BenchmarkEval(b *testing.B) {
	for _, c := range []struct{ m, n int }{{72, 2000}, {200, 5000}} {
		d := twoClass(7, c.m, c.n, 20, 0.5)
		plan := api.Plan{Methods: []api.Variant{{Method: "fstat"}}, Classifiers: []api.Classifier{{Name: "svm"}, {Name: "knn"}}}
		e, err := New(plan, d)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("unit/m=%d/n=%d", c.m, c.n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := e.RunUnit(context.Background(), 0, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("run/m=%d/n=%d/workers=%d", c.m, c.n, w), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := e.Run(context.Background(), w, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
