package selection

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"sparsefs/core/linalg"
)

// Constants of the smoothed Newton step by conjugate gradients (see
// newtonStepCG).
const (
	// smoothCGMaxIter bounds the conjugate-gradient iterations of a step.
	smoothCGMaxIter = 200
	// smoothCGAssumed is the conjugate-gradient iterations a step is
	// assumed to take when its work is estimated (smoothCGWork): Isolet
	// took 1–14 a step, COIL20 2–93 (about 35 on average).
	smoothCGAssumed = 30
	// smoothCGMaxRows bounds |S| where the steps are taken by conjugate
	// gradients (the preconditioner's factor is |S|×|S|, 32 MB here).
	smoothCGMaxRows = 2000
)

// smoothCGWork estimates the multiply-adds of one newtonStepCG on ns rows
// of W with c classes and m samples: the preconditioner's K (m·ns²/2) and
// its factor (ns³/3), and smoothCGAssumed products with the Hessian and
// the preconditioner.
func smoothCGWork(ns, c, m int) float64 {
	fs, fc, fm := float64(ns), float64(c), float64(m)
	return fm*fs*fs/2 + fs*fs*fs/3 + smoothCGAssumed*(2*fm*fs*fc+2*fs*fs*fc)
}

// smoothByCG tells whether the smoothed Newton steps on ns rows of W are
// taken by conjugate gradients (newtonStepCG) rather than by forming
// the system: where it has more than polishMaxUnknowns unknowns, or
// where the conjugate gradients' estimated work is below a quarter of
// the formed system's (many samples and classes for few rows: the
// digits, 1797 samples, 10 classes, 62 rows).
func (s *irls) smoothByCG(ns int) bool {
	return ns*s.c > polishMaxUnknowns || smoothCGWork(ns, s.c, s.m) < polishWork(ns*s.c, s.m)/4
}

// smoothCGTol is the relative residual at which newtonStepCG stops for
// the gradient g: min(0.1, √(‖g‖∞/λ)), an inexact Newton step whose
// accuracy grows as the gradient vanishes (quadratic convergence near
// the minimum).
func (s *irls) smoothCGTol(g []float64) float64 {
	return math.Min(0.1, math.Sqrt(floats.Norm(g, math.Inf(1))/s.lambda))
}

// smoothPrecond is the preconditioner newtonStepCG keeps from step to
// step: the Cholesky factor l (|S|×|S|) of K + diag(λ/tⱼ) on the rows sup
// of W, made at an earlier step, and the conjugate-gradient iterations
// of the last solve with a fresh factor (fresh). A kept factor is as good
// a preconditioner as the weights αᵢ and tⱼ have changed little since;
// refresh is set where a step's iterations said it no longer pays (see
// newtonStepCG). smoothR1 drops it when it returns.
type smoothPrecond struct {
	sup     []int
	l       []float64
	fresh   int
	refresh bool
}

// smoothFactor returns a new smoothPrecond for the Newton system sys at
// st, tn the penalty's tⱼ: K (sys.k, taken, or made here) plus
// diag(λ/tⱼ), factorised; nil where it is not positive definite.
func (s *irls) smoothFactor(st *polishState, sys *newtonSystem, tn []float64) *smoothPrecond {
	ns := len(st.sup)
	k := sys.k
	if k == nil {
		k = smoothK(sys.ztS, sys.alpha, ns, s.m)
	}
	sys.k = nil
	for a := range tn {
		k[a*ns+a] += s.lambda / tn[a]
	}
	if !cholShifted(gen(ns, ns, k)) {
		return nil
	}
	return &smoothPrecond{sup: slices.Clone(st.sup), l: k}
}

