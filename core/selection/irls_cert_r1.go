package selection

import (
	"context"
	"math"
	"slices"

	"sparsefs/core/linalg"
)

// Constants of the certificate for r = 1 (see certifyR1).
const (
	// r1ExactFit: a residual row with ‖eᵢ‖ ≤ r1ExactFit·rms‖yᵢ‖ counts
	// as fitted exactly, and its dual row is solved for.
	r1ExactFit = 1e-6
	// r1Pivots bounds the rounds in which a solved dual row outside the
	// unit ball is fixed on its boundary and the others solved again.
	r1Pivots = 5
	// r1SmoothFrom and r1SmoothTo are the first and last smoothing μ of
	// smoothR1, relative to rms‖yᵢ‖ (divided by 10 at each stage).
	// Below 10⁻⁶ the Newton systems of nearly linear programmes (c = 2)
	// lose the accuracy the dual point needs (measured on the demo).
	r1SmoothFrom = 1e-4
	r1SmoothTo   = 1e-6
	// r1SmoothFloor is the work (multiply-adds) smoothR1 may always
	// take, ~10–40 ms natively: its stages need tens of Newton steps.
	r1SmoothFloor = 2e8
	// r1SmoothTallFloor is the work smoothR1 may always take where the
	// support is smaller than m (its first resort there) and its Newton
	// systems are formed (see smoothByCG), ~1 s natively, as faceR1's
	// r1FaceFloor. It does not allow madelon (2600 × 500, two classes,
	// ~1.6·10⁹ a step) r1SmoothMinSteps: there the stages, given 76
	// steps, left the gap at 0.5 (a row outside S violating its condition
	// 3.4 times over, with the Newton steps after it entered far from
	// converged).
	r1SmoothTallFloor = 2.5e10
	// r1SmoothCGFloor is the same where the steps are taken by conjugate
	// gradients (newtonStepCG), ~10–30 s natively: COIL20 (1440 × 1024, 20
	// classes, ~3·10⁹ a step) certifies in 51 steps, Isolet (1560 × 617,
	// 26 classes) in 13, USPS in 5, the digits in 9, where the
	// multipliers leave gaps of 0.12, 5.2·10⁻³, (at the change rule's
	// stop) 10⁻² and 6.5·10⁻³.
	r1SmoothCGFloor = 2.5e11
	// r1FaceFloor is the work (multiply-adds) faceR1 may always take to
	// reach certGap, ~1 s natively: ORL (400 × 1024, 40 classes, ~8·10⁸
	// a step) takes 24 steps with rfs; beyond r1SmoothFloor (or the
	// polish's share of the iteration's work) it stops at certGap.
	r1FaceFloor = 2.5e10
	// r1RawSteps is the number of full Newton steps smoothR1 takes after
	// the line-searched ones, for the accuracy of the dual point.
	r1RawSteps = 2
	// r1SmoothMinSteps is the fewest Newton steps the budget must allow
	// for smoothR1 to run: cut shorter, its stages end far from their
	// minima and its dual point is poor (madelon: 24 steps, gap 0.43, at
	// more than the fit's cost).
	r1SmoothMinSteps = 30
	// r1CorrectBudget bounds correctR1's work as a multiple of the
	// iteration's (at least polishFloor).
	r1CorrectBudget = 0.1
)

