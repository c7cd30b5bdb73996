package selection

import "sparsefs/core/linalg"

// dsoSplit solves dsoBarrier's Newton systems without forming their
// (mc)×(mc) Hessian. In Θ's entries taken class by class the Hessian is
//
//	H = B + U·diag(4/s_j²)·Uᵀ,   B = blockdiag_p(A + diag(1/θ_{·p}²)),
//	A = Σ_{j∈K} (2/s_j) x_j x_jᵀ (m×m),   U = [x_j ⊗ v_j]_{j∈K} (mc×|K|),
//
// (the Kronecker factor A ⊗ I_c and the diagonal barrier of the signs
// split into c blocks of m×m), so by the Sherman–Morrison–Woodbury
// identity
//
//	H⁻¹g = B⁻¹(g − U·y),   (diag(s_j²/4) + UᵀB⁻¹U)·y = UᵀB⁻¹g,
//
// with B_p = L_pL_pᵀ, UᵀB⁻¹U = Σ_p Y_pᵀY_p and UᵀB⁻¹g = Σ_p Y_pᵀ r_p for
// Y_p = L_p⁻¹U_p, r_p = L_p⁻¹g_p (U_p, g_p the class-p rows). A step costs
// |K|·m²/2 + c·m³/3 + c·m²·|K| + mc·|K|²/2 + |K|³/3 multiply-adds
// (splitWork) against
// the formed system's (mc)³/3 + (c(c+1)/2)·|K|·m²/2 (formedWork): on
// warpPIE10P (m = 210, c = 10, |K| ≈ 170) 1.7·10⁸ against 3.3·10⁹, and on
// ORL (m = 400, c = 40) the formed system would not fit in memory.
type dsoSplit struct {
	m, c           int
	feat           barrierWork // the gradient's feature terms and A
	l              []float64   // c blocks of m×m: L_p
	u, y           []float64   // c blocks of m×|K|: U_p, then Y_p
	r, cap, rhs, z []float64
}

// splitWork estimates the multiply-adds of one Newton step of dsoBarrier
// on m samples, c classes and nk features in K with dsoSplit (formedWork
// with the formed Hessian).
func splitWork(m, c, nk int) float64 {
	fm, fc, fk := float64(m), float64(c), float64(nk)
	return fk*fm*fm/2 + fc*fm*fm*fm/3 + fc*fm*fm*fk + fm*fc*fk*fk/2 + fk*fk*fk/3
}

// direction sets dx to the Newton step H⁻¹g of dsoBarrier at Θ = th (m×c,
// row-major), where g holds the gradient of ψ_t without the features'
// terms, which direction adds (gradientAndA); k lists the features
// in K, x(j) is x_j (m entries) and v(j) is v_j = (XᵀΘ)_j (c entries). It
// reports false where a system could not be factorised.
func (d *dsoSplit) direction(k []int, x, v func(j int) []float64, th, g, dx []float64) bool {
	m, c, nk := d.m, d.c, len(k)
	d.l = grow(d.l, c*m*m)
	d.u, d.y = grow(d.u, c*m*nk), grow(d.y, c*m*nk)
	d.r, d.cap, d.rhs, d.z = grow(d.r, m*c), grow(d.cap, nk*nk), grow(d.rhs, nk), grow(d.z, max(m, nk))
	a := d.feat.gradientAndA(k, x, v, 1, m, c, g)
	capm := gen(nk, nk, d.cap[:nk*nk])
	clear(capm.Data)
	for q, j := range k {
		vj := v(j)
		s := 1 - norm2(vj)
		capm.Data[q*nk+q] = s * s / 4
		for i, xi := range x(j) {
			for p, vp := range vj {
				d.u[p*m*nk+i*nk+q] = xi * vp
			}
		}
	}
	rhs := d.rhs[:nk]
	clear(rhs)
	for p := 0; p < c; p++ {
		lp := gen(m, m, d.l[p*m*m:(p+1)*m*m])
		copy(lp.Data, a.Data)
		for i := 0; i < m; i++ {
			lp.Data[i*m+i] += 1 / (th[i*c+p] * th[i*c+p])
		}
		if !cholShifted(lp) {
			return false
		}
		yp := gen(m, nk, d.y[p*m*nk:(p+1)*m*nk])
		copy(yp.Data, d.u[p*m*nk:(p+1)*m*nk])
		rp := gen(m, 1, d.r[p*m:(p+1)*m])
		for i := 0; i < m; i++ {
			rp.Data[i] = g[i*c+p]
		}
		if nk > 0 {
			linalg.CholeskyForward(lp, rp)
			linalg.CholeskyForward(lp, yp)
			linalg.AtDA(1, yp, nil, 1, capm)
			linalg.Gemm(true, false, 1, yp, rp, 0, gen(nk, 1, d.z[:nk]))
			for q := range rhs {
				rhs[q] += d.z[q]
			}
		}
	}
	if nk > 0 && !cholSolveShifted(capm, gen(nk, 1, rhs)) {
		return false
	}
	for p := 0; p < c; p++ {
		lp := gen(m, m, d.l[p*m*m:(p+1)*m*m])
		z := gen(m, 1, d.z[:m])
		for i := 0; i < m; i++ {
			z.Data[i] = g[i*c+p]
		}
		if nk > 0 {
			linalg.Gemm(false, false, -1, gen(m, nk, d.u[p*m*nk:(p+1)*m*nk]), gen(nk, 1, rhs), 1, z)
		}
		linalg.CholeskySolve(lp, z)
		for i := 0; i < m; i++ {
			dx[i*c+p] = z.Data[i]
		}
	}
	return true
}
