package selection

import (
	"slices"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/budget"
	"sparsefs/core/internal/rng"
)

// halves draws two disjoint half-samples of the m samples, each of
// ⌊m/2⌋, stratified by class (docs/methods.md#stabsel): each class's
// samples are shuffled and its first ⌊m_c/2⌋ go to one half, the next
// ⌊m_c/2⌋ to the other; the one sample left over by each class of odd
// size joins a pool, shuffled and dealt to the halves in turn (the last
// one left out when the pool is odd). Without classes (y nil) all the
// samples are shuffled together. Each half is in increasing order.
func halves(y []int, classes, m int, r *rng.Source) (a, b []int) {
	if y == nil {
		p := r.Perm(m)
		a, b = p[:m/2], p[m/2:2*(m/2)]
	} else {
		members := make([][]int, classes)
		for i, c := range y {
			members[c] = append(members[c], i)
		}
		var pool []int
		for _, s := range members {
			r.Shuffle(s)
			h := len(s) / 2
			a = append(a, s[:h]...)
			b = append(b, s[h:2*h]...)
			if len(s)%2 == 1 {
				pool = append(pool, s[2*h])
			}
		}
		r.Shuffle(pool)
		for i := 0; i+1 < len(pool); i += 2 {
			a, b = append(a, pool[i]), append(b, pool[i+1])
		}
	}
	slices.Sort(a)
	slices.Sort(b)
	return a, b
}

// rows returns the problem restricted to the given samples (copies of
// their rows, labels and targets); everything else is shared. The copy
// of X is the fit's alone, so it is lent to it (Problem.Lend), with room
// for one more column (the IRLS family's bias row).
func (p *Problem) rows(idx []int) *Problem {
	q := *p
	q.X = copyRows(p.X, idx, 1)
	q.Lend = true
	if p.Y != nil {
		q.Y = make([]int, len(idx))
		for r, i := range idx {
			q.Y[r] = p.Y[i]
		}
	}
	if p.Targets != nil {
		q.Targets = copyRows(p.Targets, idx, 0)
	}
	return &q
}

// halvesBudget checks the copies of the half-samples' rows that side fits
// at a time hold (rows: each is lent to its fit, whose own check does not
// count it) against p's memory budget, and returns p with the rest of the
// budget for the fits.
func (p *Problem) halvesBudget(side int) (*Problem, error) {
	m, n := p.X.Dims()
	copies := Need{What: "the copies of the half-samples' rows", Rows: side * (m / 2), RowsOf: "samples", Cols: n + 1, ColsOf: "features"}
	if err := p.CheckMemory("stabsel", copies); err != nil {
		return nil, err
	}
	q := *p
	if limit := budget.Limit(p.MemoryBudget); limit > 0 {
		q.MemoryBudget = max(1, limit-int64(copies.Bytes()))
	}
	return &q, nil
}

// copyRows copies the given rows of x, in that order, into an array with
// room for extra more columns past them.
func copyRows(x *mat.Dense, idx []int, extra int) *mat.Dense {
	_, n := x.Dims()
	out := mat.NewDense(len(idx), n, make([]float64, len(idx)*n, len(idx)*(n+extra)))
	for r, i := range idx {
		copy(out.RawRowView(r), x.RawRowView(i))
	}
	return out
}
