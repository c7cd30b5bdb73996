package evaluate

import (
	"fmt"
	"slices"

	"sparsefs/api"
	"sparsefs/core/selection"
)

// voting reports whether a classifier of the plan is a per-class vote
// (api.Classifier.PerClass).
func (e *Evaluation) voting() bool {
	return slices.ContainsFunc(e.plan.Classifiers, func(c api.Classifier) bool { return c.PerClass })
}

// perClassOf returns the per-class rankings a vote uses: the method's own
// (exl21, elasso), or else those of its weight matrix, each class's
// features by |W_jk| (selection.PerClassRanking).
func perClassOf(method string, res *selection.Result, features, classes int) ([][]int, error) {
	if res.PerClass != nil {
		return res.PerClass, nil
	}
	if res.W == nil {
		return nil, fmt.Errorf("the per-class vote needs weights per class, and %s has none", method)
	}
	if _, c := res.W.Dims(); c != classes {
		return nil, fmt.Errorf("the per-class vote needs one weight per feature and class, and %s has %d weight columns for %d classes", method, c, classes)
	}
	return selection.PerClassRanking(res.W, features), nil
}

// topOfEach returns the first k of each ranking.
func topOfEach(rankings [][]int, k int) [][]int {
	out := make([][]int, len(rankings))
	for q, r := range rankings {
		out[q] = r[:k]
	}
	return out
}
