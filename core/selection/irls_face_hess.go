package selection

import (
	"math"
	"slices"

	"sparsefs/core/linalg"
)

// faceMaxRows bounds |S| for faceR1: the face's Q and the Woodbury
// capacitance matrix are |S|×|S| (1500 rows: 18 MB each).
const faceMaxRows = 1500

// The Newton system of face.newton, in V (k×c, k = |S| − m), is
//
//	H = (K ⊗ I) − UᵀBU,   K = NᵀD₁N,   (UV)ₐ = wₐ·(NV)ₐ,   B = diag(β),
//
// D₁ = diag(λ/sₐ), β = λ/sₐ³ (see face.newton). It is solved either by
// forming H, of order k·c, and factorising it (faceDense); or by the
// Woodbury identity (faceWoodbury), which factorises K (k×k) and the
// capacitance matrix C = B⁻¹ − U(K⊗I)⁻¹Uᵀ (|S|×|S|) instead:
//
//	H⁻¹g = Y₀ + K⁻¹Nᵀ diag(z) W,   Y₀ = K⁻¹g,   C z = UY₀,
//
// with C = diag(1/β) − (NK⁻¹Nᵀ) ∘ (WWᵀ) (∘ the entrywise product). With
// many classes the dense order k·c is far above |S| (lymphoma: k·c = 3654
// against |S| = 502), and the Woodbury form costs about a hundredth of
// it. faceStepWork takes the cheaper.

// faceDenseWork estimates the multiply-adds of one dense Newton step (|S|
// = ns rows, k = |S| − m, c columns): the Hessian's two products and its
// factorisation.
func faceDenseWork(ns, k, c int) float64 {
	n := float64(k * c)
	return float64(ns)*float64(k)*float64(k)/2 + float64(ns)*n*n/2 + n*n*n/3
}

// faceWoodburyWork estimates the multiply-adds of one Woodbury Newton
// step: K and its factorisation, L⁻¹Nᵀ, the two solves with K, the
// product NK⁻¹Nᵀ, C and its factorisation.
func faceWoodburyWork(ns, k, c int) float64 {
	fs, fk := float64(ns), float64(k)
	return fs*fk*fk/2 + fk*fk*fk/3 + fk*fk*(fs/2+2*float64(c)) + fs*fs*fk/2 + fs*fs*fs/3 + fs*fs*float64(c)
}

// faceStepWork estimates the multiply-adds of one Newton step of
// face.newton: the cheaper of the two forms.
func faceStepWork(ns, k, c int) float64 {
	return math.Min(faceDenseWork(ns, k, c), faceWoodburyWork(ns, k, c))
}

// solveStep returns H⁻¹g for the face at ws (|S|×c) with D₁ = d1 and β =
// beta, by the cheaper form; false if the system could not be solved.
func (f *face) solveStep(ws, d1, beta, g []float64) ([]float64, bool) {
	ns, k, c := len(f.sup), f.k, f.s.c
	kk := make([]float64, k*k)
	linalg.AtDA(1, gen(ns, k, f.nb), d1, 0, gen(k, k, kk))
	if faceWoodburyWork(ns, k, c) < faceDenseWork(ns, k, c) {
		return f.woodbury(ws, beta, kk, g)
	}
	return f.dense(ws, beta, kk, g)
}

// dense solves H·dv = g by forming H (order k·c) from K = kk.
func (f *face) dense(ws, beta, kk, g []float64) ([]float64, bool) {
	ns, k, c, nb := len(f.sup), f.k, f.s.c, f.nb
	n := k * c
	u := make([]float64, ns*n)
	for a := 0; a < ns; a++ {
		for t, x := range ws[a*c : (a+1)*c] {
			for p := 0; p < k; p++ {
				u[a*n+p*c+t] = nb[a*k+p] * x
			}
		}
	}
	h := make([]float64, n*n)
	linalg.AtDA(-1, gen(ns, n, u), beta, 0, gen(n, n, h))
	for p := 0; p < k; p++ {
		for q := 0; q < k; q++ {
			for t := 0; t < c; t++ {
				h[(p*c+t)*n+q*c+t] += kk[p*k+q]
			}
		}
	}
	dv := slices.Clone(g)
	return dv, cholSolveShifted(gen(n, n, h), gen(n, 1, dv))
}

// woodbury solves H·dv = g by the Woodbury identity (see above), from K =
// kk (overwritten by its factor L): with X = L⁻¹Nᵀ, NK⁻¹Nᵀ = XᵀX, and
// dv = K⁻¹(g + Nᵀ diag(z)W). C is scaled to unit diagonal before its
// factorisation; a diagonal entry that cancels to zero or below (a row of
// large norm whose leverage in K is near one) is kept at 10⁻¹⁴ of its
// 1/β, which leaves the step a descent direction.
func (f *face) woodbury(ws, beta, kk, g []float64) ([]float64, bool) {
	ns, k, c, nb := len(f.sup), f.k, f.s.c, f.nb
	l := gen(k, k, kk)
	if !cholShifted(l) {
		return nil, false
	}
	x := make([]float64, k*ns)
	for a := 0; a < ns; a++ {
		for p := 0; p < k; p++ {
			x[p*ns+a] = nb[a*k+p]
		}
	}
	linalg.CholeskyForward(l, gen(k, ns, x))
	y0 := slices.Clone(g)
	linalg.CholeskySolve(l, gen(k, c, y0))
	// C = diag(1/β) − (XᵀX) ∘ (WWᵀ), and r = UY₀.
	cm := make([]float64, ns*ns)
	linalg.AtDA(-1, gen(k, ns, x), nil, 0, gen(ns, ns, cm))
	ny := make([]float64, ns*c)
	linalg.Gemm(false, false, 1, gen(ns, k, nb), gen(k, c, y0), 0, gen(ns, c, ny))
	r := make([]float64, ns)
	for a := 0; a < ns; a++ {
		wa := ws[a*c : (a+1)*c]
		for e := 0; e < a; e++ {
			v := cm[a*ns+e] * dotf(wa, ws[e*c:(e+1)*c])
			cm[a*ns+e], cm[e*ns+a] = v, v
		}
		cm[a*ns+a] = math.Max(cm[a*ns+a]*norm2(wa)+1/beta[a], 1e-14/beta[a])
		r[a] = dotf(wa, ny[a*c:(a+1)*c])
	}
	scale := make([]float64, ns)
	for a := range scale {
		scale[a] = 1 / math.Sqrt(cm[a*ns+a])
		r[a] *= scale[a]
	}
	for a := 0; a < ns; a++ {
		for e := 0; e < ns; e++ {
			cm[a*ns+e] *= scale[a] * scale[e]
		}
	}
	if !cholSolveShifted(gen(ns, ns, cm), gen(ns, 1, r)) {
		return nil, false
	}
	// dv = K⁻¹(g + Nᵀ diag(z)W).
	q := make([]float64, ns*c)
	for a := 0; a < ns; a++ {
		za := r[a] * scale[a]
		for t, v := range ws[a*c : (a+1)*c] {
			q[a*c+t] = za * v
		}
	}
	dv := slices.Clone(g)
	linalg.Gemm(true, false, 1, gen(ns, k, nb), gen(ns, c, q), 1, gen(k, c, dv))
	linalg.CholeskySolve(l, gen(k, c, dv))
	return dv, true
}
