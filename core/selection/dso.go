package selection

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
	"sparsefs/core/sparse"
)

// DSO is the direct sparsity optimisation selector (DSO-FS) of Peng & Fan,
//
//	min_{W,E} ‖W‖_{2,p}   s.t.  XW = P(Y + E),  Y⊙E ≥ 0,   0 < p ≤ 1,
//
// (H. Peng and Y. Fan, "Direct sparsity optimization based feature selection
// for multi-class classification", IJCAI 2016; Eqs. 5–9, Algorithm 1). X is
// the design matrix (with the bias column, penalised like any other row,
// when the problem asks for one) and Y the one-vs-rest ±1 coding Ypm. When
// X (m×N) has full row rank m ≤ N, P = I and the constraints are the margin
// constraints Y⊙(XW) ≥ 1 (Eq. 5); otherwise P = XX⁺, the least-squares
// solution space of the paper (§2). Features are ranked by ‖w^j‖₂ and the
// reported objective is ‖W‖_{2,p} = (Σ_j ‖w^j‖₂^p)^{1/p}.
//
// # Solution space (Eqs. 7–8)
//
// Instead of the paper's Gaussian elimination, a Householder QR with column
// pivoting XΠ = Q[R₁₁ R₁₂; 0 0] (numerical rank r: |R_ii| > max(m,N)·ε·|R₁₁|)
// gives the same space: with the r pivot columns "basic" and the n₀ = N − r
// others "free", W_B = L(Y + E) − MU and W_F = U for any U, where
// M = R₁₁⁻¹R₁₂ and L = R₁₁⁻¹Q₁ᵀ (so N = LY), i.e. P = [−M; I] in the
// paper's notation. Column pivoting keeps R₁₁ well conditioned, where
// elimination on "the first independent columns" need not.
//
// # Algorithm 1
//
// From E = 0 and unit weights, each iteration alternates
//
//   - the U-step (Eq. 11): U minimises Σ_i ‖w^i‖²/d_i over the solution
//     space with E fixed, where d_i = ‖w^i‖₂^{2−p} (the inverse of the
//     paper's S = Σ²). It is computed with the r×r system of Eqs. (13)–(14),
//     U = D_F Mᵀ(M D_F Mᵀ + D_B)⁻¹K with K = L(Y + E), or with the n₀×n₀
//     system of Eq. (12), (MᵀS_B M + S_F)U = MᵀS_B K, whichever is smaller
//     (Eq. 12 needs every basic row alive); only rows with d_i > 0 enter the
//     products, and the positive semidefinite system is solved by Cholesky
//     factorisation with pivoting;
//   - the E-step: E minimises the same weighted sum with the weights d' of
//     the U-step's W (the paper's Λ) and U fixed, subject to Y⊙E ≥ 0: a
//     sign-constrained weighted least-squares problem, separable by class,
//     solved inside the toolkit by Lawson & Hanson's NNLS (Solving Least
//     Squares Problems, 1974, ch. 23), warm-started from the last solution.
//
// Each step minimises a weighted quadratic whose value at the current point
// is ‖W‖_{2,p}^p, so by Lemma 2 ‖W‖_{2,p} never increases (Theorem 1); a
// step whose computed weighted value would rise (rounding) is not taken.
//
// When P = I the E-step is solved in W itself: with a set S of rows moving
// and the others fixed, min ‖z‖ s.t. y_k⊙(X_S D_S^{1/2}z + X_{∖S}w_k) ≥ 1,
// W_S = D_S^{1/2}z, a least-distance problem (Lawson & Hanson ch. 23 §3,
// reduced to NNLS), so the returned W meets the margins to rounding. In the
// paper S is the basic set of the fixed factorisation (ERows =
// DSOPivotRows). Those rows need not stay in the support: for p ≤ 1 most
// rows decay to zero, the E-step can then barely move E, and the iteration
// stalls above the optimum (5% above it for p = 1 on a 12×20 test problem,
// see the tests and docs/results.md#dso-convergence). By default
// (DSOHeaviestRows) S is instead the 2m rows of largest weight d' — the
// basic set of a factorisation pivoted by weight — which keeps the steps
// valid block minimisations for Lemma 2 and makes the fixed points KKT
// points; with it the p = 1 problem reaches the optimum certified by an
// independent dual bound to 1e−12 in the tests. When P = XX⁺ the E-step is
// the paper's problem min_{t ≥ 0} ‖D'^{-1/2}(L diag(y_k) t + q_k)‖ in
// t = y_k⊙e_k over the basic rows (q = LY − MU), with the rows sorted by
// weight for a stable QR.
//
// # Zero rows
//
// A row whose norm falls to 10⁻¹² of the largest is set to zero and stays
// zero (its weight is infinite, d_i = 0), as in FOCUSS (Gorodnitsky & Rao
// 1997, which the paper cites; the paper's Π⁺ convention would instead give
// such a row zero weight, which breaks Lemma 2): the U-step gives it
// exactly 0 and the least-distance E-step drops it from the variables; the
// least-squares E-step holds a dead basic row near zero by a weight 10⁶
// times the largest live one (the weighting method, Lawson & Hanson
// ch. 22) and then sets it to 0. For p < 1 this is what makes rows exactly
// zero; for p = 1 the pruned rows are far below the accuracy asked of the
// objective.
//
// The paper gives no stopping rule of its own ("until convergence"); the
// shared relative-change rule (tol) applies. The convergence is linear, so
// for p = 1 the default tol leaves ‖W‖_{2,1} some 1e−5 above the optimum
// (GLIOMA); a smaller tol gets closer. For p = 1 with P = I the multipliers
// λ of the least-distance E-step give a dual point (Λ = −Y⊙λ scaled so that
// every ‖(XᵀΛ)_j‖₂ ≤ 1), hence a lower bound −ΣY⊙Λ on the optimum, and the
// result's certificate reports it (Dual) and the relative duality gap it
// certifies (Gap, Support the rows of W that are not zero). It certifies
// 1e−6 several times later than the iterate gets there; where the
// relative-change rule stops above that gap, an interior-point solve of
// the dual (dsoBarrier) gives a tighter dual value and a feasible primal
// point, which replaces the iterate where it is lower, and where that
// does not certify the iteration goes on with tol divided by 10 until it
// is certified (certifyRounds: within the iteration limit, and while the
// gap keeps falling).
type DSO struct {
	// P is the norm exponent p of ‖W‖_{2,p}, 0 < p ≤ 1 (p = 1 is convex).
	P float64
	// ERows chooses the rows the E-step moves when P = I.
	ERows DSOERows
}