// certifyR1 bounds how far the iterate is from the optimum, for r = p = 1
// (rfs, gsr with r = p = 1), by a feasible point of the dual of the model
// (see certify),
//
//	J* = max_Θ −⟨Θ, Y⟩   s.t. ‖θᵢ‖ ≤ 1 for every sample i,
//	                          ‖(ZᵀΘ)ʲ‖ ≤ λ for every row j of W,
//
// the dual of Nie et al.'s reformulation min ‖U‖₂,₁ s.t. [Z λI]U = Y as a
// group basis pursuit (Θ = λ times its multiplier). At the optimum θᵢ =
// eᵢ/‖eᵢ‖ where the residual row eᵢ is nonzero and (ZᵀΘ)ʲ = −λwʲ/‖wʲ‖
// where wʲ is nonzero; the rows of exact fit are where Θ is not read off
// the residuals but solved for. The candidates below are made feasible
// (each row scaled into the unit ball, then Θ scaled so that every
// ‖(ZᵀΘ)ʲ‖ ≤ λ) and the best dual value is kept:
//
//   - the multiplier of the iteration's last system, Θ = 2F = 2S₁E
//     (see multiplier), which converges to the dual optimum with the
//     iterate;
//   - that multiplier corrected (correctR1): the rows of clearly nonzero
//     residual set to eᵢ/‖eᵢ‖, and the rows of exact fit changed as little
//     as possible (least squares) so that (ZᵀΘ)ʲ = −λwʲ/‖wʲ‖ on the rows
//     S of W that are nonzero (the sparsity level's 10⁻⁶); a solved row
//     outside the unit ball is fixed on its boundary and the others solved
//     again (a pivot, at most r1Pivots), as far as the work allowed
//     (max(polishFloor, r1CorrectBudget·work) multiply-adds) reaches.
//
// Where the support is smaller than the number of samples (some residual
// rows stay nonzero), at most smoothCGMaxRows rows, a third candidate
// comes from smoothR1 (given at least r1SmoothTallFloor multiply-adds, or
// r1SmoothCGFloor where its steps are taken by conjugate gradients): the
// gradient of the smoothed loss at the minimum of the smoothed model,
// which is nearly feasible by its stationarity; and that minimum replaces the iterate when its exact J is
// lower (polished, with the Newton steps counted); if the gap is still
// above certGap, barrierR1 follows. Elsewhere (the support as large as
// the samples or larger: residual rows tending to zero) faceR1 minimises
// J on the face of the samples fitted exactly, from whose answer the dual
// point is solved for, and that minimum replaces the iterate where its J
// is lower; where it left a gap above polishGoal, the best point so far
// is improved by barrierR1, an interior-point solve of the dual itself,
// where m·c and the budget allow, and by smoothR1 where neither
// certified. s.dualSolved tells whether one of them solved for the dual
// point (barrierR1 or faceR1 certified, or smoothR1 ended within its
// budget: the dual value is then within ~10⁻⁸ of J*, and the gap is the
// primal's distance from the optimum: see certifiedStop).
//
// Any feasible Θ gives D = −⟨Θ, Y⟩ ≤ J*, so the gap (J − D)/J bounds the
// relative distance of J from the optimum whatever the iterate; it is
// tight only as close to the optimum as the candidates are, and is
// reported as it is. It also returns the dual point (m×c) and whether the
// answer was polished. Nil when J = 0.
func (s *irls) certifyR1(ctx context.Context, work float64) (*Certificate, []float64, bool) {
	if s.obj == 0 {
		return nil, nil, false
	}
	// The corrected multipliers from the iterate's residuals and support,
	// before the smoothed minimum may replace it.
	best, point := s.readDualR1(work)
	budget := math.Max(polishFloor, polishBudget*work)
	polished, steps := false, 0
	s.dualSolved = false
	if s.readOff {
		return &Certificate{Gap: (s.obj - best) / math.Abs(s.obj), Dual: best, Support: len(s.supportRows())}, point, false
	}
	smooth := func(dense, cg float64) {
		st, thetas, k, complete := s.smoothR1(ctx, dense, cg, best)
		if st == nil {
			return
		}
		steps += k
		s.dualSolved = complete
		for _, ths := range thetas {
			if d, _ := s.dualR1(ths); d > best {
				best, point = d, ths
			}
		}
		if st.obj < s.obj {
			copy(s.w, st.w)
			copy(s.e, st.e)
			s.obj = st.obj
			polished = true
		}
	}
	barrier := func() bool {
		dp, st, k, ok := s.barrierR1(ctx, point, math.Max(r1SmoothFloor, budget), (s.obj-best)/math.Abs(s.obj) > certGap)
		steps += k
		if ok {
			s.dualSolved = true
			if dp.dual > best {
				best, point = dp.dual, dp.point
			}
			if st != nil && st.obj < s.obj {
				copy(s.w, st.w)
				copy(s.e, st.e)
				s.obj = st.obj
				polished = true
			}
		}
		return ok
	}
	// face reports whether the minimum on the face of exact fit certified
	// certGap.
	face := func() bool {
		st, points, k := s.faceR1(ctx, math.Max(r1FaceFloor, budget), math.Max(r1SmoothFloor, budget), best)
		if st == nil {
			return false
		}
		steps += k
		for _, dp := range points {
			if dp.dual > best {
				best, point = dp.dual, dp.point
			}
		}
		if st.obj < s.obj {
			copy(s.w, st.w)
			copy(s.e, st.e)
			s.obj = st.obj
			polished = true
		}
		s.dualSolved = (s.obj-best)/math.Abs(s.obj) <= certGap
		return s.dualSolved
	}
	// Where some residual rows stay nonzero (the support smaller than m)
	// the smoothed minimum, then the dual solve if the gap is still above
	// certGap; where every residual row tends to zero the minimum on the
	// face of exact fit, then the dual solve (within 10⁻⁹ of J*) if the
	// gap is still above polishGoal, and the smoothed minimum where
	// neither certified.
	if len(s.supportRows()) < s.m {
		if smooth(math.Max(r1SmoothTallFloor, budget), math.Max(r1SmoothCGFloor, budget)); (s.obj-best)/math.Abs(s.obj) > certGap {
			barrier()
		}
	} else if certified := face(); !certified || (s.obj-best)/math.Abs(s.obj) > polishGoal {
		// The dual solve, where it fits, also tightens a certificate of
		// the face's stopped at certGap (within 10⁻⁹ of J*).
		if !barrier() && !certified {
			smooth(math.Max(r1SmoothFloor, budget), 0)
		}
	}
	return &Certificate{Gap: (s.obj - best) / math.Abs(s.obj), Dual: best, Support: len(s.supportRows()), Polished: polished, NewtonSteps: steps}, point, polished
}

