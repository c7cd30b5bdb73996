package job

import (
	"errors"
	"fmt"

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