// dsoSolved is the answer of dsoBarrier: a primal point, its objective
// and a dual value.
type dsoSolved struct {
	w            *mat.Dense
	primal, dual float64
}

// DSOERows names the rows moved by the E-step in the full-row-rank case.
type DSOERows int

const (
	DSOHeaviestRows DSOERows = iota // the 2m rows of largest weight (default)
	DSOPivotRows                    // the basic rows of the fixed factorisation (the paper)
)

var dsoERowsNames = []string{"heaviest", "pivots"}

var _ Selector = DSO{}

// Validate checks the parameters.
func (d DSO) Validate() error {
	if !(d.P > 0 && d.P <= 1) {
		return fmt.Errorf("dso: parameter p = %v must be in (0, 1]", d.P)
	}
	if d.ERows < 0 || int(d.ERows) >= len(dsoERowsNames) {
		return fmt.Errorf("dso: unknown E-step rows %d", d.ERows)
	}
	return nil
}

// dsoPrune is the relative row norm below which a row is set to zero.
const dsoPrune = 1e-12

// dsoERows is how many rows, per sample, the E-step moves when it chooses
// them by weight (2m: with m the E-step can stall on nearly dependent rows).
const dsoERows = 2

// dsoFactor is the solution-space parameterisation of Eqs. (7)–(8).
type dsoFactor struct {
	m, n, r, n0 int
	perm        []int      // perm[:r] basic, perm[r:] free columns of X
	mt          *mat.Dense // n₀×r, Mᵀ (row j: the free column j in basic coordinates)
	l           *mat.Dense // r×m, L = R₁₁⁻¹Q₁ᵀ
}

func newDSOFactor(a *mat.Dense) (*dsoFactor, error) {
	m, n := a.Dims()
	qa := mat.DenseCopyOf(a)
	raw := qa.RawMatrix()
	jpvt := make([]int, n)
	for j := range jpvt {
		jpvt[j] = -1
	}
	k := min(m, n)
	tau := make([]float64, k)
	work := make([]float64, 1)
	lapack64.Geqp3(raw, jpvt, tau, work, -1)
	work = make([]float64, max(int(work[0]), 3*n+1))
	lapack64.Geqp3(raw, jpvt, tau, work, len(work))
	r00 := math.Abs(raw.Data[0])
	if r00 == 0 {
		return nil, errors.New("dso: the data matrix is zero")
	}
	rankTol := float64(max(m, n)) * 0x1p-52 * r00
	r := 0
	for r < k && math.Abs(raw.Data[r*raw.Stride+r]) > rankTol {
		r++
	}
	f := &dsoFactor{m: m, n: n, r: r, n0: n - r, perm: jpvt}
	// Q₁ᵀ: the first r rows of Qᵀ, from Qᵀ applied to the identity.
	qt := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		qt.Set(i, i, 1)
	}
	ws := make([]float64, 1)
	lapack64.Ormqr(blas.Left, blas.Trans, raw, tau, qt.RawMatrix(), ws, -1)
	ws = make([]float64, max(int(ws[0]), m))
	lapack64.Ormqr(blas.Left, blas.Trans, raw, tau, qt.RawMatrix(), ws, len(ws))
	r11 := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: r, Stride: raw.Stride, Data: raw.Data}
	f.l = mat.DenseCopyOf(qt.Slice(0, r, 0, m))
	blas64.Trsm(blas.Left, blas.NoTrans, 1, r11, f.l.RawMatrix())
	if f.n0 > 0 {
		m12 := mat.DenseCopyOf(qa.Slice(0, r, r, n))
		blas64.Trsm(blas.Left, blas.NoTrans, 1, r11, m12.RawMatrix())
		f.mt = mat.DenseCopyOf(m12.T())
	}
	return f, nil
}

