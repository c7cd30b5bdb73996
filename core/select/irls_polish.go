package selection

import (
	"context"
	"fmt"
	"math"
	"slices"

	"sparsefs/core/linalg"
)

// Certificate is a bound on the distance of a convex model's answer from
// its optimum, from a feasible point of the model's dual.
type Certificate struct {
	// Gap is (J − D)/J ≥ (J − J*)/J, J the objective at the answer and D
	// the value of the dual at a feasible dual point (D ≤ J*). It can be
	// slightly negative at rounding level (10⁻¹⁵ relative).
	Gap float64 `json:"gap"`
	// Dual is D.
	Dual float64 `json:"dual"`
	// Polished tells whether the active-set Newton polish ran and kept
	// its answer (see irls.polish); NewtonSteps counts its accepted steps.
	Polished    bool `json:"polished"`
	NewtonSteps int  `json:"newton_steps"`
	// Support is the number of rows of W the certificate treats as
	// nonzero, and ExactFit the residual rows treated as zero (r = 1).
	Support  int `json:"support"`
	ExactFit int `json:"exact_fit"`
}

// Constants of the polish and of the certificate (see irls.polish).
const (
	// polishSupportTol: rows of W with ‖wʲ‖ > polishSupportTol·maxₗ‖wˡ‖
	// start in the support S (METHODS.md's sparsity level).
	polishSupportTol = SparsityTol
	// polishFitTol: residual rows with ‖eᵢ‖ ≤ polishFitTol·s, s the root
	// mean square row norm of Y, start in the exact-fit set Z (r = 1).
	polishFitTol = 1e-6
	// polishCross: a Newton step taking a row of W (or a residual row
	// outside Z) to at most this fraction of its norm, or across the
	// hyperplane through 0 orthogonal to it, says the row is heading to
	// zero: it leaves S (enters Z) and the step is recomputed.
	polishCross = 0.1
	// polishMaxUnknowns bounds |S|·c + |Z|·c, the order of the Newton
	// system; above it the polish is skipped (see polishBudget).
	polishMaxUnknowns = 1200
	// polishBudget bounds the polish's estimated multiply-adds per Newton
	// step as a multiple of those of the accelerated iteration it
	// follows (its Gram matrices and factorisations).
	polishBudget = 0.1
	// polishFloor is a cost always allowed (~1 ms natively).
	polishFloor = 1e7
	// polishSteps and polishRounds bound the Newton steps of one round
	// and the rounds (moves of violating rows between the sets).
	polishSteps  = 30
	polishRounds = 3
	// polishPivots bounds the rounds for r = 1, where each moves one
	// part (a pivot).
	polishPivots = 100
	// polishGoal is the certified relative gap at which no further round
	// is tried.
	polishGoal = 1e-10
	// polishKKTMargin: an excluded row violates its optimality condition
	// when ‖(ZᵀΘ)ⱼ‖ > λ(1 + polishKKTMargin), a row of Z when ‖θᵢ‖ > 1 +
	// polishKKTMargin.
	polishKKTMargin = 1e-9
	// polishAtKink: a row whose nearest point to zero along a step is
	// at t ≤ polishAtKink is at its kink already.
	polishAtKink = 1e-9
)

// polishExactFit enables the polish for r = 1, where residual rows at
// exact fit make the manifold's constraints. It is off: on the folds of
// the breast-cancer demo (c = 2, one-hot Y, so that every residual row
// and every row of W lie nearly on the line (1, −1) and the problem is
// close to a linear programme) the manifold read from the iterate is
// degenerate (one or two exact-fit rows short of the support's order, so
// that the KKT system is singular along directions of zero curvature),
// and the steps, stopped at the first kink, lowered J (by up to 5·10⁻⁶
// relative, to 2·10⁻⁹ of the optimum on one fold) without closing the
// gap. docs/irls.md, "What remains".
var polishExactFit = false

// polishState is a point on a manifold (S, Z) of the model.
type polishState struct {
	sup []int  // S: rows of W free to be nonzero, ascending
	fit []bool // Z (r = 1): residual rows held at zero
	// dir (r = 1): for a residual row released from Z at zero, the unit
	// direction it is to move in (−θᵢ/‖θᵢ‖, the descent direction its
	// multiplier gives); nil elsewhere.
	dir [][]float64
	w   []float64
	e   []float64
	obj float64
}

