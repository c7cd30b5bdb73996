package classify

import (
	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
)

// Vote is a per-class vote (api.Classifier.PerClass): for each class k a
// model trained on that class's own features, and a sample gets the class
// most of the models predict, a tie going to the lowest class index (the
// per-class protocol of exclusive-l21-ming-ding-2019 §6.2). It reads whole
// rows: each model takes its own columns of them.
type Vote struct {
	features [][]int
	models   []Model
	classes  int
}

// TrainVote trains, for each feature list of features (one per class, as
// column indices of x), the classifier c on those columns of x with
// classes y in 0…classes−1.
func TrainVote(c api.Classifier, x *mat.Dense, y []int, classes int, features [][]int) (*Vote, error) {
	v := &Vote{features: features, models: make([]Model, len(features)), classes: classes}
	m, _ := x.Dims()
	for q, cols := range features {
		xq := mat.NewDense(m, len(cols), nil)
		for i := 0; i < m; i++ {
			pick(xq.RawRowView(i), x.RawRowView(i), cols)
		}
		model, err := Train(c, xq, y, classes)
		if err != nil {
			return nil, err
		}
		v.models[q] = model
	}
	return v, nil
}

// pick copies the given entries of row into dst.
func pick(dst, row []float64, cols []int) {
	for k, j := range cols {
		dst[k] = row[j]
	}
}

// Predict returns the class most of the per-class models predict for the
// whole row x, the lowest class index among those tied.
func (v *Vote) Predict(x []float64) int {
	votes := make([]int, v.classes)
	for q, cols := range v.features {
		buf := make([]float64, len(cols))
		pick(buf, x, cols)
		votes[v.models[q].Predict(buf)]++
	}
	best := 0
	for k, n := range votes {
		if n > votes[best] {
			best = k
		}
	}
	return best
}

// Notes are the models' notes.
func (v *Vote) Notes() []string {
	var out []string
	for _, m := range v.models {
		out = append(out, m.Notes()...)
	}
	return out
}