// dsoRun holds the state of one fit.
type dsoRun struct {
	f           *dsoFactor
	p           float64
	a           *mat.Dense // m×N design
	at          *mat.Dense // N×m, Xᵀ (one column of X per contiguous row)
	y           *mat.Dense // m×c, Ypm
	c           int
	ly          *mat.Dense // r×c, N = LY
	fullRowRank bool

	wb, u *mat.Dense // basic rows (r×c) and free rows (n₀×c) of W, in pivot order
	k     *mat.Dense // r×c, K = L(Y + E)
	e     *mat.Dense // m×c, E (least-squares regime)
	d     []float64  // inverse weights in pivot order (basic, then free)

	lambda *mat.Dense // m×c, multipliers of the margins from the last E-step (P = I)

	nnls []*nnlsSolver // one per class
	warm [][]float64   // NNLS warm starts per class

	forceEq    int  // tests: 12 or 13 forces that form of the U-step
	fixedBasis bool // E-step on the basic rows of the fixed factorisation (the paper's choice)
	eSize      int  // rows the E-step moves when chosen by weight
}

// rowNorm returns ‖w^i‖₂ of the row in pivot position i.
func (s *dsoRun) rowNorm(i int) float64 {
	if i < s.f.r {
		return sparse.L2(s.wb.RawRowView(i))
	}
	return sparse.L2(s.u.RawRowView(i - s.f.r))
}

// weights sets s.d from the current W: d_i = ‖w^i‖^{2−p}, and 0 for rows
// at or below dsoPrune of the largest, which it sets to zero. It returns
// Σ_i ‖w^i‖^p.
func (s *dsoRun) weights() float64 {
	big := 0.0
	for i := range s.d {
		big = math.Max(big, s.rowNorm(i))
	}
	sum := 0.0
	for i := range s.d {
		nrm := s.rowNorm(i)
		if nrm <= dsoPrune*big || nrm == 0 {
			s.d[i] = 0
			if i < s.f.r {
				clear(s.wb.RawRowView(i))
			} else {
				clear(s.u.RawRowView(i - s.f.r))
			}
			continue
		}
		if s.p == 1 {
			s.d[i] = nrm
			sum += nrm
		} else {
			s.d[i] = math.Pow(nrm, 2-s.p)
			sum += math.Pow(nrm, s.p)
		}
	}
	return sum
}

// weighted returns Σ_i ‖v^i‖²/d_i over the rows with d_i > 0 (rows with
// d_i = 0 must be zero; a nonzero one gives +Inf).
func (s *dsoRun) weighted(wb, u *mat.Dense) float64 {
	sum := 0.0
	for i, di := range s.d {
		var row []float64
		if i < s.f.r {
			row = wb.RawRowView(i)
		} else {
			row = u.RawRowView(i - s.f.r)
		}
		sq := 0.0
		for _, v := range row {
			sq += v * v
		}
		if di == 0 {
			if sq != 0 {
				return math.Inf(1)
			}
			continue
		}
		sum += sq / di
	}
	return sum
}

// objective returns ‖W‖_{2,p}.
func (s *dsoRun) objective() float64 {
	sum := sparse.RowsL2p(s.wb.RawMatrix().Data, s.c, s.p) + sparse.RowsL2p(s.u.RawMatrix().Data, s.c, s.p)
	if s.p == 1 {
		return sum
	}
	return math.Pow(sum, 1/s.p)
}

// addMU adds M·U to dst (r×c), visiting the nonzero rows of U only.
func (s *dsoRun) addMU(dst, u *mat.Dense, sign float64) {
	for j := 0; j < s.f.n0; j++ {
		uj := u.RawRowView(j)
		if sparse.L1(uj) == 0 {
			continue
		}
		mj := s.f.mt.RawRowView(j)
		for i, mv := range mj {
			if mv == 0 {
				continue
			}
			row := dst.RawRowView(i)
			for k, v := range uj {
				row[k] += sign * mv * v
			}
		}
	}
}

