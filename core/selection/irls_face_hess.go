package selection

import (
	"math"
	"slices"

	"sparsefs/core/linalg"
)

// faceMaxRows bounds |S| for faceR1: the Woodbury step's P and C (and
// the dense step's Q) are |S|×|S| (1500 rows: 18 MB each).
const faceMaxRows = 1500

// The Newton system of face.newton, in V (k×c, k = |S| − m), is
//
//	H = (K ⊗ I) − UᵀBU,   K = NᵀD₁N,   (UV)ₐ = wₐ·(NV)ₐ,   B = diag(β),
//
// D₁ = diag(λ/sₐ), β = λ/sₐ³ (see face.newton). It is solved either by
// forming H, of order k·c, and factorising it (face.dense); or by the
// Woodbury identity (face.woodbury), which needs only P = NK⁻¹Nᵀ
// (|S|×|S|) and the capacitance matrix C = B⁻¹ − P ∘ (WWᵀ) (∘ the
// entrywise product):
//
//	N·H⁻¹g = P(G + diag(z)W),   C z = (wₐ·(PG)ₐ)ₐ,   g = NᵀG,
//
// with no need of N itself (its columns come from the face's QR
// factorisation as a full Q, |S|×|S|: formed only for the dense form).
//
// P is the D₁-weighted projection onto the null space of Z_S, so it comes
// from the m×m system of the face's rows of Z instead of K (k×k):
//
//	P = D₁⁻¹ − D₁⁻¹Z_Sᵀ(Z_S D₁⁻¹Z_Sᵀ)⁻¹Z_S D₁⁻¹ = D₁⁻¹ − XᵀX,   X = L⁻¹Z_S D₁⁻¹,
//
// L the Cholesky factor of Z_S D₁⁻¹Z_Sᵀ. With many classes the dense
// order k·c is far above |S| (lymphoma: k·c = 3654 against |S| = 502),
// and the Woodbury form costs about a three-hundredth of it, most of it
// C's factorisation. faceStepWork takes the cheaper.

// faceDenseWork estimates the multiply-adds of one dense Newton step (|S|
// = ns rows, k = |S| − m, c columns): the Hessian's two products and its
// factorisation.
func faceDenseWork(ns, k, c int) float64 {
	n := float64(k * c)
	return float64(ns)*float64(k)*float64(k)/2 + float64(ns)*n*n/2 + n*n*n/3
}

// faceWoodburyWork estimates the multiply-adds of one Woodbury Newton
// step (m = |S| − k): Z_S D₁⁻¹Z_Sᵀ and its factorisation, X, P = D₁⁻¹ −
// XᵀX, C and its factorisation, the products with P.
func faceWoodburyWork(ns, k, c int) float64 {
	fs, fm, fc := float64(ns), float64(ns-k), float64(c)
	return fm*fm*fs + fm*fm*fm/3 + fs*fs*fm/2 + fs*fs*fs/3 + 3*fs*fs*fc
}

// faceStepWork estimates the multiply-adds of one Newton step of
// face.newton: the cheaper of the two forms.
func faceStepWork(ns, k, c int) float64 {
	return math.Min(faceDenseWork(ns, k, c), faceWoodburyWork(ns, k, c))
}

// step returns the Newton step in W_S (|S|×c), dw = −N·H⁻¹NᵀG, for the
// face at ws with D₁ = d1, β = beta and G = gw (the penalty's gradient),
// by the cheaper form; false if the system could not be solved.
func (f *face) step(ws, d1, beta, gw []float64) ([]float64, bool) {
	ns, k, c := len(f.sup), f.k, f.s.c
	if faceWoodburyWork(ns, k, c) < faceDenseWork(ns, k, c) {
		return f.woodbury(ws, d1, beta, gw)
	}
	nb := f.basis()
	g := make([]float64, k*c) // NᵀG
	linalg.Gemm(true, false, 1, gen(ns, k, nb), gen(ns, c, gw), 0, gen(k, c, g))
	kk := make([]float64, k*k)
	linalg.AtDA(1, gen(ns, k, nb), d1, 0, gen(k, k, kk))
	dv, ok := f.dense(ws, beta, kk, g)
	if !ok {
		return nil, false
	}
	dw := make([]float64, ns*c)
	linalg.Gemm(false, false, -1, gen(ns, k, nb), gen(k, c, dv), 0, gen(ns, c, dw))
	return dw, true
}

// dense solves H·dv = g by forming H (order k·c) from K = kk.
func (f *face) dense(ws, beta, kk, g []float64) ([]float64, bool) {
	ns, k, c, nb := len(f.sup), f.k, f.s.c, f.basis()
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

// woodbury returns −N·dv, H·dv = NᵀG, G = gw, by the Woodbury identity
// (see above), without N. C is scaled to unit diagonal before its
// factorisation; a diagonal entry that cancels to zero or below (a row of
// large norm whose leverage is near one) is kept at 10⁻¹⁴ of its 1/β,
// which leaves the step a descent direction.
func (f *face) woodbury(ws, d1, beta, gw []float64) ([]float64, bool) {
	s := f.s
	ns, c, m := len(f.sup), s.c, s.m
	// X = L⁻¹Z_S D₁⁻¹ (m×|S|), L the factor of Z_S D₁⁻¹Z_Sᵀ.
	dinv := make([]float64, ns)
	for a, d := range d1 {
		dinv[a] = 1 / d
	}
	mm := make([]float64, m*m)
	linalg.AtDA(1, gen(ns, m, f.zs), dinv, 0, gen(m, m, mm))
	l := gen(m, m, mm)
	if !cholShifted(l) {
		return nil, false
	}
	x := make([]float64, m*ns)
	for a := 0; a < ns; a++ {
		for i, v := range f.zs[a*m : (a+1)*m] {
			x[i*ns+a] = v * dinv[a]
		}
	}
	linalg.CholeskyForward(l, gen(m, ns, x))
	// P = D₁⁻¹ − XᵀX.
	p := make([]float64, ns*ns)
	linalg.AtDA(-1, gen(m, ns, x), nil, 0, gen(ns, ns, p))
	for a := 0; a < ns; a++ {
		p[a*ns+a] += dinv[a]
	}
	// C = diag(1/β) − P ∘ (WWᵀ), and r = (wₐ·(PG)ₐ)ₐ.
	pg := make([]float64, ns*c)
	linalg.Gemm(false, false, 1, gen(ns, ns, p), gen(ns, c, gw), 0, gen(ns, c, pg))
	cm := make([]float64, ns*ns)
	r := make([]float64, ns)
	for a := 0; a < ns; a++ {
		wa := ws[a*c : (a+1)*c]
		for e := 0; e < a; e++ {
			v := -p[a*ns+e] * dotf(wa, ws[e*c:(e+1)*c])
			cm[a*ns+e], cm[e*ns+a] = v, v
		}
		cm[a*ns+a] = math.Max(1/beta[a]-p[a*ns+a]*norm2(wa), 1e-14/beta[a])
		r[a] = dotf(wa, pg[a*c:(a+1)*c])
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
	// N·dv = P(G + diag(z)W).
	q := slices.Clone(gw)
	for a := 0; a < ns; a++ {
		za := r[a] * scale[a]
		for t, v := range ws[a*c : (a+1)*c] {
			q[a*c+t] += za * v
		}
	}
	dw := make([]float64, ns*c)
	linalg.Gemm(false, false, -1, gen(ns, ns, p), gen(ns, c, q), 0, gen(ns, c, dw))
	return dw, true
}
