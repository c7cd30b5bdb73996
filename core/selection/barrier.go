package selection

import "sparsefs/core/linalg"

// barrierWork holds the arrays of the interior-point solves of the duals
// (barrierR1, dsoBarrier) from one Newton step to the next: they can be
// as large as the design.
type barrierWork struct {
	zk, d1, d2, u, a []float64
}

// featureTerms sets h (n×n, n = m·c, Θ's entries row by row) to the
// Hessian of the barrier −Σ_{j∈k} log(r² − ‖v_j‖²) in Θ (m×c), v_j =
// Θᵀz_j, and adds its gradient Σ_j (2/s_j)·z_j v_jᵀ (s_j = r² − ‖v_j‖²)
// to g. The Hessian is (Σ_j (2/s_j) z_j z_jᵀ) ⊗ I_c + Σ_j (4/s_j²)
// (z_j ⊗ v_j)(z_j ⊗ v_j)ᵀ, formed with core/linalg. z(j) is z_j (m
// entries) and v(j) is v_j (c entries).
func (b *barrierWork) featureTerms(k []int, z, v func(j int) []float64, r2 float64, m, c int, g, h []float64) {
	n, nk := m*c, len(k)
	a := b.gradientAndA(k, z, v, r2, m, c, g).Data
	b.u = grow(b.u, nk*n)
	u := b.u[:nk*n]
	for q, j := range k {
		vj := v(j)
		for i, zi := range z(j) {
			for p, x := range vj {
				u[q*n+i*c+p] = zi * x
			}
		}
	}
	clear(h[:n*n])
	for i := 0; i < m; i++ {
		for l := 0; l < m; l++ {
			for p := 0; p < c; p++ {
				h[(i*c+p)*n+l*c+p] = a[i*m+l]
			}
		}
	}
	linalg.AtDA(1, gen(nk, n, u), b.d2[:nk], 1, gen(n, n, h))
}

// gradientAndA adds the barrier's gradient to g (see gradient) and
// returns A = Σ_j (2/s_j) z_j z_jᵀ (m×m, in b.a), the Kronecker factor of
// the Hessian's first term.
func (b *barrierWork) gradientAndA(k []int, z, v func(j int) []float64, r2 float64, m, c int, g []float64) linalg.General {
	nk := len(k)
	b.gradient(k, z, v, r2, m, c, g)
	b.a = grow(b.a, m*m)
	a := gen(m, m, b.a[:m*m])
	linalg.AtDA(1, gen(nk, m, b.zk[:nk*m]), b.d1[:nk], 0, a)
	return a
}

// gradient adds the gradient of the barrier −Σ_{j∈k} log(r² − ‖v_j‖²),
// Σ_j (2/s_j)·z_j v_jᵀ (s_j = r² − ‖v_j‖²), to g (m×c, row by row), sets
// b.d1 and b.d2 to 2/s_j and 4/s_j² along k, and gathers the z_j into
// b.zk (|k|×m); z(j) is z_j (m entries) and v(j) is v_j (c entries).
func (b *barrierWork) gradient(k []int, z, v func(j int) []float64, r2 float64, m, c int, g []float64) {
	nk := len(k)
	b.zk, b.d1, b.d2 = grow(b.zk, nk*m), grow(b.d1, nk), grow(b.d2, nk)
	zk, d1, d2 := b.zk[:nk*m], b.d1[:nk], b.d2[:nk]
	for q, j := range k {
		vj, zj := v(j), z(j)
		s := r2 - norm2(vj)
		copy(zk[q*m:(q+1)*m], zj)
		d1[q], d2[q] = 2/s, 4/(s*s)
		for i, zi := range zj {
			for p, x := range vj {
				g[i*c+p] += 2 * zi * x / s
			}
		}
	}
}

// descend moves x along the Newton step dx of psi (gradient g) where the
// decrement dec = dxᵀg is above 2·10⁻¹⁰: to x − t·dx for the first t = 1,
// ½, … (down to 10⁻¹²) with psi(x − t·dx) ≤ psi(x) − 10⁻⁴·t·dec
// (Armijo), trial being scratch of x's length. It reports whether x moved.
func descend(x, g, dx, trial []float64, psi func([]float64) float64) bool {
	dec := 0.0
	for i, v := range dx {
		dec += v * g[i]
	}
	if dec/2 <= 1e-10 {
		return false
	}
	f0 := psi(x)
	for step := 1.0; step > 1e-12; step /= 2 {
		for i := range trial {
			trial[i] = x[i] - step*dx[i]
		}
		if psi(trial) <= f0-1e-4*step*dec {
			copy(x, trial)
			return true
		}
	}
	return false
}
