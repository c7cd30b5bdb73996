package plan

import (
	"fmt"
	"strings"

	"sparsefs/api"
)

// Preprocess checks a preprocessing's name and returns it in canonical
// form ("" is api.ZScore).
func Preprocess(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "":
		return api.ZScore, nil
	case api.ZScore, api.MinMax, api.NoScaling:
		return v, nil
	}
	return "", fmt.Errorf("unknown preprocessing %q: use zscore, minmax or none", s)
}

// Coding checks a label coding's name ("" is each method's own).
func Coding(s string) (string, error) {
	switch s {
	case "", api.OneHot, api.PlusMinus:
		return s, nil
	}
	return "", fmt.Errorf("unknown label coding %q: use y01 (one-hot) or ypm (one-vs-rest ±1)", s)
}

// Classifier fills in the defaults of the parameters that apply to a
// classifier, checks them, and refuses those that do not apply.
func Classifier(c *api.Classifier) error {
	c.Name = strings.ToLower(strings.TrimSpace(c.Name))
	switch c.Name {
	case api.SVM:
		if c.C == 0 {
			c.C = 1
		}
		if err := CheckCost(c.C); err != nil {
			return err
		}
		switch c.Multiclass = strings.ToLower(c.Multiclass); c.Multiclass {
		case "":
			c.Multiclass = api.OneVsOne
		case api.OneVsOne, api.OneVsRest:
		default:
			return fmt.Errorf("svm: multiclass %q is unknown: use ovo (one-vs-one) or ovr (one-vs-rest)", c.Multiclass)
		}
		switch c.Bias = strings.ToLower(c.Bias); c.Bias {
		case "":
			c.Bias = api.FreeBias
		case api.FreeBias, api.RegularizedBias:
		default:
			return fmt.Errorf("svm: bias %q is unknown: use free or regularized", c.Bias)
		}
		if c.Neighbors != 0 {
			return fmt.Errorf("svm: neighbors is a parameter of knn, not of svm")
		}
	case api.KNN:
		if c.Neighbors == 0 {
			c.Neighbors = 1
		}
		if err := CheckNeighbors(c.Neighbors); err != nil {
			return err
		}
		if c.C != 0 || c.Multiclass != "" || c.Bias != "" {
			return fmt.Errorf("knn: C, multiclass and bias are parameters of svm, not of knn")
		}
	default:
		return fmt.Errorf("unknown classifier %q: use svm or knn", c.Name)
	}
	return nil
}

// ClassifierLabel is a short description of a normalised classifier and its
// parameters, as reports name it: "svm(C=1,ovo,free bias)", "knn(k=1)",
// "svm-vote(C=1,ovo,free bias)" (ClassifierName, then the parameters).
func ClassifierLabel(c api.Classifier) string {
	if c.Name == api.KNN {
		return fmt.Sprintf("%s(k=%d)", ClassifierName(c), c.Neighbors)
	}
	return fmt.Sprintf("%s(C=%g,%s,%s bias)", ClassifierName(c), c.C, c.Multiclass, c.Bias)
}
