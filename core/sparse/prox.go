package sparse

import (
	"math"
	"slices"
)

// ShrinkL2 writes into dst the proximal map of t‖·‖₂ at v, the row
// shrinkage of the ℓ2,1 norm,
//
//	argmin_w ½‖w − v‖² + t‖w‖₂ = [1 − t/‖v‖₂]₊ v,
//
// and returns the norm of the result. dst may alias v. t ≥ 0.
func ShrinkL2(dst, v []float64, t float64) float64 {
	if len(dst) != len(v) {
		panic("sparse: length mismatch")
	}
	r := L2(v)
	if r <= t {
		clear(dst)
		return 0
	}
	f := 1 - t/r
	for i, x := range v {
		dst[i] = f * x
	}
	return r - t
}

// L1SqThreshold returns the threshold θ of Theorem 5 of Ming & Ding
// (exclusive-l21-ming-ding-2019), found by Algorithm 1:
//
//	θ = λτ/(1+λτ) · μ_τ,   μ_τ = (1/τ) Σ_{i≤τ} |a_{S_i}|,
//
// with |a_{S_1}| ≥ |a_{S_2}| ≥ … and τ the largest index with
// |a_{S_τ}| − θ_τ > 0. The minimiser of ‖w − a‖² + λ‖w‖₁² is then
// sign(a) ⊙ [|a| − θ]₊ (Eq. 10). scratch must have len(a) elements; its
// content is destroyed.
func L1SqThreshold(a []float64, lambda float64, scratch []float64) float64 {
	d := len(a)
	if d == 0 {
		return 0
	}
	s := scratch[:d]
	for i, x := range a {
		s[i] = math.Abs(x)
	}
	slices.Sort(s) // ascending: |a_{S_i}| = s[d−i]
	abs := func(i int) float64 { return s[d-i] }
	sum := 0.0
	for _, x := range s {
		sum += x
	}
	// frac(τ) = λτ/(1+λτ), written to stay finite for any λ ≥ 0.
	frac := func(tau int) float64 { return 1 / (1 + 1/(lambda*float64(tau))) }
	// Algorithm 1: start from τ = d and drop the smallest entry while it
	// would be thresholded below zero (μ_τ kept as the running sum).
	tau := d
	for tau > 1 && abs(tau)-frac(tau)*sum/float64(tau) < 0 {
		sum -= abs(tau)
		tau--
	}
	return frac(tau) * sum / float64(tau)
}

// ProxL1Sq writes into dst the minimiser of the exclusive-lasso proximal
// problem in the form of Ming & Ding, Eq. (3),
//
//	argmin_w ‖w − a‖² + λ‖w‖₁²,
//
// given by Theorem 5 (Eq. 10) with τ and μ_τ from Algorithm 1. dst may alias
// a; scratch must have len(a) elements. λ ≥ 0.
func ProxL1Sq(dst, a []float64, lambda float64, scratch []float64) {
	if len(dst) != len(a) || len(scratch) < len(a) {
		panic("sparse: length mismatch")
	}
	theta := L1SqThreshold(a, lambda, scratch)
	softThreshold(dst, a, theta)
}

// softThreshold writes sign(v) ⊙ [|v| − θ]₊ into dst.
func softThreshold(dst, v []float64, theta float64) {
	for i, x := range v {
		switch {
		case x > theta:
			dst[i] = x - theta
		case x < -theta:
			dst[i] = x + theta
		default:
			dst[i] = 0
		}
	}
}