// rowsOfW gathers the rows of zt in S (|S|×m).
func (s *irls) rowsOfW(sup []int) []float64 {
	m := s.m
	out := make([]float64, len(sup)*m)
	for k, j := range sup {
		copy(out[k*m:(k+1)*m], s.zt[j*m:(j+1)*m])
	}
	return out
}

// residual sets e = ZW − Y for W supported on sup.
func (s *irls) residual(sup []int, w, e []float64) {
	m, c := s.m, s.c
	copy(e, s.y)
	for i := range e {
		e[i] = -e[i]
	}
	if len(sup) == 0 {
		return
	}
	ztS := s.rowsOfW(sup)
	wS := make([]float64, len(sup)*c)
	for k, j := range sup {
		copy(wS[k*c:(k+1)*c], w[j*c:(j+1)*c])
	}
	linalg.Gemm(true, false, 1, gen(len(sup), m, ztS), gen(len(sup), c, wS), 1, gen(m, c, e))
}

// objective is the exact J of Eq. (2) (p = 1) at w with residuals e.
func (s *irls) objective(w, e []float64) float64 {
	c := s.c
	loss := 0.0
	for i := 0; i < s.m; i++ {
		loss += pow(norm2(e[i*c:(i+1)*c]), s.r/2)
	}
	reg := 0.0
	for j := 0; j < s.nr; j++ {
		reg += math.Sqrt(norm2(w[j*c : (j+1)*c]))
	}
	return loss + s.lambda*reg
}

func gen(r, c int, d []float64) linalg.General {
	return linalg.General{Rows: r, Cols: c, Stride: c, Data: d[:r*c]}
}

// lossGrad returns Θ (m×c), the gradient of the loss Σᵢφ(eᵢ), φ(e) =
// ‖e‖^r, at the rows outside Z: θᵢ = r‖eᵢ‖^{r−2}eᵢ (zero for a zero row);
// rows in Z are left at zero.
func (s *irls) lossGrad(e []float64, fit []bool, dir [][]float64) []float64 {
	c := s.c
	th := make([]float64, s.m*c)
	kink := s.kinkTol()
	for i := 0; i < s.m; i++ {
		if fit != nil && fit[i] {
			continue
		}
		ei := e[i*c : (i+1)*c]
		n := math.Sqrt(norm2(ei))
		if dir != nil && dir[i] != nil && n <= kink {
			copy(th[i*c:(i+1)*c], dir[i])
			continue
		}
		if n == 0 {
			continue
		}
		a := s.r * pow(n, s.r-2)
		for t, v := range ei {
			th[i*c+t] = a * v
		}
	}
	return th
}

// kinkTol is the residual norm at or below which a row released from Z
// is still at its kink (see polishState.dir).
func (s *irls) kinkTol() float64 {
	return 1e-9 * math.Sqrt(norm2(s.y)/float64(s.m))
}

