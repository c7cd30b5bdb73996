package selection

import (
	"context"
	"math"
	"slices"
)

// Constants of barrierR1.
const (
	// r1BarrierInside scales the starting point strictly inside the
	// feasible set.
	r1BarrierInside = 0.999
	// r1BarrierNear: the rows j of W with ‖(ZᵀΘ)ʲ‖ > r1BarrierNear·λ carry
	// a barrier term (the others only bound the line search).
	r1BarrierNear = 0.5
	// r1BarrierStart and r1BarrierGoal are the first and last bounds on
	// the distance of the central point's dual value from the optimum,
	// relative to J (divided by 10 at each stage).
	r1BarrierStart = 1e-3
	r1BarrierGoal  = 1e-9
	// r1BarrierSteps bounds the Newton steps of one stage, and
	// r1BarrierMinSteps is the fewest the budget must allow for the
	// method to run at all.
	r1BarrierSteps    = 50
	r1BarrierMinSteps = 40
)

// barrierR1 maximises the dual of certifyR1,
//
//	max −⟨Θ, Y⟩  s.t. ‖θᵢ‖ ≤ 1, ‖(ZᵀΘ)ʲ‖ ≤ λ,
//
// by a log-barrier interior-point method, from th0 (a point dualR1 has
// made feasible) scaled by r1BarrierInside: Newton's method on
//
//	ψ_t(Θ) = t⟨Θ, Y⟩ − Σ_{j∈K} log(λ² − ‖(ZᵀΘ)ʲ‖²) − Σᵢ log(1 − ‖θᵢ‖²),
//
// K the rows of W near their constraint (r1BarrierNear, chosen again at
// every step), with a backtracking line search that keeps every
// constraint strict, for t growing tenfold from (2|K| + 2m)/(r1BarrierStart·J)
// until (2|K| + 2m)/t ≤ r1BarrierGoal·J (the central point's dual value is
// then within that bound of the optimum of the barrier's constraints). The
// Hessian, (Σ_{j∈K} (2/sⱼ)zⱼzⱼᵀ) ⊗ I_c + Σ_{j∈K} (4/sⱼ²)(zⱼ⊗vⱼ)(zⱼ⊗vⱼ)ᵀ plus
// the balls' blocks (sⱼ = λ² − ‖vⱼ‖², vⱼ = (ZᵀΘ)ʲ), is (mc)×(mc), formed
// with core/linalg and factorised by Cholesky. Every iterate is feasible,
// so its dual value is a true lower bound on J* wherever the method stops.
// It runs only when m·c ≤ polishMaxUnknowns and at least
// r1BarrierMinSteps steps fit budget multiply-adds; it returns the last
// iterate (feasible) and whether it ran.
func (s *irls) barrierR1(ctx context.Context, th0 []float64, budget float64) (dualPoint, bool) {
	m, c, nr := s.m, s.c, s.nr
	n := m * c
	if n > polishMaxUnknowns || s.obj <= 0 {
		return dualPoint{}, false
	}
	th := slices.Clone(th0)
	for i := range th {
		th[i] *= r1BarrierInside
	}
	v := make([]float64, nr*c)
	near := func() []int {
		s.ztMul(1, th, v)
		var k []int
		for j := 0; j < nr; j++ {
			if norm2(v[j*c:(j+1)*c]) > sq(r1BarrierNear*s.lambda) {
				k = append(k, j)
			}
		}
		return k
	}
	k := near()
	step := func(nk int) float64 {
		return float64(nk)*float64(n)*float64(n)/2 + float64(n)*float64(n)*float64(n)/3 + 4*float64(nr)*float64(n)
	}
	if budget < r1BarrierMinSteps*step(len(k)) {
		return dualPoint{}, false
	}
	lam2 := sq(s.lambda)
	// psi returns ψ_t at x, or +Inf outside the strict feasible set; vx
	// receives ZᵀΘ.
	vx := make([]float64, nr*c)
	psi := func(x []float64, t float64, k []int) float64 {
		s.ztMul(1, x, vx)
		f := 0.0
		for j := 0; j < nr; j++ {
			if norm2(vx[j*c:(j+1)*c]) >= lam2 {
				return math.Inf(1)
			}
		}
		for _, j := range k {
			f -= math.Log(lam2 - norm2(vx[j*c:(j+1)*c]))
		}
		for i := 0; i < m; i++ {
			r := 1 - norm2(x[i*c:(i+1)*c])
			if r <= 0 {
				return math.Inf(1)
			}
			f -= math.Log(r)
		}
		for i, y := range s.y {
			f += t * x[i] * y
		}
		return f
	}
	g := make([]float64, n)
	h := make([]float64, n*n)
	trial := make([]float64, n)
	var work barrierWork
	zrow := func(j int) []float64 { return s.ztRow(j) }
	vrow := func(j int) []float64 { return v[j*c : (j+1)*c] }
	for t := float64(2*len(k)+2*m) / (r1BarrierStart * s.obj); budget > 0 && ctx.Err() == nil; t *= 10 {
		for it := 0; it < r1BarrierSteps && budget > 0; it++ {
			k = near()
			budget -= step(len(k))
			// Gradient and Hessian of ψ_t.
			for i, y := range s.y {
				g[i] = t * y
			}
			work.featureTerms(k, zrow, vrow, lam2, m, c, g, h)
			for i := 0; i < m; i++ {
				ti := th[i*c : (i+1)*c]
				ri := 1 - norm2(ti)
				for p := 0; p < c; p++ {
					g[i*c+p] += 2 * ti[p] / ri
					for q := 0; q < c; q++ {
						val := 4 * ti[p] * ti[q] / (ri * ri)
						if p == q {
							val += 2 / ri
						}
						h[(i*c+p)*n+i*c+q] += val
					}
				}
			}
			moved, ok := newtonDescent(th, g, h, trial, func(x []float64) float64 { return psi(x, t, k) })
			s.stepped()
			if !ok {
				return s.finishBarrier(th), true
			}
			if !moved {
				break
			}
		}
		if float64(2*len(k)+2*m)/t <= r1BarrierGoal*s.obj {
			break
		}
	}
	return s.finishBarrier(th), true
}

// finishBarrier returns th made feasible by dualR1 (it is already, up to
// rounding) with its dual value.
func (s *irls) finishBarrier(th []float64) dualPoint {
	d, _ := s.dualR1(th)
	return dualPoint{th, d}
}
