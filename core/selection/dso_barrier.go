package selection

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// dsoBarrier solves the p = 1 problem with P = I,
//
//	min Σ_j ‖w_j‖  s.t.  Y⊙(XW) ≥ 1,
//
// through its dual, max ⟨Y, Θ⟩ s.t. Y⊙Θ ≥ 0 and ‖(XᵀΘ)_j‖ ≤ 1 for every
// feature j, by a log-barrier interior-point method (Boyd & Vandenberghe,
// Convex Optimization, §11.3): Newton's method on
//
//	ψ_t(Θ) = −t⟨Y, Θ⟩ − Σ_{j∈K} log(1 − ‖v_j‖²) − Σ_{ik} log(y_ik θ_ik),   v_j = (XᵀΘ)_j,
//
// from the E-step's multipliers λ (Θ = Y⊙(λ + ε), scaled into the
// feasible set), K the features near their constraint (‖v_j‖ >
// dsoBarrierNear, chosen again at every step; the others only bound the
// line search: with 0.5 in place of 0.99, K held 7897 of nci9's 9712
// features, whose terms added 2|K|/t to the gap at every t and |K|·(mc)²/2
// to every step, so that nci9 and lymphoma ended uncertified), for t
// growing tenfold until the barrier's bound (2|K| + mc)/t is at most
// dsoBarrierGoal·scale, or the primal and dual points found so far are
// within dsoBarrierEnough of each other, or the steps have used
// dsoBarrierBudget multiply-adds. Every iterate is strictly feasible, so ⟨Y, Θ⟩ is
// a lower bound on the optimum. At a central point ∇ψ_t = 0 reads
//
//	XW = Y + (1/t)·(1/Θ)  for  w_j = 2v_j/(t(1 − ‖v_j‖²)) (j ∈ K), 0 elsewhere,
//
// so Y⊙(XW) = 1 + 1/(t·y⊙Θ) ≥ 1: W is feasible for the primal, and its
// objective is within about the barrier's bound of the dual value. That W
// (scaled up by the smallest margin's shortfall where the last Newton step
// leaves one) is computed at the end of every stage, and the lowest
// primal objective is returned with its W and the highest dual value (any
// feasible pair bounds the optimum from both sides). The Hessian, (Σ_K
// (2/s_j)x_jx_jᵀ) ⊗ I_c + Σ_K (4/s_j²)(x_j⊗v_j)(x_j⊗v_j)ᵀ + diag(1/θ_ik²)
// (s_j = 1 − ‖v_j‖²), is (mc)×(mc): each step's system is formed with
// core/linalg and factorised by Cholesky where mc ≤ dsoBarrierMax and
// that is the cheaper, else solved class by class (dsoSplit) where its
// arrays take at most dsoSplitMaxFloats. at is Xᵀ (N×m), y the ±1
// coding (m×c), lambda the E-step's multipliers (m×c), scale the size of
// the optimum (the iteration's objective); stepped is called after each
// Newton step. Started from the multipliers
// with the barrier's bound at a thousandth of the optimum, it certified
// lung_discrete, leukemia and arcene, which a start from Θ = αY at a
// hundredth did not within the budget (docs/results.md#certified-table).
func dsoBarrier(ctx context.Context, at, y, lambda *mat.Dense, scale float64, stepped func()) (w *mat.Dense, primal, dual float64, ok bool) {
	nf, m := at.Dims()
	_, c := y.Dims()
	n := m * c
	if !(scale > 0) {
		return nil, 0, 0, false
	}
	yd := y.RawMatrix().Data
	// v = XᵀΘ (nf × c), as one product, by core/linalg: gonum's takes
	// about four times as long with a few columns (TOX_171, 5748 × 171 by
	// 171 × 4: 5.1 ms against 1.4 ms natively), and the line search makes
	// one a trial.
	v := mat.NewDense(nf, c, nil)
	product := func(th []float64) {
		linalg.Gemm(false, false, 1, at.RawMatrix(), gen(m, c, th), 0, v.RawMatrix())
	}
	// A strictly feasible start: Θ = Y⊙(λ + ε) from the E-step's
	// multipliers λ (ε a thousandth of their mean), scaled so that every
	// ‖v_j‖ is at most 0.999.
	th := make([]float64, n)
	mean := 0.0
	for _, l := range lambda.RawMatrix().Data {
		mean += l / float64(n)
	}
	for i, l := range lambda.RawMatrix().Data {
		th[i] = yd[i] * (l + 1e-3*mean + 1e-300)
	}
	product(th)
	big := 0.0
	for j := 0; j < nf; j++ {
		big = math.Max(big, norm2(v.RawRowView(j)))
	}
	if !(big > 0) {
		return nil, 0, 0, false
	}
	for i := range th {
		th[i] *= 0.999 / math.Sqrt(big)
	}
	// psi is ψ_t at x over K, +Inf outside the strictly feasible set.
	psi := func(x []float64, t float64, near []bool) float64 {
		product(x)
		f := 0.0
		for j := 0; j < nf; j++ {
			s := 1 - norm2(v.RawRowView(j))
			if s <= 0 {
				return math.Inf(1)
			}
			if near[j] {
				f -= math.Log(s)
			}
		}
		for i, x := range x {
			p := yd[i] * x
			if p <= 0 {
				return math.Inf(1)
			}
			f -= math.Log(p) + t*p
		}
		return f
	}
	near := make([]bool, nf)
	var k []int
	pick := func() {
		product(th)
		k = k[:0]
		for j := 0; j < nf; j++ {
			near[j] = norm2(v.RawRowView(j)) > dsoBarrierNear*dsoBarrierNear
			if near[j] {
				k = append(k, j)
			}
		}
	}
	pick()
	g, dx, trial := make([]float64, n), make([]float64, n), make([]float64, n)
	var h []float64 // the formed Hessian (n×n), where it is used
	var work barrierWork
	split := dsoSplit{m: m, c: c}
	xrow := func(j int) []float64 { return at.RawRowView(j) }
	vrow := func(j int) []float64 { return v.RawRowView(j) }
	t := float64(2*len(k)+n) / (dsoBarrierStart * scale)
	budget := dsoBarrierBudget
	for stage := 0; ctx.Err() == nil && budget > 0; stage++ {
		for it := 0; it < dsoBarrierSteps && budget > 0 && ctx.Err() == nil; it++ {
			pick()
			nk := len(k)
			for i := range g {
				g[i] = -t*yd[i] - 1/th[i]
			}
			// The formed Hessian where it is the cheaper and fits, else
			// dsoSplit where its arrays fit.
			sw, dw := splitWork(m, c, nk), formedWork(m, c, nk)
			ok := false
			switch {
			case n <= dsoBarrierMax && dw <= sw:
				budget -= dw + 4*float64(nf)*float64(n)
				h = grow(h, n*n)
				work.featureTerms(k, xrow, vrow, 1, m, c, g, h)
				for i, x := range th {
					h[i*n+i] += 1 / (x * x)
				}
				copy(dx, g)
				ok = cholSolveShifted(gen(n, n, h[:n*n]), gen(n, 1, dx))
			case float64(c*m*m+2*n*nk+nk*nk) <= dsoSplitMaxFloats:
				budget -= sw + 4*float64(nf)*float64(n)
				ok = split.direction(k, xrow, vrow, th, g, dx)
			}
			if !ok {
				return nil, 0, 0, false
			}
			moved := descend(th, g, dx, trial, func(x []float64) float64 { return psi(x, t, near) })
			stepped()
			if !moved {
				break
			}
		}
		// Any feasible primal and dual points bound each other: the
		// lowest primal objective and the highest dual value so far.
		d := 0.0
		for i, x := range th {
			d += yd[i] * x
		}
		dual = math.Max(dual, d)
		for _, refit := range []bool{false, true} {
			if cw, cp, ok := dsoBarrierPrimal(at, y, v, th, k, t, refit); ok && (w == nil || cp < primal) {
				w, primal = cw, cp
			}
		}
		if w != nil && primal-dual <= dsoBarrierEnough*primal {
			break
		}
		if float64(2*len(k)+n)/t <= dsoBarrierGoal*scale || stage == dsoBarrierStages {
			break
		}
		t *= 10
	}
	if ctx.Err() != nil || w == nil {
		return nil, 0, 0, false
	}
	return w, primal, dual, true
}

