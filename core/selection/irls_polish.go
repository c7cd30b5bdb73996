package selection

import (
	"context"
	"math"
	"slices"

	"sparsefs/api"
	"sparsefs/core/linalg"
)

// Certificate is a bound on the distance of a convex model's answer from
// its optimum by a feasible dual point (the job format's type).
type Certificate = api.Certificate

// Constants of the polish and of the certificate (see irls.polish).
const (
	// polishSupportTol: rows of W with ‖wʲ‖ > polishSupportTol·maxₗ‖wˡ‖
	// start in the support S (the sparsity level of
	// docs/methods.md#sparsity).
	polishSupportTol = SparsityTol
	// polishCross: a Newton step taking a row of W to at most this
	// fraction of its norm, or across the hyperplane through 0 orthogonal
	// to it, says the row is heading to zero: it leaves S and the step is
	// recomputed.
	polishCross = 0.1
	// polishMaxUnknowns bounds |S|·c, the order of the Newton
	// system; above it the polish is skipped (see polishBudget).
	polishMaxUnknowns = 1200
	// kronMaxRows bounds |S| where r = 2 and c > 1, whose Newton
	// systems kronSolve solves in |S| unknowns rather than |S|·c.
	kronMaxRows = 2000
	// kronFloor is the cost always allowed to the polish by kronSolve
	// once the certified stop's continuation has settled the support
	// (about 0.5 s natively); before, its rows leave S one step at a time
	// (mtfs on lymphoma: 451 → 432 rows in 18 steps, the optimum's 400).
	// mtfs on orlraws10P takes 23 steps of ~2.6·10⁸ in four rounds.
	kronFloor = 1e10
	// polishBudget bounds the polish's estimated multiply-adds, all its
	// Newton steps together, as a multiple of those of the accelerated
	// iteration it follows (its Gram matrices and factorisations); the
	// polish is skipped when not even one step fits.
	polishBudget = 0.5
	// polishFloor is a cost always allowed (~2 ms natively).
	polishFloor = 1e7
	// polishReport is the largest certified relative gap reported: a
	// looser bound (the polish skipped, or stopped short; r near 1, where
	// the loss gradient turns fast near a zero residual row) is true but
	// would read as a warning about an answer that is fine.
	polishReport = 1e-6
	// polishSteps and polishRounds bound the Newton steps of one round
	// and the rounds (moves of violating rows between the sets; mtfs on
	// orlraws10P: 25, 7 and 2 rows enter in the first three, the fourth
	// certifies).
	polishSteps  = 30
	polishRounds = 6
	// polishGoal is the certified relative gap at which no further round
	// is tried.
	polishGoal = 1e-10
	// polishKKTMargin: an excluded row violates its optimality condition
	// when ‖(ZᵀΘ)ⱼ‖ > λ(1 + polishKKTMargin).
	polishKKTMargin = 1e-9
)

// polishState is a point on a manifold S of the model: for r > 1, or for
// r = 1 with the loss smoothed by mu (see smoothR1).
type polishState struct {
	sup []int // S: rows of W free to be nonzero, ascending
	w   []float64
	e   []float64
	obj float64 // polishJ at (e, w)
	// mu and muW smooth the model of r = p = 1 (see smoothR1) as
	// Σᵢ√(‖eᵢ‖² + μ²) + λΣⱼ√(‖wʲ‖² + μ_W²); both 0 for the exact model.
	mu, muW float64
	// cg: the smoothed model's Newton steps are taken by conjugate
	// gradients (newtonStepCG; see smoothR1).
	cg bool
	// settled: S comes from the certified stop's continuation, so that
	// a step's rows heading to zero all leave S at its kink (leave), not
	// only those it takes there.
	settled bool
}

// polishJ is the objective the polish minimises at (e, w) with the
// smoothing of st: the exact J when there is none.
func (s *irls) polishJ(e, w []float64, st *polishState) float64 {
	if st.mu == 0 && st.muW == 0 {
		return s.exactJ(e, w)
	}
	c := s.c
	f := 0.0
	for i := 0; i < s.m; i++ {
		f += math.Sqrt(norm2(e[i*c:(i+1)*c]) + st.mu*st.mu)
	}
	for j := 0; j < len(w)/c; j++ {
		if n := norm2(w[j*c : (j+1)*c]); n > 0 {
			f += s.lambda * math.Sqrt(n+st.muW*st.muW)
		}
	}
	return f
}