// certify computes a certificate for W (with residuals e, objective obj)
// from the dual of the convex model (p = 1, r ≥ 1),
//
//	J* = max_Θ D(Θ),  D(Θ) = −⟨Θ, Y⟩ − Σᵢ φ*(θᵢ)  s.t. ‖(ZᵀΘ)ʲ‖ ≤ λ for all j,
//
// where φ*(θ) is the conjugate of φ(e) = ‖e‖^r: the indicator of ‖θ‖ ≤ 1
// for r = 1, (r − 1)(‖θ‖/r)^{r/(r−1)} for r > 1. (Fenchel: for any W and
// feasible Θ, J(W) ≥ ⟨Θ, ZW − Y⟩ − Σφ*(θᵢ) + λ‖W‖₂,₁ ≥ D(Θ), since
// ⟨Θ, ZW⟩ = ⟨ZᵀΘ, W⟩ ≥ −λ‖W‖₂,₁; for rfs, D = −⟨Θ, Y⟩ over ‖θᵢ‖ ≤ 1,
// ‖(ZᵀΘ)ʲ‖ ≤ γ.) The dual point is the loss gradient at W, θᵢ =
// ∇φ(eᵢ), with the rows of Z (r = 1, where eᵢ = 0 has no gradient) taken
// as the multipliers of the constraints eᵢ = 0 that fit the stationarity
// conditions of the rows of S, ZᵀΘ + λ∂‖W‖₂,₁ ∋ 0, best in least squares;
// it is then scaled into the feasible set (and for r > 1 to the best
// scale there). At the optimum on the right manifold this Θ is the dual
// optimum and the gap closes. It also returns ZᵀΘ (nr×c) for the
// optimality checks, and Θ.
func (s *irls) certify(st *polishState) (Certificate, []float64, []float64) {
	m, c, nr := s.m, s.c, s.nr
	th := s.lossGrad(st.e, st.fit, st.dir)
	nz := 0
	var zi []int
	if st.fit != nil {
		for i, f := range st.fit {
			if f {
				zi = append(zi, i)
			}
		}
		nz = len(zi)
	}
	if nz > 0 && len(st.sup) > 0 {
		// Rows of S: G = (ZᵀΘ)_S + λuʲ must be cancelled by Z_{Z,S}ᵀΘ_Z:
		// (Z_{Z,S}Z_{Z,S}ᵀ)Θ_Z = −Z_{Z,S}G, the normal equations.
		ns := len(st.sup)
		ztS := s.rowsOfW(st.sup)
		g := make([]float64, ns*c)
		linalg.Gemm(false, false, 1, gen(ns, m, ztS), gen(m, c, th), 0, gen(ns, c, g))
		for k, j := range st.sup {
			wj := st.w[j*c : (j+1)*c]
			n := math.Sqrt(norm2(wj))
			if n == 0 {
				continue
			}
			for t, v := range wj {
				g[k*c+t] += s.lambda * v / n
			}
		}
		az := make([]float64, ns*nz) // Z_{Z,S}ᵀ: |S|×|Z|
		for k := 0; k < ns; k++ {
			for q, i := range zi {
				az[k*nz+q] = ztS[k*m+i]
			}
		}
		nm := make([]float64, nz*nz)
		linalg.AtDA(1, gen(ns, nz, az), nil, 0, gen(nz, nz, nm))
		rhs := make([]float64, nz*c)
		linalg.Gemm(true, false, -1, gen(ns, nz, az), gen(ns, c, g), 0, gen(nz, c, rhs))
		if _, _, nu, ok := s.newtonStep(st); ok && len(nu) == nz*c && polishKKTMult {
			for q, i := range zi {
				copy(th[i*c:(i+1)*c], nu[q*c:(q+1)*c])
			}
		} else if cholSolveShifted(gen(nz, nz, nm), gen(nz, c, rhs)) {
			for q, i := range zi {
				copy(th[i*c:(i+1)*c], rhs[q*c:(q+1)*c])
			}
		}
	}
	v := make([]float64, nr*c)
	linalg.Gemm(false, false, 1, gen(nr, m, s.zt), gen(m, c, th), 0, gen(nr, c, v))
	maxV := 0.0
	for j := 0; j < nr; j++ {
		maxV = math.Max(maxV, norm2(v[j*c:(j+1)*c]))
	}
	maxV = math.Sqrt(maxV)
	a, b, maxT := 0.0, 0.0, 0.0
	for i := 0; i < m; i++ {
		ti := th[i*c : (i+1)*c]
		for t, x := range ti {
			a += x * s.y[i*c+t]
		}
		n := math.Sqrt(norm2(ti))
		maxT = math.Max(maxT, n)
		if s.r > 1 {
			b += (s.r - 1) * math.Pow(n/s.r, s.r/(s.r-1))
		}
	}
	sMax := math.Inf(1)
	if maxV > 0 {
		sMax = s.lambda / maxV
	}
	var scale float64
	if s.r == 1 {
		if maxT > 0 {
			sMax = math.Min(sMax, 1/maxT)
		}
		scale = math.Min(1, sMax)
	} else {
		// D(σΘ) = −σa − σ^q b, q = r/(r − 1), is concave in σ ≥ 0; its
		// maximiser on [0, sMax].
		q := s.r / (s.r - 1)
		switch {
		case a >= 0:
			scale = 0
		case b == 0:
			scale = sMax
		default:
			scale = math.Min(sMax, math.Pow(-a/(q*b), 1/(q-1)))
		}
		if math.IsInf(scale, 1) {
			scale = 0
		}
		b *= math.Pow(scale, q)
	}
	dual := -scale * a
	if s.r > 1 {
		dual -= b
	}
	cert := Certificate{Gap: (st.obj - dual) / math.Abs(st.obj), Dual: dual, Support: len(st.sup), ExactFit: nz}
	return cert, v, th
}

