package classify

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
)

// Multiclass strategies of the SVM (api.OneVsOne, api.OneVsRest) and its
// treatments of the bias:
//
//   - api.FreeBias is the unregularised intercept of LIBSVM's C-SVC (and of
//     scikit-learn's SVC): the dual has the equality constraint yᵀα = 0
//     and is solved by two-coordinate descent.
//   - api.RegularizedBias appends a constant-1 feature whose weight is
//     regularised like the others (LIBLINEAR with -B 1); the dual has box
//     constraints only and is solved by one-coordinate descent (Hsieh et
//     al. 2008).
const (
	OneVsOne        = api.OneVsOne
	OneVsRest       = api.OneVsRest
	FreeBias        = api.FreeBias
	RegularizedBias = api.RegularizedBias
)

// Model is a trained classifier.
type Model interface {
	// Predict returns the class of one sample (a row of d features).
	Predict(x []float64) int
	// Notes are remarks on the training (an iteration limit reached).
	Notes() []string
}

// Train fits the classifier c (normalised by plan.Classifier) to the rows
// of x with classes y in 0…c−1.
func Train(c api.Classifier, x *mat.Dense, y []int, classes int) (Model, error) {
	m, _ := x.Dims()
	if len(y) != m {
		panic(mat.ErrShape)
	}
	switch c.Name {
	case api.SVM:
		s := SVM{C: c.C, Multiclass: c.Multiclass, Bias: c.Bias}
		return s.Train(x, y, classes)
	case api.KNN:
		return NewKNN(c.Neighbors, x, y, classes), nil
	}
	return nil, fmt.Errorf("classifier %q is not normalised", c.Name)
}

// Accuracy returns the fraction of the rows of x that model classifies as
// y says.
func Accuracy(model Model, x *mat.Dense, y []int) float64 {
	m, _ := x.Dims()
	if m == 0 {
		return math.NaN()
	}
	ok := 0
	for i := 0; i < m; i++ {
		if model.Predict(x.RawRowView(i)) == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(m)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
