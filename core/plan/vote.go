package plan

import (
	"fmt"
	"strings"

	"sparsefs/api"
)

// VoteSuffix ends the name of a classifier evaluated as a per-class vote
// (api.Classifier.PerClass): "svm-vote", "knn-vote".
const VoteSuffix = "-vote"

// ClassifierNames are the classifiers' names, in the order the page's form
// and reports list them.
var ClassifierNames = []string{api.SVM, api.SVM + VoteSuffix, api.KNN, api.KNN + VoteSuffix}

// ClassifierNamed returns the classifier of a name of ClassifierNames, its
// parameters left at their defaults.
func ClassifierNamed(name string) (api.Classifier, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	base, vote := strings.CutSuffix(key, VoteSuffix)
	if base != api.SVM && base != api.KNN {
		return api.Classifier{}, fmt.Errorf("unknown classifier %q: use %s", name, strings.Join(ClassifierNames, ", "))
	}
	return api.Classifier{Name: base, PerClass: vote}, nil
}

// ClassifierName is the name of a classifier: its Name, with VoteSuffix
// for a per-class vote.
func ClassifierName(c api.Classifier) string {
	if c.PerClass {
		return c.Name + VoteSuffix
	}
	return c.Name
}

// checkVote refuses a per-class vote where it has no meaning: it needs the
// weights of every class, which only embedded methods have, fitted to the
// classes (not to regression targets).
func checkVote(p *api.Plan, sh api.Shape, methods []api.MethodInfo) error {
	vote := ""
	for _, c := range p.Classifiers {
		if c.PerClass {
			vote = ClassifierName(c)
			break
		}
	}
	if vote == "" {
		return nil
	}
	const why = "the per-class vote (%s) trains one classifier per class on the features with the largest weights for that class"
	if sh.Targets > 0 {
		return fmt.Errorf(why+"; with regression targets the methods fit the targets, not the classes: leave out the targets or the vote", vote)
	}
	if len(p.Features) > 0 {
		return fmt.Errorf(why+"; a fixed feature subset has no weights: evaluate it without the vote", vote)
	}
	var without []string
	for _, v := range p.Methods {
		m, err := Lookup(methods, v.Method)
		if err != nil {
			return err
		}
		if m.Kind != api.Embedded {
			without = append(without, fmt.Sprintf("%s (%s)", m.Name, m.Kind))
		}
	}
	if len(without) > 0 {
		return fmt.Errorf(why+", and %s %s no such weights: evaluate %s without the vote, or choose methods with a weight matrix (exl21, elasso, mtfs, …)",
			vote, strings.Join(without, ", "), hasHave(len(without)), them(len(without)))
	}
	return nil
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
