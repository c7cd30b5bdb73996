package evaluate

import (
	"reflect"
	"testing"

	"sparsefs/api"
)

// Every protocol covers the samples as it should: k-fold tests each sample
// exactly once with each class spread evenly (fold counts differ by at most
// one), holdout puts round(f·m_k) of each class into training, an explicit
// assignment is followed, and the same seed gives the same splits.
func TestSplits(t *testing.T) {
	y := make([]int, 53)
	for i := range y {
		y[i] = i % 3
		if i > 40 {
			y[i] = 0 // class 0 is larger: 14 + 12 = 26, class 1: 14, class 2: 13
		}
	}
	counts := []int{0, 0, 0}
	for _, c := range y {
		counts[c]++
	}
	splits := makeSplits(api.Protocol{Kind: api.CV, Folds: 5}, y, 3, 53, 7)
	tested := make([]int, 53)
	for _, s := range splits {
		if len(s.Train)+len(s.Test) != 53 {
			t.Fatalf("split sizes %d + %d", len(s.Train), len(s.Test))
		}
		for _, i := range s.Test {
			tested[i]++
		}
	}
	for i, n := range tested {
		if n != 1 {
			t.Fatalf("sample %d tested %d times", i, n)
		}
	}
	for c := 0; c < 3; c++ {
		lo, hi := 1<<30, 0
		for _, s := range splits {
			n := 0
			for _, i := range s.Test {
				if y[i] == c {
					n++
				}
			}
			lo, hi = min(lo, n), max(hi, n)
		}
		if hi-lo > 1 {
			t.Errorf("class %d spread %d…%d over the folds", c, lo, hi)
		}
	}
	if !reflect.DeepEqual(splits, makeSplits(api.Protocol{Kind: api.CV, Folds: 5}, y, 3, 53, 7)) {
		t.Error("same seed, different folds")
	}
	if reflect.DeepEqual(splits, makeSplits(api.Protocol{Kind: api.CV, Folds: 5}, y, 3, 53, 8)) {
		t.Error("different seeds, same folds")
	}
	hold := makeSplits(api.Protocol{Kind: api.Holdout, Train: 0.7, Repeats: 4}, y, 3, 53, 1)
	if len(hold) != 4 || reflect.DeepEqual(hold[0], hold[1]) {
		t.Fatal("holdout repeats missing or identical")
	}
	for _, s := range hold {
		got := []int{0, 0, 0}
		for _, i := range s.Train {
			got[y[i]]++
		}
		// round(0.7·26) = 18, round(0.7·14) = 10, round(0.7·13) = 9.
		if !reflect.DeepEqual(got, []int{18, 10, 9}) {
			t.Errorf("holdout training counts %v", got)
		}
	}
	assign := make([]int, 53)
	for i := range assign {
		assign[i] = 10 * (i % 2) // folds 0 and 10
	}
	fs := makeSplits(api.Protocol{Kind: api.Folds, Assignment: assign}, y, 3, 53, 0)
	if len(fs) != 2 || fs[0].Test[0] != 0 || fs[0].Test[1] != 2 || fs[1].Test[0] != 1 {
		t.Errorf("explicit folds %v", fs)
	}
	// Without labels: plain k-fold, sizes 11, 11, 11, 10, 10.
	plain := makeSplits(api.Protocol{Kind: api.CV, Folds: 5}, nil, 0, 53, 3)
	if len(plain[0].Test) != 11 || len(plain[4].Test) != 10 {
		t.Errorf("unlabelled fold sizes %d, %d", len(plain[0].Test), len(plain[4].Test))
	}
}
