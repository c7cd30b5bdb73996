package plan

import (
	"testing"

	"sparsefs/api"
)

// A classifier's defaults are those of LIBSVM's C-SVC (C = 1, one-vs-one,
// a free intercept) and 1-NN; parameters of the other classifier and
// values out of range are refused.
func TestClassifier(t *testing.T) {
	c := api.Classifier{Name: "SVM"}
	if err := Classifier(&c); err != nil || c.C != 1 || c.Multiclass != api.OneVsOne || c.Bias != api.FreeBias {
		t.Errorf("svm defaults: %+v %v", c, err)
	}
	k := api.Classifier{Name: "knn"}
	if err := Classifier(&k); err != nil || k.Neighbors != 1 {
		t.Errorf("knn defaults: %+v %v", k, err)
	}
	for _, bad := range []api.Classifier{{Name: "tree"}, {Name: "svm", C: -1}, {Name: "svm", Multiclass: "all"}, {Name: "knn", Neighbors: -2}, {Name: "knn", C: 2}, {Name: "svm", Neighbors: 3}} {
		if err := Classifier(&bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if got := ClassifierLabel(c); got != "svm(C=1,ovo,free bias)" {
		t.Errorf("label %q", got)
	}
}

func TestVocabulary(t *testing.T) {
	for in, want := range map[string]string{"": "zscore", "MinMax": "minmax", " none ": "none"} {
		if got, err := Preprocess(in); err != nil || got != want {
			t.Errorf("Preprocess(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := Preprocess("log"); err == nil {
		t.Error("log accepted")
	}
	if _, err := Coding("Y01"); err == nil {
		t.Error("Y01 accepted (codings are lower case)")
	}
}
