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
	// r1BarrierNear: where the Hessian is formed, the rows j of W with
	// ‖(ZᵀΘ)ʲ‖ > r1BarrierNear·λ carry a barrier term (the others only
	// bound the line search).
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
	// r1BarrierSplitFloor is the work (multiply-adds) barrierR1 may
	// always take where its steps go through r1Split, ~10–15 s natively:
	// madelon (2600 × 500, two classes, ~1.35·10⁹ a step) reaches
	// r1BarrierGoal in 81 steps.
	r1BarrierSplitFloor = 1.5e11
	// r1BarrierFormedMax bounds m·c, the order of the formed Hessian
	// (16·10⁶ float64s, 128 MB, at the bound), and r1BarrierFormedFloor
	// is the work barrierR1 may always take where m·c is above
	// polishMaxUnknowns and the Hessian is formed, ~4–6 minutes
	// natively: the text sets (BASEHOCK, 1993 × 4862, two classes,
	// ~5·10¹⁰ a step) reach r1BarrierGoal in about 90 steps.
	r1BarrierFormedMax   = 4000
	r1BarrierFormedFloor = 6e12
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
// K the rows of W in the barrier, with a backtracking line search that
// keeps every constraint strict (the full step, without it, once the
// Newton decrement is below ¼), for t growing tenfold from
// (2|K| + 2m)/(r1BarrierStart·J) until (2|K| + 2m)/t ≤ r1BarrierGoal·J
// (the central point's dual value is then within that bound of the
// optimum of the barrier's constraints), or until a stage raises the
// dual value by less than r1BarrierGoal·J, or the primal and dual points
// meet within it. The Hessian, (Σ_{j∈K} (2/sⱼ)zⱼzⱼᵀ) ⊗ I_c +
// Σ_{j∈K} (4/sⱼ²)(zⱼ⊗vⱼ)(zⱼ⊗vⱼ)ᵀ plus the balls' blocks (sⱼ = λ² − ‖vⱼ‖²,
// vⱼ = (ZᵀΘ)ʲ), is (mc)×(mc). It is formed (featureTerms) and factorised
// by Cholesky, with K the rows near their constraint (r1BarrierNear,
// chosen again at every step), while mc ≤ r1BarrierFormedMax (beyond
// polishMaxUnknowns the factor is kept and the next steps solved by
// conjugate gradients preconditioned with it, pcg, while they converge
// within half of pcgMaxIter iterations); or each step
// is solved through r1Split's system of |K|c unknowns, with K every row
// of W (|K|c ≤ r1SplitMaxUnknowns; without their own barrier terms the
// rows outside K blocked the steps: on madelon 50 steps did not centre
// the first stage), where mc > polishMaxUnknowns and that step is the
// cheaper (madelon, with mc above r1BarrierFormedMax). Where mc >
// polishMaxUnknowns and floors is set (the certificate is still above
// certGap: the solve is what certifies, not a tightening of a
// certificate already given) the budget is at least
// r1BarrierFormedFloor or r1BarrierSplitFloor, by the route. Every
// iterate is feasible, so its dual value is a true lower bound on J*
// wherever the method stops. It runs only when at
// least r1BarrierMinSteps steps fit budget multiply-adds, and returns
// the last iterate (feasible), the lowest of the primal points of the
// barrier at the end of each stage (see barrierPrimal; nil where none
// ended), the Newton steps taken and whether it ran.
func (s *irls) barrierR1(ctx context.Context, th0 []float64, budget float64, floors bool) (dp dualPoint, primal *polishState, steps int, ran bool) {
	m, c, nr := s.m, s.c, s.nr
	n := m * c
	if s.obj <= 0 || s.noBarrier {
		return dualPoint{}, nil, 0, false
	}
	th := slices.Clone(th0)
	for i := range th {
		th[i] *= r1BarrierInside
	}
	// The route: the formed Hessian with K the rows near their
	// constraint, or r1Split with K every row of W, whichever step is
	// cheaper where both fit their bounds.
	near2 := sq(r1BarrierNear * s.lambda)
	v := make([]float64, nr*c)
	near := func() []int {
		s.ztMul(1, th, v)
		var k []int
		for j := 0; j < nr; j++ {
			if norm2(v[j*c:(j+1)*c]) > near2 {
				k = append(k, j)
			}
		}
		return k
	}
	k := near()
	formed := n <= r1BarrierFormedMax
	useSplit := n > polishMaxUnknowns && nr*c <= r1SplitMaxUnknowns &&
		(!formed || r1SplitWork(m, c, nr) < formedWork(m, c, len(k)))
	switch {
	case useSplit:
		if floors {
			budget = math.Max(budget, r1BarrierSplitFloor)
		}
		near2 = -1
		k = near()
	case !formed:
		return dualPoint{}, nil, 0, false
	case n > polishMaxUnknowns && floors:
		budget = math.Max(budget, r1BarrierFormedFloor)
	}
	step := func(nk int) float64 {
		if useSplit {
			return r1SplitWork(m, c, nk) + 4*float64(nr)*float64(n)
		}
		return formedWork(m, c, nk) + 4*float64(nr)*float64(n)
	}
	if budget < r1BarrierMinSteps*step(len(k)) {
		return dualPoint{}, nil, 0, false
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
	dx := make([]float64, n)
	trial := make([]float64, n)
	var h []float64
	var work barrierWork
	var sw r1Split
	lastD := math.Inf(-1)
	lost := false
	zrow := func(j int) []float64 { return s.ztRow(j) }
	vrow := func(j int) []float64 { return v[j*c : (j+1)*c] }
	// Where the formed Hessian is beyond polishMaxUnknowns its Cholesky
	// factor is kept (factored) and the next steps are solved by
	// conjugate gradients preconditioned with it, the Hessian applied
	// without forming it (on PCMAC 29 factorisations in 90 steps). A
	// solve that does not converge (pcg gives up where its rate would
	// need more than pcgMaxIter iterations) is replaced by a fresh
	// factorisation, and so are the next wait steps (backoff: 1, 2, 4, …
	// after failures in a row); one that needs more than half of
	// pcgMaxIter has the next step factorise afresh.
	reuse := !useSplit && n > polishMaxUnknowns
	factored := false
	wait, backoff := 0, 0
	var scratch, u []float64
	hx := func(x, out []float64) {
		work.featureProduct(k, vrow, m, c, x, out, u)
		ballProduct(th, m, c, x, out)
	}
	for t := float64(2*len(k)+2*m) / (r1BarrierStart * s.obj); budget > 0 && ctx.Err() == nil; t *= 10 {
		lastDec := math.Inf(1)
		// fresh: dx is the Newton step at th.
		fresh := false
		for it := 0; it < r1BarrierSteps && budget > 0; it++ {
			k = near()
			if !reuse || !factored || wait > 0 {
				budget -= step(len(k))
			}
			// Gradient and Hessian of ψ_t, the balls' terms here, the
			// features' by the route.
			for i, y := range s.y {
				g[i] = t * y
			}
			for i := 0; i < m; i++ {
				ti := th[i*c : (i+1)*c]
				ri := 1 - norm2(ti)
				for p := 0; p < c; p++ {
					g[i*c+p] += 2 * ti[p] / ri
				}
			}
			var ok bool
			switch {
			case useSplit:
				ok = sw.direction(k, zrow, vrow, lam2, m, c, th, g, dx)
			default:
				work.gradient(k, zrow, vrow, lam2, m, c, g)
				if reuse && factored && wait == 0 {
					scratch, u = grow(scratch, 4*n), grow(u, len(k)*c)
					its, done := pcg(hx, gen(n, n, h), g, dx, scratch)
					budget -= float64(its)*pcgWork(m, c, len(k)) + 4*float64(nr)*float64(n)
					if done {
						ok, factored, backoff = true, its <= pcgMaxIter/2, 0
						break
					}
					budget -= step(len(k))
					backoff = max(1, 2*backoff)
					wait = backoff
				} else if wait > 0 {
					wait--
				}
				h = grow(h, n*n)
				work.featureHessian(k, vrow, m, c, h)
				ballTerms(th, m, c, h[:n*n])
				copy(dx, g)
				ok = cholSolveShifted(gen(n, n, h), gen(n, 1, dx))
				factored = ok
			}
			s.stepped()
			steps++
			if !ok {
				return s.finishBarrier(th), primal, steps, true
			}
			fresh = true
			// Near the central point (Newton decrement below ¼, where ψ_t's
			// self-concordance makes the full step converge quadratically)
			// the full step is taken without the line search, whose test
			// cannot resolve the last decreases of ψ_t (about t·J), until
			// the decrement stops falling fourfold.
			dec := dotf(dx, g)
			if dec <= 0 {
				// The step is no descent direction: the solve has lost
				// the accuracy the stage needs (r1Split on madelon beyond
				// t ≈ 5·10⁶ when its steps were refined against H rather
				// than in the augmented form), and the stages after it
				// would too.
				lost = true
				break
			}
			if dec/2 <= 1e-20 || dec >= lastDec/4 {
				break
			}
			if dec < sq(0.25) {
				lastDec = dec
				for i := range trial {
					trial[i] = th[i] - dx[i]
				}
				if math.IsInf(psi(trial, t, k), 1) {
					break
				}
				copy(th, trial)
				fresh = false
				continue
			}
			if !descend(th, g, dx, trial, func(x []float64) float64 { return psi(x, t, k) }) {
				break
			}
			fresh = false
		}
		// The stage's primal point, and its dual value (th made feasible,
		// on a copy).
		var dv []float64
		if fresh {
			dv = make([]float64, nr*c)
			s.ztMul(-1, dx, dv)
		}
		if p := s.barrierPrimal(near(), v, dv, t); primal == nil || p.obj < primal.obj {
			primal = p
		}
		d, _ := s.dualR1(slices.Clone(th))
		// It stops where the dual value is within r1BarrierGoal of the
		// optimum of the barrier's constraints, where the primal and
		// dual points are within it of each other, or where a stage did
		// not raise the dual value by r1BarrierGoal or met a step that
		// was no descent direction (from here the Newton systems lack the
		// accuracy a central point needs).
		gap := (math.Min(primal.obj, s.obj) - d) / s.obj
		if lost || float64(2*len(k)+2*m)/t <= r1BarrierGoal*s.obj || gap <= r1BarrierGoal || d-lastD <= r1BarrierGoal*s.obj {
			break
		}
		lastD = d
	}
	return s.finishBarrier(th), primal, steps, true
}

// ballTerms adds the Hessian of −Σᵢ log(1 − ‖θᵢ‖²) at Θ = th (m×c, row
// by row) to h ((mc)×(mc)): the blocks (2/rᵢ)I + (4/rᵢ²)θᵢθᵢᵀ, rᵢ =
// 1 − ‖θᵢ‖².
func ballTerms(th []float64, m, c int, h []float64) {
	n := m * c
	for i := 0; i < m; i++ {
		ti := th[i*c : (i+1)*c]
		ri := 1 - norm2(ti)
		for p := 0; p < c; p++ {
			for q := 0; q < c; q++ {
				val := 4 * ti[p] * ti[q] / (ri * ri)
				if p == q {
					val += 2 / ri
				}
				h[(i*c+p)*n+i*c+q] += val
			}
		}
	}
}

// barrierPrimal returns the primal point of barrierR1's iterate for the
// barrier parameter t. At Θ, the Newton step Δ of ψ_t satisfies
// ∇ψ_t + ∇²ψ_t·Δ = 0, which row i reads
//
//	t·yᵢ + Σ_{j∈K} zᵢⱼ·(∇bⱼ + ∇²bⱼ·Δvⱼ) + (∇βᵢ + ∇²βᵢ·Δθᵢ) = 0,
//
// bⱼ(v) = −log(λ² − ‖v‖²) and βᵢ(θ) = −log(1 − ‖θ‖²) the barrier's terms,
// Δvⱼ = (ZᵀΔ)ʲ. So W with rows wʲ = −(∇bⱼ + ∇²bⱼ·Δvⱼ)/t =
// −((2/sⱼ)(vⱼ + Δvⱼ) + (4/sⱼ²)vⱼ(vⱼᵀΔvⱼ))/t on K (zero elsewhere) has
// residual rows eᵢ = (ZW − Y)ᵢ = (∇βᵢ + ∇²βᵢ·Δθᵢ)/t, and, at the central
// point (Δ = 0), a J above the dual value by at most (2|K| + 2m)/t (the
// barrier's degree over t); the step makes the relation exact off it, to
// first order. Wherever Θ is, W is a primal point, at its exact J. The
// answer is W, or W with its rows below the sparsity level set to zero
// (sparsified), whichever has the lower J; k lists K, v holds ZᵀΘ and
// dv ZᵀΔ (nr×c; nil for Δ = 0).
func (s *irls) barrierPrimal(k []int, v, dv []float64, t float64) *polishState {
	c, lam2 := s.c, sq(s.lambda)
	st := &polishState{sup: k, w: make([]float64, s.nr*c), e: make([]float64, s.m*c)}
	for _, j := range k {
		vj := v[j*c : (j+1)*c]
		sj := lam2 - norm2(vj)
		wj := st.w[j*c : (j+1)*c]
		for p, x := range vj {
			wj[p] = -2 * x / (t * sj)
		}
		if dv != nil {
			dj := dv[j*c : (j+1)*c]
			f := 4 * dotf(vj, dj) / (sj * sj)
			for p, x := range dj {
				wj[p] -= (2*x/sj + f*vj[p]) / t
			}
		}
	}
	s.restrict(st)
	if sp := s.sparsified(st); sp.obj < st.obj {
		return sp
	}
	return st
}

// finishBarrier returns th made feasible by dualR1 (it is already, up to
// rounding) with its dual value.
func (s *irls) finishBarrier(th []float64) dualPoint {
	d, _ := s.dualR1(th)
	return dualPoint{th, d}
}
