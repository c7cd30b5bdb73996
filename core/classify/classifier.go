package classify

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Classifier names.
const (
	NameSVM = "svm"
	NameKNN = "knn"
)

// Multiclass strategies of the SVM.
const (
	OneVsOne  = "ovo"
	OneVsRest = "ovr"
)

// Bias treatments of the SVM.
const (
	// FreeBias is the unregularised intercept of LIBSVM's C-SVC (and of
	// scikit-learn's SVC): the dual has the equality constraint yᵀα = 0
	// and is solved by two-coordinate descent.
	FreeBias = "free"
	// RegularizedBias appends a constant-1 feature whose weight is
	// regularised like the others (LIBLINEAR with -B 1); the dual has box
	// constraints only and is solved by one-coordinate descent (Hsieh et
	// al. 2008).
	RegularizedBias = "regularized"
)

// Config names a classifier and its parameters. The zero value of every
// parameter means its default.
type Config struct {
	// Name is "svm" or "knn".
	Name string `json:"name"`
	// C is the SVM's cost parameter (default 1).
	C float64 `json:"C,omitempty"`
	// Multiclass is "ovo" (default, LIBSVM's one-vs-one with voting) or
	// "ovr" (one-vs-rest, largest decision value).
	Multiclass string `json:"multiclass,omitempty"`
	// Bias is "free" (default) or "regularized"; see FreeBias.
	Bias string `json:"bias,omitempty"`
	// Neighbors is k of k-NN (default 1).
	Neighbors int `json:"neighbors,omitempty"`
}

// Normalize fills in the defaults of the parameters that apply to the
// classifier, clears those that do not, and checks them.
func (c *Config) Normalize() error {
	c.Name = strings.ToLower(strings.TrimSpace(c.Name))
	switch c.Name {
	case NameSVM:
		if c.C == 0 {
			c.C = 1
		}
		if !(c.C > 0) || math.IsInf(c.C, 1) {
			return fmt.Errorf("svm: C = %v is invalid: it must be a positive number", c.C)
		}
		switch c.Multiclass = strings.ToLower(c.Multiclass); c.Multiclass {
		case "":
			c.Multiclass = OneVsOne
		case OneVsOne, OneVsRest:
		default:
			return fmt.Errorf("svm: multiclass %q is unknown: use ovo (one-vs-one) or ovr (one-vs-rest)", c.Multiclass)
		}
		switch c.Bias = strings.ToLower(c.Bias); c.Bias {
		case "":
			c.Bias = FreeBias
		case FreeBias, RegularizedBias:
		default:
			return fmt.Errorf("svm: bias %q is unknown: use free or regularized", c.Bias)
		}
		if c.Neighbors != 0 {
			return fmt.Errorf("svm: neighbors is a parameter of knn, not of svm")
		}
	case NameKNN:
		if c.Neighbors == 0 {
			c.Neighbors = 1
		}
		if c.Neighbors < 1 {
			return fmt.Errorf("knn: neighbors = %d is invalid: it must be a positive whole number", c.Neighbors)
		}
		if c.C != 0 || c.Multiclass != "" || c.Bias != "" {
			return fmt.Errorf("knn: C, multiclass and bias are parameters of svm, not of knn")
		}
	default:
		return fmt.Errorf("unknown classifier %q: use svm or knn", c.Name)
	}
	return nil
}

// Label is a short description of the classifier and its parameters.
func (c Config) Label() string {
	if c.Name == NameKNN {
		return fmt.Sprintf("knn(k=%d)", c.Neighbors)
	}
	return fmt.Sprintf("svm(C=%g,%s,%s bias)", c.C, c.Multiclass, c.Bias)
}

// Model is a trained classifier.
type Model interface {
	// Predict returns the class of one sample (a row of d features).
	Predict(x []float64) int
	// Notes are remarks on the training (an iteration limit reached).
	Notes() []string
}

// Train fits the classifier (whose Config must be normalised) to the rows
// of x with classes y in 0…c−1.
func (c Config) Train(x *mat.Dense, y []int, classes int) (Model, error) {
	m, _ := x.Dims()
	if len(y) != m {
		panic(mat.ErrShape)
	}
	switch c.Name {
	case NameSVM:
		s := SVM{C: c.C, Multiclass: c.Multiclass, Bias: c.Bias}
		return s.Train(x, y, classes)
	case NameKNN:
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
