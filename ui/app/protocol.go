package app

import (
	"fmt"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/core/plan"
	"sparsefs/ui/lab"
)

// ProtocolForm holds the text of the evaluation's fields as typed (a field
// being typed may not be a number yet). The page reads the fields and
// changes them with the setters (Config.SetSVM and Config.SetKNN for the
// classifiers, which change what the workers warm up for).
type ProtocolForm struct {
	// Scheme is "cv" (stratified k-fold) or "holdout".
	Scheme                                              string
	Folds, Train, Repeats, K, C, Neighbors, Seed, Inner string
	Tune                                                string
	SVM, KNN                                            bool
	// Vote evaluates each ticked classifier also as a per-class vote
	// ("svm-vote", "knn-vote": api.Classifier.PerClass).
	Vote bool
}

// SetScheme chooses "cv" or "holdout"; SetFolds sets the number of folds;
// SetTrain the training fraction; SetRepeats the holdout's repeats;
// SetKList the list of K; SetC the SVM's C; SetNeighbors k of k-NN;
// SetSeed the seed; SetTune the tuning grids; SetInner the inner folds.
func (f *ProtocolForm) SetScheme(scheme string)  { f.Scheme = scheme }
func (f *ProtocolForm) SetFolds(text string)     { f.Folds = text }
func (f *ProtocolForm) SetTrain(text string)     { f.Train = text }
func (f *ProtocolForm) SetRepeats(text string)   { f.Repeats = text }
func (f *ProtocolForm) SetKList(text string)     { f.K = text }
func (f *ProtocolForm) SetC(text string)         { f.C = text }
func (f *ProtocolForm) SetNeighbors(text string) { f.Neighbors = text }
func (f *ProtocolForm) SetSeed(text string)      { f.Seed = text }
func (f *ProtocolForm) SetTune(text string)      { f.Tune = text }
func (f *ProtocolForm) SetInner(text string)     { f.Inner = text }

// Holdout reports whether the scheme is repeated holdout.
func (f *ProtocolForm) Holdout() bool { return f.Scheme == "holdout" }

// ProtocolFormOf writes a protocol into the form.
func ProtocolFormOf(p lab.Protocol) ProtocolForm {
	f := ProtocolForm{Scheme: p.Scheme, K: p.K, Tune: p.Tune}
	if f.Scheme == "" {
		f.Scheme = "cv"
	}
	num := func(v int, def int) string {
		if v == 0 {
			v = def
		}
		return strconv.Itoa(v)
	}
	f.Folds, f.Repeats, f.Neighbors = num(p.Folds, 5), num(p.Repeats, 10), num(p.Neighbors, 1)
	f.Train = "0.7"
	if p.Train > 0 {
		f.Train = strconv.FormatFloat(p.Train, 'g', -1, 64)
	}
	f.C = "1"
	if p.C > 0 {
		f.C = strconv.FormatFloat(p.C, 'g', -1, 64)
	}
	f.Seed = strconv.FormatInt(p.Seed, 10)
	if p.Inner > 0 {
		f.Inner = strconv.Itoa(p.Inner)
	}
	for _, c := range p.Classifiers {
		name, vote := strings.CutSuffix(c, plan.VoteSuffix)
		f.SVM = f.SVM || name == api.SVM
		f.KNN = f.KNN || name == api.KNN
		f.Vote = f.Vote || vote
	}
	return f
}

// Protocol reads the form, naming the field that is not right: a field
// that is not a number says so; a number out of range gets core/plan's
// message, the one the command line gives for the same value.
func (f ProtocolForm) Protocol() (lab.Protocol, error) {
	p := lab.Protocol{Scheme: f.Scheme, K: f.K, Tune: strings.TrimSpace(f.Tune)}
	whole := func(name, text string, check func(int) error) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			return 0, fmt.Errorf("%s must be a whole number, not %q", name, text)
		}
		return v, check(v)
	}
	number := func(name, text string, check func(float64) error) (float64, error) {
		v, err := api.Number(text)
		if err != nil {
			return 0, fmt.Errorf("%s must be a number, not %q", name, text)
		}
		return v, check(v)
	}
	var err error
	switch f.Scheme {
	case "holdout":
		if p.Repeats, err = whole("the number of repeats", f.Repeats, plan.CheckRepeats); err != nil {
			return p, err
		}
		if p.Train, err = number("the training fraction", f.Train, plan.CheckTrain); err != nil {
			return p, err
		}
	default:
		if p.Folds, err = whole("the number of folds", f.Folds, plan.CheckFolds); err != nil {
			return p, err
		}
	}
	if f.SVM {
		p.Classifiers = append(p.Classifiers, f.named(api.SVM)...)
		if p.C, err = number("the SVM's C", f.C, plan.CheckCost); err != nil {
			return p, err
		}
	}
	if f.KNN {
		p.Classifiers = append(p.Classifiers, f.named(api.KNN)...)
		if p.Neighbors, err = whole("k of k-NN", f.Neighbors, plan.CheckNeighbors); err != nil {
			return p, err
		}
	}
	seed, err := strconv.ParseInt(strings.TrimSpace(f.Seed), 10, 64)
	if err != nil || seed < 0 {
		return p, fmt.Errorf("the seed must be a whole number of at least 0, not %q", f.Seed)
	}
	p.Seed = seed
	if strings.TrimSpace(f.Inner) != "" {
		if p.Inner, err = whole("the number of inner folds", f.Inner, plan.CheckInnerFolds); err != nil {
			return p, err
		}
	}
	return p, nil
}

// named is a ticked classifier's names: it, and its vote if Vote is ticked.
func (f ProtocolForm) named(name string) []string {
	if f.Vote {
		return []string{name, name + plan.VoteSuffix}
	}
	return []string{name}
}
