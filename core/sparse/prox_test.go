package sparse

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Case 1 of Ming & Ding (exclusive-l21-ming-ding-2019, §4.1): a = (2, 1) in
// ‖w − a‖² + λ‖w‖₁² gives (1.75, 0.75), (1, 0), (0.1818, 0), (0.0020, 0) for
// λ = 0.1, 1, 10, 1000, printed to four decimals in the paper. By hand with
// Eq. (10): τ = 2 for λ = 0.1 (θ = 0.2/1.2·1.5 = 0.25); τ = 1 otherwise,
// θ = λ/(1+λ)·2, so w₁ = 2/(1+λ) = 1, 2/11, 2/1001.
func TestProxL1SqPaperCase1(t *testing.T) {
	for _, c := range []struct {
		lambda float64
		want   [2]float64
		exact  [2]float64
	}{
		{0.1, [2]float64{1.75, 0.75}, [2]float64{1.75, 0.75}},
		{1, [2]float64{1, 0}, [2]float64{1, 0}},
		{10, [2]float64{0.1818, 0}, [2]float64{2.0 / 11, 0}},
		{1000, [2]float64{0.0020, 0}, [2]float64{2.0 / 1001, 0}},
	} {
		w := make([]float64, 2)
		ProxL1Sq(w, []float64{2, 1}, c.lambda, make([]float64, 2))
		for i := range w {
			if math.Abs(w[i]-c.want[i]) > 5e-5 || math.Abs(w[i]-c.exact[i]) > 1e-15 {
				t.Errorf("λ=%v: w = %v, paper %v, exact %v", c.lambda, w, c.want, c.exact)
			}
		}
	}
	// Case 2: in one dimension with a = 1, w = 1/(1+λ).
	for _, lambda := range []float64{0, 0.5, 3, 1e6} {
		w := []float64{1}
		ProxL1Sq(w, w, lambda, make([]float64, 1))
		if math.Abs(w[0]-1/(1+lambda)) > 1e-15 {
			t.Errorf("case 2, λ=%v: %v", lambda, w[0])
		}
	}
}

func l1sqObjective(w, a []float64, lambda float64) float64 {
	s := 0.0
	for i := range w {
		s += (w[i] - a[i]) * (w[i] - a[i])
	}
	l := L1(w)
	return s + lambda*l*l
}

// bruteL1Sq minimises ‖w − a‖² + λ‖w‖₁² by enumerating every piece of the
// objective: each of the 3^d patterns σ ∈ {−1, 0, +1}^d fixes the support S
// and the signs, where the objective is the quadratic ‖w_S − a_S‖² +
// λ(σ_Sᵀw_S)²; its stationary point w_S = a_S − λσ_S(σ_Sᵀa_S)/(1 + λ|S|)
// (Sherman–Morrison) is a candidate when it has the signs σ. The least
// candidate is the global minimum. Nothing here uses the paper's lemmas.
func bruteL1Sq(a []float64, lambda float64) []float64 {
	d := len(a)
	best, bestW := math.Inf(1), make([]float64, d)
	sigma := make([]int, d)
	w := make([]float64, d)
	total := 1
	for range d {
		total *= 3
	}
	for code := 0; code < total; code++ {
		x, size, dot := code, 0, 0.0
		for i := range sigma {
			sigma[i] = x%3 - 1
			x /= 3
			if sigma[i] != 0 {
				size++
				dot += float64(sigma[i]) * a[i]
			}
		}
		ok := true
		for i := range w {
			w[i] = 0
			if sigma[i] != 0 {
				w[i] = a[i] - lambda*float64(sigma[i])*dot/(1+lambda*float64(size))
				if w[i]*float64(sigma[i]) < 0 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		if f := l1sqObjective(w, a, lambda); f < best {
			best = f
			copy(bestW, w)
		}
	}
	return bestW
}

func TestProxL1SqBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 2000; trial++ {
		d := 1 + rng.IntN(6)
		a := make([]float64, d)
		for i := range a {
			a[i] = rng.NormFloat64() * 3
			if rng.IntN(5) == 0 {
				a[i] = 0
			}
			if rng.IntN(7) == 0 && i > 0 {
				a[i] = -a[i-1] // ties in |a|
			}
		}
		lambda := math.Pow(10, rng.Float64()*6-3)
		got := make([]float64, d)
		ProxL1Sq(got, a, lambda, make([]float64, d))
		want := bruteL1Sq(a, lambda)
		fg, fw := l1sqObjective(got, a, lambda), l1sqObjective(want, a, lambda)
		if fg > fw*(1+1e-13)+1e-300 {
			t.Fatalf("a=%v λ=%v: prox %v (f=%v), brute force %v (f=%v)", a, lambda, got, fg, want, fw)
		}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("a=%v λ=%v: prox %v, brute force %v", a, lambda, got, want)
			}
		}
	}
}

