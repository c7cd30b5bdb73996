package evaluate

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/classify"
	"sparsefs/core/dataset"
	"sparsefs/core/internal/rng"
)

// fourClass returns m samples of n features in four classes, feature k
// shifted by shift for class k (k < 4), the others noise: each class has
// features of its own, so per-class rankings differ.
func fourClass(seed uint64, m, n int, shift float64) *Data {
	r := rng.New(seed, 0)
	x := mat.NewDense(m, n, nil)
	y := make([]int, m)
	for i := range m {
		y[i] = i % 4
		for j := range n {
			v := r.Normal()
			if j == y[i] {
				v += shift
			}
			x.Set(i, j, v)
		}
	}
	return &Data{X: x, Y: y, Classes: 4}
}

// The per-class vote ("svm-vote") against a vote recomputed here from the
// report alone, as exclusive-l21-ming-ding-2019 §6.2 describes it: on each
// split's training part, z-scored with that part's mean and deviation, one
// SVM per class on the top K of that class's ranking as the unit records
// it (Fit.PerClass: exl21's own, mtfs's from |W_jk|), each test sample
// getting the class most SVMs predict, a tie to the lowest class index. The
// data are noisy enough that ties occur (the test checks that some do), so
// a vote breaking ties otherwise, training on the one-ranking subset, or
// reading the wrong columns at prediction, fails. The one-SVM accuracy
// beside it must be that of the same plan without the vote.
func TestPerClassVoteRecomputed(t *testing.T) {
	d := fourClass(7, 64, 10, 1.2)
	ks := []int{1, 2, 3}
	svm := api.Classifier{Name: api.SVM}
	plan := api.Plan{Methods: []api.Variant{{Method: "exl21"}, {Method: "mtfs"}}, K: ks,
		Classifiers: []api.Classifier{svm, {Name: api.SVM, PerClass: true}}, Protocol: api.Protocol{Kind: api.CV, Folds: 4}, Seed: 3}
	e := mustNew(t, plan, d)
	rep, err := e.Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"svm(C=1,ovo,free bias)", "svm-vote(C=1,ovo,free bias)"}; rep.Classifiers[0] != want[0] || rep.Classifiers[1] != want[1] {
		t.Fatalf("classifiers %q, want %q", rep.Classifiers, want)
	}
	plan.Classifiers = []api.Classifier{svm}
	alone, err := mustNew(t, plan, d).Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.Plan().Classifiers[0]
	ties := 0
	for vi, vr := range rep.Results {
		for ki := range ks {
			if a, b := vr.Accuracy[0].Mean[ki], alone.Results[vi].Accuracy[0].Mean[ki]; a != b {
				t.Errorf("%s K = %d: one SVM %v beside the vote, %v alone", vr.Method, ks[ki], a, b)
			}
		}
		for s, u := range vr.Units {
			sp := e.splits[s]
			perClass := u.Fits[0].PerClass
			if len(perClass) != 4 {
				t.Fatalf("%s split %d: %d per-class rankings, want 4", vr.Method, s, len(perClass))
			}
			xtr := d.part(sp.Train).x
			scaler := dataset.FitScaler(dataset.ZScore, xtr)
			xtr = scaler.Transform(xtr)
			xte := scaler.Transform(d.part(sp.Test).x)
			for ki, k := range ks {
				votes := make([][4]int, len(sp.Test))
				for _, ranking := range perClass {
					model, err := classify.Train(cfg, columns(xtr, ranking[:k]), d.part(sp.Train).y, 4)
					if err != nil {
						t.Fatal(err)
					}
					xk := columns(xte, ranking[:k])
					for i := range sp.Test {
						votes[i][model.Predict(xk.RawRowView(i))]++
					}
				}
				ok := 0
				for i, v := range votes {
					best, tied := 0, false
					for c := 1; c < 4; c++ {
						switch {
						case v[c] > v[best]:
							best, tied = c, false
						case v[c] == v[best]:
							tied = true
						}
					}
					if tied {
						ties++
					}
					if best == d.Y[sp.Test[i]] {
						ok++
					}
				}
				want := float64(ok) / float64(len(sp.Test))
				if got := u.Accuracy[1][ki]; got != want {
					t.Errorf("%s split %d K = %d: vote accuracy %v, recomputed %v", vr.Method, s, k, got, want)
				}
			}
		}
	}
	if ties == 0 {
		t.Error("no test sample had tied votes: the tie rule is not tested")
	}
}