// readDualR1 returns the dual value of the best of the first two
// candidates of certifyR1, the dual points read off the iterate (the
// multiplier of the last system and its corrections, correctR1, within a
// tenth of work), and that point, made feasible.
func (s *irls) readDualR1(work float64) (float64, []float64) {
	f := s.multiplier()
	th := make([]float64, len(f))
	for i, v := range f {
		th[i] = 2 * v
	}
	point := slices.Clone(th)
	best, _ := s.dualR1(point)
	for _, cand := range s.correctR1(th, s.supportRows(), math.Max(polishFloor, r1CorrectBudget*work)) {
		if cand.dual > best {
			best, point = cand.dual, cand.point
		}
	}
	return best, point
}

// smoothR1 minimises the model with both norms smoothed,
// Σᵢ√(‖eᵢ‖² + μ²) + λΣⱼ√(‖wʲ‖² + μ_W²), on the support S of the iterate
// by the polish's Newton iteration (newton: Cholesky, or conjugate
// gradients where smoothByCG; a line search on the smoothed objective),
// for μ = r1SmoothFrom … r1SmoothTo times rms‖yᵢ‖
// (μ_W the same times the largest ‖wʲ‖), each stage from the lowest point
// of the one before. It stops after the first stage whose dual point
// (below) and minimum certify the lesser of certGap and tol, together
// with the iterate's J and the best dual value so far, lower: a tighter
// stage costs tens of Newton steps more (the demo at the default tol: 27
// steps to a gap of 4·10⁻⁷, where all three stages took 40 to 4·10⁻⁸).
// After a stage that does not certify, one full Newton step's dual point
// is tried before the next stage.
// Otherwise
// rows outside S whose condition fails then enter S
// (moveViolators, at most polishRounds) and r1RawSteps full Newton steps
// follow. At the minimum the smoothed loss's gradient Θ (every ‖θᵢ‖ < 1)
// satisfies (ZᵀΘ)ʲ = −λwʲ/√(‖wʲ‖² + μ_W²), of norm < λ, on S: a dual
// point feasible up to the Newton iteration's accuracy (dualR1 scales it
// the rest of the way), with a dual value within about μ per residual row
// of the optimum. It returns the minimum with the rows below the
// sparsity level set to zero (exact J), the candidate Θs (each stage's,
// after its line-searched steps and after each full step), the Newton
// steps, and whether it ended within its budget (complete: its dual
// value is then within about μ per residual row of J*; cut short, a
// stage can end far from its minimum — COIL20 given 40 steps: 0.17, where
// the stage before had reached 1.4·10⁻⁵); nil when S is empty or has more
// than smoothCGMaxRows rows, or when fewer than r1SmoothMinSteps steps
// fit the budget: budget multiply-adds where the Newton systems are
// formed, cgBudget where they are solved by conjugate gradients
// (smoothByCG, newtonStepCG: the steps cost about m·|S|·c a product
// rather than m·(|S|·c)²/2 to form; a cgBudget of 0 forms them, up to
// polishMaxUnknowns unknowns). Where S has as many
// rows as there are samples or more (every residual row tends to zero:
// m < N), the smoothing of the residuals is what keeps the Newton system
// regular, and the dual point is as tight (colon, ALLAML, GLIOMA from the
// default tol's iterate: within 3·10⁻⁹–1.3·10⁻⁸ of J*).
func (s *irls) smoothR1(ctx context.Context, budget, cgBudget, lower float64) (ans *polishState, thetas [][]float64, steps int, complete bool) {
	sup := s.supportRows()
	ns := len(sup)
	cg := cgBudget > 0 && s.smoothByCG(ns)
	if ns == 0 || ns > smoothCGMaxRows || (!cg && ns*s.c > polishMaxUnknowns) {
		return nil, nil, 0, false
	}
	limit := int(budget / polishWork(ns*s.c, s.m))
	if cg {
		limit = int(cgBudget / smoothCGWork(ns, s.c, s.m))
	}
	if limit < r1SmoothMinSteps {
		return nil, nil, 0, false
	}
	if s.smoothLimit > 0 {
		limit = min(limit, s.smoothLimit)
	}
	defer func() { s.smoothPre = nil }()
	scale := math.Sqrt(norm2(s.y) / float64(s.m))
	big := 0.0
	for _, j := range sup {
		big = math.Max(big, norm2(s.w[j*s.c:(j+1)*s.c]))
	}
	scaleW := math.Sqrt(big)
	st := &polishState{sup: sup, w: slices.Clone(s.w), e: slices.Clone(s.e), mu: r1SmoothFrom * scale, muW: r1SmoothFrom * scaleW, cg: cg}
	s.restrict(st)
	for mu := r1SmoothFrom; mu >= r1SmoothTo*(1-1e-9) && steps < limit && ctx.Err() == nil; mu /= 10 {
		st.mu, st.muW = mu*scale, mu*scaleW
		st.obj = s.polishJ(st.e, st.w, st)
		best := st.clone()
		steps += s.newton(ctx, st, limit-steps, &best)
		st = best
		// Enough: the stage's dual point, or that after one full Newton
		// step (the line search can stop before the gradient is accurate:
		// the demo in wasm, 5·10⁻⁶ off after the second stage), and the
		// lower of J and the stage minimum's exact J certify the goal.
		ans := s.sparsified(st)
		j := math.Min(s.obj, ans.obj)
		goal := math.Min(certGap, s.tol) * math.Abs(j)
		th := s.lossGrad(st.e, st.mu)
		thetas = append(thetas, th)
		if d, _ := s.dualR1(slices.Clone(th)); j-math.Max(lower, d) <= goal {
			return ans, thetas, steps, true
		}
		if th2, ok := s.rawStep(st.clone()); ok {
			steps++
			thetas = append(thetas, th2)
			if d, _ := s.dualR1(slices.Clone(th2)); j-math.Max(lower, d) <= goal {
				return ans, thetas, steps, true
			}
		}
	}
	// Rows the stages took out of S, or that the iterate had at zero,
	// whose optimality condition fails at Θ come back (as in polish), and
	// the last stage runs again.
	th := s.lossGrad(st.e, st.mu)
	for round := 0; round < polishRounds && steps < limit && ctx.Err() == nil; round++ {
		_, v := s.dualR1(slices.Clone(th))
		if !s.moveViolators(st, v) {
			break
		}
		best := st.clone()
		steps += s.newton(ctx, st, limit-steps, &best)
		st = best
		th = s.lossGrad(st.e, st.mu)
	}
	// Near the minimum the line search stops where the decrease of the
	// smoothed objective is below its rounding, before the gradient is
	// (the smoothed loss's curvature reaches 1/μ); full Newton steps from
	// there make the gradient, and so the dual point, more accurate.
	thetas = append(thetas, th)
	raw := st.clone()
	for k := 0; k < r1RawSteps; k++ {
		th, ok := s.rawStep(raw)
		if !ok {
			break
		}
		thetas = append(thetas, th)
	}
	return s.sparsified(st), thetas, steps, steps < limit && ctx.Err() == nil
}