func TestShrinkL2(t *testing.T) {
	w := []float64{3, 4}
	if r := ShrinkL2(w, w, 2.5); r != 2.5 || w[0] != 1.5 || w[1] != 2 {
		t.Errorf("shrink (3,4) by 2.5: %v, norm %v", w, r)
	}
	w = []float64{3, 4}
	if r := ShrinkL2(w, w, 5); r != 0 || w[0] != 0 || w[1] != 0 {
		t.Errorf("shrink (3,4) by 5: %v, norm %v", w, r)
	}
}

func proxObjective(w, v []float64, a, b float64) float64 {
	s := 0.0
	for i := range w {
		s += (w[i] - v[i]) * (w[i] - v[i])
	}
	l := L1(w)
	return s/2 + a*L2(w) + b*l*l
}

// admmProx minimises ½‖w − v‖² + a‖w‖₂ + b‖w‖₁² by ADMM on the split
// w = z with f(w) = ½‖w − v‖² + a‖w‖₂ (prox: ShrinkL2) and g(z) = b‖z‖₁²
// (prox: ProxL1Sq), an algorithm independent of ProxL2L1Sq's root finding.
func admmProx(v []float64, a, b float64, iters int) []float64 {
	d := len(v)
	rho := 1 + 2*b*float64(d)
	w, z, u, q := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	scratch := make([]float64, d)
	for range iters {
		for i := range q {
			q[i] = (v[i] + rho*(z[i]-u[i])) / (1 + rho)
		}
		ShrinkL2(w, q, a/(1+rho))
		for i := range q {
			q[i] = w[i] + u[i]
		}
		ProxL1Sq(z, q, 2*b/rho, scratch)
		for i := range u {
			u[i] += w[i] - z[i]
		}
	}
	return z
}

// ProxL2L1Sq against its optimality conditions (which prove optimality of a
// convex problem), against ADMM, and against its two special cases.
func TestProxL2L1Sq(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 500; trial++ {
		d := 1 + rng.IntN(8)
		v := make([]float64, d)
		for i := range v {
			v[i] = rng.NormFloat64() * 2
			if rng.IntN(6) == 0 {
				v[i] = 0
			}
		}
		a := rng.Float64() * 2 * L2(v)
		b := math.Pow(10, rng.Float64()*4-2)
		w := make([]float64, d)
		r := ProxL2L1Sq(w, v, a, b, make([]float64, d))
		if math.Abs(r-L2(w)) > 1e-14*(1+r) {
			t.Fatalf("returned norm %v, actual %v", r, L2(w))
		}
		// Optimality: 0 ∈ w − v + a∂‖w‖₂ + 2b‖w‖₁∂‖w‖₁.
		if r == 0 {
			if L2(v) > a*(1+1e-14) {
				t.Fatalf("v=%v a=%v b=%v: zero but ‖v‖ = %v > a", v, a, b, L2(v))
			}
		} else {
			l1 := L1(w)
			for i := range w {
				g := v[i] - w[i] - a*w[i]/r // must lie in 2b‖w‖₁∂|w_i|
				switch {
				case w[i] != 0:
					if want := 2 * b * l1 * math.Copysign(1, w[i]); math.Abs(g-want) > 1e-11*(1+math.Abs(v[i])) {
						t.Fatalf("v=%v a=%v b=%v w=%v: coordinate %d residual %v vs %v", v, a, b, w, i, g, want)
					}
				default:
					if math.Abs(g) > 2*b*l1*(1+1e-11)+1e-13 {
						t.Fatalf("v=%v a=%v b=%v w=%v: zero coordinate %d has |g| = %v > %v", v, a, b, w, i, math.Abs(g), 2*b*l1)
					}
				}
			}
		}
		z := admmProx(v, a, b, 20000)
		if fw, fz := proxObjective(w, v, a, b), proxObjective(z, v, a, b); fw > fz+1e-12*(1+fz) {
			t.Fatalf("v=%v a=%v b=%v: prox f=%v > ADMM f=%v", v, a, b, fw, fz)
		}
		for i := range z {
			if math.Abs(z[i]-w[i]) > 1e-7*(1+L2(v)) {
				t.Fatalf("v=%v a=%v b=%v: prox %v, ADMM %v", v, a, b, w, z)
			}
		}
		// Special cases: b → 0 is ShrinkL2, a = 0 is Theorem 5 with λ = 2b.
		ws, wt := make([]float64, d), make([]float64, d)
		ProxL2L1Sq(ws, v, a, 0, make([]float64, d))
		ShrinkL2(wt, v, a)
		for i := range ws {
			if ws[i] != wt[i] {
				t.Fatalf("b = 0: %v vs ShrinkL2 %v", ws, wt)
			}
		}
		ProxL2L1Sq(ws, v, 0, b, make([]float64, d))
		ProxL1Sq(wt, v, 2*b, make([]float64, d))
		for i := range ws {
			if math.Abs(ws[i]-wt[i]) > 1e-15*(1+math.Abs(v[i])) {
				t.Fatalf("a = 0: %v vs ProxL1Sq %v", ws, wt)
			}
		}
	}
}

