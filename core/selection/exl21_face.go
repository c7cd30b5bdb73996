package selection

import (
	"context"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
	"sparsefs/core/sparse"
)

// Newton's method on the face of the exclusive ℓ2,1 model (exl21 with
// α > 0, β > 0).
//
// Where the entries W_jk that are nonzero keep their signs s_jk and the
// others stay zero, the row penalty α‖wʲ‖₂ + β‖wʲ‖₁² is smooth —
// ‖wʲ‖₁ = Σ_k s_jk W_jk — and J restricted to the nonzero entries A is a
// smooth strictly convex function:
//
//	∇_jk J = 2(X_jᵀR)_k + α W_jk/‖wʲ‖ + 2β s_jk‖wʲ‖₁,
//	∇²J    = 2 G_jj' δ_kk'  +  δ_jj' (α(I − uuᵀ)/‖wʲ‖ + 2β s sᵀ),
//
// G = XᵀX, R = XW − Y, u = wʲ/‖wʲ‖ (each over the row's entries in A).
// The row block is positive definite (uᵀs = ‖wʲ‖₁/‖wʲ‖ > 0), so is the
// Hessian. Block coordinate descent identifies A early but approaches the
// minimum on it only linearly, slowly where the columns are correlated
// (docs/exl21-dso.md); Newton's steps on A, each projected onto A's
// orthant (entries that would change sign become zero and leave A), reach
// it in a few steps, and at the optimum's own face that is the optimum,
// which the duality gap at Θ = 2(XW − Y) then certifies. Where A is not
// yet the optimum's, the sweeps that follow move entries in and out and a
// later call starts from there.
//
// A has up to n·c entries (13,000 on Yale), too many to factorise the
// Hessian, so each step is solved by conjugate gradients (a truncated
// Newton method: Nocedal & Wright, Numerical Optimization, 2nd ed., §7.1,
// with the forcing term η = min(0.5, √(‖∇J‖/‖∇J₀‖))), preconditioned by
// the Hessian's row blocks: 2G_jj I + α(I − uuᵀ)/‖wʲ‖ + 2βssᵀ, a scaled
// identity plus a rank-2 term, inverted in closed form. A product with the
// Hessian costs one with G_S, the Gram matrix of the rows S that hold A
// (formed once), or two with X_S where that is cheaper; J along a step is
// the loss's quadratic f(W + tD) = f(W) + 2t⟨D, XᵀR⟩ + t²⟨D, GD⟩ plus the
// rows' penalties, so nothing of order m is touched between the first
// gradient and the final update of R.

// exl21FaceEvery is how often (in cd's iterations) the face's Newton
// steps may run (exl21Model.iterate says when they do).
const exl21FaceEvery = 10

// exl21FaceCG bounds the conjugate-gradient iterations of a step: the
// projection onto A's orthant changes most steps, so an accurate
// direction does not pay; with at most 10, Yale, warpAR10P and ORL
// certified sooner than with 5, 20 or 50 (docs/exl21-dso.md).
const exl21FaceCG = 10

// exl21FaceCGQuad bounds them with α = 0, where J on a face is a
// quadratic and an accurate direction pays: on ORL and lung_discrete 10
// did not certify where 50 did.
const exl21FaceCGQuad = 50

// exl21FaceWork bounds the multiply-adds of one call to faceNewton.
const exl21FaceWork = 2e10

// exl21FaceRounds bounds the calls to faceNewton of one faceSteps.
const exl21FaceRounds = 20

// exl21Face is the state of one call to faceNewton: W, ½∇f and G on S.
type exl21Face struct {
	md     *exl21Model
	ns     int
	rowIdx []int     // S
	gs     []float64 // G_S, ns×ns (nil when the products go through xs)
	xs     []float64 // X_Sᵀ, ns×m (when the products go through it)
	tmp    []float64 // m×c scratch of those products
	work   float64   // multiply-adds so far
	ws     []float64 // W on S, ns×c
	hs     []float64 // ½∇f on S: X_Sᵀ R
	// Each row's Hessian block: nrm = ‖wʲ‖, l1 = ‖wʲ‖₁, diag = 2G_jj.
	nrm, l1, diag []float64
}

// gmul sets dst = G_S·v (both ns×c).
func (fc *exl21Face) gmul(dst, v []float64) {
	c, ns := fc.md.c, fc.ns
	if fc.gs != nil {
		linalg.Gemm(false, false, 1, general(ns, ns, fc.gs), general(ns, c, v), 0, general(ns, c, dst))
		fc.work += float64(ns) * float64(ns) * float64(c)
		return
	}
	m := fc.md.loss.m
	xg := general(ns, m, fc.xs)
	linalg.Gemm(true, false, 1, xg, general(ns, c, v), 0, general(m, c, fc.tmp))
	linalg.Gemm(false, false, 1, xg, general(m, c, fc.tmp), 0, general(ns, c, dst))
	fc.work += 2 * float64(ns) * float64(m) * float64(c)
}