// uStep minimises the weighted norm over U with K fixed (Eqs. 11–14) and
// returns the new basic and free rows; ok is false if the system could not
// be solved.
func (s *dsoRun) uStep() (wb, u *mat.Dense, ok bool) {
	f := s.f
	r, n0, c := f.r, f.n0, s.c
	wb, u = mat.NewDense(r, c, nil), mat.NewDense(max(n0, 1), c, nil)
	if n0 == 0 {
		wb.Copy(s.k)
		return wb, u, true
	}
	var alive []int
	for j := 0; j < n0; j++ {
		if s.d[r+j] > 0 {
			alive = append(alive, j)
		}
	}
	basicAlive := true
	for i := 0; i < r; i++ {
		basicAlive = basicAlive && s.d[i] > 0
	}
	useEq12 := len(alive) <= r && basicAlive && len(alive) > 0
	if s.forceEq != 0 {
		useEq12 = s.forceEq == 12 && basicAlive && len(alive) > 0
	}
	if useEq12 {
		// Eq. (12) on the live free rows: (MᵀS_B M + S_F)U = MᵀS_B K.
		na := len(alive)
		ms := mat.NewDense(r, na, nil) // S_B^{1/2} M restricted to the live columns
		for a, j := range alive {
			mj := f.mt.RawRowView(j)
			for i := 0; i < r; i++ {
				ms.Set(i, a, mj[i]/math.Sqrt(s.d[i]))
			}
		}
		h := mat.NewSymDense(na, nil)
		h.SymOuterK(1, ms.T())
		for a, j := range alive {
			h.SetSym(a, a, h.At(a, a)+1/s.d[r+j])
		}
		sk := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			for k := 0; k < c; k++ {
				sk.Set(i, k, s.k.At(i, k)/math.Sqrt(s.d[i]))
			}
		}
		rhs := mat.NewDense(na, c, nil)
		rhs.Mul(ms.T(), sk)
		var ch mat.Cholesky
		if !ch.Factorize(h) {
			return nil, nil, false
		}
		sol := mat.NewDense(na, c, nil)
		if err := ch.SolveTo(sol, rhs); err != nil {
			return nil, nil, false
		}
		for a, j := range alive {
			u.SetRow(j, sol.RawRowView(a))
		}
		wb.Copy(s.k)
		s.addMU(wb, u, -1)
		return wb, u, true
	}
	// Eq. (13)–(14): H = M D_F Mᵀ + D_B (r×r), C = H⁻¹K, W_B = D_B C
	// (= K − MU) and U = D_F MᵀC. mta holds the rows of Mᵀ of the live free
	// rows, da their weights D_F.
	na := len(alive)
	mta := linalg.General{Rows: na, Cols: r, Stride: r, Data: make([]float64, na*r)}
	da := make([]float64, na)
	for a, j := range alive {
		copy(mta.Data[a*r:(a+1)*r], f.mt.RawRowView(j))
		da[a] = s.d[r+j]
	}
	h := mat.NewSymDense(r, nil)
	hs := h.RawSymmetric()
	if na > 0 {
		// M D_F Mᵀ = (Mᵀ)ᵀ D_F Mᵀ over the live rows.
		linalg.AtDA(1, mta, da, 0, linalg.General{Rows: r, Cols: r, Stride: hs.Stride, Data: hs.Data})
	}
	for i := 0; i < r; i++ {
		h.SetSym(i, i, h.At(i, i)+s.d[i])
	}
	cm := mat.NewDense(r, c, nil)
	if !solvePSD(h, cm, s.k) {
		return nil, nil, false
	}
	for i := 0; i < r; i++ {
		row := wb.RawRowView(i)
		for k, v := range cm.RawRowView(i) {
			row[k] = s.d[i] * v
		}
	}
	if na > 0 {
		// U = D_F Mᵀ C on the live rows.
		mc := linalg.General{Rows: na, Cols: c, Stride: c, Data: make([]float64, na*c)}
		linalg.Gemm(false, false, 1, mta, cm.RawMatrix(), 0, mc)
		for a, j := range alive {
			row := u.RawRowView(j)
			for k, v := range mc.Data[a*c : (a+1)*c] {
				row[k] = da[a] * v
			}
		}
	}
	return wb, u, true
}

