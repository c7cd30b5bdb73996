package selection

import "sparsefs/core/linalg"

// barrierWork holds the arrays of the interior-point solves of the duals
// (barrierR1, dsoBarrier) from one Newton step to the next: they can be
// as large as the design.
type barrierWork struct {
	zk, d1, d2, wt, a []float64
}

// featureTerms sets h (n×n, n = m·c, Θ's entries row by row) to the
// Hessian of the barrier −Σ_{j∈k} log(r² − ‖v_j‖²) in Θ (m×c), v_j =
// Θᵀz_j, and adds its gradient Σ_j (2/s_j)·z_j v_jᵀ (s_j = r² − ‖v_j‖²)
// to g. The Hessian is Σ_j (z_j z_jᵀ) ⊗ ((2/s_j)I_c + (4/s_j²)v_j v_jᵀ),
// formed by blockGram (c(c+1)/2 weighted products of the |k|×m matrix of
// the z_j). z(j) is z_j (m entries) and v(j) is v_j (c entries).
func (b *barrierWork) featureTerms(k []int, z, v func(j int) []float64, r2 float64, m, c int, g, h []float64) {
	b.gradient(k, z, v, r2, m, c, g)
	b.featureHessian(k, v, m, c, h)
}

// featureHessian sets h to the Hessian of featureTerms from b.zk, b.d1
// and b.d2 as gradient set them for k.
func (b *barrierWork) featureHessian(k []int, v func(j int) []float64, m, c int, h []float64) {
	n, nk := m*c, len(k)
	b.a, b.wt = grow(b.a, m*m), grow(b.wt, nk)
	d1, d2 := b.d1[:nk], b.d2[:nk]
	block := func(i, p, q int) float64 {
		vj := v(k[i])
		w := d2[i] * vj[p] * vj[q]
		if p == q {
			w += d1[i]
		}
		return w
	}
	blockGram(true, gen(nk, m, b.zk[:nk*m]), c, block, b.wt, gen(m, m, b.a[:m*m]), gen(n, n, h[:n*n]))
}

// formedWork estimates the multiply-adds of featureTerms and the Cholesky
// factorisation of the Hessian it forms, for m samples, c classes and nk
// rows in k: (c(c+1)/2)·nk·m²/2 + (mc)³/3.
func formedWork(m, c, nk int) float64 {
	fm, fc, n := float64(m), float64(c), float64(m*c)
	return fc*(fc+1)/2*float64(nk)*fm*fm/2 + n*n*n/3
}

// blockGram sets h ((dc)×(dc), its entries in blocks of c) to
// Σᵢ (aᵢaᵢᵀ) ⊗ Bᵢ, aᵢ the i-th row of a (trans: a is N×d) or its i-th
// column (a is d×N), Bᵢ the symmetric c×c block whose (p, q) entry is
// block(i, p, q): c(c+1)/2 weighted products (AtDA or ADAt), each made in
// gram (d×d) and copied to the blocks' (p, q) and (q, p) entries. wt is
// scratch of N entries.
func blockGram(trans bool, a linalg.General, c int, block func(i, p, q int) float64, wt []float64, gram, h linalg.General) {
	d, ni := a.Rows, a.Cols
	if trans {
		d, ni = a.Cols, a.Rows
	}
	for p := 0; p < c; p++ {
		for q := p; q < c; q++ {
			for i := range ni {
				wt[i] = block(i, p, q)
			}
			if trans {
				linalg.AtDA(1, a, wt[:ni], 0, gram)
			} else {
				linalg.ADAt(1, a, wt[:ni], 0, gram)
			}
			for x := 0; x < d; x++ {
				for y, val := range gram.Data[x*gram.Stride : x*gram.Stride+d] {
					h.Data[(x*c+p)*h.Stride+y*c+q] = val
					h.Data[(x*c+q)*h.Stride+y*c+p] = val
				}
			}
		}
	}
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