// cholSolveShifted solves the symmetric positive semidefinite system
// a·x = b in place by Cholesky, with a diagonal shift of 10⁻¹⁴ … 10⁻⁸ of
// the largest diagonal entry if rounding makes it indefinite; it reports
// false if even the largest shift fails.
func cholSolveShifted(a, b linalg.General) bool {
	if a.Rows == 0 {
		return true
	}
	orig := slices.Clone(a.Data[:a.Rows*a.Stride])
	for shift := 0.0; shift <= 1e-8; shift = max(1e-14, 100*shift) {
		copy(a.Data, orig)
		if factorSolve(a, b, shift) == nil {
			if shift > 0 {
				dbg("    shift %g order %d", shift, a.Rows)
			}
			return true
		}
	}
	return false
}

// polishWork estimates the multiply-adds of one Newton step on (S, Z):
// forming and factorising the system and its Schur complement.
func polishWork(ns, nz, mOut int) float64 {
	fs, fz := float64(ns), float64(nz)
	return fs*fs*fs/3 + 2*fs*fs*fz + fz*fz*fs + fz*fz*fz/3 + float64(mOut)*fs*fs/2
}

// polish refines the answer of the accelerated iteration (p = 1, r ≥ 1)
// by Newton's method on the manifold where it is smooth, and certifies the
// result. J is non-smooth only where a row of W or (r = 1) a residual row
// is zero; with S the rows of W that are nonzero and Z the residual rows
// that are zero at the optimum, the optimum minimises
//
//	F(W_S) = Σ_{i∉Z} ‖eᵢ‖^r + λ Σ_{j∈S} ‖wʲ‖  s.t.  Z_{Z,S}W_S = Y_Z,
//
// which is smooth near it, and Newton's method converges quadratically
// there. Each step solves the KKT system
//
//	[H Aᵀ; A 0][d; ν] = [−∇F; −e_Z],  A = Z_{Z,S} ⊗ I_c,
//
// H the Hessian of F, as (H + σAᵀA)d + Aᵀν′ = −∇F (the same solution;
// H + σAᵀA is positive definite when H is on the null space of A, the
// second-order condition, while H alone is singular along each wʲ):
// Cholesky of H + σAᵀA, then of the Schur complement A(H + σAᵀA)⁻¹Aᵀ,
// with core/linalg's kernels. The step is taken with a backtracking line
// search on the exact J, which never rises.
//
// S and Z start from the iterate (polishSupportTol, polishFitTol): rows
// the iteration has not decided are sorted out by the steps and checks.
// A step that takes a row of S (a residual row outside Z) through zero or
// to a tenth of its norm moves it out of S (into Z) and is recomputed;
// at the end of a round the certificate's multipliers check the excluded
// parts (‖(ZᵀΘ)ʲ‖ ≤ λ for j ∉ S, ‖θᵢ‖ ≤ 1 for i ∈ Z), violators are moved
// and another round runs (at most polishRounds). The answer is the best
// point found, never worse than the iteration's; the certificate is
// computed there. work is the iteration's multiply-adds (the budget).
func (s *irls) polish(ctx context.Context, work float64) (Certificate, bool) {
	m, c := s.m, s.c
	st := &polishState{w: slices.Clone(s.w), e: slices.Clone(s.e), obj: s.obj}
	big := 0.0
	for j := 0; j < s.nr; j++ {
		big = math.Max(big, norm2(s.w[j*c:(j+1)*c]))
	}
	for j := 0; j < s.nr; j++ {
		if n := norm2(s.w[j*c : (j+1)*c]); n > 0 && n > sq(polishSupportTol)*big {
			st.sup = append(st.sup, j)
		}
	}
	if s.r == 1 {
		st.fit = make([]bool, m)
		limit := sq(polishFitTol) * norm2(s.y) / float64(m)
		for i := range st.fit {
			st.fit[i] = norm2(s.e[i*c:(i+1)*c]) <= limit
		}
	}
	nz := 0
	mOut := m
	for _, f := range st.fit {
		if f {
			nz++
			mOut--
		}
	}
	ns := len(st.sup) * c
	if s.r == 1 && !polishExactFit {
		// See polishExactFit: the certificate alone.
		return s.certifyOnly(st), false
	}
	if ns+nz*c > polishMaxUnknowns || math.Max(polishFloor, polishBudget*work) < polishWork(ns, nz*c, mOut) {
		cert := s.certifyOnly(st)
		s.notes = append(s.notes, fmt.Sprintf("irls: the active-set Newton polish was skipped (a system of %d unknowns, above what it may cost); the answer is the accelerated iteration's, within the certified gap", ns+nz*c))
		return cert, false
	}
	best := &polishState{sup: slices.Clone(st.sup), fit: slices.Clone(st.fit), w: slices.Clone(st.w), e: slices.Clone(st.e), obj: st.obj}
	// The iteration's iterate, zeroed outside S, is where the first
	// round starts; J there may be a little above the iteration's.
	s.restrict(st)
	dbg("start: |S| %d |Z| %d obj %.12g (iter %.12g)", len(st.sup), nz, st.obj, s.obj)
	steps := 0
	var cert Certificate
	rounds := polishRounds
	if s.r == 1 {
		rounds = polishPivots
	}
	for round := 0; round < rounds; round++ {
		steps += s.newton(ctx, st)
		if st.obj <= best.obj {
			best = &polishState{sup: slices.Clone(st.sup), fit: slices.Clone(st.fit), w: slices.Clone(st.w), e: slices.Clone(st.e), obj: st.obj}
		}
		var v, th []float64
		cert, v, th = s.certify(st)
		if st.fit != nil && polishDebug != nil {
			mins := []float64{}
			for i := 0; i < m; i++ {
				if !st.fit[i] {
					mins = append(mins, math.Sqrt(norm2(st.e[i*c:(i+1)*c])))
				}
			}
			slices.Sort(mins)
			dbg("    smallest non-Z residuals %.3g", mins[:min(4, len(mins))])
		}
		dbg("round %d: steps %d obj %.12g gap %.3g |S| %d |Z| %d", round, steps, st.obj, cert.Gap, cert.Support, cert.ExactFit)
		if cert.Gap <= polishGoal || ctx.Err() != nil {
			break
		}
		if !s.moveViolators(st, v, th) {
			break
		}
	}
	if best.obj < s.obj {
		copy(s.w, best.w)
		copy(s.e, best.e)
		s.obj = best.obj
		cert, _, _ = s.certify(best)
		cert.Polished = true
	} else {
		cert, _, _ = s.certify(s.exactState(best))
	}
	cert.NewtonSteps = steps
	return cert, cert.Polished
}

