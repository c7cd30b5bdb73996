package plan

import (
	"fmt"
	"math"
)

// Checks of a value a person gave: a number of folds, repeats, a training
// fraction, the SVM's cost, k-NN's neighbours, inner folds. In a plan, zero
// means "the default", so a zero typed by a person must be refused before
// it reaches the plan; the command line (for the flags given) and the page
// (for its fields) call these, and Normalize gives the same messages for
// the same values in a plan.

// CheckFolds checks the number of folds of a cross-validation.
func CheckFolds(k int) error {
	if k < 2 {
		return fmt.Errorf("%d-fold cross-validation is impossible: use at least 2 folds", k)
	}
	return nil
}

// CheckRepeats checks the number of holdouts.
func CheckRepeats(r int) error {
	if r < 1 || r > MaxRepeats {
		return fmt.Errorf("%d holdout repeats: use 1 to %d", r, MaxRepeats)
	}
	return nil
}

// CheckTrain checks a holdout's training fraction.
func CheckTrain(f float64) error {
	if !(f > 0 && f < 1) {
		return fmt.Errorf("the holdout's training fraction %v must be strictly between 0 and 1 (e.g. 0.7)", f)
	}
	return nil
}

// CheckCost checks the SVM's cost C.
func CheckCost(c float64) error {
	if !(c > 0) || math.IsInf(c, 1) {
		return fmt.Errorf("svm: C = %v is invalid: it must be a positive number", c)
	}
	return nil
}

// CheckNeighbors checks k of k-NN.
func CheckNeighbors(k int) error {
	if k < 1 {
		return fmt.Errorf("knn: neighbors = %d is invalid: it must be a positive whole number", k)
	}
	return nil
}

// CheckInnerFolds checks the folds of tuning's inner cross-validation (0:
// automatic).
func CheckInnerFolds(k int) error {
	if k < 0 || k == 1 {
		return fmt.Errorf("inner_folds = %d: use 0 (automatic) or at least 2", k)
	}
	return nil
}
