package selection

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
	"sparsefs/core/sparse"
)

// This file holds the numerical engine of l20 (l20.go): Nesterov smoothing
// of the two ℓ2,1 terms and the non-monotone accelerated proximal gradient
// method (nmAPG) of An, Dong and Qin (2021), Algorithm 1.
//
// Orientation. The paper writes X as n×m (features × samples) and the loss
// as ||XᵀW − Y||_{2,1}; here A is m×p (samples × columns: the n features,
// then the bias column when there is one), so the paper's XᵀW is our A·W and
// its X·Π(·) is our Aᵀ·Π(·). W is p×c with the feature rows first.

// l21Model is the penalised model (3.2) in our orientation,
//
//	F(W) = ||AW − Y||_{2,1} + γ||W||_{2,1} + ρ(||W_F||_{2,1} − ||W_F||_{K,21}),
//
// where W_F are the first nf rows of W (the features): the bias row is
// regularised by γ but neither counted nor zeroed by the K constraint
// (docs/methods.md#bias). With ρ = 0 it is the convex model (2.1) (the
// rfs model).
//
// Its smoothing (Proposition 5.3) replaces each Euclidean norm ||v|| of a
// residual row and of a row of W by Nesterov's approximation (Theorem 4.1,
// Corollary 4.1 with Q the unit ball), which is the Huber function
//
//	h_μ(v) = ||v||²/(2μ)   if ||v|| ≤ μ,     ||v|| − μ/2   otherwise,
//
// with gradient Π_B(v/μ) (the projection of v/μ onto the unit ball). So
//
//	G_μ(W) = Σ_i h_μ(a_iW − y_i) + γ Σ_j h_μ(w^j),
//	∇G_μ(W) = Aᵀ Π((AW − Y)/μ) + γ Π(W/μ),
//	F_μ(W) = G_μ(W) + ρ H_K(W),   F_μ ≤ F ≤ F_μ + (μ/2)(m + γp)   (5.9).
//
// ∇G_μ is Lipschitz with constant (σ_max(A)² + γ)/μ; the paper states the
// larger (||A||_F² + pγ)/μ (p = its n with the bias absorbed).
type l21Model struct {
	design           // A (m×p), row-major
	y      []float64 // Y (m×c), row-major
	c      int
	nf     int // rows 0…nf−1 of W are feature rows under the K constraint
	gamma  float64
	rho    float64
	k      int
	topk   sparse.TopKRows
}

// huber returns h_μ at a vector of norm s and the factor f with
// Π_B(v/μ) = f·v.
func huber(s, mu float64) (h, f float64) {
	if s <= mu {
		return s * s / (2 * mu), 1 / mu
	}
	return s - mu/2, 1 / s
}

func rowNorm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// penalty returns H_K(W) = ||W_F||_{2,1} − ||W_F||_{K,21} (0 when ρ = 0,
// where it is not part of the model).
func (md *l21Model) penalty(w []float64) float64 {
	if md.rho == 0 || md.k >= md.nf {
		return 0
	}
	return md.topk.Gap(w[:md.nf*md.c], md.c, md.k)
}

// eval returns F_μ(W) and F(W) given aw = A·W and the penalty H_K(W) (a
// negative gap asks eval to compute it).
func (md *l21Model) eval(w, aw []float64, mu, gap float64) (smooth, exact float64) {
	c := md.c
	var ls, le, rs, re float64
	for i := 0; i < md.m; i++ {
		r, y := aw[i*c:(i+1)*c], md.y[i*c:(i+1)*c]
		s := 0.0
		for l := range r {
			d := r[l] - y[l]
			s += d * d
		}
		s = math.Sqrt(s)
		h, _ := huber(s, mu)
		ls += h
		le += s
	}
	for j := 0; j < md.p; j++ {
		s := rowNorm(w[j*c : (j+1)*c])
		h, _ := huber(s, mu)
		rs += h
		re += s
	}
	if gap < 0 {
		gap = md.penalty(w)
	}
	pen := md.rho * gap
	return ls + md.gamma*rs + pen, le + md.gamma*re + pen
}

// exact returns the exact objective F(W) given aw = A·W.
func (md *l21Model) exact(w, aw []float64) float64 {
	_, f := md.eval(w, aw, 1, -1)
	return f
}

// grad sets g = ∇G_μ(W) given aw = A·W; r (m×c) is scratch.
func (md *l21Model) grad(g, w, aw, r []float64, mu float64) {
	c := md.c
	for i := 0; i < md.m; i++ {
		ri, ai, y := r[i*c:(i+1)*c], aw[i*c:(i+1)*c], md.y[i*c:(i+1)*c]
		for l := range ri {
			ri[l] = ai[l] - y[l]
		}
		_, f := huber(rowNorm(ri), mu)
		for l := range ri {
			ri[l] *= f // Π((AW − Y)/μ), row i
		}
	}
	md.mulT(g, r, c)
	for j := 0; j < md.p; j++ {
		wj, gj := w[j*c:(j+1)*c], g[j*c:(j+1)*c]
		_, f := huber(rowNorm(wj), mu)
		for l := range gj {
			gj[l] += md.gamma * f * wj[l] // γ Π(W/μ), row j
		}
	}
}