// certifyOnly is the certificate of the iteration's iterate on the sets
// of st.
func (s *irls) certifyOnly(st *polishState) Certificate {
	cert, _, _ := s.certify(s.exactState(st))
	return cert
}

// exactState returns the iteration's own iterate with the sets of st (for
// its certificate).
func (s *irls) exactState(st *polishState) *polishState {
	return &polishState{sup: st.sup, fit: st.fit, w: s.w, e: s.e, obj: s.obj}
}

// restrict zeroes the rows of st.w outside st.sup and recomputes e and J.
func (s *irls) restrict(st *polishState) {
	c := s.c
	in := make([]bool, s.nr)
	for _, j := range st.sup {
		in[j] = true
	}
	for j := 0; j < s.nr; j++ {
		if !in[j] {
			clear(st.w[j*c : (j+1)*c])
		}
	}
	s.residual(st.sup, st.w, st.e)
	st.obj = s.objective(st.w, st.e)
}

// moveViolators moves the parts of the model whose optimality conditions
// fail at st (v = ZᵀΘ, th = Θ of its certificate): rows j ∉ S with
// ‖vʲ‖ > λ(1 + margin) enter S, starting at a small norm in the descent
// direction −vʲ; rows i ∈ Z with ‖θᵢ‖ > 1 + margin leave Z. It reports
// whether anything moved.
func (s *irls) moveViolators(st *polishState, v, th []float64) bool {
	c := s.c
	in := make([]bool, s.nr)
	big := 0.0
	for _, j := range st.sup {
		in[j] = true
		big = math.Max(big, norm2(st.w[j*c:(j+1)*c]))
	}
	seed := polishSupportTol * math.Sqrt(big)
	// For r = 1 one part moves per round, the worst violator (a simplex
	// pivot); for r > 1 all of them.
	one := s.r == 1
	worstJ, worstI, worst := -1, -1, 0.0
	moved := false
	for j := 0; j < s.nr; j++ {
		vj := v[j*c : (j+1)*c]
		n := math.Sqrt(norm2(vj))
		if in[j] || n <= s.lambda*(1+polishKKTMargin) {
			continue
		}
		if one {
			if x := n/s.lambda - 1; x > worst {
				worst, worstJ, worstI = x, j, -1
			}
			continue
		}
		for t, x := range vj {
			st.w[j*c+t] = -seed * x / n
		}
		st.sup = append(st.sup, j)
		moved = true
	}
	for i, f := range st.fit {
		n := math.Sqrt(norm2(th[i*c : (i+1)*c]))
		if !f || n <= 1+polishKKTMargin {
			continue
		}
		if one {
			if n-1 > worst {
				worst, worstJ, worstI = n-1, -1, i
			}
			continue
		}
		st.fit[i] = false
		moved = true
	}
	if worstJ >= 0 {
		vj := v[worstJ*c : (worstJ+1)*c]
		n := math.Sqrt(norm2(vj))
		for t, x := range vj {
			st.w[worstJ*c+t] = -seed * x / n
		}
		st.sup = append(st.sup, worstJ)
		moved = true
	}
	if worstI >= 0 {
		st.fit[worstI] = false
		if st.dir == nil {
			st.dir = make([][]float64, s.m)
		}
		ti := th[worstI*c : (worstI+1)*c]
		n := math.Sqrt(norm2(ti))
		st.dir[worstI] = make([]float64, c)
		for t, x := range ti {
			st.dir[worstI][t] = -x / n
		}
		moved = true
	}
	dbg("  move: worst %.3g row of W %d residual row %d", worst, worstJ, worstI)
	slices.Sort(st.sup)
	if moved {
		s.residual(st.sup, st.w, st.e)
		st.obj = s.objective(st.w, st.e)
	}
	return moved
}

