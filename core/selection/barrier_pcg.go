package selection

import (
	"math"

	"sparsefs/core/linalg"
)

// Constants of the barrier's steps by conjugate gradients.
const (
	// pcgTol is the relative size, in the preconditioner's norm, of the
	// residual at which the conjugate gradients stop: rᵀP⁻¹r ≤
	// pcgTol²·gᵀP⁻¹g.
	pcgTol = 1e-9
	// pcgMaxIter bounds the iterations of one solve; a solve that needs
	// more falls back to a fresh factorisation.
	pcgMaxIter = 40
)

// featureProduct adds H_f·x to out, H_f = Σ_{j∈k} (z_j z_jᵀ) ⊗ B_j the
// features' part of the barrier's Hessian (see featureTerms), without
// forming it: u_j = Xᵀz_j, then Σ_j z_j (B_j u_j)ᵀ, with B_j = d1_j·I +
// d2_j·v_j v_jᵀ. x and out are m×c, row by row; it reads b.zk, b.d1 and
// b.d2 as gradient set them for k, and v(j) is v_j (c entries). u is
// scratch of |k|·c entries.
func (b *barrierWork) featureProduct(k []int, v func(j int) []float64, m, c int, x, out, u []float64) {
	nk := len(k)
	if nk == 0 {
		return
	}
	zk := gen(nk, m, b.zk[:nk*m])
	uk := gen(nk, c, u[:nk*c])
	linalg.Gemm(false, false, 1, zk, gen(m, c, x), 0, uk)
	for q, j := range k {
		vj, uj := v(j), u[q*c:(q+1)*c]
		f := b.d2[q] * dotf(vj, uj)
		for p := range uj {
			uj[p] = b.d1[q]*uj[p] + f*vj[p]
		}
	}
	linalg.Gemm(true, false, 1, zk, uk, 1, gen(m, c, out))
}

// ballProduct adds the balls' part of the barrier's Hessian at Θ = th
// (see ballTerms) times x to out (m×c, row by row).
func ballProduct(th []float64, m, c int, x, out []float64) {
	for i := 0; i < m; i++ {
		ti, xi := th[i*c:(i+1)*c], x[i*c:(i+1)*c]
		ri := 1 - norm2(ti)
		f := 4 * dotf(ti, xi) / (ri * ri)
		for p, t := range ti {
			out[i*c+p] += 2/ri*xi[p] + f*t
		}
	}
}

// pcg solves H·x = g by conjugate gradients preconditioned with the
// Cholesky factor l of a nearby matrix (l·lᵀ ≈ H), H given by apply
// (out = H·x), until rᵀP⁻¹r ≤ pcgTol²·gᵀP⁻¹g, or pcgMaxIter iterations,
// or sooner where its rate says it would need more.
// scratch holds 4·len(g) entries. It returns the iterations and whether
// it converged; x is the last iterate either way.
func pcg(apply func(x, out []float64), l linalg.General, g, x, scratch []float64) (int, bool) {
	n := len(g)
	r, z, p, q := scratch[:n], scratch[n:2*n], scratch[2*n:3*n], scratch[3*n:4*n]
	clear(x)
	copy(r, g)
	copy(z, r)
	linalg.CholeskySolveVec(l, z)
	copy(p, z)
	rz := dotf(r, z)
	rz0 := rz
	goal := pcgTol * pcgTol * rz
	if rz <= 0 {
		return 0, rz == 0
	}
	for it := 1; it <= pcgMaxIter; it++ {
		clear(q)
		apply(p, q)
		pq := dotf(p, q)
		if pq <= 0 {
			return it, false
		}
		alpha := rz / pq
		for i := range x {
			x[i] += alpha * p[i]
			r[i] -= alpha * q[i]
		}
		copy(z, r)
		linalg.CholeskySolveVec(l, z)
		next := dotf(r, z)
		if next <= goal {
			return it, true
		}
		// From the fifth iteration on it gives up where the rate so far,
		// (rᵀP⁻¹r / gᵀP⁻¹g)^(1/it), would not reach the goal within
		// pcgMaxIter iterations: the factor is too far from H.
		if it >= 5 && (next >= rz0 || float64(it)*math.Log(pcgTol*pcgTol)/math.Log(next/rz0) > pcgMaxIter) {
			return it, false
		}
		beta := next / rz
		rz = next
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return pcgMaxIter, false
}

// pcgWork estimates the multiply-adds of one iteration of pcg on the
// barrier's Hessian: the two products with the |k|×m matrix of the z_j,
// the two triangular solves of order m·c and the vector updates.
func pcgWork(m, c, nk int) float64 {
	n := float64(m * c)
	return 4*float64(nk)*float64(m)*float64(c) + 2*n*n + 10*n
}