func TestRowNorms(t *testing.T) {
	w := []float64{3, -4, 0, 0, 1, 1}
	if got := RowsL21(w, 2); got != 5+math.Sqrt2 {
		t.Errorf("RowsL21 = %v", got)
	}
	if got := RowsL12Sq(w, 2); got != 49+4 {
		t.Errorf("RowsL12Sq = %v", got)
	}
	if got := RowsL2p(w, 2, 0.5); math.Abs(got-(math.Sqrt(5)+math.Pow(2, 0.25))) > 1e-15 {
		t.Errorf("RowsL2p = %v", got)
	}
	if got := L2([]float64{3e200, 4e200}); math.Abs(got-5e200) > 1e186 {
		t.Errorf("L2 overflow guard: %v", got)
	}
}

func BenchmarkProxL2L1Sq(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{4, 26} {
		v := make([]float64, d)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		w, s := make([]float64, d), make([]float64, d)
		b.Run("c="+itoa(d), func(b *testing.B) {
			for b.Loop() {
				ProxL2L1Sq(w, v, 0.3, 0.2, s)
			}
		})
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// Moreau's identity: for w = prox_h(v) and u = v − w ∈ ∂h(w), the
// Fenchel–Young inequality h(w) + h*(u) ≥ ⟨u, w⟩ holds with equality; at
// other points it is strict or equal, never violated.
func TestConjL2L1Sq(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 2000; trial++ {
		d := 1 + rng.IntN(7)
		v := make([]float64, d)
		for i := range v {
			v[i] = rng.NormFloat64() * 2
		}
		a := rng.Float64() * 2 * L2(v)
		b := math.Pow(10, rng.Float64()*4-2)
		if trial%5 == 0 {
			a = 0
		}
		w, u, s := make([]float64, d), make([]float64, d), make([]float64, d)
		ProxL2L1Sq(w, v, a, b, s)
		dot := 0.0
		for i := range u {
			u[i] = v[i] - w[i]
			dot += u[i] * w[i]
		}
		l1 := L1(w)
		hw := a*L2(w) + b*l1*l1
		hs := ConjL2L1Sq(u, a, b, s)
		if math.Abs(hw+hs-dot) > 1e-10*(1+math.Abs(hw)+math.Abs(hs)) {
			t.Fatalf("v=%v a=%v b=%v: h(w)=%v h*(u)=%v ⟨u,w⟩=%v", v, a, b, hw, hs, dot)
		}
		// Fenchel–Young at a random pair.
		z := make([]float64, d)
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		l1 = L1(z)
		hz := a*L2(z) + b*l1*l1
		dz := 0.0
		for i := range z {
			dz += u[i] * z[i]
		}
		if hz+hs < dz-1e-10*(1+math.Abs(dz)) {
			t.Fatalf("Fenchel–Young violated: %v + %v < %v", hz, hs, dz)
		}
	}
	if ConjL2L1Sq([]float64{3, 4}, 5, 0, make([]float64, 2)) != 0 || !math.IsInf(ConjL2L1Sq([]float64{3, 4}, 4.9, 0, make([]float64, 2)), 1) {
		t.Error("b = 0: not the indicator of the ball")
	}
}