// newton runs Newton steps on the manifold (st.sup, st.fit) from st,
// moving rows heading to zero out of S (into Z), and returns the number of
// steps taken. J never rises.
func (s *irls) newton(ctx context.Context, st *polishState) int {
	m, c := s.m, s.c
	steps := 0
	for solves := 0; solves < polishSteps && ctx.Err() == nil; solves++ {
		d, de, _, ok := s.newtonStep(st)
		if !ok {
			dbg("  newtonStep failed")
			return steps
		}
		// Rows heading to zero: the step goes no further than the
		// nearest point to zero of the first of them along d (a kink of
		// J), and rows that end there leave S (enter Z).
		tMax := 1.0
		for k, j := range st.sup {
			if t, ok := crossing(st.w[j*c:(j+1)*c], d[k*c:(k+1)*c]); ok {
				tMax = math.Min(tMax, t)
			}
		}
		if st.fit != nil {
			for i := 0; i < m; i++ {
				if t, ok := crossing(st.e[i*c:(i+1)*c], de[i*c:(i+1)*c]); ok && !st.fit[i] {
					tMax = math.Min(tMax, t)
				}
			}
		}
		// Backtracking on the exact J.
		w0, e0 := st.w, st.e
		w := slices.Clone(st.w)
		e := make([]float64, len(st.e))
		accepted := false
		for t := tMax; t > 1e-10*tMax; t /= 2 {
			for k, j := range st.sup {
				for u := 0; u < c; u++ {
					w[j*c+u] = st.w[j*c+u] + t*d[k*c+u]
				}
			}
			for i := range e {
				e[i] = st.e[i] + t*de[i]
			}
			obj := s.objective(w, e)
			if obj < st.obj {
				// Recompute e from W: the update above accumulates.
				s.residual(st.sup, w, e)
				if obj2 := s.objective(w, e); obj2 < st.obj {
					st.w, st.e, st.obj = w, e, obj2
					accepted = true
					steps++
					dbg("  step t %.3g tMax %.3g obj %.12g", t, tMax, obj2)
					if t == tMax && tMax < 1 {
						s.leave(st, w0, e0)
					}
					break
				}
			}
		}
		if !accepted {
			dbg("  not accepted (tMax %.3g)", tMax)
			return steps
		}
	}
	return steps
}

// crossing returns the t at which x + t·d is nearest to zero when d
// takes the nonzero row x through zero or to at most polishCross of its
// norm within t ≤ 1 (see crosses).
func crossing(x, d []float64) (float64, bool) {
	if !crosses(x, d) {
		return 0, false
	}
	xd, dd := 0.0, 0.0
	for t, v := range x {
		xd += v * d[t]
		dd += d[t] * d[t]
	}
	t := math.Min(1, math.Max(0, -xd/dd))
	if t <= polishAtKink {
		// The row is at its kink already (it just left Z or S) and the
		// step moves it away: not a crossing.
		return 0, false
	}
	return t, true
}