// solvePSD sets x to a solution of the consistent system Hx = b with H
// symmetric positive semidefinite, by Cholesky factorisation with
// symmetric pivoting (LAPACK's dpstrf): with PᵀHP = UᵀU, U = [U₁₁ U₁₂]
// of numerical rank k, x = P[U₁₁⁻¹U₁₁⁻ᵀ(Pᵀb)₁; 0]. When H is singular
// (rows of W at zero can make it so) every solution gives the same W in
// the U-step, since the null vectors of H are annihilated by D_B and
// D_F Mᵀ. It returns false if H is zero.
func solvePSD(h *mat.SymDense, x, b *mat.Dense) bool {
	n := h.SymmetricDim()
	_, c := b.Dims()
	hs := h.RawSymmetric()
	piv := make([]int, n)
	t, rank, _ := lapack64.Pstrf(hs, piv, -1, make([]float64, 2*n))
	if rank == 0 {
		return false
	}
	// y = (Pᵀb)₁, solved with U₁₁ᵀ then U₁₁.
	y := mat.NewDense(rank, c, nil)
	for a := 0; a < rank; a++ {
		y.SetRow(a, b.RawRowView(piv[a]))
	}
	u11 := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: rank, Stride: t.Stride, Data: t.Data}
	blas64.Trsm(blas.Left, blas.Trans, 1, u11, y.RawMatrix())
	blas64.Trsm(blas.Left, blas.NoTrans, 1, u11, y.RawMatrix())
	x.Zero()
	for a := 0; a < rank; a++ {
		x.SetRow(piv[a], y.RawRowView(a))
	}
	return true
}

// freeProduct sets dst (m×c) = X_F U over the nonzero rows of U.
func (s *dsoRun) freeProduct(dst, u *mat.Dense) {
	dst.Zero()
	for j := 0; j < s.f.n0; j++ {
		uj := u.RawRowView(j)
		if sparse.L1(uj) == 0 {
			continue
		}
		col := s.at.RawRowView(s.f.perm[s.f.r+j])
		for i, x := range col {
			if x == 0 {
				continue
			}
			row := dst.RawRowView(i)
			for k, v := range uj {
				row[k] += x * v
			}
		}
	}
}

// eRows returns the rows the E-step moves (pivot-order indices), all with
// d > 0: the m live rows of largest weight d (ties by lower index), or the
// live basic rows of the fixed factorisation when fixedBasis is set.
func (s *dsoRun) eRows() []int {
	var rows []int
	if s.fixedBasis {
		for i := 0; i < s.f.r; i++ {
			if s.d[i] > 0 {
				rows = append(rows, i)
			}
		}
		return rows
	}
	for i, d := range s.d {
		if d > 0 {
			rows = append(rows, i)
		}
	}
	slices.SortStableFunc(rows, func(a, b int) int { return cmp.Compare(s.d[b], s.d[a]) })
	if len(rows) > s.eSize {
		rows = rows[:s.eSize]
	}
	slices.Sort(rows)
	return rows
}

// row returns the row of W in pivot position i from wb and u.
func (s *dsoRun) row(wb, u *mat.Dense, i int) []float64 {
	if i < s.f.r {
		return wb.RawRowView(i)
	}
	return u.RawRowView(i - s.f.r)
}

// eStepMargins solves the E-step when P = I as least-distance problems,
// one per class: with the rows S of eRows moving and the others fixed,
// min ‖z‖ s.t. y_k⊙(X_S D_S^{1/2} z + X_{∖S} w_k) ≥ 1, W_S = D_S^{1/2}z.
// It returns the new W (basic and free rows) and false if a problem
// failed.
func (s *dsoRun) eStepMargins() (wb, u *mat.Dense, ok bool) {
	f := s.f
	m, c := f.m, s.c
	sel := s.eRows()
	in := make([]bool, f.n)
	for _, i := range sel {
		in[i] = true
	}
	// X_{∖S} W_{∖S} over the nonzero rows.
	rest := mat.NewDense(m, c, nil)
	for i := 0; i < f.n; i++ {
		w := s.row(s.wb, s.u, i)
		if in[i] || sparse.L1(w) == 0 {
			continue
		}
		for l, x := range s.at.RawRowView(f.perm[i]) {
			if x == 0 {
				continue
			}
			row := rest.RawRowView(l)
			for k, v := range w {
				row[k] += x * v
			}
		}
	}
	wb, u = mat.DenseCopyOf(s.wb), mat.DenseCopyOf(s.u)
	for _, i := range sel {
		clear(s.row(wb, u, i))
	}
	nl := len(sel)
	g := mat.NewDense(m, max(nl, 1), nil)
	h := make([]float64, m)
	z := make([]float64, max(nl, 1))
	e := mat.NewDense(nl+1, m, nil)
	if s.nnls == nil {
		s.nnls = make([]*nnlsSolver, c)
		s.warm = make([][]float64, c)
	}
	for k := 0; k < c; k++ {
		for l := 0; l < m; l++ {
			h[l] = 1 - s.y.At(l, k)*rest.At(l, k)
		}
		if nl == 0 {
			for _, v := range h {
				if v > 0 {
					return nil, nil, false
				}
			}
			continue
		}
		gd := g.RawMatrix()
		for a, i := range sel {
			col := s.at.RawRowView(f.perm[i])
			sq := math.Sqrt(s.d[i])
			for l, x := range col {
				gd.Data[l*gd.Stride+a] = s.y.At(l, k) * x * sq
			}
		}
		if s.nnls[k] == nil || s.nnls[k].k != nl+1 {
			s.nnls[k] = newNNLS(nl+1, m)
		}
		if s.warm[k] == nil {
			s.warm[k] = make([]float64, m)
		}
		if !ldp(s.nnls[k], e, g.Slice(0, m, 0, nl).(*mat.Dense), h, z[:nl], s.warm[k]) {
			return nil, nil, false
		}
		for a, i := range sel {
			s.row(wb, u, i)[k] = math.Sqrt(s.d[i]) * z[a]
		}
		// The multipliers of the margin constraints, λ = u/(1 − hᵀu).
		hu := 0.0
		for l, x := range s.warm[k] {
			hu += h[l] * x
		}
		for l, x := range s.warm[k] {
			s.lambda.Set(l, k, x/(1-hu))
		}
	}
	return wb, u, true
}

