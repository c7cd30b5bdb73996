package selection

import (
	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// The IRLS engine keeps one copy of the design: zt, the N×m transpose of
// Z = [X 1] (row j is column j of Z), built straight from the problem's X.
// The working set's rows are kept at the front of zt, in increasing order,
// so that the systems read them as one block (ztA = zt[:|act|·m]) without
// a second copy of the design: gatherRows moves the rows within zt, and
// order and pos say where each row of Z is. Products with every row
// (ztMul) and single rows (ztRow) are given in Z's own row order, so that
// the moves are invisible outside this file. A product's row depends only
// on that row of zt and the other factor (core/linalg computes each entry
// in the same order whichever row of the block it is in), so the numbers
// are those of an unmoved zt.

// transposeDesign returns the nr×m transpose of the design [X 1] (with
// bias) or X, row-major, nr = n (+1).
func transposeDesign(x *mat.Dense, bias bool) []float64 {
	m, n := x.Dims()
	nr := n
	if bias {
		nr++
	}
	zt := make([]float64, nr*m)
	for i := 0; i < m; i++ {
		for j, v := range x.RawRowView(i) {
			zt[j*m+i] = v
		}
	}
	if bias {
		row := zt[n*m:]
		for i := range row {
			row[i] = 1
		}
	}
	return zt
}

// ztRow returns row j of Zᵀ (column j of Z).
func (s *irls) ztRow(j int) []float64 {
	j = s.ztPos(j)
	return s.zt[j*s.m : (j+1)*s.m]
}

// ztPos is the place of row j of Zᵀ in zt.
func (s *irls) ztPos(j int) int {
	if s.pos != nil {
		return s.pos[j]
	}
	return j
}

// ztMul sets v = alpha·Zᵀb for b m×c and v nr×c, in Z's row order.
func (s *irls) ztMul(alpha float64, b, v []float64) {
	m, c, nr := s.m, s.c, s.nr
	if s.pos == nil {
		linalg.Gemm(false, false, alpha, gen(nr, m, s.zt), gen(m, c, b), 0, gen(nr, c, v))
		return
	}
	s.mulBuf = grow(s.mulBuf, nr*c)
	linalg.Gemm(false, false, alpha, gen(nr, m, s.zt), gen(m, c, b), 0, gen(nr, c, s.mulBuf))
	for j, p := range s.pos {
		copy(v[j*c:(j+1)*c], s.mulBuf[p*c:(p+1)*c])
	}
}

// gatherRows moves the rows of the working set to the front of zt, in
// increasing order, the others after them, and points ztA at the front.
func (s *irls) gatherRows() {
	if !s.gather {
		return
	}
	s.gather = false
	na, m := len(s.act), s.m
	s.ztA = s.zt[:na*m]
	if s.pos == nil {
		if na == s.nr {
			return
		}
		s.pos, s.order = make([]int, s.nr), make([]int, s.nr)
		for j := range s.pos {
			s.pos[j], s.order[j] = j, j
		}
	}
	// want[q] is the row of Z that belongs at position q.
	want := grow64Int(&s.want, s.nr)
	in := make([]bool, s.nr)
	copy(want, s.act)
	for _, j := range s.act {
		in[j] = true
	}
	q := na
	for j := 0; j < s.nr; j++ {
		if !in[j] {
			want[q] = j
			q++
		}
	}
	// Follow the cycles of the move: position q takes the row now at
	// pos[want[q]].
	done := make([]bool, s.nr)
	tmp := grow(s.rowBuf, m)
	s.rowBuf = tmp
	for start := range want {
		if done[start] || s.pos[want[start]] == start {
			done[start] = true
			continue
		}
		copy(tmp, s.zt[start*m:(start+1)*m])
		q := start
		for {
			done[q] = true
			from := s.pos[want[q]]
			if from == start {
				copy(s.zt[q*m:(q+1)*m], tmp)
				break
			}
			copy(s.zt[q*m:(q+1)*m], s.zt[from*m:(from+1)*m])
			q = from
		}
	}
	copy(s.order, want)
	for q, j := range s.order {
		s.pos[j] = q
	}
}

// grow64Int returns *buf resized to n ints, reallocated only when short.
func grow64Int(buf *[]int, n int) []int {
	if cap(*buf) < n {
		*buf = make([]int, n)
	}
	*buf = (*buf)[:n]
	return *buf
}