// leave moves out of S (into Z) the rows that a step to a kink took from
// (w0, e0) to at most polishCross of their norm, setting them to zero,
// if that does not raise J.
func (s *irls) leave(st *polishState, w0, e0 []float64) {
	c := s.c
	w := slices.Clone(st.w)
	sup := slices.Clone(st.sup)
	fit := slices.Clone(st.fit)
	sup = slices.DeleteFunc(sup, func(j int) bool {
		if norm2(w[j*c:(j+1)*c]) <= sq(polishCross)*norm2(w0[j*c:(j+1)*c]) {
			clear(w[j*c : (j+1)*c])
			return true
		}
		return false
	})
	for i := range fit {
		if !fit[i] && norm2(st.e[i*c:(i+1)*c]) <= sq(polishCross)*norm2(e0[i*c:(i+1)*c]) {
			fit[i] = true
		}
	}
	e := make([]float64, len(st.e))
	s.residual(sup, w, e)
	st.sup, st.fit = sup, fit
	if obj := s.objective(w, e); obj <= st.obj {
		st.w, st.e, st.obj = w, e, obj
	}
}

// crosses tells whether the step d takes the nonzero row x through zero
// or to at most polishCross of its norm.
func crosses(x, d []float64) bool {
	xx, xn := 0.0, 0.0
	for t, v := range x {
		xx += v * v
		xn += v * (v + d[t])
	}
	nn := 0.0
	for t, v := range x {
		nn += sq(v + d[t])
	}
	return xx > 0 && (xn <= 0 || nn <= sq(polishCross)*xx)
}