// dsoBarrierPrimal is a primal point from dsoBarrier's iterate Θ at t
// (v = XᵀΘ): w_j = 2v_j/(t(1 − ‖v_j‖²)) for j in k; with refit, the
// rows of that point above 10⁻⁶ of the largest keep their directions v_j
// and their lengths ρ_j are fitted by least squares to the margins whose
// y⊙Θ is above 10⁻⁶ of the largest (at the optimum w_j = ρ_j·v_j on the
// support, and those margins are 1), false where a ρ_j is negative.
// Either is scaled up by the smallest margin's shortfall (the iterate is
// central only up to the Newton steps' accuracy) and returned with its
// objective Σ‖w_j‖; false where a margin is not positive.
func dsoBarrierPrimal(at, y, v *mat.Dense, th []float64, k []int, t float64, refit bool) (*mat.Dense, float64, bool) {
	nf, m := at.Dims()
	_, c := y.Dims()
	yd := y.RawMatrix().Data
	w := mat.NewDense(nf, c, nil)
	big := 0.0
	for _, j := range k {
		vj := v.RawRowView(j)
		s := 1 - norm2(vj)
		for p, x := range vj {
			w.Set(j, p, 2*x/(t*s))
		}
		big = math.Max(big, norm2(w.RawRowView(j)))
	}
	if refit {
		var sup []int
		for _, j := range k {
			if norm2(w.RawRowView(j)) > 1e-12*big {
				sup = append(sup, j)
			}
		}
		bigT := 0.0
		for i, x := range th {
			bigT = math.Max(bigT, yd[i]*x)
		}
		var act []int
		for i, x := range th {
			if yd[i]*x > 1e-6*bigT {
				act = append(act, i)
			}
		}
		if len(sup) == 0 || len(act) < len(sup) {
			return nil, 0, false
		}
		a := mat.NewDense(len(act), len(sup), nil)
		b := mat.NewVecDense(len(act), nil)
		for r, ik := range act {
			i, p := ik/c, ik%c
			b.SetVec(r, 1)
			for q, j := range sup {
				a.Set(r, q, yd[ik]*at.At(j, i)*v.At(j, p))
			}
		}
		var rho mat.VecDense
		if err := rho.SolveVec(a, b); err != nil {
			return nil, 0, false
		}
		w.Zero()
		for q, j := range sup {
			if rho.AtVec(q) < 0 {
				return nil, 0, false
			}
			for p := 0; p < c; p++ {
				w.Set(j, p, rho.AtVec(q)*v.At(j, p))
			}
		}
	}
	var xw mat.Dense
	xw.Mul(at.T(), w)
	least := math.Inf(1)
	for i, x := range xw.RawMatrix().Data {
		least = math.Min(least, yd[i]*x)
	}
	if !(least > 0) || m == 0 {
		return nil, 0, false
	}
	if least < 1 {
		w.Scale(1/least, w)
	}
	obj := 0.0
	for j := 0; j < nf; j++ {
		obj += math.Sqrt(norm2(w.RawRowView(j)))
	}
	return w, obj, true
}

// Constants of dsoBarrier: the features with ‖v_j‖ above dsoBarrierNear
// carry a barrier term; t starts where the barrier's bound is
// dsoBarrierStart of the optimum's size and ends where it is
// dsoBarrierGoal, in at most dsoBarrierStages tenfold stages of at most
// dsoBarrierSteps Newton steps; a step's system is formed only where the
// dual has at most dsoBarrierMax unknowns.
const (
	dsoBarrierNear   = 0.99
	dsoBarrierStart  = 1e-3
	dsoBarrierGoal   = 1e-10
	dsoBarrierStages = 12
	dsoBarrierSteps  = 20
	dsoBarrierMax    = 1200
	// dsoSplitMaxFloats bounds the float64s of dsoSplit's arrays (240 MB).
	dsoSplitMaxFloats = 3e7
	// dsoBarrierEnough ends the stages where the primal and dual points
	// found so far are that close, relative to the optimum.
	dsoBarrierEnough = 1e-8
	// dsoBarrierBudget bounds the multiply-adds of all the Newton steps
	// (about 10–20 s natively).
	dsoBarrierBudget = 1e11
)
