package selection

import (
	"math"

	"sparsefs/core/linalg"
)

// kronSolve solves the Newton system of the polish (newtonStep) where the
// loss's Hessian is a Kronecker product — every residual row weighs the c
// columns alike (r = 2, mtfs and gsr with r = 2) —,
//
//	H = (K ⊗ I_c) + ⊕_a λ(I − w_a w_aᵀ/ν_a²)/ν_a,
//
// K the ns×ns loss part (2·Z_SᵀZ_S), w_a the rows of W_S and ν_a =
// √(‖w_a‖² + μ_W²), through the Woodbury identity. With β_a = λ/ν_a,
// v_a = w_a/‖w_a‖ and γ_a = β_a‖w_a‖²/ν_a², H = M − UΓUᵀ for M = (K +
// diag β) ⊗ I_c, U the columns e_a ⊗ v_a and Γ = diag γ, so
//
//	H⁻¹g = M⁻¹g + M⁻¹U (Γ⁻¹ − UᵀM⁻¹U)⁻¹ UᵀM⁻¹g,
//
// where UᵀM⁻¹U = P ∘ (v_aᵀv_b), P = (K + diag β)⁻¹: an ns×ns inverse and
// an ns×ns factorisation (the capacitance, positive definite with H),
// about 5/3·ns³ multiply-adds, where the dense system of newtonStep has
// order ns·c and costs (ns·c)³/3. k (ns×ns) is overwritten; g (ns×c, row
// a the gradient's of row a of W_S) is replaced by H⁻¹g. It reports false
// where a factorisation fails (a zero row of W_S, or rounding).
func kronSolve(k []float64, ns, c int, w [][]float64, lambda, muW float64, g []float64) bool {
	beta, gamma := make([]float64, ns), make([]float64, ns)
	v := make([]float64, ns*c)
	for a, wa := range w {
		nw := math.Sqrt(norm2(wa))
		nu := math.Sqrt(nw*nw + muW*muW)
		if nw == 0 {
			return false
		}
		beta[a] = lambda / nu
		gamma[a] = beta[a] * nw * nw / (nu * nu)
		for t, x := range wa {
			v[a*c+t] = x / nw
		}
		k[a*ns+a] += beta[a]
	}
	if !cholShifted(gen(ns, ns, k)) {
		return false
	}
	// Y = A⁻¹G, A = K + diag β; P = A⁻¹.
	linalg.CholeskySolve(gen(ns, ns, k), gen(ns, c, g))
	p := make([]float64, ns*ns)
	for a := 0; a < ns; a++ {
		p[a*ns+a] = 1
	}
	linalg.CholeskySolve(gen(ns, ns, k), gen(ns, ns, p))
	// Capacitance C = Γ⁻¹ − P ∘ (v_aᵀv_b) and right-hand side UᵀY.
	capm := make([]float64, ns*ns)
	linalg.Gemm(false, true, -1, gen(ns, c, v), gen(ns, c, v), 0, gen(ns, ns, capm))
	rhs := make([]float64, ns)
	for a := 0; a < ns; a++ {
		for b := 0; b < ns; b++ {
			capm[a*ns+b] *= p[a*ns+b]
		}
		capm[a*ns+a] += 1 / gamma[a]
		for t := 0; t < c; t++ {
			rhs[a] += v[a*c+t] * g[a*c+t]
		}
	}
	if !cholSolveShifted(gen(ns, ns, capm), gen(ns, 1, rhs)) {
		return false
	}
	// H⁻¹g = Y + A⁻¹Q, Q's row a = s_a·v_a.
	q := v
	for a := 0; a < ns; a++ {
		for t := 0; t < c; t++ {
			q[a*c+t] *= rhs[a]
		}
	}
	linalg.CholeskySolve(gen(ns, ns, k), gen(ns, c, q))
	for i := range g {
		g[i] += q[i]
	}
	return true
}

// kronWork estimates the multiply-adds of one Newton step of the polish
// by kronSolve on ns rows of W with m samples: the loss part K from the
// design's rows, the factorisations, the inverse and the capacitance.
func kronWork(ns, m int) float64 {
	fs := float64(ns)
	return 5*fs*fs*fs/3 + float64(m)*fs*fs/2
}