// newtonStepCG solves the Newton system of the smoothed model (r = 1, μ >
// 0; see smoothR1) at st by preconditioned conjugate gradients, where
// forming the system (|S|·c unknowns) would cost too much (smoothByCG):
// H = Σᵢ zᵢzᵢᵀ ⊗ (αᵢI + βᵢûᵢûᵢᵀ) + the penalty's blocks
// λ(I − wʲwʲᵀ/tⱼ²)/tⱼ (tⱼ = √(‖wʲ‖² + μ_W²)), applied in 2·m·|S|·c
// multiply-adds through Z_S; the preconditioner (K + diag(λ/tⱼ)) ⊗ I_c,
// K = Σᵢ αᵢzᵢzᵢᵀ, bounds H from above (βᵢ ≤ 0) and is exact but for the
// rank-one terms, and is solved by one Cholesky factor of |S|×|S|. That
// factor is kept (s.smoothPre) and used at the next steps on the same S
// while it pays: forming and factorising K costs about f = (m·|S|²/2 +
// |S|³/3)/(2·m·|S|·c + 2·|S|²·c) conjugate-gradient iterations, so a
// solve with a kept factor that has taken f more iterations than the
// last solve with a fresh one goes on with a fresh factor, and one that
// ended beyond half that count has the next step factorise afresh. The
// iteration stops at a residual of eta relative to g, after
// smoothCGMaxIter, or where the curvature along its direction is not
// positive (rounding). It returns the step d of W_S and Z_S·d (see
// stepOf); false where no step was made.
func (s *irls) newtonStepCG(st *polishState, sys *newtonSystem, eta float64) (d, de []float64, ok bool) {
	ztS, g, alpha, beta, rows := sys.ztS, sys.g, sys.alpha, sys.beta, sys.rows
	m, c := s.m, s.c
	ns := len(st.sup)
	n := ns * c
	// Unit residual directions, zero where βᵢ = 0.
	u := make([]float64, m*c)
	for i := 0; i < m; i++ {
		if beta[i] == 0 {
			continue
		}
		ei := st.e[i*c : (i+1)*c]
		nrm := math.Sqrt(norm2(ei))
		for t, v := range ei {
			u[i*c+t] = v / nrm
		}
	}
	tn := make([]float64, ns)
	for a, wj := range rows {
		tn[a] = math.Sqrt(norm2(wj) + st.muW*st.muW)
	}
	pre := s.smoothPre
	if pre == nil || pre.refresh || !slices.Equal(pre.sup, st.sup) {
		if pre = s.smoothFactor(st, sys, tn); pre == nil {
			return nil, nil, false
		}
	}
	fs, fm, fc := float64(ns), float64(m), float64(c)
	payback := int((fm*fs*fs/2 + fs*fs*fs/3) / (2*fm*fs*fc + 2*fs*fs*fc))
	ev := make([]float64, m*c)
	hv := func(v, out []float64) {
		linalg.Gemm(true, false, 1, gen(ns, m, ztS), gen(ns, c, v), 0, gen(m, c, ev))
		for i := 0; i < m; i++ {
			ei := ev[i*c : (i+1)*c]
			ui := u[i*c : (i+1)*c]
			f := beta[i] * floats.Dot(ui, ei)
			for t := range ei {
				ei[t] = alpha[i]*ei[t] + f*ui[t]
			}
		}
		linalg.Gemm(false, false, 1, gen(ns, m, ztS), gen(m, c, ev), 0, gen(ns, c, out))
		for a, wj := range rows {
			va := v[a*c : (a+1)*c]
			f := floats.Dot(wj, va) / (tn[a] * tn[a])
			for t := range va {
				out[a*c+t] += s.lambda * (va[t] - f*wj[t]) / tn[a]
			}
		}
	}
	precond := func(r, z []float64) {
		copy(z, r)
		linalg.CholeskySolve(gen(ns, ns, pre.l), gen(ns, c, z))
	}
	x := make([]float64, n)
	r := make([]float64, n)
	copy(r, g)
	z := make([]float64, n)
	p := make([]float64, n)
	ap := make([]float64, n)
	gn := floats.Norm(g, 2)
	fresh := pre != s.smoothPre
	its, from, start := 0, 0, true
	var rz float64
	for ; its < smoothCGMaxIter; its++ {
		if !fresh && its == s.smoothPre.fresh+payback {
			// The kept factor no longer pays: a fresh one, and the
			// iteration restarted from x with r = g − H·x.
			if pre = s.smoothFactor(st, sys, tn); pre == nil {
				return nil, nil, false
			}
			fresh, start, from = true, true, its
			hv(x, ap)
			floats.SubTo(r, g, ap)
		}
		if start {
			precond(r, z)
			copy(p, z)
			rz = floats.Dot(r, z)
			start = false
		}
		hv(p, ap)
		pap := floats.Dot(p, ap)
		if !(pap > 0) {
			break
		}
		a := rz / pap
		floats.AddScaled(x, a, p)
		floats.AddScaled(r, -a, ap)
		if floats.Norm(r, 2) <= eta*gn {
			its++
			break
		}
		precond(r, z)
		rz2 := floats.Dot(r, z)
		floats.AddScaledTo(p, z, rz2/rz, p)
		rz = rz2
	}
	if fresh {
		pre.fresh = its - from
		s.smoothPre = pre
	} else {
		pre.refresh = its > pre.fresh+payback/2
	}
	if floats.Norm(x, 2) == 0 {
		return nil, nil, false
	}
	return s.stepOf(ns, ztS, x)
}