// rowsOfW returns the rows of Zᵀ in S (|S|×m), to be read only: a view of
// zt where they lie there in a run (all of W's rows, on tall data: no copy
// of the design), else gathered.
func (s *irls) rowsOfW(sup []int) []float64 {
	m := s.m
	if len(sup) > 0 {
		p0 := s.ztPos(sup[0])
		run := true
		for k, j := range sup {
			run = run && s.ztPos(j) == p0+k
		}
		if run {
			return s.zt[p0*m : (p0+len(sup))*m]
		}
	}
	out := make([]float64, len(sup)*m)
	for k, j := range sup {
		copy(out[k*m:(k+1)*m], s.ztRow(j))
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

func gen(r, c int, d []float64) linalg.General {
	return linalg.General{Rows: r, Cols: c, Stride: c, Data: d[:r*c]}
}

// lossGrad returns Θ (m×c), the gradient of the loss Σᵢφ(eᵢ), φ(e) =
// ‖e‖^r (r > 1): θᵢ = r‖eᵢ‖^{r−2}eᵢ (zero for a zero row), or for r = 1
// smoothed by mu > 0, φ(e) = √(‖e‖² + μ²): θᵢ = eᵢ/√(‖eᵢ‖² + μ²).
func (s *irls) lossGrad(e []float64, mu float64) []float64 {
	c := s.c
	th := make([]float64, s.m*c)
	for i := 0; i < s.m; i++ {
		ei := e[i*c : (i+1)*c]
		n := math.Sqrt(norm2(ei))
		if n == 0 {
			continue
		}
		a := s.r * pow(n, s.r-2)
		if mu > 0 {
			a = 1 / math.Sqrt(n*n+mu*mu)
		}
		for t, v := range ei {
			th[i*c+t] = a * v
		}
	}
	return th
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
// ‖(ZᵀΘ)ʲ‖ ≤ γ.) It is used for r > 1 (see polish): the dual point is
// the loss gradient at W, θᵢ = ∇φ(eᵢ), which at the optimum is the dual
// optimum (the gap closes); see dualBound for the scaling. It also
// returns ZᵀΘ (nr×c) for the optimality checks.
func (s *irls) certify(st *polishState) (Certificate, []float64) {
	cert, v := s.dualBound(s.lossGrad(st.e, 0), st.obj)
	cert.Support = len(st.sup)
	return cert, v
}

// dualBound scales the dual point Θ into the feasible set of the dual
// (see certify), r > 1, by the scale maximising D in the feasible range,
// and returns the certificate of the objective obj and ZᵀΘ (nr×c,
// unscaled).
func (s *irls) dualBound(th []float64, obj float64) (Certificate, []float64) {
	m, c, nr := s.m, s.c, s.nr
	v := make([]float64, nr*c)
	s.ztMul(1, th, v)
	maxV := 0.0
	for j := 0; j < nr; j++ {
		maxV = math.Max(maxV, norm2(v[j*c:(j+1)*c]))
	}
	maxV = math.Sqrt(maxV)
	a, b := 0.0, 0.0
	for i := 0; i < m; i++ {
		ti := th[i*c : (i+1)*c]
		for t, x := range ti {
			a += x * s.y[i*c+t]
		}
		b += (s.r - 1) * math.Pow(math.Sqrt(norm2(ti))/s.r, s.r/(s.r-1))
	}
	sMax := math.Inf(1)
	if maxV > 0 {
		sMax = s.lambda / maxV
	}
	// D(σΘ) = −σa − σ^q b, q = r/(r − 1), is concave in σ ≥ 0; its
	// maximiser on [0, sMax].
	q := s.r / (s.r - 1)
	var scale float64
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
	dual := -scale*a - b*math.Pow(scale, q)
	return Certificate{Gap: (obj - dual) / math.Abs(obj), Dual: dual}, v
}

// cholSolveShifted solves the symmetric positive semidefinite system
// a·x = b in place by Cholesky, with a diagonal shift of 10⁻¹⁴ … 10⁻⁸ of
// the largest diagonal entry if rounding makes it indefinite; it reports
// false if even the largest shift fails.
func cholSolveShifted(a, b linalg.General) bool {
	if !cholShifted(a) {
		return false
	}
	if a.Rows > 0 {
		linalg.CholeskySolve(a, b)
	}
	return true
}

// cholShifted factorises the symmetric positive semidefinite a in place by
// Cholesky, with the smallest diagonal shift of cholSolveShifted that
// succeeds; false if even the largest fails.
func cholShifted(a linalg.General) bool {
	if a.Rows == 0 {
		return true
	}
	orig := slices.Clone(a.Data[:a.Rows*a.Stride])
	for shift := 0.0; shift <= 1e-8; shift = max(1e-14, 100*shift) {
		copy(a.Data, orig)
		if factorShifted(a, shift) {
			return true
		}
	}
	return false
}

// polishWork estimates the multiply-adds of one Newton step on S (ns
// unknowns): forming the Hessian's loss part from m residual rows and
// factorising it.
func polishWork(ns, m int) float64 {
	fs := float64(ns)
	return fs*fs*fs/3 + float64(m)*fs*fs/2
}

// polish refines the answer of the accelerated iteration (p = 1, r > 1)
// by Newton's method on the manifold where it is smooth, and certifies the
// result. For r > 1 J is non-smooth only where a row of W is zero; with S
// the rows of W that are nonzero at the optimum, the optimum minimises
//
//	F(W_S) = Σᵢ ‖eᵢ‖^r + λ Σ_{j∈S} ‖wʲ‖,
//
// which is smooth near it, and Newton's method converges quadratically
// there. Each step solves H d = −∇F, H the Hessian of F (positive
// definite: the loss part is, for r > 1, wherever the residual rows are
// nonzero and Z_S has full column rank; a diagonal shift is tried
// otherwise), by Cholesky with core/linalg's kernels, and is taken with a
// backtracking line search on the exact J, which never rises.
//
// S starts from the iterate (polishSupportTol): rows the iteration has not
// decided are sorted out by the steps and checks. A step that takes a row
// of S through zero or to a tenth of its norm stops at the kink, and the
// row leaves S; at the end of a round the certificate's multipliers check
// the excluded rows (‖(ZᵀΘ)ʲ‖ ≤ λ for j ∉ S), violators enter S and
// another round runs (at most polishRounds). The answer is the best point
// found, never worse than the iteration's; the certificate is computed
// there. work is the iteration's multiply-adds (the budget: all steps
// together at most polishBudget of it). The certificate is returned only
// when its gap is at most polishReport; the polish is skipped (nil, the
// iteration's answer) when S is empty or too large for the budget.
//
// For r = 1 (rfs, gsr with r = 1) there is no polish (nil): the residual
// rows at exact fit add constraints Z_{Z,S}W_S = Y_Z whose set Z the
// iterate does not identify reliably (docs/notes/irls-r1-polish.md); the
// certificate for r = p = 1 is certifyR1's.
func (s *irls) polish(ctx context.Context, work float64, settled bool) (*Certificate, bool) {
	if s.r == 1 || s.obj == 0 { // J = 0: W = 0 and Y = 0, nothing to polish
		return nil, false
	}
	c := s.c
	st := &polishState{w: slices.Clone(s.w), e: slices.Clone(s.e), obj: s.obj, settled: settled}
	big := 0.0
	for j := 0; j < s.nr; j++ {
		big = math.Max(big, norm2(s.w[j*c:(j+1)*c]))
	}
	for j := 0; j < s.nr; j++ {
		if n := norm2(s.w[j*c : (j+1)*c]); n > 0 && n > sq(polishSupportTol)*big {
			st.sup = append(st.sup, j)
		}
	}
	ns := len(st.sup) * c
	stepWork, fits, floor := polishWork(ns, s.m), ns <= polishMaxUnknowns, polishFloor
	if s.r == 2 && c > 1 { // the Newton systems of kronSolve
		stepWork, fits = kronWork(len(st.sup), s.m), len(st.sup) <= kronMaxRows
		if settled {
			floor = kronFloor
		}
	}
	if ns == 0 || !fits {
		return nil, false // the accelerated iteration's answer, as for r = 1
	}
	budget := int(math.Max(floor, polishBudget*work) / stepWork)
	if budget < 1 {
		return nil, false
	}
	best := st.clone()
	// The iteration's iterate, zeroed outside S, is where the first
	// round starts; J there may be a little above the iteration's.
	s.restrict(st)
	steps := 0
	var cert Certificate
	for round := 0; round < polishRounds && steps < budget; round++ {
		steps += s.newton(ctx, st, budget-steps, &best)
		if st.obj <= best.obj {
			best = st.clone()
		}
		var v []float64
		cert, v = s.certify(st)
		if cert.Gap <= polishGoal || ctx.Err() != nil {
			break
		}
		if !s.moveViolators(st, v) {
			break
		}
	}
	if best.obj < s.obj {
		copy(s.w, best.w)
		copy(s.e, best.e)
		s.obj = best.obj
		cert, _ = s.certify(best)
		cert.Polished = true
	} else {
		cert, _ = s.certify(s.exactState(best))
	}
	cert.NewtonSteps = steps
	if !(cert.Gap <= polishReport) {
		return nil, cert.Polished
	}
	return &cert, cert.Polished
}

// exactState returns the iteration's own iterate with the sets of st (for
// its certificate).
func (s *irls) exactState(st *polishState) *polishState {
	return &polishState{sup: st.sup, w: s.w, e: s.e, obj: s.obj}
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
	st.obj = s.polishJ(st.e, st.w, st)
}

// moveViolators moves the parts of the model whose optimality conditions
// fail at st (v = ZᵀΘ of its certificate): rows j ∉ S with
// ‖vʲ‖ > λ(1 + margin) enter S, starting at a small norm in the descent
// direction −vʲ. It reports whether anything moved.
func (s *irls) moveViolators(st *polishState, v []float64) bool {
	c := s.c
	in := make([]bool, s.nr)
	big := 0.0
	for _, j := range st.sup {
		in[j] = true
		big = math.Max(big, norm2(st.w[j*c:(j+1)*c]))
	}
	seed := polishSupportTol * math.Sqrt(big)
	moved := false
	for j := 0; j < s.nr; j++ {
		vj := v[j*c : (j+1)*c]
		n := math.Sqrt(norm2(vj))
		if in[j] || n <= s.lambda*(1+polishKKTMargin) {
			continue
		}
		for t, x := range vj {
			st.w[j*c+t] = -seed * x / n
		}
		st.sup = append(st.sup, j)
		moved = true
	}
	slices.Sort(st.sup)
	if moved {
		s.residual(st.sup, st.w, st.e)
		st.obj = s.polishJ(st.e, st.w, st)
	}
	return moved
}

// newton runs at most limit Newton steps on the manifold st.sup from st,
// moving rows heading to zero out of S, and returns the number of steps
// taken. J falls at every step but may rise when rows leave S (leave);
// *best keeps the lowest point seen.
func (s *irls) newton(ctx context.Context, st *polishState, limit int, best **polishState) int {
	c := s.c
	steps := 0
	for solves := 0; solves < min(polishSteps, limit) && ctx.Err() == nil; solves++ {
		d, de, ok := s.newtonStep(st)
		if !ok {
			return steps
		}
		// Rows heading to zero: the step goes no further than the
		// nearest point to zero of the first of them along d (a kink of
		// J), and rows that end there leave S.
		// (A smoothed penalty has no kink.)
		tMax := 1.0
		var heading []int
		for k, j := range st.sup {
			if t, ok := crossing(st.w[j*c:(j+1)*c], d[k*c:(k+1)*c]); ok && st.muW == 0 {
				tMax = math.Min(tMax, t)
				if st.settled {
					heading = append(heading, j)
				}
			}
		}
		// Backtracking on the exact J.
		w0 := st.w
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
			obj := s.polishJ(e, w, st)
			if obj < st.obj {
				// Recompute e from W: the update above accumulates.
				s.residual(st.sup, w, e)
				if obj2 := s.polishJ(e, w, st); obj2 < st.obj {
					st.w, st.e, st.obj = w, e, obj2
					accepted = true
					steps++
					if st.obj < (*best).obj {
						*best = st.clone()
					}
					if t == tMax && tMax < 1 {
						s.leave(st, w0, heading)
					}
					break
				}
			}
		}
		if !accepted {
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
	return math.Min(1, math.Max(0, -xd/dd)), true
}

// leave moves out of S the rows that a step to a kink took from w0 to
// at most polishCross of their norm, and the rows heading (those the full
// step would take there too, where S is settled: on nci9, 256 rows of
// which 5 leave, one at a time the 30 steps of a round ended 4·10⁻⁵ above
// the optimum, all at once it certified 6·10⁻¹⁴), setting them to zero,
// and recomputes
// E and J (which may rise a little: the kink is the nearest point to zero
// along the step, not zero; newton's best point is kept).
func (s *irls) leave(st *polishState, w0 []float64, heading []int) {
	c := s.c
	w := slices.Clone(st.w)
	sup := slices.Clone(st.sup)
	sup = slices.DeleteFunc(sup, func(j int) bool {
		if norm2(w[j*c:(j+1)*c]) <= sq(polishCross)*norm2(w0[j*c:(j+1)*c]) || slices.Contains(heading, j) {
			clear(w[j*c : (j+1)*c])
			return true
		}
		return false
	})
	e := make([]float64, len(st.e))
	s.residual(sup, w, e)
	// The sets change only with W, E and J together: rows kept at their
	// values but outside S would leave E (computed over S) out of step
	// with W.
	st.sup, st.w, st.e, st.obj = sup, w, e, s.polishJ(e, w, st)
}

// clone returns a copy of st.
func (st *polishState) clone() *polishState {
	return &polishState{sup: slices.Clone(st.sup), w: slices.Clone(st.w), e: slices.Clone(st.e), obj: st.obj, mu: st.mu, muW: st.muW, cg: st.cg, settled: st.settled}
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

// newtonStep solves the Newton system of the manifold at st (see polish) and
// returns the step d of W_S (|S|×c) and the step of E it makes (m×c).
func (s *irls) newtonStep(st *polishState) (d, de []float64, ok bool) {
	defer s.stepped()
	sys, ok := s.newtonSystem(st)
	if !ok {
		return nil, nil, false
	}
	ns, c := len(st.sup), s.c
	switch {
	case st.mu > 0 && st.cg:
		return s.newtonStepCG(st, sys, s.smoothCGTol(sys.g))
	case len(sys.out) == 0 && c > 1:
		// The loss part is K ⊗ I_c: solved by kronSolve.
		if !kronSolve(sys.k, ns, c, sys.rows, s.lambda, st.muW, sys.g) {
			return nil, nil, false
		}
		return s.stepOf(ns, sys.ztS, sys.g)
	}
	return s.newtonStepDense(st, sys)
}

// newtonSystem holds the parts of the Newton system at a polishState: the
// rows of Zᵀ in S (|S|×m), the gradient g of W_S (|S|×c), the loss
// Hessian's Σᵢ zᵢzᵢᵀ ⊗ (αᵢI + βᵢuᵢuᵢᵀ) as K = Σᵢ αᵢzᵢzᵢᵀ (|S|×|S|; nil
// for the smoothed steps by conjugate gradients, newtonStepCG), α, β and
// the samples out with βᵢ ≠ 0, and the rows of W on S.
type newtonSystem struct {
	ztS, g, k, alpha, beta []float64
	out                    []int
	rows                   [][]float64
}

// newtonSystem computes the parts of the Newton system at st; false where
// the model is not smooth there (a zero residual row for r < 2, or a zero
// row of W unsmoothed) or S is empty.
func (s *irls) newtonSystem(st *polishState) (*newtonSystem, bool) {
	m, c := s.m, s.c
	ns := len(st.sup)
	n := ns * c
	if ns == 0 {
		return nil, false
	}
	ztS := s.rowsOfW(st.sup)
	// Gradient: ∇F = (ZᵀΘ)_S + λuʲ with Θ the loss gradient.
	th := s.lossGrad(st.e, st.mu)
	g := make([]float64, n)
	linalg.Gemm(false, false, 1, gen(ns, m, ztS), gen(m, c, th), 0, gen(ns, c, g))
	// Loss Hessian: Σᵢ zᵢzᵢᵀ ⊗ (αᵢI + βᵢuᵢuᵢᵀ), uᵢ = eᵢ/‖eᵢ‖: αᵢ =
	// r‖eᵢ‖^{r−2}, βᵢ = (r − 2)αᵢ; smoothed (r = 1, μ > 0) with
	// sᵢ = √(‖eᵢ‖² + μ²), αᵢ = 1/sᵢ, βᵢ = −‖eᵢ‖²/sᵢ³.
	alpha := make([]float64, m)
	beta := make([]float64, m)
	var out []int
	for i := 0; i < m; i++ {
		nrm := math.Sqrt(norm2(st.e[i*c : (i+1)*c]))
		switch {
		case st.mu > 0:
			si := math.Sqrt(nrm*nrm + st.mu*st.mu)
			alpha[i], beta[i] = 1/si, -nrm*nrm/(si*si*si)
		case nrm == 0 && s.r < 2:
			return nil, false // not smooth here
		case nrm == 0:
			alpha[i] = s.r
		default:
			alpha[i] = s.r * pow(nrm, s.r-2)
			beta[i] = (s.r - 2) * alpha[i]
		}
		if beta[i] != 0 {
			out = append(out, i)
		}
	}
	// K, for the conjugate-gradient steps only their preconditioner's
	// (made there when it is factorised afresh; see newtonStepCG).
	var k []float64
	if !(st.mu > 0 && st.cg) {
		k = smoothK(ztS, alpha, ns, m)
	}
	// The penalty's gradient λwʲ/‖wʲ‖, with √(‖wʲ‖² + μ_W²) for ‖wʲ‖
	// where it is smoothed.
	rows := make([][]float64, ns)
	for a, j := range st.sup {
		wj := st.w[j*c : (j+1)*c]
		nrm := math.Sqrt(norm2(wj) + st.muW*st.muW)
		if nrm == 0 {
			return nil, false
		}
		for t := 0; t < c; t++ {
			g[a*c+t] += s.lambda * wj[t] / nrm
		}
		rows[a] = wj
	}
	return &newtonSystem{ztS: ztS, g: g, k: k, alpha: alpha, beta: beta, out: out, rows: rows}, true
}

// smoothK returns K = Σᵢ αᵢzᵢzᵢᵀ (ns×ns) for the rows ztS (ns×m) of Zᵀ.
func smoothK(ztS, alpha []float64, ns, m int) []float64 {
	k := make([]float64, ns*ns)
	linalg.ADAt(1, gen(ns, m, ztS), alpha, 0, gen(ns, ns, k))
	return k
}

// newtonStepDense forms the Newton system of sys (|S|·c unknowns) and
// solves it by Cholesky.
func (s *irls) newtonStepDense(st *polishState, sys *newtonSystem) (d, de []float64, ok bool) {
	m, c := s.m, s.c
	ns := len(st.sup)
	n := ns * c
	ztS, k, out, rows, g := sys.ztS, sys.k, sys.out, sys.rows, sys.g
	beta := sys.beta
	h := make([]float64, n*n)
	for a := 0; a < ns; a++ {
		for b := 0; b < ns; b++ {
			for t := 0; t < c; t++ {
				h[(a*c+t)*n+b*c+t] = k[a*ns+b]
			}
		}
	}
	if len(out) > 0 {
		vm := make([]float64, len(out)*n)
		bo := make([]float64, len(out))
		for q, i := range out {
			ei := st.e[i*c : (i+1)*c]
			nrm := math.Sqrt(norm2(ei))
			bo[q] = beta[i]
			for a := 0; a < ns; a++ {
				z := ztS[a*m+i]
				for t := 0; t < c; t++ {
					vm[q*n+a*c+t] = z * ei[t] / nrm
				}
			}
		}
		linalg.AtDA(1, gen(len(out), n, vm), bo, 1, gen(n, n, h))
	}
	// The penalty's Hessian λ(I − wwᵀ/‖wʲ‖²)/‖wʲ‖ (smoothed as above).
	for a, wj := range rows {
		nrm := math.Sqrt(norm2(wj) + st.muW*st.muW)
		for t := 0; t < c; t++ {
			for u := 0; u < c; u++ {
				v := -wj[t] * wj[u] / (nrm * nrm)
				if t == u {
					v++
				}
				h[(a*c+t)*n+a*c+u] += s.lambda * v / nrm
			}
		}
	}
	if !cholSolveShifted(gen(n, n, h), gen(n, 1, g)) {
		return nil, nil, false
	}
	return s.stepOf(ns, ztS, g)
}

// stepOf returns the Newton step d = −h of W_S (ns×c) for the solution h
// of the Newton system, and the step Z_S·d of E it makes (m×c); h is
// overwritten.
func (s *irls) stepOf(ns int, ztS, h []float64) (d, de []float64, ok bool) {
	m, c := s.m, s.c
	d = h
	for a := range d {
		d[a] = -d[a]
	}
	de = make([]float64, m*c)
	linalg.Gemm(true, false, 1, gen(ns, m, ztS), gen(ns, c, d), 0, gen(m, c, de))
	return d, de, true
}