// marginsLowerBound returns a lower bound on the optimum of the p = 1
// problem with P = I from the E-step's multipliers λ: for any Λ with
// Y⊙Λ ≤ 0 and ‖(XᵀΛ)_j‖₂ ≤ 1 for every j, weak duality gives
// Σ_j ‖w^j‖₂ ≥ −Σ Y⊙Λ at every feasible W. Λ = −Y⊙λ/s, with s the largest
// row norm of Xᵀ(Y⊙λ) (at least 1), is such a point; at the optimum of
// the reweighted problem w^j/‖w^j‖ = x_jᵀ(Y⊙λ) on the support, so s → 1 and
// the bound → the optimum.
func (s *dsoRun) marginsLowerBound() float64 {
	m, c := s.f.m, s.c
	yl := mat.NewDense(m, c, nil)
	sum := 0.0
	for i := 0; i < m; i++ {
		for k := 0; k < c; k++ {
			l := s.lambda.At(i, k)
			yl.Set(i, k, s.y.At(i, k)*l)
			sum += l
		}
	}
	xl := mat.NewDense(s.f.n, c, nil)
	xl.Mul(s.at, yl)
	big := 1.0
	for j := 0; j < s.f.n; j++ {
		big = math.Max(big, sparse.L2(xl.RawRowView(j)))
	}
	return sum / big
}

// eStepLeastSquares solves the E-step when P = XX⁺: per class, NNLS in
// t = y_k⊙e_k ≥ 0 of the weighted residual of W_B = L(y_k + diag(y_k)t) −
// (MU)_k. Dead basic rows carry a weight 10⁶ times the largest live one
// and are set to zero afterwards.
func (s *dsoRun) eStepLeastSquares(wb, u *mat.Dense) bool {
	f := s.f
	m, r, c := f.m, f.r, s.c
	q := mat.DenseCopyOf(s.ly)
	if f.n0 > 0 {
		s.addMU(q, u, -1)
	}
	omega := make([]float64, r)
	big := 0.0
	for i := 0; i < r; i++ {
		if s.d[i] > 0 {
			omega[i] = 1 / math.Sqrt(s.d[i])
			big = math.Max(big, omega[i])
		}
	}
	if big == 0 {
		big = 1
	}
	for i := range omega {
		if s.d[i] == 0 {
			omega[i] = 1e6 * big
		}
	}
	if s.nnls == nil {
		s.nnls = make([]*nnlsSolver, c)
		s.warm = make([][]float64, c)
	}
	// Rows in decreasing order of weight: Householder QR of a matrix with
	// rows of very different scales is row-wise stable when the rows are
	// so sorted (Cox & Higham, BIT 1998).
	order := make([]int, r)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(omega[b], omega[a]) })
	em := mat.NewDense(r, m, nil)
	rhs := make([]float64, r)
	for k := 0; k < c; k++ {
		for a, i := range order {
			lrow := s.f.l.RawRowView(i)
			row := em.RawRowView(a)
			for j := 0; j < m; j++ {
				row[j] = omega[i] * lrow[j] * s.y.At(j, k)
			}
			rhs[a] = -omega[i] * q.At(i, k)
		}
		if s.nnls[k] == nil {
			s.nnls[k] = newNNLS(r, m)
			s.warm[k] = make([]float64, m)
		}
		t := s.warm[k]
		if !s.nnls[k].solve(em, rhs, t) {
			return false
		}
		for j := 0; j < m; j++ {
			s.e.Set(j, k, s.y.At(j, k)*t[j])
		}
	}
	// W_B = L(Y + E) − MU with the dead rows set to zero, and K = W_B + MU
	// to match (so that the next U-step starts from a point of its own
	// solution space).
	wb.Mul(s.f.l, s.e)
	wb.Add(wb, q)
	for i := 0; i < r; i++ {
		if s.d[i] == 0 {
			for k := 0; k < c; k++ {
				wb.Set(i, k, 0)
			}
		}
	}
	s.k.Copy(wb)
	if f.n0 > 0 {
		s.addMU(s.k, u, 1)
	}
	return true
}

