package selection

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// sqLoss is the least-squares term f(W) = ‖AW − Y‖_F² of a regression-based
// model (A m×N, W N×c, Y m×c), kept in whichever of two forms is cheaper:
//
//   - residual form (N ≥ m): the auxiliary matrix of an iterate W is the
//     residual R = AW − Y (m×c); a gradient costs one product with Aᵀ and a
//     new iterate one product with A, 2mNc flops in all.
//   - Gram form (N < m): G = AᵀA and B = AᵀY are formed once (mN² flops)
//     and the auxiliary matrix is H = GW − B = ½∇f (N×c); a new iterate
//     costs one product with G, N²c flops.
//
// The auxiliary matrix is affine in W with the same linear part in both
// forms, so a combination of iterates with weights summing to one (an
// extrapolation) has the same combination as its auxiliary matrix.
type sqLoss struct {
	m, n, c int
	gram    bool
	a       *mat.Dense // m×N (residual form)
	at      *mat.Dense // N×m, Aᵀ with one feature per contiguous row (residual form)
	g       *mat.Dense // N×N (Gram form)
	b       *mat.Dense // N×c (Gram form)
	y       *mat.Dense
	yy      float64   // ‖Y‖²
	colsq   []float64 // ‖a_j‖², the diagonal of G
	// pw and pg are the matrices of aux (A or G) and of halfGrad's product
	// (Aᵀ) packed once for core/linalg, on first use.
	pw, pg *linalg.Packed
}

func newSqLoss(a, y *mat.Dense) *sqLoss {
	m, n := a.Dims()
	_, c := y.Dims()
	l := &sqLoss{m: m, n: n, c: c, y: y, gram: n < m, colsq: make([]float64, n)}
	for _, v := range y.RawMatrix().Data {
		l.yy += v * v
	}
	if l.gram {
		l.g = mat.NewDense(n, n, nil)
		// G = AᵀA, one triangle computed and mirrored (half the flops of a
		// product).
		linalg.AtDA(1, a.RawMatrix(), nil, 0, l.g.RawMatrix())
		for i := 0; i < n; i++ {
			l.colsq[i] = l.g.At(i, i)
		}
		l.b = mat.NewDense(n, c, nil)
		linalg.Gemm(true, false, 1, a.RawMatrix(), y.RawMatrix(), 0, l.b.RawMatrix())
		return l
	}
	l.a = a
	l.at = mat.DenseCopyOf(a.T())
	for j := 0; j < n; j++ {
		s := 0.0
		for _, v := range l.at.RawRowView(j) {
			s += v * v
		}
		l.colsq[j] = s
	}
	return l
}

// newAux returns a matrix of the auxiliary matrix's shape.
func (l *sqLoss) newAux() *mat.Dense {
	if l.gram {
		return mat.NewDense(l.n, l.c, nil)
	}
	return mat.NewDense(l.m, l.c, nil)
}

// aux sets dst to the auxiliary matrix of w (R = AW − Y or H = GW − B).
// The products run on core/linalg with the fixed factor packed once, as do
// halfGrad's.
func (l *sqLoss) aux(dst, w *mat.Dense) {
	if l.pw == nil {
		if l.gram {
			l.pw = linalg.Pack(l.g.RawMatrix(), false)
		} else {
			l.pw = linalg.Pack(l.a.RawMatrix(), false)
		}
	}
	if l.gram {
		dst.Copy(l.b)
	} else {
		dst.Copy(l.y)
	}
	l.pw.Mul(1, w.RawMatrix(), -1, dst.RawMatrix())
}

// value returns f(W) = ‖AW − Y‖² from w and its auxiliary matrix.
func (l *sqLoss) value(w, aux *mat.Dense) float64 {
	if l.gram {
		// ‖AW − Y‖² = ⟨W, GW⟩ − 2⟨W, B⟩ + ‖Y‖² = ⟨W, H⟩ − ⟨W, B⟩ + ‖Y‖².
		s := l.yy
		wd, hd, bd := w.RawMatrix().Data, aux.RawMatrix().Data, l.b.RawMatrix().Data
		for i, v := range wd {
			s += v * (hd[i] - bd[i])
		}
		return math.Max(s, 0)
	}
	s := 0.0
	for _, v := range aux.RawMatrix().Data {
		s += v * v
	}
	return s
}

