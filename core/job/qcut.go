package job

import (
	"errors"
	"fmt"
	"math"

	"sparsefs/api"
	"sparsefs/core/selection"
)

// checkQ checks a request's q-value cut (Request.Q): a number in (0, 1],
// not given with K, for a method that gives p-values.
func checkQ(req *api.Request, spec *selection.Spec) error {
	switch {
	case req.Q == 0:
		return nil
	case !(req.Q > 0 && req.Q <= 1):
		return fmt.Errorf("q = %v: a q-value cut is a number in (0, 1], e.g. 0.05", req.Q)
	case req.K != 0:
		return errors.New("give k (the top K features) or q (the features with a q-value of at most q), not both")
	case !spec.PValues:
		return fmt.Errorf("%s gives no p-values, so no q-values to cut at %v (the methods that do: %s)", spec.Name, req.Q, selection.PValueMethods())
	}
	return nil
}

// qCut returns the features of ranking whose q-value is at most q, in
// ranking order: the features the Benjamini–Hochberg procedure rejects at
// false discovery rate q. They need not be the first ones of the ranking
// when the ranking's score is not the test's (docs/statistics.md).
func qCut(ranking []int, qvalues []float64, q float64) []int {
	var out []int
	for _, j := range ranking {
		if !math.IsNaN(qvalues[j]) && qvalues[j] <= q {
			out = append(out, j)
		}
	}
	return out
}