// hmul sets dst = H·v on A (v zero outside A; dst is too).
func (fc *exl21Face) hmul(dst, v []float64) {
	md, c := fc.md, fc.md.c
	fc.gmul(dst, v)
	for a := 0; a < fc.ns; a++ {
		w, x, y := fc.ws[a*c:(a+1)*c], v[a*c:(a+1)*c], dst[a*c:(a+1)*c]
		if fc.nrm[a] == 0 {
			clear(y)
			continue
		}
		uv, sv := 0.0, 0.0
		for k, wk := range w {
			if wk != 0 {
				uv += wk * x[k]
				sv += math.Copysign(1, wk) * x[k]
			}
		}
		uv /= fc.nrm[a]
		for k, wk := range w {
			if wk == 0 {
				y[k] = 0
				continue
			}
			y[k] = 2*y[k] + md.alpha/fc.nrm[a]*(x[k]-wk/fc.nrm[a]*uv) + 2*md.beta*math.Copysign(1, wk)*sv
		}
	}
}

// precond sets z = B⁻¹r row by row, B the Hessian's row block:
// B = γI + V M Vᵀ, γ = 2G_jj + α/‖wʲ‖, V = [u s], M = diag(−α/‖wʲ‖, 2β), so
// B⁻¹r = (r − V (γM⁻¹ + VᵀV)⁻¹ Vᵀr)/γ; with α = 0, B = γI + 2β ssᵀ.
func (fc *exl21Face) precond(z, r []float64) {
	md, c := fc.md, fc.md.c
	for a := 0; a < fc.ns; a++ {
		w, x, y := fc.ws[a*c:(a+1)*c], r[a*c:(a+1)*c], z[a*c:(a+1)*c]
		if fc.nrm[a] == 0 {
			clear(y)
			continue
		}
		nrm := fc.nrm[a]
		gam := fc.diag[a] + md.alpha/nrm
		var ur, sr, ss float64 // uᵀr, sᵀr, sᵀs; uᵀu = 1
		for k, wk := range w {
			if wk != 0 {
				ur += wk / nrm * x[k]
				sr += math.Copysign(1, wk) * x[k]
				ss++
			}
		}
		// B⁻¹r = (r − p u − q s)/γ.
		var p, q float64
		if md.alpha == 0 {
			// B = γI + 2β ssᵀ (Sherman–Morrison).
			q = 2 * md.beta * sr / (gam + 2*md.beta*ss)
		} else {
			// (γM⁻¹ + VᵀV) = [[−γ‖w‖/α + 1, uᵀs], [uᵀs, γ/(2β) + sᵀs]].
			a11, a12, a22 := 1-gam*nrm/md.alpha, fc.l1[a]/nrm, gam/(2*md.beta)+ss
			det := a11*a22 - a12*a12
			p = (a22*ur - a12*sr) / det
			q = (a11*sr - a12*ur) / det
		}
		for k, wk := range w {
			if wk == 0 {
				y[k] = 0
				continue
			}
			y[k] = (x[k] - p*wk/nrm - q*math.Copysign(1, wk)) / gam
		}
	}
}

// rows refreshes each row's norms from ws.
func (fc *exl21Face) rows() {
	c := fc.md.c
	for a := 0; a < fc.ns; a++ {
		l1, l2 := 0.0, 0.0
		for _, v := range fc.ws[a*c : (a+1)*c] {
			l1 += math.Abs(v)
			l2 += v * v
		}
		fc.nrm[a], fc.l1[a] = math.Sqrt(l2), l1
	}
}

// penalty returns the rows' penalty at x (ns×c).
func (fc *exl21Face) penalty(x []float64) float64 {
	md, c := fc.md, fc.md.c
	s := 0.0
	for a := 0; a < fc.ns; a++ {
		l1, l2 := 0.0, 0.0
		for _, v := range x[a*c : (a+1)*c] {
			l1 += math.Abs(v)
			l2 += v * v
		}
		s += md.alpha*math.Sqrt(l2) + md.beta*l1*l1
	}
	return s
}

