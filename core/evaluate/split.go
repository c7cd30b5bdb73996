package evaluate

import (
	"math"
	"sort"

	"sparsefs/api"
	"sparsefs/core/internal/rng"
)

// Streams of the seed: each random choice of an evaluation draws from its
// own stream, so that adding a method or a K never changes the splits.
const (
	streamSplits = 0x5_0117
	streamInner  = 0x1_0000_0000 // + the outer split's index
)

// Split is one training/test partition of the samples (0-based indices,
// increasing).
type Split struct {
	Train, Test []int
}

// makeSplits draws the splits of a protocol. Stratified protocols shuffle
// each class separately (classes in order, one generator), so every class is
// spread over the folds as evenly as its size allows; without labels (y
// nil) the samples are shuffled together.
func makeSplits(pr api.Protocol, y []int, classes, m int, seed uint64) []Split {
	switch pr.Kind {
	case api.Holdout:
		r := rng.New(seed, streamSplits)
		out := make([]Split, pr.Repeats)
		for rep := range out {
			train := make([]bool, m)
			for _, group := range strata(y, classes, m) {
				r.Shuffle(group)
				// round(f·m_k) training samples, at least one on each
				// side when the stratum has two or more.
				nt := int(math.Round(pr.Train * float64(len(group))))
				if len(group) >= 2 {
					nt = min(max(nt, 1), len(group)-1)
				} else {
					nt = len(group)
				}
				for _, i := range group[:nt] {
					train[i] = true
				}
			}
			out[rep] = partition(train)
		}
		return out
	case api.Folds:
		ids := distinct(pr.Assignment)
		out := make([]Split, len(ids))
		for f, id := range ids {
			train := make([]bool, m)
			for i, a := range pr.Assignment {
				train[i] = a != id
			}
			out[f] = partition(train)
		}
		return out
	}
	return kfold(y, classes, m, pr.Folds, rng.New(seed, streamSplits))
}

// kfold deals the samples, shuffled within each stratum and the strata laid
// end to end, round-robin into k folds; fold f is split f's test part.
func kfold(y []int, classes, m, k int, r *rng.Source) []Split {
	fold := make([]int, m)
	pos := 0
	for _, group := range strata(y, classes, m) {
		r.Shuffle(group)
		for _, i := range group {
			fold[i] = pos % k
			pos++
		}
	}
	out := make([]Split, k)
	for f := range out {
		train := make([]bool, m)
		for i := range train {
			train[i] = fold[i] != f
		}
		out[f] = partition(train)
	}
	return out
}

// strata returns the samples of each class in index order (one stratum of
// all samples when y is nil).
func strata(y []int, classes, m int) [][]int {
	if y == nil {
		all := make([]int, m)
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	groups := make([][]int, classes)
	for i, c := range y {
		groups[c] = append(groups[c], i)
	}
	return groups
}

func partition(train []bool) Split {
	var s Split
	for i, t := range train {
		if t {
			s.Train = append(s.Train, i)
		} else {
			s.Test = append(s.Test, i)
		}
	}
	return s
}

func distinct(v []int) []int {
	set := map[int]bool{}
	for _, x := range v {
		set[x] = true
	}
	out := make([]int, 0, len(set))
	for x := range set {
		out = append(out, x)
	}
	sort.Ints(out)
	return out
}
