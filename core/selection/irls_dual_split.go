package selection

import (
	"math"

	"sparsefs/core/linalg"
)

// r1Split solves barrierR1's Newton systems without forming their
// (mc)×(mc) Hessian, for data with many samples (madelon: m = 2600, c = 2,
// 5200 unknowns). In Θ's entries row by row the Hessian is
//
//	H = D + A·B·Aᵀ,   A = Z_K ⊗ I_c (mc × |K|c),
//	D = blockdiag_i((2/rᵢ)I + (4/rᵢ²)θᵢθᵢᵀ),   rᵢ = 1 − ‖θᵢ‖²,
//	B = blockdiag_{j∈K}((2/sⱼ)I + (4/sⱼ²)vⱼvⱼᵀ),   sⱼ = λ² − ‖vⱼ‖²,
//
// (the balls' blocks, and the features' terms of featureTerms), so by the
// Sherman–Morrison–Woodbury identity
//
//	H⁻¹g = D⁻¹(g − A·y),   (B⁻¹ + AᵀD⁻¹A)·y = AᵀD⁻¹g,
//
// a system of |K|c unknowns. The c×c blocks are inverted in closed form,
// Dᵢ⁻¹ = (rᵢ/2)I − θᵢθᵢᵀ/(1 + 2‖θᵢ‖²/rᵢ) and Bⱼ⁻¹ = (sⱼ/2)I −
// vⱼvⱼᵀ/(1 + 2‖vⱼ‖²/sⱼ) (Sherman–Morrison), and AᵀD⁻¹A =
// Σᵢ (zᵢzᵢᵀ) ⊗ Dᵢ⁻¹ (zᵢᵀ the i-th row of Z_K) is made by blockGram;
// the system is scaled to unit diagonal before its
// Cholesky factorisation (the rows of W on their constraint contribute
// sⱼ/2 → 0, the rows of exact fit O(m)), and the step refined as the
// solution of the augmented system (solveRefined). A step costs
// r1SplitWork against the formed system's formedWork: on madelon
// (|K| = 501) about 1.5·10⁹ against 5·10¹⁰.
type r1Split struct {
	feat             barrierWork // the gradient's feature terms and Z_Kᵀ
	wt, gram, cap, y []float64
	u, ay            []float64
	// solveRefined's residuals (r, q) and corrections (cdx, cy).
	r, q, cdx, cy []float64
	sc            []float64 // the capacitance's scaling to unit diagonal
	// The system last factorised (factor) and its point.
	k        []int
	v        func(j int) []float64
	lam2     float64
	m, c     int
	th       []float64
	zk, capm linalg.General
}

// r1SplitMaxUnknowns bounds |K|c, the order of r1Split's system (16·10⁶
// float64s, 128 MB, at the bound).
const r1SplitMaxUnknowns = 4000

// r1SplitRefine bounds the rounds of iterative refinement of a step.
const r1SplitRefine = 5

// r1SplitWork estimates the multiply-adds of one of r1Split's Newton steps
// on m samples, c classes and nk features in K.
func r1SplitWork(m, c, nk int) float64 {
	fm, fc, fk := float64(m), float64(c), float64(nk)
	return fc*(fc+1)/2*fm*fk*fk/2 + fk*fk*fk*fc*fc*fc/3 + 3*fk*fk*fc*fc + 10*fm*fk*fc
}

// direction sets dx to the Newton step H⁻¹g of barrierR1's ψ_t at Θ = th
// (m×c, row by row), where g holds the gradient without the features'
// terms, which direction adds (barrierWork.gradient); k lists the rows of
// W in K, z(j) is z_j (m entries), v(j) is v_j = (ZᵀΘ)ʲ (c entries) and
// lam2 is λ². It reports false where the system could not be factorised.
func (d *r1Split) direction(k []int, z, v func(j int) []float64, lam2 float64, m, c int, th, g, dx []float64) bool {
	if !d.factor(k, z, v, lam2, m, c, th, g) {
		return false
	}
	d.solveRefined(g, dx)
	return true
}

