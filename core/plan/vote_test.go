package plan_test

import (
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/plan"
	"sparsefs/core/selection"
)

// The per-class vote is named "svm-vote" or "knn-vote" everywhere (command
// line, page, report), and it is refused, naming what lacks weights per
// class, where it has no meaning: filters and ensembles, a fixed feature
// subset, regression targets.
func TestVote(t *testing.T) {
	for name, want := range map[string]api.Classifier{"svm": {Name: api.SVM}, "SVM-vote": {Name: api.SVM, PerClass: true}, " knn-vote": {Name: api.KNN, PerClass: true}} {
		c, err := plan.ClassifierNamed(name)
		if err != nil || c != want {
			t.Errorf("%q: %+v, %v; want %+v", name, c, err, want)
		}
	}
	if _, err := plan.ClassifierNamed("tree-vote"); err == nil || !strings.Contains(err.Error(), "use svm, svm-vote, knn, knn-vote") {
		t.Errorf("tree-vote: %v", err)
	}
	catalog := selection.Catalog()
	sh := api.Shape{Samples: 50, Features: 20, Classes: 3}
	vote := []api.Classifier{{Name: api.SVM}, {Name: api.SVM, PerClass: true}}
	p := api.Plan{Methods: []api.Variant{{Method: "exl21"}, {Method: "mtfs"}}, Classifiers: vote}
	if _, err := plan.Normalize(&p, sh, catalog); err != nil {
		t.Fatal(err)
	}
	if got := plan.ClassifierLabel(p.Classifiers[1]); got != "svm-vote(C=1,ovo,free bias)" {
		t.Errorf("label %q", got)
	}
	for _, c := range []struct {
		p    api.Plan
		sh   api.Shape
		frag string
	}{
		{api.Plan{Methods: []api.Variant{{Method: "exl21"}, {Method: "fisher"}, {Method: "stabsel"}}, Classifiers: vote}, sh,
			"and fisher (filter), stabsel (ensemble) have no such weights: evaluate them without the vote"},
		{api.Plan{Methods: []api.Variant{{Method: "mrmr"}}, Classifiers: vote}, sh, "and mrmr (filter) has no such weights: evaluate it without the vote"},
		{api.Plan{Methods: []api.Variant{{Method: "exl21"}}, Features: []int{1, 2}, Classifiers: vote}, sh, "a fixed feature subset has no weights"},
		{api.Plan{Methods: []api.Variant{{Method: "exl21"}}, Classifiers: vote}, api.Shape{Samples: 50, Features: 20, Classes: 3, Targets: 2}, "with regression targets"},
		{api.Plan{Methods: []api.Variant{{Method: "exl21"}}, Classifiers: append(vote, api.Classifier{Name: "svm", PerClass: true, C: 2})}, sh, "classifier svm-vote is listed twice"},
	} {
		if _, err := plan.Normalize(&c.p, c.sh, catalog); err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%+v: %v, want %q", c.p, err, c.frag)
		}
	}
}