// Fit runs Algorithm 1 on p.
func (d DSO) Fit(ctx context.Context, p *Problem, st *Settings) (*Result, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Coding == OneHot {
		return nil, errors.New("dso: the sign constraints Y⊙E ≥ 0 need the ±1 coding (ypm), not y01")
	}
	if err := p.CheckMemory("dso", p.embeddedNeeds(2, p.bySamples("the orthogonal factor Qᵀ", 1))...); err != nil {
		return nil, err
	}
	a := p.Design()
	y := p.Response(PlusMinus)
	m, n := a.Dims()
	_, c := y.Dims()
	f, err := newDSOFactor(a)
	if err != nil {
		return nil, err
	}
	s := &dsoRun{f: f, p: d.P, a: a, at: mat.DenseCopyOf(a.T()), y: y, c: c, fullRowRank: f.r == m,
		wb: mat.NewDense(f.r, c, nil), u: mat.NewDense(max(f.n0, 1), c, nil),
		e: mat.NewDense(m, c, nil), d: make([]float64, n), lambda: mat.NewDense(m, c, nil)}
	s.eSize = dsoERows * m
	s.fixedBasis = d.ERows == DSOPivotRows
	s.ly = mat.NewDense(f.r, c, nil)
	s.ly.Mul(f.l, y)
	s.k = mat.DenseCopyOf(s.ly) // E₀ = 0
	for i := range s.d {
		s.d[i] = 1 // Σ₀ = I
	}
	var notes []string
	if s.fullRowRank {
		notes = append(notes, fmt.Sprintf("X has full row rank (%d ≤ %d design columns): P = I, margin constraints Y⊙XW ≥ 1", m, n))
	} else {
		notes = append(notes, fmt.Sprintf("X (%d×%d) has rank %d < %d samples: P = XX⁺, the least-squares solution space", m, n, f.r, m))
	}
	skipped, lastOK := 0, false
	step := func(k int) (float64, Status, error) {
		// The weights of the previous W (Σ_k); on the first iteration the
		// identity.
		var current float64
		if k > 1 {
			current = s.weights()
		} else {
			current = math.Inf(1)
		}
		// The last W that met the constraints (restored if the E-step
		// fails, so that the returned W always meets them).
		wbPrev, uPrev := mat.DenseCopyOf(s.wb), mat.DenseCopyOf(s.u)
		// U-step.
		if f.n0 > 0 {
			wb, u, ok := s.uStep()
			if ok && s.weighted(wb, u) <= current*(1+1e-12) {
				s.wb, s.u = wb, u
			} else {
				skipped++
			}
		} else {
			s.wb.Copy(s.k)
		}
		// E-step with the weights of V (Λ_k).
		current = s.weights()
		var ok bool
		if s.fullRowRank {
			var wb, u *mat.Dense
			wb, u, ok = s.eStepMargins()
			if ok && s.weighted(wb, u) <= current*(1+1e-12) {
				s.wb, s.u = wb, u
				// K = L(Y + E) = LXW = W_B + MW_F.
				s.k.Copy(s.wb)
				s.addMU(s.k, s.u, 1)
			} else {
				ok = false
				if k > 1 {
					s.wb, s.u = wbPrev, uPrev
					s.k.Copy(s.wb)
					s.addMU(s.k, s.u, 1)
				}
			}
		} else {
			wb := mat.NewDense(f.r, c, nil)
			eSave := mat.DenseCopyOf(s.e)
			kSave := mat.DenseCopyOf(s.k)
			ok = s.eStepLeastSquares(wb, s.u)
			if ok && s.weighted(wb, s.u) <= current*(1+1e-12) {
				s.wb = wb
			} else {
				s.e, s.k = eSave, kSave
				ok = false
			}
		}
		if !ok {
			skipped++
		}
		lastOK = ok
		return s.objective(), NotTerminated, nil
	}
	run, err := Iterate(ctx, st, step)
	if err != nil && run.Iterations == 0 {
		return nil, err
	}
	// For p = 1 with P = I, where the multipliers' gap is above certGap:
	// the interior-point solve (dsoBarrier), and where it does not certify
	// (or cannot run), the certified stop: tol divided by 10 at each round
	// until the multipliers' gap is at most certGap (certifyRounds).
	var barrier *dsoSolved
	if d.P == 1 && s.fullRowRank && err == nil && lastOK && run.Objective > 0 {
		if dual := s.marginsLowerBound(); (run.Objective-dual)/run.Objective > certGap {
			if bw, primal, bdual, ok := dsoBarrier(ctx, s.at, y, s.lambda, run.Objective, st.certifying(run.Iterations, run.Objective)); ok {
				barrier = &dsoSolved{w: bw, primal: primal, dual: bdual}
			}
		}
	}
	if d.P == 1 && s.fullRowRank && err == nil && (barrier == nil || barrier.primal-barrier.dual > certGap*barrier.primal) {
		tol := st.tol()
		tighten := func() (float64, bool) {
			if tol <= certTolMin {
				return 0, false
			}
			tol = math.Max(tol/10, certTolMin)
			return tol, true
		}
		gap := func() float64 {
			obj := s.objective()
			if !lastOK || !(obj > 0) {
				return 0 // no certificate to be had
			}
			return (obj - s.marginsLowerBound()) / obj
		}
		run, err = certifyRounds(ctx, st, run, certStall, tighten, step, gap)
	}
	w := mat.NewDense(n, c, nil)
	for i := 0; i < f.r; i++ {
		w.SetRow(f.perm[i], s.wb.RawRowView(i))
	}
	for j := 0; j < f.n0; j++ {
		w.SetRow(f.perm[f.r+j], s.u.RawRowView(j))
	}
	// The interior-point solve's primal point replaces the iterate where
	// its objective is the lower; the certificate takes the higher of the
	// two dual values.
	var solved *Certificate
	if barrier != nil && lastOK && run.Objective > 0 {
		dual := math.Max(barrier.dual, s.marginsLowerBound())
		polished := barrier.primal < run.Objective
		if polished {
			w, run = barrier.w, polishedRun(run, barrier.primal)
			if run.Status == IterationLimit && run.Objective-dual <= certGap*run.Objective {
				run.Status = Converged
			}
		}
		solved = &Certificate{Gap: (run.Objective - dual) / run.Objective, Dual: dual, Polished: polished}
	}
	res := EmbeddedResult(w, p.X.RawMatrix().Cols, run)
	if !s.fullRowRank {
		// W = [LY; 0] is the point of the solution space with E = 0.
		ref := sparse.RowsL2p(s.ly.RawMatrix().Data, c, d.P)
		if d.P != 1 {
			ref = math.Pow(ref, 1/d.P)
		}
		if res.Objective <= 1e-6*ref {
			notes = append(notes, "‖W‖ collapsed towards 0: some Y + E with Y⊙E ≥ 0 is (nearly) orthogonal to every column of X, which the least-squares solution space P = XX⁺ allows when there are many more samples than features; the ranking is then not meaningful — use a regularised method (rfs, gsr, exl21) on such data")
		}
	}
	if solved != nil {
		solved.Support = NonzeroRows(res.Scores, SparsityTol)
		res.Certificate = solved
	} else if d.P == 1 && s.fullRowRank && lastOK && run.Iterations > 0 && run.Objective > 0 {
		dual := s.marginsLowerBound()
		res.Certificate = &Certificate{Gap: (run.Objective - dual) / run.Objective, Dual: dual, Support: NonzeroRows(res.Scores, SparsityTol)}
	}
	if d.P == 1 {
		// Without full row rank (P = XX⁺) there is no certificate: the
		// dual's sign constraints on PΛ leave no point that is cheap to
		// make feasible. The status and a note say so.
		res.Status = uncertified("dso", res.Certificate, run.Objective, res.Status, &notes)
	}
	if skipped > 0 {
		notes = append(notes, fmt.Sprintf("%d step(s) not taken because in floating point they would have raised the weighted objective (the guard that keeps the trace monotone)", skipped))
	}
	res.Notes = notes
	return res, err
}

func init() {
	Register(&Spec{
		Name:  "dso",
		Title: "Direct sparsity optimisation (DSO-FS)",
		Doc:   "minimise ‖W‖_{2,p} subject to large-margin data-fitting constraints, no regularisation weight",
		Paper: "Peng & Fan, Direct sparsity optimization based feature selection for multi-class classification, IJCAI 2016 (Eqs. 5–9, Alg. 1)",
		Kind:  Embedded,
		Params: []Param{
			{Name: "p", Default: 0.5, Min: 0, Max: 1, MinOpen: true, Doc: "exponent p of ‖W‖_{2,p} (p < 1 is sparser and non-convex; p = 1 is convex)"},
			{Name: "e_rows", Default: float64(DSOHeaviestRows), Choices: dsoERowsNames,
				Doc: "rows the E-step moves when X has full row rank: heaviest (the 2m of largest weight, default; reaches the optimum) or pivots (the paper's basic rows; can stall)"},
		},
		New: func(p Params) (Selector, error) {
			d := DSO{P: p["p"], ERows: DSOERows(p["e_rows"])}
			return d, d.Validate()
		},
	})
}