// newFace gathers W, ½∇f and G (or X) on the rows S of w that are not
// zero; nil when w is zero.
func (md *exl21Model) newFace(w, aux *mat.Dense) *exl21Face {
	n, c := md.n, md.c
	l := md.loss
	var rows []int // S
	for j := 0; j < n; j++ {
		for _, v := range w.RawRowView(j) {
			if v != 0 {
				rows = append(rows, j)
				break
			}
		}
	}
	ns := len(rows)
	if ns == 0 {
		return nil
	}
	fc := &exl21Face{md: md, ns: ns, ws: make([]float64, ns*c), hs: make([]float64, ns*c),
		nrm: make([]float64, ns), l1: make([]float64, ns), diag: make([]float64, ns)}
	for a, j := range rows {
		copy(fc.ws[a*c:(a+1)*c], w.RawRowView(j))
		fc.diag[a] = 2 * l.colsq[j]
	}
	switch {
	case l.gram:
		fc.gs = make([]float64, ns*ns)
		for a, j := range rows {
			gj := l.g.RawRowView(j)
			for b, jj := range rows {
				fc.gs[a*ns+b] = gj[jj]
			}
			copy(fc.hs[a*c:(a+1)*c], aux.RawRowView(j))
		}
	default:
		fc.xs = make([]float64, ns*l.m)
		for a, j := range rows {
			copy(fc.xs[a*l.m:(a+1)*l.m], l.at.RawRowView(j))
		}
		xg := general(ns, l.m, fc.xs)
		linalg.Gemm(false, false, 1, xg, aux.RawMatrix(), 0, general(ns, c, fc.hs))
		fc.work += float64(ns) * float64(l.m) * float64(c)
		if 2*l.m < ns {
			fc.tmp = make([]float64, l.m*c)
		} else {
			fc.gs = make([]float64, ns*ns)
			linalg.Gemm(false, true, 1, xg, xg, 0, general(ns, ns, fc.gs))
			fc.work += float64(ns) * float64(ns) * float64(l.m) / 2
			fc.xs = nil
		}
	}
	fc.rowIdx = rows
	return fc
}

// faceNewton runs Newton's method on the face of w (changed in place with
// aux, the loss's auxiliary matrix, recomputed at the end) and reports
// whether it lowered J. It takes at most 50 steps and stops once
// exl21FaceWork multiply-adds are spent or ctx is done, calling stepped
// after each; it leaves w as it was when β is zero or when the steps do
// not lower J.
func (md *exl21Model) faceNewton(ctx context.Context, w, aux *mat.Dense, stepped func()) bool {
	if md.beta == 0 {
		return false
	}
	fc := md.newFace(w, aux)
	if fc == nil {
		return false
	}
	ns, c, l, rows := fc.ns, md.c, md.loss, fc.rowIdx
	wOrig := append([]float64(nil), fc.ws...)
	f := l.value(w, aux)
	j0 := f + md.penalty(w)
	jCur := j0
	g, d, r, z, p, q := make([]float64, ns*c), make([]float64, ns*c), make([]float64, ns*c), make([]float64, ns*c), make([]float64, ns*c), make([]float64, ns*c)
	trial := make([]float64, ns*c)
	g0 := 0.0
	maxCG := exl21FaceCG
	if md.alpha == 0 {
		maxCG = exl21FaceCGQuad
	}
	for step := 0; step < 50 && fc.work < exl21FaceWork && ctx.Err() == nil; step++ {
		fc.rows()
		gn := 0.0
		for a := 0; a < ns; a++ {
			for k := 0; k < c; k++ {
				e := a*c + k
				wk := fc.ws[e]
				if wk == 0 {
					g[e] = 0
					continue
				}
				g[e] = 2*fc.hs[e] + md.alpha*wk/fc.nrm[a] + 2*md.beta*math.Copysign(fc.l1[a], wk)
				gn += g[e] * g[e]
			}
		}
		gn = math.Sqrt(gn)
		if step == 0 {
			g0 = gn
		}
		if gn == 0 {
			break
		}
		// Conjugate gradients on H d = −g to ‖r‖ ≤ η‖g‖.
		eta := math.Min(0.5, math.Sqrt(gn/g0))
		clear(d)
		for e := range r {
			r[e] = -g[e]
		}
		fc.precond(z, r)
		copy(p, z)
		rz := floats.Dot(r, z)
		for it := 0; it < maxCG && fc.work < exl21FaceWork; it++ {
			fc.hmul(q, p)
			pq := floats.Dot(p, q)
			if !(pq > 0) {
				break
			}
			al := rz / pq
			rn := 0.0
			for e := range d {
				d[e] += al * p[e]
				r[e] -= al * q[e]
				rn += r[e] * r[e]
			}
			if math.Sqrt(rn) <= eta*gn {
				break
			}
			fc.precond(z, r)
			rzNew := floats.Dot(r, z)
			be := rzNew / rz
			rz = rzNew
			for e := range p {
				p[e] = z[e] + be*p[e]
			}
		}
		stepped()
		dec := floats.Dot(g, d) // < 0
		if !(dec < 0) || -dec <= 1e-15*jCur {
			break
		}
		// The step projected onto A's orthant (entries that would change
		// sign are set to zero and leave A), J from the loss's quadratic:
		// f(W + Δ) = f + 2⟨Δ, hs⟩ + ⟨Δ, GΔ⟩.
		var lin, quad float64
		jAt := func(t float64) float64 {
			for e, v := range fc.ws {
				x := v + t*d[e]
				if x*v < 0 {
					x = 0
				}
				trial[e] = x
				z[e] = x - v
			}
			fc.gmul(q, z)
			lin, quad = floats.Dot(z, fc.hs), floats.Dot(z, q)
			return f + 2*lin + quad + fc.penalty(trial)
		}
		t := 1.0
		jt := jAt(t)
		for i := 0; i < 30 && jt > jCur+1e-4*floats.Dot(g, z); i++ {
			t /= 2
			jt = jAt(t)
		}
		if !(jt < jCur) {
			break
		}
		copy(fc.ws, trial)
		f += 2*lin + quad
		for e := range fc.hs {
			fc.hs[e] += q[e]
		}
		jCur = jt
	}
	if !(jCur < j0) {
		return false
	}
	for a, j := range rows {
		copy(w.RawRowView(j), fc.ws[a*c:(a+1)*c])
	}
	l.aux(aux, w)
	if md.objective(w, aux) >= j0 {
		for a, j := range rows {
			copy(w.RawRowView(j), wOrig[a*c:(a+1)*c])
		}
		l.aux(aux, w)
		return false
	}
	return true
}