// newtonStep solves the KKT system of the manifold at st (see polish) and
// returns the step d of W_S (|S|×c) and the step of E it makes (m×c).
func (s *irls) newtonStep(st *polishState) (d, de, theta []float64, ok bool) {
	m, c := s.m, s.c
	ns := len(st.sup)
	n := ns * c
	if ns == 0 {
		return nil, nil, nil, false
	}
	ztS := s.rowsOfW(st.sup)
	// Gradient: ∇F = (ZᵀΘ)_S + λuʲ with Θ the loss gradient outside Z.
	th := s.lossGrad(st.e, st.fit, st.dir)
	g := make([]float64, n)
	linalg.Gemm(false, false, 1, gen(ns, m, ztS), gen(m, c, th), 0, gen(ns, c, g))
	h := make([]float64, n*n)
	// Loss Hessian: Σ_{i∉Z} zᵢzᵢᵀ ⊗ (αᵢI + βᵢuᵢuᵢᵀ), αᵢ = r‖eᵢ‖^{r−2},
	// βᵢ = (r − 2)αᵢ, uᵢ = eᵢ/‖eᵢ‖.
	alpha := make([]float64, m)
	var out []int
	for i := 0; i < m; i++ {
		if st.fit != nil && st.fit[i] {
			continue
		}
		nrm := math.Sqrt(norm2(st.e[i*c : (i+1)*c]))
		if st.dir != nil && st.dir[i] != nil && nrm <= s.kinkTol() {
			// At the kink, moving along dir: curvature across it only.
			nrm = 100 * s.kinkTol()
		} else if nrm == 0 {
			if s.r < 2 {
				return nil, nil, nil, false // not smooth here
			}
			nrm = 1
		}
		alpha[i] = s.r * pow(nrm, s.r-2)
		if s.r != 2 {
			out = append(out, i)
		}
	}
	k := make([]float64, ns*ns)
	linalg.ADAt(1, gen(ns, m, ztS), alpha, 0, gen(ns, ns, k))
	for a := 0; a < ns; a++ {
		for b := 0; b < ns; b++ {
			for t := 0; t < c; t++ {
				h[(a*c+t)*n+b*c+t] = k[a*ns+b]
			}
		}
	}
	if len(out) > 0 {
		vm := make([]float64, len(out)*n)
		beta := make([]float64, len(out))
		for q, i := range out {
			ei := st.e[i*c : (i+1)*c]
			nrm := math.Sqrt(norm2(ei))
			if st.dir != nil && st.dir[i] != nil && nrm <= s.kinkTol() {
				ei, nrm = st.dir[i], 1
			}
			beta[q] = (s.r - 2) * alpha[i]
			for a := 0; a < ns; a++ {
				z := ztS[a*m+i]
				for t := 0; t < c; t++ {
					vm[q*n+a*c+t] = z * ei[t] / nrm
				}
			}
		}
		linalg.AtDA(1, gen(len(out), n, vm), beta, 1, gen(n, n, h))
	}
	// Penalty: λ(I − uuᵀ)/‖wʲ‖ and gradient λuʲ.
	for a, j := range st.sup {
		wj := st.w[j*c : (j+1)*c]
		nrm := math.Sqrt(norm2(wj))
		if nrm == 0 {
			return nil, nil, nil, false
		}
		for t := 0; t < c; t++ {
			g[a*c+t] += s.lambda * wj[t] / nrm
			for u := 0; u < c; u++ {
				v := -wj[t] * wj[u] / (nrm * nrm)
				if t == u {
					v++
				}
				h[(a*c+t)*n+a*c+u] += s.lambda * v / nrm
			}
		}
	}
	var zi []int
	for i, f := range st.fit {
		if f {
			zi = append(zi, i)
		}
	}
	nzc := len(zi) * c
	sigmaZ := 0.0
	var at []float64 // Aᵀ: n × |Z|c, Aᵀ[(a,t),(q,t)] = z_{iq, ja}
	if nzc > 0 {
		at = make([]float64, n*nzc)
		ind := make([]float64, m)
		for _, i := range zi {
			ind[i] = 1
		}
		// AᵀA = (Z_{Z,S}ᵀZ_{Z,S}) ⊗ I_c, added with σ balancing the
		// largest diagonal entries.
		kz := make([]float64, ns*ns)
		linalg.ADAt(1, gen(ns, m, ztS), ind, 0, gen(ns, ns, kz))
		hmax, kmax := 0.0, 0.0
		for a := 0; a < n; a++ {
			hmax = math.Max(hmax, h[a*n+a])
		}
		for a := 0; a < ns; a++ {
			kmax = math.Max(kmax, kz[a*ns+a])
		}
		sigma := 1.0
		if kmax > 0 && hmax > 0 {
			sigma = hmax / kmax
		}
		sigmaZ = sigma
		for a := 0; a < ns; a++ {
			for b := 0; b < ns; b++ {
				for t := 0; t < c; t++ {
					h[(a*c+t)*n+b*c+t] += sigma * kz[a*ns+b]
				}
			}
			for q, i := range zi {
				for t := 0; t < c; t++ {
					at[(a*c+t)*nzc+q*c+t] = ztS[a*m+i]
				}
			}
		}
	}
	// (H + σAᵀA)[h₀ X] = [−∇F Aᵀ].
	rhs := make([]float64, n*(1+nzc))
	for a := 0; a < n; a++ {
		rhs[a*(1+nzc)] = -g[a]
		if nzc > 0 {
			copy(rhs[a*(1+nzc)+1:(a+1)*(1+nzc)], at[a*nzc:(a+1)*nzc])
		}
	}
	if !cholSolveShifted(gen(n, n, h), gen(n, 1+nzc, rhs)) {
		return nil, nil, nil, false
	}
	d = make([]float64, n)
	for a := 0; a < n; a++ {
		d[a] = rhs[a*(1+nzc)]
	}
	if nzc > 0 {
		// Σν′ = A h₀ + e_Z, Σ = A X; d = h₀ − Xν′.
		x := make([]float64, n*nzc)
		for a := 0; a < n; a++ {
			copy(x[a*nzc:(a+1)*nzc], rhs[a*(1+nzc)+1:(a+1)*(1+nzc)])
		}
		sch := make([]float64, nzc*nzc)
		linalg.Gemm(true, false, 1, gen(n, nzc, at), gen(n, nzc, x), 0, gen(nzc, nzc, sch))
		nu := make([]float64, nzc)
		linalg.Gemm(true, false, 1, gen(n, nzc, at), gen(n, 1, d), 0, gen(nzc, 1, nu))
		for q, i := range zi {
			for t := 0; t < c; t++ {
				nu[q*c+t] += st.e[i*c+t]
			}
		}
		if !cholSolveShifted(gen(nzc, nzc, sch), gen(nzc, 1, nu)) {
			return nil, nil, nil, false
		}
		linalg.Gemm(false, false, -1, gen(n, nzc, x), gen(nzc, 1, nu), 1, gen(n, 1, d))
		// The multipliers of the constraints e_Z = 0: Hd + Aᵀ(ν′ − σe_Z)
		// = −∇F, so Θ_Z = ν′ − σe_Z (at the step's end, to first order).
		theta = nu
		for q, i := range zi {
			for t := 0; t < c; t++ {
				theta[q*c+t] -= sigmaZ * st.e[i*c+t]
			}
		}
	}
	de = make([]float64, m*c)
	linalg.Gemm(true, false, 1, gen(ns, m, ztS), gen(ns, c, d), 0, gen(m, c, de))
	return d, de, theta, true
}

var polishKKTMult = false

var polishDebug func(string, ...any)

func dbg(f string, a ...any) {
	if polishDebug != nil {
		polishDebug(f, a...)
	}
}