// rawStep takes one full Newton step (no line search) from st, changed in
// place, and returns the smoothed loss's gradient there; false when the
// Newton system could not be solved.
func (s *irls) rawStep(st *polishState) ([]float64, bool) {
	d, _, ok := s.newtonStep(st)
	if !ok {
		return nil, false
	}
	for q, j := range st.sup {
		for t := 0; t < s.c; t++ {
			st.w[j*s.c+t] += d[q*s.c+t]
		}
	}
	s.residual(st.sup, st.w, st.e)
	return s.lossGrad(st.e, st.mu), true
}

// sparsified returns the answer smoothR1 makes of the smoothed minimum st:
// its rows below the sparsity level's fraction of the largest set to zero
// (the smoothed penalty leaves the optimum's zero rows at about μ_W), at
// its exact J.
func (s *irls) sparsified(st *polishState) *polishState {
	c := s.c
	big := 0.0
	for _, j := range st.sup {
		big = math.Max(big, norm2(st.w[j*c:(j+1)*c]))
	}
	out := &polishState{w: slices.Clone(st.w), e: slices.Clone(st.e)}
	out.sup = slices.DeleteFunc(slices.Clone(st.sup), func(j int) bool { return norm2(st.w[j*c:(j+1)*c]) <= sq(polishSupportTol)*big })
	s.restrict(out)
	return out
}