// dotY returns ⟨AW − Y, Y⟩ from w and its auxiliary matrix.
func (l *sqLoss) dotY(w, aux *mat.Dense) float64 {
	s := 0.0
	if l.gram {
		// ⟨AW − Y, Y⟩ = ⟨W, AᵀY⟩ − ‖Y‖².
		bd := l.b.RawMatrix().Data
		for i, v := range w.RawMatrix().Data {
			s += v * bd[i]
		}
		return s - l.yy
	}
	yd := l.y.RawMatrix()
	for i := 0; i < l.m; i++ {
		for k, v := range aux.RawRowView(i) {
			s += v * yd.Data[i*yd.Stride+k]
		}
	}
	return s
}

// halfGrad sets dst (N×c) to ½∇f = Aᵀ(AW − Y) from the auxiliary matrix.
func (l *sqLoss) halfGrad(dst, aux *mat.Dense) {
	if l.gram {
		dst.Copy(aux)
		return
	}
	if l.pg == nil {
		l.pg = linalg.Pack(l.at.RawMatrix(), false)
	}
	l.pg.Mul(1, aux.RawMatrix(), 0, dst.RawMatrix())
}

// rowHalfGrad writes (½∇f)_j = a_jᵀ(AW − Y) into dst (length c).
func (l *sqLoss) rowHalfGrad(dst []float64, j int, aux *mat.Dense) {
	if l.gram {
		copy(dst, aux.RawRowView(j))
		return
	}
	clear(dst)
	rd := aux.RawMatrix()
	for i, v := range l.at.RawRowView(j) {
		if v == 0 {
			continue
		}
		row := rd.Data[i*rd.Stride : i*rd.Stride+l.c]
		for k := range dst {
			dst[k] += v * row[k]
		}
	}
}

// rowUpdate adds to aux the change made by W_j += delta.
func (l *sqLoss) rowUpdate(aux *mat.Dense, j int, delta []float64) {
	var col []float64
	if l.gram {
		col = l.g.RawRowView(j) // G is symmetric: row j = column j
	} else {
		col = l.at.RawRowView(j)
	}
	ad := aux.RawMatrix()
	for i, v := range col {
		if v == 0 {
			continue
		}
		row := ad.Data[i*ad.Stride : i*ad.Stride+l.c]
		for k, d := range delta {
			row[k] += v * d
		}
	}
}

// setRow sets row j of w to v and updates its auxiliary matrix by the
// change (delta is scratch of length c).
func (l *sqLoss) setRow(w, aux *mat.Dense, j int, v, delta []float64) {
	row := w.RawRowView(j)
	changed := false
	for i := range v {
		delta[i] = v[i] - row[i]
		changed = changed || delta[i] != 0
	}
	if changed {
		copy(row, v)
		l.rowUpdate(aux, j, delta)
	}
}

// lipschitz returns an estimate of λ_max(AᵀA) by power iteration (from
// below; callers back-track if it is too small).
func (l *sqLoss) lipschitz() float64 {
	v := make([]float64, l.n)
	for j := range v {
		v[j] = 1 / math.Sqrt(float64(l.n)) * (1 + 0.01*float64(j%7))
	}
	av := make([]float64, l.m)
	w := make([]float64, l.n)
	vg, avg, wg := general(l.n, 1, v), general(l.m, 1, av), general(l.n, 1, w)
	lam := 0.0
	for it := 0; it < 300; it++ {
		if l.gram {
			linalg.Gemm(false, false, 1, l.g.RawMatrix(), vg, 0, wg)
		} else {
			linalg.Gemm(false, false, 1, l.a.RawMatrix(), vg, 0, avg)
			linalg.Gemm(false, false, 1, l.at.RawMatrix(), avg, 0, wg)
		}
		norm := 0.0
		for _, x := range w {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			return 0
		}
		prev := lam
		lam = norm
		for j := range v {
			v[j] = w[j] / norm
		}
		if it > 5 && math.Abs(lam-prev) <= 1e-9*lam {
			break
		}
	}
	return lam
}