// factor adds the features' terms to the gradient g (see direction) and
// forms and factorises B⁻¹ + AᵀD⁻¹A at Θ = th, for solveRefined.
func (d *r1Split) factor(k []int, z, v func(j int) []float64, lam2 float64, m, c int, th, g []float64) bool {
	nk := len(k)
	nc := nk * c
	d.feat.gradient(k, z, v, lam2, m, c, g)
	zk := gen(nk, m, d.feat.zk[:nk*m])
	d.wt, d.gram, d.cap = grow(d.wt, m), grow(d.gram, nk*nk), grow(d.cap, nc*nc)
	d.y, d.u, d.ay = grow(d.y, nc), grow(d.u, m*c), grow(d.ay, m*c)
	d.r, d.q, d.cdx, d.cy = grow(d.r, m*c), grow(d.q, nc), grow(d.cdx, m*c), grow(d.cy, nc)
	capm := gen(nc, nc, d.cap[:nc*nc])
	gram := gen(nk, nk, d.gram[:nk*nk])
	block := func(i, p, q int) float64 {
		ti := th[i*c : (i+1)*c]
		n2 := norm2(ti)
		half, f := invBlock(n2, 1-n2)
		w := -ti[p] * ti[q] * f
		if p == q {
			w += half
		}
		return w
	}
	blockGram(false, zk, c, block, d.wt, gram, capm)
	for a, j := range k {
		vj := v(j)
		n2 := norm2(vj)
		half, f := invBlock(n2, lam2-n2)
		for p := 0; p < c; p++ {
			for q := 0; q < c; q++ {
				x := -vj[p] * vj[q] * f
				if p == q {
					x += half
				}
				capm.Data[(a*c+p)*nc+a*c+q] += x
			}
		}
	}
	// Scaled to unit diagonal before the factorisation: the features on
	// their constraint contribute sⱼ/2 → 0 where the rows of exact fit
	// contribute O(m).
	d.sc = grow(d.sc, nc)
	for a := 0; a < nc; a++ {
		d.sc[a] = 1 / math.Sqrt(capm.Data[a*nc+a])
	}
	for a := 0; a < nc; a++ {
		row := capm.Data[a*nc : (a+1)*nc]
		for b := range row {
			row[b] *= d.sc[a] * d.sc[b]
		}
	}
	d.k, d.v, d.lam2, d.m, d.c, d.th, d.zk, d.capm = k, v, lam2, m, c, th, zk, capm
	return cholShifted(capm)
}

// solveRefined sets dx = H⁻¹g for the system of the last factor, as the
// solution (dx, y) of the augmented system
//
//	D·dx + A·y = g,   Aᵀ·dx − B⁻¹·y = 0,
//
// then refined in that form while its residuals fall fourfold (at most
// r1SplitRefine rounds). Refined against H itself, the capacitance
// solve's residual r would come back multiplied by B (H·dx − g = A·B·r),
// of order 1/sⱼ² on the rows on their constraint, and the rounds
// diverged there (madelon beyond t ≈ 5·10⁶).
func (d *r1Split) solveRefined(g, dx []float64) {
	m, c, nk := d.m, d.c, len(d.k)
	y := d.y[:nk*c]
	d.solve(g, nil, dx, y)
	r, q := d.r[:m*c], d.q[:nk*c]
	cdx, cy := d.cdx[:m*c], d.cy[:nk*c]
	last := math.Inf(1)
	for range r1SplitRefine {
		// r = g − D·dx − A·y, q = B⁻¹·y − Aᵀ·dx.
		thinMulT(d.zk, y, r, c)
		d.dApply(dx, cdx)
		for i := range r {
			r[i] = g[i] - r[i] - cdx[i]
		}
		thinMul(d.zk, dx, q, c)
		d.bInv(y, cy)
		for i := range q {
			q[i] = cy[i] - q[i]
		}
		res := norm2(r) + norm2(q)
		if res >= last/4 || res <= sq(1e-15)*norm2(g) {
			break
		}
		last = res
		d.solve(r, q, cdx, cy)
		for i := range cdx {
			dx[i] += cdx[i]
		}
		for i := range cy {
			y[i] += cy[i]
		}
	}
}