// dualPoint is a feasible point of the dual of certifyR1 and its value.
type dualPoint struct {
	point []float64
	dual  float64
}

// supportRows returns the rows of W above the sparsity level's fraction
// of the largest (polishSupportTol).
func (s *irls) supportRows() []int {
	c := s.c
	big := 0.0
	for j := 0; j < s.nr; j++ {
		big = math.Max(big, norm2(s.w[j*c:(j+1)*c]))
	}
	var sup []int
	for j := 0; j < s.nr; j++ {
		if n := norm2(s.w[j*c : (j+1)*c]); n > 0 && n > sq(polishSupportTol)*big {
			sup = append(sup, j)
		}
	}
	return sup
}

// dualR1 makes th (m×c, changed in place) feasible for the dual of
// certifyR1 — each row scaled into the unit ball, then the whole scaled
// so that ‖(ZᵀΘ)ʲ‖ ≤ λ for every j — and returns its dual value −⟨Θ, Y⟩
// and ZᵀΘ (nr×c) before the last scaling.
func (s *irls) dualR1(th []float64) (float64, []float64) {
	m, c, nr := s.m, s.c, s.nr
	for i := 0; i < m; i++ {
		ti := th[i*c : (i+1)*c]
		if n := math.Sqrt(norm2(ti)); n > 1 {
			for t := range ti {
				ti[t] /= n
			}
		}
	}
	v := make([]float64, nr*c)
	s.ztMul(1, th, v)
	maxV := 0.0
	for j := 0; j < nr; j++ {
		maxV = math.Max(maxV, norm2(v[j*c:(j+1)*c]))
	}
	scale := 1.0
	if maxV = math.Sqrt(maxV); maxV > s.lambda {
		scale = s.lambda / maxV
	}
	a := 0.0
	for i, x := range th {
		a += x * s.y[i]
	}
	for i := range th {
		th[i] *= scale
	}
	return -scale * a, v
}

