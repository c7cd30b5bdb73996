package classify

import (
	"gonum.org/v1/gonum/mat"
)

// KNN is the k-nearest-neighbour classifier with the Euclidean distance.
// The k nearest training samples are found with exact squared distances
// Σ_t (x_t − z_t)², ties in distance going to the lower training index; the
// prediction is the class most frequent among them, ties to the lower class
// index (as scikit-learn's KNeighborsClassifier with uniform weights).
type KNN struct {
	k       int
	x       *mat.Dense
	y       []int
	classes int
}

// NewKNN returns the classifier for the rows of x with classes y. It keeps
// x (it does not copy it).
func NewKNN(k int, x *mat.Dense, y []int, classes int) *KNN {
	m, _ := x.Dims()
	return &KNN{k: min(k, m), x: x, y: y, classes: classes}
}

// Predict returns the class of z.
func (c *KNN) Predict(z []float64) int {
	m, _ := c.x.Dims()
	if m == 0 {
		return 0
	}
	// The k best so far, sorted by distance; a later sample enters only if
	// strictly nearer, so ties keep the lower index.
	idx := make([]int, 0, c.k)
	dist := make([]float64, 0, c.k)
	for i := 0; i < m; i++ {
		s := 0.0
		for t, v := range c.x.RawRowView(i) {
			e := v - z[t]
			s += e * e
		}
		if len(idx) == c.k && s >= dist[c.k-1] {
			continue
		}
		p := len(idx)
		if p < c.k {
			idx, dist = append(idx, 0), append(dist, 0)
		} else {
			p = c.k - 1
		}
		for p > 0 && dist[p-1] > s {
			idx[p], dist[p] = idx[p-1], dist[p-1]
			p--
		}
		idx[p], dist[p] = i, s
	}
	if c.k == 1 {
		return c.y[idx[0]]
	}
	votes := make([]int, c.classes)
	for _, i := range idx {
		votes[c.y[i]]++
	}
	best := 0
	for k, v := range votes {
		if v > votes[best] {
			best = k
		}
	}
	return best
}

// Notes returns nothing: k-NN has no solver.
func (c *KNN) Notes() []string { return nil }