// solve sets (dx, y) to the solution of D·dx + A·y = r, Aᵀ·dx − B⁻¹·y =
// q (q nil for zero) by the identity: y = C⁻¹(AᵀD⁻¹r − q), dx =
// D⁻¹(r − A·y), C = B⁻¹ + AᵀD⁻¹A (its factor, scaled, in d.capm).
func (d *r1Split) solve(r, q, dx, y []float64) {
	m, c := d.m, d.c
	u := d.u[:m*c]
	d.dInv(r, u)
	thinMul(d.zk, u, y, c)
	for a := range y {
		if q != nil {
			y[a] -= q[a]
		}
		y[a] *= d.sc[a]
	}
	linalg.CholeskySolve(d.capm, gen(len(y), 1, y))
	for a := range y {
		y[a] *= d.sc[a]
	}
	ay := d.ay[:m*c]
	thinMulT(d.zk, y, ay, c)
	for i := range ay {
		ay[i] = r[i] - ay[i]
	}
	d.dInv(ay, dx)
}

// invBlock returns the inverse of a block (2/s)I + (4/s²)uuᵀ of D or B
// (s the slack of u's constraint, n2 = ‖u‖²) by Sherman–Morrison, as
// half·I − f·uuᵀ: half = s/2, f = 1/(1 + 2n2/s).
func invBlock(n2, s float64) (half, f float64) {
	return s / 2, 1 / (1 + 2*n2/s)
}

// invBlockMul sets out = (half·I − f·uuᵀ)x for the block of u with slack s
// (see invBlock).
func invBlockMul(u []float64, s float64, x, out []float64) {
	half, f := invBlock(norm2(u), s)
	f *= dotf(u, x)
	for p, t := range u {
		out[p] = half*x[p] - f*t
	}
}

// dInv sets out = D⁻¹x (out may be x).
func (d *r1Split) dInv(x, out []float64) {
	c := d.c
	for i := 0; i < d.m; i++ {
		ti := d.th[i*c : (i+1)*c]
		invBlockMul(ti, 1-norm2(ti), x[i*c:(i+1)*c], out[i*c:(i+1)*c])
	}
}

// dApply sets out = D·x: Dᵢ = (2/rᵢ)I + (4/rᵢ²)θᵢθᵢᵀ (ballProduct).
func (d *r1Split) dApply(x, out []float64) {
	clear(out[:d.m*d.c])
	ballProduct(d.th, d.m, d.c, x, out)
}

// bInv sets out = B⁻¹y.
func (d *r1Split) bInv(y, out []float64) {
	c := d.c
	for a, j := range d.k {
		vj := d.v(j)
		invBlockMul(vj, d.lam2-norm2(vj), y[a*c:(a+1)*c], out[a*c:(a+1)*c])
	}
}

// thinMul sets out = A·X for A (k×m) and X (m×c, c small), thinMulT
// out = Aᵀ·X for X (k×c): core/linalg's products, which read A in place
// for so few columns (packing it had cost r1Split four times its
// arithmetic with c = 2).
func thinMul(a linalg.General, x, out []float64, c int) {
	linalg.Gemm(false, false, 1, a, gen(a.Cols, c, x), 0, gen(a.Rows, c, out))
}

func thinMulT(a linalg.General, x, out []float64, c int) {
	linalg.Gemm(true, false, 1, a, gen(a.Rows, c, x), 0, gen(a.Cols, c, out))
}