// proxStep sets dst = prox_{(ρ/τ)H_K}(W − g/τ) (Theorem 5.1 on the feature
// rows; the bias row is not in H_K and passes unchanged) and returns
// H_K(dst).
func (md *l21Model) proxStep(dst, w, g []float64, tau float64) float64 {
	for i := range dst {
		dst[i] = w[i] - g[i]/tau
	}
	if md.rho == 0 || md.k >= md.nf {
		return 0
	}
	f := dst[:md.nf*md.c]
	return md.topk.Prox(f, f, md.c, md.k, md.rho/tau)
}

// spectralNorm2 estimates σ_max(A)², the largest eigenvalue of AᵀA, by the
// power method from a seeded random start, to a relative change of 1e−9 in
// the Rayleigh quotient (at most 1000 steps). The Rayleigh quotient is a
// lower bound; nmAPG's τ = 2L leaves a factor-two margin for it.
func spectralNorm2(a *design) float64 {
	m, p := a.m, a.p
	rng := rand.New(rand.NewPCG(0x5eed, uint64(m)*1_000_003+uint64(p)))
	v := make([]float64, p)
	av := make([]float64, m)
	for j := range v {
		v[j] = rng.NormFloat64()
	}
	normalise := func(x []float64) float64 {
		n := rowNorm(x)
		if n > 0 {
			for j := range x {
				x[j] /= n
			}
		}
		return n
	}
	normalise(v)
	lambda := 0.0
	for it := 0; it < 1000; it++ {
		a.mul(av, v, 1)
		a.mulT(v, av, 1)
		next := normalise(v) // ||AᵀAv|| with ||v|| = 1
		if next == 0 {
			return 0
		}
		if math.Abs(next-lambda) <= 1e-9*next {
			return next
		}
		lambda = next
	}
	return lambda
}

// frobenius2 returns ||A||_F².
func frobenius2(a []float64) float64 {
	s := 0.0
	for _, v := range a {
		s += v * v
	}
	return s
}

// nmapg runs Algorithm 1 (nmAPG, after Li and Lin 2015) on F_μ of an
// l21Model, one iteration at a time, with the paper's parameters (§6):
// τ = 2L_μ, δ = 0.1(τ − L_μ), η = 0.9. Every buffer is allocated once.
type nmapg struct {
	md *l21Model
	// lip is L_μ·μ, the Lipschitz constant of ∇G_μ times μ.
	lip float64

	w, wPrev, z, zNew, u, v, g    []float64 // p×c
	aw, awPrev, az, azNew, au, av []float64 // m×c: A times the above
	r                             []float64 // m×c scratch

	mu, tau, delta, eta float64
	t, tPrev, q, ck     float64
	// fw and fwExact are F_μ(W^k) and F(W^k) at the current iterate.
	fw, fwExact float64
	// accepted counts the iterations whose extrapolated point Z was
	// accepted by the first test.
	accepted int
}

func newNMAPG(md *l21Model, lip float64) *nmapg {
	pc, mc := md.p*md.c, md.m*md.c
	buf := make([]float64, 7*pc+7*mc)
	take := func(n int) []float64 {
		s := buf[:n:n]
		buf = buf[n:]
		return s
	}
	s := &nmapg{md: md, lip: lip, eta: 0.9}
	s.w, s.wPrev, s.z, s.zNew, s.u, s.v, s.g = take(pc), take(pc), take(pc), take(pc), take(pc), take(pc), take(pc)
	s.aw, s.awPrev, s.az, s.azNew, s.au, s.av, s.r = take(mc), take(mc), take(mc), take(mc), take(mc), take(mc), take(mc)
	return s
}

// setW makes w0 (p×c) the current iterate.
func (s *nmapg) setW(w0 []float64) {
	copy(s.w, w0)
	s.md.mul(s.aw, s.w, s.md.c)
}

// start begins a run of Algorithm 1 at smoothing μ from the current
// iterate: Z¹ = W¹ = W⁰, t₀ = 0, t₁ = 1, q₁ = 1, c₁ = F_μ(W¹).
func (s *nmapg) start(mu float64) {
	s.mu = mu
	l := s.lip / mu
	s.tau = 2 * l
	s.delta = 0.1 * (s.tau - l)
	copy(s.wPrev, s.w)
	copy(s.z, s.w)
	copy(s.awPrev, s.aw)
	copy(s.az, s.aw)
	s.t, s.tPrev, s.q = 1, 0, 1
	s.fw, s.fwExact = s.md.eval(s.w, s.aw, mu, -1)
	s.ck = s.fw
}

