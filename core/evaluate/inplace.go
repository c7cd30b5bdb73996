package evaluate

import (
	"errors"

	"gonum.org/v1/gonum/mat"
)

// partsInPlace returns the training and test parts of the rows train and
// test without copying the data's values: the rows of d.X are permuted in
// place so that the rows in neither list come first, in increasing order,
// then the test rows, in the order of test, then the training rows, in the
// order of train, and the parts' x are views of those blocks (their
// labels and targets are copies, as part's). The training block is last
// so that the array past it (the reader's room for one more column) is
// free for a fit lent the part (trainProblem). The parts then hold the
// same values in the same order as d.part's copies, and d.X is the parts'
// from then on: the caller must own the data and read nothing else from
// them (Evaluation.Own). It reports false, and changes nothing, when a
// row is in both lists or twice in one (the rows are then copied).
func (d *Data) partsInPlace(train, test []int) (tr, te *part, ok bool) {
	m, n := d.X.Dims()
	perm, ok := blockOrder(m, train, test)
	if !ok {
		return nil, nil, false
	}
	permuteRows(d.X, perm)
	labels := func(idx []int) *part {
		return (&part{x: &mat.Dense{}, y: d.Y, t: d.Targets}).gather(idx)
	}
	tr, te = labels(train), labels(test)
	mt, ms := len(train), len(test)
	if ms > 0 {
		te.x = d.X.Slice(m-mt-ms, m-mt, 0, n).(*mat.Dense)
	}
	if mt > 0 {
		tr.x = d.X.Slice(m-mt, m, 0, n).(*mat.Dense)
	}
	return tr, te, true
}

// blockOrder returns the order of m rows that puts the rows in neither
// list first, in increasing order, then test, then train: perm[r] is the
// row that goes to place r. False when a row repeats.
func blockOrder(m int, train, test []int) ([]int, bool) {
	seen := make([]bool, m)
	for _, list := range [][]int{train, test} {
		for _, i := range list {
			if i < 0 || i >= m || seen[i] {
				return nil, false
			}
			seen[i] = true
		}
	}
	perm := make([]int, 0, m)
	for i, s := range seen {
		if !s {
			perm = append(perm, i)
		}
	}
	perm = append(perm, test...)
	perm = append(perm, train...)
	return perm, true
}

// permuteRows reorders the rows of x in place so that row r becomes the
// former row perm[r], following each cycle of the permutation with one
// row of scratch.
func permuteRows(x *mat.Dense, perm []int) {
	m, n := x.Dims()
	done := make([]bool, m)
	tmp := make([]float64, n)
	for s := 0; s < m; s++ {
		if done[s] || perm[s] == s {
			done[s] = true
			continue
		}
		copy(tmp, x.RawRowView(s))
		r := s
		for {
			done[r] = true
			src := perm[r]
			if src == s {
				copy(x.RawRowView(r), tmp)
				break
			}
			copy(x.RawRowView(r), x.RawRowView(src))
			r = src
		}
	}
}

// parts returns a unit's training part of split sp and a function that
// returns its test part: copies of the rows (the test rows copied when
// asked for, after the training), or, for the only unit of a run on data
// the evaluation owns (rc.inPlace), the data's own rows (partsInPlace),
// after which the data serve no other unit.
func (e *Evaluation) parts(rc runCtx, sp Split) (*part, func() *part, error) {
	if e.spent.Load() || (rc.inPlace && e.spent.Swap(true)) {
		return nil, nil, errSpent
	}
	if rc.inPlace {
		if tr, te, ok := e.data.partsInPlace(sp.Train, sp.Test); ok {
			return tr, func() *part { return te }, nil
		}
		e.spent.Store(false)
	}
	return e.data.part(sp.Train), func() *part { return e.data.part(sp.Test) }, nil
}

// errSpent is the error of a unit run on data an earlier unit took its
// parts out of in place.
var errSpent = errors.New("the data were rearranged in place for an earlier unit: read them again for the next")