// ProxL2L1Sq writes into dst the proximal map of the exclusive ℓ2,1 row
// penalty h(w) = a‖w‖₂ + b‖w‖₁² (Ming & Ding, Eq. 14, one row):
//
//	argmin_w ½‖w − v‖² + a‖w‖₂ + b‖w‖₁²,    a, b ≥ 0,
//
// and returns the ℓ2 norm of the result. dst may alias v; scratch must have
// len(v) elements.
//
// Derivation (ours; the paper splits the two terms with an ALM instead).
// As in Lemma 1 of the paper, the minimiser keeps the signs of v, so write
// w = sign(v)⊙x with x ≥ 0 and u = |v|. The minimiser is 0 exactly when
// ‖u‖₂ ≤ a (the subdifferential of b‖·‖₁² at 0 is {0}). Otherwise on the
// support of x the optimality conditions read
//
//	x_i − u_i + a·x_i/‖x‖₂ + 2b‖x‖₁ = 0,
//
// so with θ = 2b‖x‖₁ and z(θ) = [u − θ]₊ we get x = z(θ)/(1 + a/‖x‖₂),
// hence ‖x‖₂ = ‖z(θ)‖₂ − a and x = (1 − a/‖z(θ)‖₂)·z(θ). Substituting in the
// definition of θ leaves one scalar equation
//
//	φ(θ) = θ − 2b‖z(θ)‖₁·[1 − a/‖z(θ)‖₂]₊ = 0,
//
// whose left side increases strictly from φ(0) < 0 to φ(max u) > 0, so it
// has one root. Between two consecutive sorted entries of u the support is
// fixed and ‖z‖₁, ‖z‖₂² are polynomials in θ; the bracket is found by a scan
// over the sorted entries and the root by safeguarded Newton steps. With
// a = 0 this is Theorem 5 (λ = 2b); with b = 0 it is ShrinkL2.
func ProxL2L1Sq(dst, v []float64, a, b float64, scratch []float64) float64 {
	if len(dst) != len(v) || len(scratch) < len(v) {
		panic("sparse: length mismatch")
	}
	if b == 0 {
		return ShrinkL2(dst, v, a)
	}
	if a == 0 {
		theta := L1SqThreshold(v, 2*b, scratch)
		softThreshold(dst, v, theta)
		return L2(dst)
	}
	norm := L2(v)
	if norm <= a {
		clear(dst)
		return 0
	}
	d := len(v)
	s := scratch[:d]
	for i, x := range v {
		s[i] = math.Abs(x)
	}
	slices.Sort(s)
	u := func(i int) float64 { // u_(i), 1-based, descending; u_(d+1) = 0
		if i > d {
			return 0
		}
		return s[d-i]
	}
	// φ on the piece where the top τ entries are active.
	phi := func(theta float64, tau int, s1, s2 float64) (f, df float64) {
		t := float64(tau)
		n1 := s1 - t*theta
		q2 := s2 - 2*theta*s1 + t*theta*theta
		if q2 <= a*a || n1 <= 0 {
			return theta, 1
		}
		q := math.Sqrt(q2)
		g := 1 - a/q
		// d/dθ of n1·g: n1' = −τ, q' = (τθ − s1)/q, g' = a·q'/q².
		dq := (t*theta - s1) / q
		dg := a * dq / q2
		return theta - 2*b*n1*g, 1 + 2*b*(t*g-n1*dg)
	}
	s1, s2 := 0.0, 0.0
	tau := 0
	var lo, hi float64
	for tau = 1; tau <= d; tau++ {
		ui := u(tau)
		s1 += ui
		s2 += ui * ui
		lo, hi = u(tau+1), ui
		if f, _ := phi(lo, tau, s1, s2); f <= 0 {
			break
		}
	}
	if tau > d { // cannot happen: φ(0) < 0 on the last piece
		tau = d
	}
	// Safeguarded Newton on [lo, hi] where φ(lo) ≤ 0 < φ(hi).
	theta := lo
	for it := 0; it < 100; it++ {
		f, df := phi(theta, tau, s1, s2)
		if f == 0 {
			break
		}
		if f < 0 {
			lo = theta
		} else {
			hi = theta
		}
		next := theta - f/df
		if !(next > lo && next < hi) {
			next = lo + (hi-lo)/2
		}
		if next == theta || hi-lo <= 4e-16*hi {
			theta = next
			break
		}
		theta = next
	}
	softThreshold(dst, v, theta)
	z := L2(dst)
	if z <= a {
		clear(dst)
		return 0
	}
	f := 1 - a/z
	for i := range dst {
		dst[i] *= f
	}
	return z - a
}

// ConjL2L1Sq returns the convex conjugate of the exclusive ℓ2,1 row penalty
// h(w) = a‖w‖₂ + b‖w‖₁² at u, h*(u) = sup_w ⟨u, w⟩ − h(w), for a, b ≥ 0.
// It gives duality gaps (lower bounds on the optimum) for models with this
// penalty.
//
// Derivation: h* is the infimal convolution of (a‖·‖₂)*, the indicator of
// the ℓ2 ball of radius a, and (b‖·‖₁²)*(u) = ‖u‖_∞²/(4b) (maximise
// r‖u‖_∞ − br² over r = ‖w‖₁). Hence h*(u) = d(u)²/(4b) where d(u) is the
// ℓ∞ distance from u to the ball: the least t ≥ 0 for which the box
// [u − t, u + t] meets the ball, i.e. for which its point nearest the origin,
// sign(u)⊙[|u| − t]₊, has norm ≤ a. On each piece between sorted |u_i| that
// norm squared is τt² − 2S₁t + S₂, so t solves a quadratic. With b = 0, h*
// is the indicator of the ball (0 or +Inf). scratch must have len(u)
// elements.
func ConjL2L1Sq(u []float64, a, b float64, scratch []float64) float64 {
	norm := L2(u)
	if norm <= a {
		return 0
	}
	if b == 0 {
		return math.Inf(1)
	}
	d := len(u)
	s := scratch[:d]
	for i, x := range u {
		s[i] = math.Abs(x)
	}
	slices.Sort(s)
	a2 := a * a
	s1, s2 := 0.0, 0.0
	t := 0.0
	for tau := 1; tau <= d; tau++ {
		ui := s[d-tau]
		s1 += ui
		s2 += ui * ui
		next := 0.0
		if tau < d {
			next = s[d-tau-1]
		}
		// ‖[|u| − t]₊‖² at t = next with the top τ active.
		ft := float64(tau)
		if ft*next*next-2*s1*next+s2 >= a2 || tau == d {
			// Root of τt² − 2S₁t + S₂ − a² in [next, u_(τ)], the smaller
			// one, written without cancellation.
			// The discriminant S₁² − τ(S₂ − a²) = τ(a² − V) with V the
			// spread Σ(|u_i| − μ)² of the active entries about their mean,
			// summed directly to avoid cancellation.
			mu, v := s1/ft, 0.0
			for _, x := range s[d-tau:] {
				v += (x - mu) * (x - mu)
			}
			disc := math.Max(ft*(a2-v), 0)
			t = (s2 - a2) / (s1 + math.Sqrt(disc))
			break
		}
	}
	return t * t / (4 * b)
}
