package selection

import (
	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// A problem lent to its fit (Problem.Lend) gives the IRLS engine X's own
// memory for zt: X is transposed where it lies and the bias row written
// after it, in the backing array's spare capacity, so that the solve
// holds the data once instead of twice. giveBack restores X, bit for
// bit, when the fit ends. The values of zt are those transposeDesign
// would have copied, in the same places: the solve's numbers do not
// depend on where zt lives.

// lendDesign returns zt built in x's memory, or nil when x's array does
// not lend itself: x a view with a stride wider than its rows, or too
// little spare capacity for the bias row.
func lendDesign(x *mat.Dense, bias bool) []float64 {
	if !lendable(x, bias) {
		return nil
	}
	m, n := x.Dims()
	nr := n
	if bias {
		nr++
	}
	zt := x.RawMatrix().Data[:nr*m]
	linalg.TransposeInPlace(zt[:n*m], m, n)
	if bias {
		row := zt[n*m:]
		for i := range row {
			row[i] = 1
		}
	}
	return zt
}

// lendable reports whether x's array can hold zt (see lendDesign): rows
// back to back, and room for the bias row when there is one.
func lendable(x *mat.Dense, bias bool) bool {
	m, n := x.Dims()
	raw := x.RawMatrix()
	nr := n
	if bias {
		nr++
	}
	return raw.Stride == n && cap(raw.Data) >= nr*m
}

// giveBack restores a lent X from zt (a no-op when zt is a copy): the
// rows of zt back in Z's order, then the transpose undone. The solve must
// not use zt afterwards.
func (s *irls) giveBack() {
	if s.lentCols < 0 {
		return
	}
	if s.pos != nil {
		s.act = make([]int, s.nr)
		for j := range s.act {
			s.act[j] = j
		}
		s.gather = true
		s.gatherRows()
	}
	n := s.lentCols
	linalg.TransposeInPlace(s.zt[:n*s.m], n, s.m)
	s.zt, s.ztA, s.lentCols = nil, nil, -1
}