// iterate performs one iteration of Algorithm 1 and returns the relative
// step ||W^{k+1} − W^k||_F / max(||W^{k+1}||_F, 1) of rule (6.1).
func (s *nmapg) iterate() float64 {
	md := s.md
	c := md.c
	// U^k = W^k + (t_{k−1}/t_k)(Z^k − W^k) + ((t_{k−1} − 1)/t_k)(W^k − W^{k−1}),
	// and A·U^k by the same combination of the stored products.
	a1, b1 := s.tPrev/s.t, (s.tPrev-1)/s.t
	for i := range s.u {
		s.u[i] = s.w[i] + a1*(s.z[i]-s.w[i]) + b1*(s.w[i]-s.wPrev[i])
	}
	for i := range s.au {
		s.au[i] = s.aw[i] + a1*(s.az[i]-s.aw[i]) + b1*(s.aw[i]-s.awPrev[i])
	}
	// Z^{k+1} = prox_{(ρ/τ)H_K}(U^k − ∇G_μ(U^k)/τ).
	md.grad(s.g, s.u, s.au, s.r, s.mu)
	gapZ := md.proxStep(s.zNew, s.u, s.g, s.tau)
	md.mul(s.azNew, s.zNew, c)
	fz, fzExact := md.eval(s.zNew, s.azNew, s.mu, gapZ)
	dz := 0.0
	for i := range s.zNew {
		d := s.zNew[i] - s.u[i]
		dz += d * d
	}
	next, anext, f, fExact := s.zNew, s.azNew, fz, fzExact
	if fz <= s.ck-s.delta/2*dz {
		s.accepted++
	} else {
		// V^{k+1} = prox_{(ρ/τ)H_K}(W^k − ∇G_μ(W^k)/τ); keep the better.
		md.grad(s.g, s.w, s.aw, s.r, s.mu)
		gapV := md.proxStep(s.v, s.w, s.g, s.tau)
		md.mul(s.av, s.v, c)
		fv, fvExact := md.eval(s.v, s.av, s.mu, gapV)
		if fv < fz {
			next, anext, f, fExact = s.v, s.av, fv, fvExact
		}
	}
	step, norm := 0.0, 0.0
	for i, x := range next {
		d := x - s.w[i]
		step += d * d
		norm += x * x
	}
	copy(s.wPrev, s.w)
	copy(s.w, next)
	copy(s.awPrev, s.aw)
	copy(s.aw, anext)
	s.z, s.zNew = s.zNew, s.z
	s.az, s.azNew = s.azNew, s.az
	// t_{k+1} = (√(4t_k² + 1) + 1)/2; q_{k+1} = ηq_k + 1;
	// c_{k+1} = (ηq_k c_k + F_μ(W^{k+1}))/q_{k+1}.
	s.tPrev, s.t = s.t, (math.Sqrt(4*s.t*s.t+1)+1)/2
	q := s.eta*s.q + 1
	s.ck = (s.eta*s.q*s.ck + f) / q
	s.q = q
	s.fw, s.fwExact = f, fExact
	return math.Sqrt(step) / math.Max(math.Sqrt(norm), 1)
}

// design is a fixed row-major m×p matrix A (the design of l20 and topk)
// for the skinny products of the first-order solvers: A times a p×c
// weight matrix and Aᵀ times an m×c residual, with c (classes) small, at
// every iteration. They run on core/linalg with each orientation of A
// packed once, on first use (linalg.Packed), which beats gonum's Dgemm, the
// row-blocked plain-Go loops and linalg.Gemm (packing on every product)
// in both builds (BenchmarkSkinny; docs/l20.md#performance,
// docs/results.md#l20-speed). A must not change after the first product.
type design struct {
	a       []float64
	m, p    int
	pa, pat *linalg.Packed
}

// general wraps a row-major r×c slice for linalg.
func general(r, c int, d []float64) linalg.General {
	return linalg.General{Rows: r, Cols: c, Stride: c, Data: d}
}

// mul sets dst (m×c) = A·W for W p×c.
func (d *design) mul(dst, w []float64, c int) {
	if d.pa == nil {
		d.pa = linalg.Pack(general(d.m, d.p, d.a), false)
	}
	d.pa.Mul(1, general(d.p, c, w), 0, general(d.m, c, dst))
}

// mulT sets dst (p×c) = Aᵀ·G for G m×c.
func (d *design) mulT(dst, g []float64, c int) {
	if d.pat == nil {
		d.pat = linalg.Pack(general(d.m, d.p, d.a), true)
	}
	d.pat.Mul(1, general(d.m, c, g), 0, general(d.p, c, dst))
}

// denseData returns the row-major data of a with stride equal to its
// column count, copying only when a is a view with a larger stride.
func denseData(a *mat.Dense) []float64 {
	raw := a.RawMatrix()
	if raw.Stride == raw.Cols {
		return raw.Data[:raw.Rows*raw.Cols]
	}
	out := make([]float64, raw.Rows*raw.Cols)
	for i := 0; i < raw.Rows; i++ {
		copy(out[i*raw.Cols:], raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols])
	}
	return out
}