// faceSteps runs faceNewton on w and, with α = 0, further rounds of it
// while certified (which evaluates J and the gap at w, leaving the
// gradient X_jᵀ(XW − Y) in grad, and returns the relative gap and whether
// it is within tol) says the gap is above tol. With α = 0 the tiny
// entries for which zero is optimal are set to zero first, and before
// each further round the zero entries that break the optimality
// condition enter the face (reviseFace). The rounds stop after one that
// neither lowers J nor adds an entry, one that leaves the gap above 0.9
// times the last round's (on COIL20 the rounds lower J by 10⁻⁹ of it and
// the gap hardly moves, while on ORL each divides the gap by 2 to 10), or
// after exl21FaceRounds. It calls stepped after each Newton step and
// reports whether J was lowered.
func (md *exl21Model) faceSteps(ctx context.Context, w, aux, grad *mat.Dense, certified func() (float64, bool), stepped func()) bool {
	if md.alpha == 0 && md.reviseFace(w, grad, false) > 0 {
		md.loss.aux(aux, w)
	}
	if !md.faceNewton(ctx, w, aux, stepped) {
		return false
	}
	gap, done := certified()
	if done || md.alpha != 0 {
		return true
	}
	for round := 1; round < exl21FaceRounds && ctx.Err() == nil; round++ {
		added := md.reviseFace(w, grad, true)
		if added > 0 {
			md.loss.aux(aux, w)
		}
		if !md.faceNewton(ctx, w, aux, stepped) && added == 0 {
			break
		}
		last := gap
		if gap, done = certified(); done || gap > 0.9*last {
			break
		}
	}
	return true
}

// reviseFace (α = 0) revises the face of w entry by entry by the
// optimality condition of a zero entry, |(X_jᵀR)_k| ≤ β‖wʲ‖₁ (the
// subdifferential of β‖wʲ‖₁² there, halved; grad holds X_jᵀR), and
// returns how many entries it changed. With enter, each zero entry that
// breaks it gets 10⁻⁶ of its row's largest, of the sign that lowers J, so
// that faceNewton's next face holds it. Without, each entry below 10⁻² of
// its row's largest that meets it is set to zero: a solver whose entries
// only tend to zero (reweight) leaves many such entries tiny, with signs
// that the face's Newton steps would each flip.
func (md *exl21Model) reviseFace(w, grad *mat.Dense, enter bool) int {
	changed := 0
	for j := 0; j < md.n; j++ {
		row, g := w.RawRowView(j), grad.RawRowView(j)
		l1, big := sparse.L1(row), floats.Norm(row, math.Inf(1))
		if big == 0 {
			continue
		}
		for k, v := range row {
			switch {
			case enter && v == 0 && math.Abs(g[k]) > md.beta*l1*(1+1e-9):
				row[k] = -math.Copysign(1e-6*big, g[k])
			case !enter && v != 0 && math.Abs(v) < 1e-2*big && math.Abs(g[k]) <= md.beta*l1:
				row[k] = 0
			default:
				continue
			}
			changed++
		}
	}
	return changed
}