// correctR1 returns the corrected multipliers of certifyR1 made feasible
// (see dualR1), one per pivot round, from the multiplier th0 and the
// support sup, within budget multiply-adds (none when not even one round
// fits).
func (s *irls) correctR1(th0 []float64, sup []int, budget float64) []dualPoint {
	m, c := s.m, s.c
	ns := len(sup)
	if ns == 0 {
		return nil
	}
	scale := math.Sqrt(norm2(s.y) / float64(m))
	base := slices.Clone(th0)
	var exact []int // the rows of exact fit, whose dual rows are solved for
	for i := 0; i < m; i++ {
		ei := s.e[i*c : (i+1)*c]
		if n := math.Sqrt(norm2(ei)); n > r1ExactFit*scale {
			for t, v := range ei {
				base[i*c+t] = v / n
			}
		} else {
			exact = append(exact, i)
		}
	}
	var out []dualPoint
	for round := 0; round < r1Pivots && len(exact) > 0; round++ {
		nz := float64(len(exact))
		cost := float64(ns)*nz*nz/2 + nz*nz*nz/3 + float64(s.nr)*float64(m)*float64(c)
		if budget -= cost; budget < 0 {
			break
		}
		th := slices.Clone(base)
		ok := s.solveExactRows(th, sup, exact)
		s.stepped()
		if !ok {
			break
		}
		worst, wn := -1, 1.0
		for _, i := range exact {
			if n := math.Sqrt(norm2(th[i*c : (i+1)*c])); n > wn {
				worst, wn = i, n
			}
		}
		// The row outside the ball fixed on its boundary for the next
		// round, before dualR1 scales th.
		if worst >= 0 {
			for t := 0; t < c; t++ {
				base[worst*c+t] = th[worst*c+t] / wn
			}
			exact = slices.DeleteFunc(exact, func(i int) bool { return i == worst })
		}
		d, _ := s.dualR1(th)
		out = append(out, dualPoint{th, d})
		if worst < 0 {
			break
		}
	}
	return out
}

// solveExactRows changes the rows exact of th by the least-squares
// correction Δ minimising ‖BᵀΔ − R‖² + μ‖Δ‖², B = Z_{exact,S}ᵀ (|S|×|exact|,
// rows of zt), R = −λU_S − (ZᵀΘ)_S the residual of the stationarity
// equations on S (U_S the directions of the rows of W in S), μ = 10⁻¹³ of
// the mean diagonal of BᵀB: the smallest change of those rows that meets
// the equations, or comes nearest. It reports false if the system could
// not be factorised.
func (s *irls) solveExactRows(th []float64, sup, exact []int) bool {
	c := s.c
	ns, nz := len(sup), len(exact)
	b := make([]float64, ns*nz)
	r := make([]float64, ns*c)
	for a, j := range sup {
		zj := s.ztRow(j)
		for q, i := range exact {
			b[a*nz+q] = zj[i]
		}
		wj := s.w[j*c : (j+1)*c]
		n := math.Sqrt(norm2(wj))
		for t := 0; t < c; t++ {
			v := -s.lambda * wj[t] / n
			for i, z := range zj {
				v -= z * th[i*c+t]
			}
			r[a*c+t] = v
		}
	}
	g := make([]float64, nz*nz)
	linalg.Gemm(true, false, 1, gen(ns, nz, b), gen(ns, nz, b), 0, gen(nz, nz, g))
	tr := 0.0
	for q := 0; q < nz; q++ {
		tr += g[q*nz+q]
	}
	for q := 0; q < nz; q++ {
		g[q*nz+q] += 1e-13 * tr / float64(nz)
	}
	d := make([]float64, nz*c)
	linalg.Gemm(true, false, 1, gen(ns, nz, b), gen(ns, c, r), 0, gen(nz, c, d))
	if !cholSolveShifted(gen(nz, nz, g), gen(nz, c, d)) {
		return false
	}
	for q, i := range exact {
		for t := 0; t < c; t++ {
			th[i*c+t] += d[q*c+t]
		}
	}
	return true
}
