package selection

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// irlsModel is the model shared by rfs, gsr, mtfs, erfs and rk1u, Eq. (2)
// of gsr-fs-peng-fan-irls:
//
//	min_W J(W) = ‖ZW − Y‖_{2,r}^r + λ‖W‖_{2,p}^p,   0 < r ≤ 2, 0 < p ≤ 1,
//
// where Z = Problem.Design() is m×N (the features, and a constant-1 column
// when Problem.Bias is set, whose row of W is regularised like any other
// but never ranked) and Y = Problem.Response(coding) is m×c. RFS
// (rfs-nie-2010, Eq. 10) is r = p = 1 with λ = γ.
//
// It is solved by the iteratively reweighted least squares of Algorithm 1
// of gsr-fs-peng-fan-irls (Algorithm 1 of rfs-nie-2010 when r = p = 1):
// from S₁ = S₂ = I, each iteration solves
//
//	(ZᵀS₁Z + λS₂)W = ZᵀS₁Y                                  (Eq. 4)
//
// and then sets s₁ᵢ = (r/2)‖eᵢ‖^{r−2} for the rows eᵢ of E = ZW − Y and
// s₂ⱼ = (p/2)‖wʲ‖^{p−2} (Algorithm 1, lines 6–8). The objective never
// increases (Lemmas 1–2 and Theorem 1 of gsr-fs-peng-fan-irls; Theorem 1 of
// rfs-nie-2010), and for r ≥ 1, p = 1 the model is convex and the iterates
// approach its minimum. The value reported and traced is always the exact
// J(W) above, never a smoothed one.
//
// Decisions where the papers are silent (collected in docs/methods.md#irls):
//
//   - The system is solved in the smaller space: the N×N primal form
//     above, or the m×m dual (Woodbury) form W = S₂⁻¹Zᵀ(ZS₂⁻¹Zᵀ + λS₁⁻¹)⁻¹Y,
//     which is Eq. (19) of rfs-nie-2010 with A = [X γI] written without
//     ever forming A. Both Gram matrices are built with the SYRK-style
//     kernels of core/linalg and factorised by Cholesky; every buffer is
//     allocated once and reused.
//   - A zero norm is smoothed as √(‖v‖² + ε) inside the weights only, with
//     ε = (δ·scale)²: for residual rows the scale is the root mean square
//     row norm of Y, for rows of W the largest row norm of the first
//     iterate, and δ = 10^{−12/(2−q)} for the exponent q (r or p), so that
//     no weight exceeds 10¹² times that of a row of norm equal to the
//     scale: δ = 10⁻¹² for q = 1, 10⁻⁸ for q = 0.5
//     (docs/methods.md#irls-smoothing). Without the bound, r = 0.5 gave
//     weights spanning 10¹⁸ and a primal system whose Cholesky solve lost
//     all accuracy (the objective rose fivefold in TestIRLSMonotone). For
//     q = 1 the smoothed optimum differs from the exact one by a relative
//     ~N·10⁻¹² at most. (numpy_rfs.py uses ε = 10⁻¹⁶ absolute, a floor of
//     10⁻⁸ on every norm, which raises its objective on GLIOMA by 2.8·10⁻⁶
//     relative; see docs/results.md#irls-accuracy.)
//   - Rows whose weight has vanished are skipped: after each iteration the
//     rows with ‖wʲ‖ ≤ τ·maxₗ‖wˡ‖, τ = 10⁻⁷, are set to zero and leave the
//     working set, so the Gram matrices and products cost m²|A|/2 instead
//     of m²N/2 (on the microarray sets |A| falls to a few per cent of N
//     within tens of iterations). It keeps the optimum: such a row's
//     weight makes its contribution to the next system 10⁻⁷ relative at
//     most; if the objective nevertheless rises, the iteration is redone
//     with the rows restored (so the trace stays monotone); and for p = 1,
//     when the stopping rule is met, the optimality condition of every
//     zero row, ‖∇_{wʲ}‖ZW−Y‖_{2,r}^r‖ ≤ λ (the subgradient condition of
//     the ℓ2,1 term at 0), is checked, and rows violating it by more than
//     a relative min(10⁻³, √tol) (what a row could still gain is of the
//     order of the square of its violation) are put back, with their last
//     nonzero norm as a floor on their weight, and the iteration goes on
//     (at most 5 times).
//     For p < 1 a zero row is always a local minimiser (the penalty's
//     slope at 0 is infinite) and plain IRLS never revives one either.
//   - For the convex models (p = 1, r ≥ 1: rfs, mtfs, gsr with p = 1) the
//     iteration is accelerated unless the solver parameter asks for
//     Algorithm 1 itself ("irls"). IRLS is a fixed-point iteration on the
//     norms its systems are weighted with, and its tail is slow: rows of
//     the optimum's zero set decay geometrically with ratios close to 1,
//     so that at the loop's default rule numpy's IRLS and ours stop 10⁻⁵
//     to 10⁻⁴ above the optimum after ~200 iterations. Each accelerated
//     step extrapolates those norms (Anderson acceleration of depth one,
//     see weights), solves the system they weight, and keeps the result
//     only if J did not rise; otherwise it takes the plain step, which
//     cannot raise J (Theorem 1). The trace is therefore monotone by
//     construction. After k rejected steps in a row the next 2^k − 1
//     steps are plain (at most 15), so that a stretch where extrapolation
//     fails does not double the work. Rows the extrapolation takes to
//     zero leave the working set; the optimality check of the zero rows
//     above is also run, after a plain step (its multiplier needs the
//     plain weights), whenever the change of J first falls below 10⁻³,
//     10⁻⁴, … (down to tol), so that rows removed wrongly come back early,
//     at their norm at the last plain step. On twelve microarray and image
//     benchmark sets (γ = 0.1, 1, 10; r = 1, 1.5, 2) the accelerated
//     iteration stopped closer to the optimum than Algorithm 1 in 59 of 60
//     cases at the default tol, with 0.23–0.53 of its work, and in 24 of 24
//     at tol = 10⁻¹⁰ with 0.14–0.67 (docs/results.md#irls-accuracy;
//     docs/methods.md#irls-accelerated).
//   - The stopping rule of Algorithm 1 is the loop's (relative change of
//     J in one iteration at most tol), applied inside the step, so that
//     the optimality check above can veto it; the status is then
//     Converged as usual. The accelerated iteration's steps make uneven
//     progress, so its rule is the relative change of J over the last
//     three iterations at most tol, the last two of them plain IRLS steps
//     (an accelerated step meeting it is followed by plain ones) whose
//     decreases of J are not growing (see settled), and then the
//     optimality check.
type irlsModel struct {
	r, p, lambda float64
	// coding is the label coding used unless the problem overrides it.
	coding Coding
	// plain runs Algorithm 1 as published even where the accelerated
	// iteration applies (solver "irls").
	plain bool
}

// IRLSSolver chooses the iteration for the convex models of the IRLS
// family (p = 1, r ≥ 1); the others always run Algorithm 1.
type IRLSSolver int

const (
	// IRLSAccelerated is Algorithm 1 with safeguarded Anderson
	// acceleration of its weights (see irlsModel): the default.
	IRLSAccelerated IRLSSolver = iota
	// IRLSPlain is Algorithm 1 as published, stopping when one iteration
	// changes the objective by at most tol (relative).
	IRLSPlain
)

// irlsSolverParam and irlsTolParam are the parameters of the IRLS
// selectors whose model can be convex.
var (
	irlsSolverParam = Param{Name: "solver", Default: float64(IRLSAccelerated), Choices: []string{"accelerated", "irls"},
		Doc: "for the convex cases (p = 1, r ≥ 1): accelerated (Algorithm 1 with safeguarded Anderson acceleration of its weights, default) or irls (Algorithm 1 as published); the same optimum, the objective never rises"}
	irlsTolParam = Param{Name: "tol", Default: DefaultTolerance, Min: 0, Max: 1, MinOpen: true,
		Doc: "stop when the relative change of the objective is at most this: over one iteration (solver irls, or a non-convex model), over the last three, the last two plain IRLS steps whose decreases are not growing (accelerated); for p = 1 the accelerated iteration then goes on with tol/10 until its certified duality gap is at most 1e-6 (for r = 1 where the dual is solved for; for r > 1 while the gap keeps falling), else status converged_uncertified"}
)

// Constants of the engine (see irlsModel).
const (
	irlsDropTol     = 1e-7
	irlsWeightRange = 1e12
	irlsKKTMargin   = 1e-3
	irlsKKTRounds   = 5
	// irlsRiseTol is the relative rise of J above which an iteration
	// with freshly dropped rows is redone (rounding in the sums of J is
	// far below it).
	irlsRiseTol = 1e-13
	// irlsWindow is the number of iterations over which the accelerated
	// iteration measures the change of J.
	irlsWindow = 3
	// irlsCheck0 is the change of J (relative, over the window) at which
	// the accelerated iteration first checks the optimality of the rows
	// outside the working set, and again at each tenth of it down to tol.
	irlsCheck0 = 1e-3
	// irlsCheckMin ends the checkpoints when tol is below rounding (or
	// disabled).
	irlsCheckMin = 1e-15
	// irlsSettleGrowth is the factor by which the last of two plain
	// steps' decreases of J may exceed the first's for the accelerated
	// iteration to stop (see settled).
	irlsSettleGrowth = 1.1
	// irlsMaxBackoff bounds the pause after accelerated steps rejected
	// in a row: after the k-th, 2^k − 1 plain steps (at most 2^bound − 1).
	irlsMaxBackoff = 4
)

// irlsMaxLambda bounds λ (and γ) in the registry: beyond it W is zero to
// working precision on any standardised data.
const irlsMaxLambda = 1e6

// validate checks the parameters, naming the offending one with the name
// the method's users know (lambdaName: "gamma" for rfs).
func (mdl irlsModel) validate(method, lambdaName string) error {
	switch {
	case !(mdl.p > 0 && mdl.p <= 1):
		return fmt.Errorf("%s: parameter p = %v is invalid: it must be in (0, 1]", method, mdl.p)
	case !(mdl.r > 0 && mdl.r <= 2):
		return fmt.Errorf("%s: parameter r = %v is invalid: it must be in (0, 2]", method, mdl.r)
	case !(mdl.lambda > 0) || math.IsInf(mdl.lambda, 1):
		return fmt.Errorf("%s: parameter %s = %v is invalid: it must be a positive number", method, lambdaName, mdl.lambda)
	}
	return nil
}

// fit checks the parameters (see validate) and the problem, then solves
// the model on p.
func (mdl irlsModel) fit(ctx context.Context, p *Problem, s *Settings, method, lambdaName string) (*Result, error) {
	if err := mdl.validate(method, lambdaName); err != nil {
		return nil, err
	}
	if err := p.ValidateTargets(); err != nil {
		return nil, err
	}
	design := 1
	if p.Lend && lendable(p.X, p.Bias) {
		design = 0 // zt in X's own memory (irls_lend.go)
	}
	if err := p.CheckMemory(method, p.embeddedNeeds(design, p.gram(2))...); err != nil {
		return nil, err
	}
	_, n := p.X.Dims()
	sol := newIRLSOf(mdl, p.X, p.Bias, p.Lend, p.Response(mdl.coding), s.tol())
	defer sol.giveBack()
	// The loop enforces the limit, records the trace, reports progress
	// and honours cancellation; the relative-change rule is applied by
	// the step (see irlsModel).
	inner := Settings{MaxIterations: s.maxIter(), Tolerance: -1}
	if s != nil {
		inner.Progress = s.Progress
	}
	run, err := Iterate(ctx, &inner, sol.step)
	if err != nil {
		return nil, err
	}
	// The certificate: for r = p = 1 from the dual of the group basis
	// pursuit (certifiedStop: at any stop, and the accelerated iteration
	// goes on until the gap is certified where the dual was solved for,
	// or read off the iterate on tall data; the smoothed Newton minimum
	// may replace the answer), for r > 1 from
	// the polish or the loss gradient (certifiedStopSmooth: the iteration
	// goes on until the gap is certified).
	var cert *Certificate
	if mdl.r == 1 && mdl.p == 1 {
		if cert, run, err = sol.certifiedStop(ctx, &inner, run); err != nil {
			return nil, err
		}
	}
	if sol.accel && mdl.r > 1 {
		// The polish (see irls.polish) counts as one more iteration of
		// the trace when it lowered J; where it does not certify, the
		// iteration goes on (certifiedStopSmooth).
		if cert, run, err = sol.certifiedStopSmooth(ctx, &inner, run); err != nil {
			return nil, err
		}
	}
	if mdl.p == 1 && mdl.r >= 1 {
		run.Status = uncertified(method, cert, sol.obj, run.Status, &sol.notes)
	}
	res := EmbeddedResult(mat.NewDense(sol.nr, sol.c, sol.w), n, run)
	res.Notes = sol.notes
	res.Certificate = cert
	return res, nil
}

// irls is the state of one solve. Matrices are row-major slices; "rows"
// are the N = n (+1 with the bias) rows of W, the columns of Z.
type irls struct {
	irlsModel
	tol      float64
	m, nr, c int
	zt       []float64 // nr×m: row j is column j of Z
	// lentCols is n when zt lies in the lent X's memory (irls_lend.go),
	// −1 when zt is a copy.
	lentCols int
	y        []float64 // m×c
	epsE     float64
	epsW     float64

	act     []int     // working set: rows of W that may be nonzero, ascending
	prevAct []int     // the working set before the last drop
	ztA     []float64 // |act|×m: the rows in act, the front of zt (see irls_rows.go)
	gather  bool      // ztA must be gathered again
	// pos[j] is the row of zt holding row j of Zᵀ and order its inverse
	// (nil while zt is in Z's order); want, mulBuf and rowBuf are
	// gatherRows' and ztMul's scratch.
	pos, order, want []int
	mulBuf, rowBuf   []float64

	w, wNext []float64 // nr×c: the iterate and the next one
	e, eNext []float64 // m×c: E = ZW − Y for each
	obj      float64   // J at w

	// The norms a reweighted system is built from (Algorithm 1, lines
	// 7–8): entry j < nr for row j of W, entry nr+i for residual row i.
	// g holds those of the current iterate (a plain IRLS step uses them),
	// wts those the next system is built from (g, or their
	// extrapolation), last the last nonzero norm of each row of W.
	g, wts, last []float64
	// Acceleration (convex models only, see irlsModel): the previous g
	// and f = g − wts, how many such pairs are held (−1 before wts is
	// meaningful), and the stopping and checking state.
	accel      bool
	gOld, fOld []float64
	depth      int
	plainNext  bool // the next step is a plain IRLS step
	// extrapolated tells whether the iterate came from an accelerated
	// step (last is kept from plain iterates: an accelerated step may
	// take a row to zero, and a revived row returns to its norm before).
	extrapolated bool
	hist         []float64 // J after each accepted iteration since the last revival
	// plainHist tells, for each entry of hist, whether it came from a
	// plain step (the stopping rule's estimate of the remaining decrease
	// uses two plain steps in a row).
	plainHist []bool
	check     float64 // the next relative change at which optimality is checked
	accepted  int     // accelerated steps kept
	rejected  int     // accelerated steps discarded for the plain one
	fails     int     // accelerated steps discarded in a row
	skip      int     // plain steps to take before extrapolating again
	plainDec  float64 // the decrease of J made by the last plain step
	slow      int     // accelerated steps in a row kept but slower than plain

	wA     []float64 // |act|×c: the solution on the working set
	s2inv  []float64 // |act|: 1/s₂ⱼ
	s1     []float64 // m: s₁ᵢ
	s1inv  []float64 // m: 1/s₁ᵢ
	sys    []float64 // the system matrix, m×m or |act|×|act|
	gram   []float64 // m×m: ZS₂⁻¹Zᵀ in the dual form
	lam    []float64 // m×c: the dual solution Λ, or S₁Y in the primal form
	dual   bool      // the last solve was in the dual form (lam is Λ)
	fReady bool      // lam holds the multiplier F of the iterate
	grad   []float64 // nr×c: the loss gradient for the optimality check
	boost  []float64 // nr: a floor on the norm of revived rows, 0 elsewhere
	shift  bool      // a diagonal shift was needed once (noted)
	notes  []string
	// work counts the multiply-adds of the systems formed and factorised
	// (the polish's budget).
	work   float64
	kkt    int  // optimality-check rounds left
	dropd  bool // rows were dropped after the last accepted iteration
	reviv  bool // rows were revived after the last accepted iteration
	noDrop bool // do not drop after the current iteration
	// form forces the primal (formPrimal) or dual (formDual) system; the
	// default chooses the smaller (the tests compare the two).
	form int
	// perturb, if set, alters each extrapolated set of norms (the tests
	// use it to make accelerated steps fail).
	perturb func(wts []float64)
	// readOff, if set, makes certifyR1 read the dual point off the
	// iterate only (the tests of the read-off continuation use it on
	// data where the smoothed minimum would certify first).
	readOff bool
	// smoothLimit, if positive, caps the Newton steps of smoothR1 (the
	// tests use it to cut the smoothed minimum short).
	smoothLimit int
	// smoothPre is the preconditioner newtonStepCG keeps between steps.
	smoothPre *smoothPrecond
	// noBarrier, if set, keeps barrierR1 from running (the tests of a
	// cut-short smoothed minimum use it where the dual solve would follow
	// and certify).
	noBarrier bool
	// dualSolved tells whether the last certifyR1 solved for its dual
	// point (see certifyR1) rather than reading it off the iterate.
	dualSolved bool
	// certPoint is the dual point (m×c) of certifiedStop's certificate.
	certPoint []float64
	// certStep, if set, is called after each step of a certificate (a
	// Newton, face, barrier or correction step; see stepped).
	certStep func()
}

// stepped reports a step of the certificate (Settings.certifying).
func (s *irls) stepped() {
	if s.certStep != nil {
		s.certStep()
	}
}

// Forms of the reweighted system.
const (
	formAuto = iota
	formPrimal
	formDual
)

// newIRLS sets up the solve of the model for the design z (bias already
// in it, if any) and the response y.
func newIRLS(mdl irlsModel, z, y *mat.Dense, tol float64) *irls {
	return newIRLSOf(mdl, z, false, false, y, tol)
}

// newIRLSOf sets up the solve for the design [x 1] (bias) or x, built
// straight into its transpose: in x's own memory when x is lent
// (lendDesign; giveBack restores x), else in a copy.
func newIRLSOf(mdl irlsModel, x *mat.Dense, bias, lend bool, y *mat.Dense, tol float64) *irls {
	m, n := x.Dims()
	nr := n
	if bias {
		nr++
	}
	_, c := y.Dims()
	s := &irls{irlsModel: mdl, tol: tol, m: m, nr: nr, c: c, kkt: irlsKKTRounds}
	s.lentCols = -1
	if lend {
		if s.zt = lendDesign(x, bias); s.zt != nil {
			s.lentCols = n
		}
	}
	if s.zt == nil {
		s.zt = transposeDesign(x, bias)
	}
	s.y = make([]float64, m*c)
	ss := 0.0
	for i := 0; i < m; i++ {
		row := y.RawRowView(i)
		copy(s.y[i*c:], row)
		for _, v := range row {
			ss += v * v
		}
	}
	scale := math.Sqrt(ss / float64(m))
	if scale == 0 {
		scale = 1
	}
	s.epsE = sq(smoothing(mdl.r) * scale)
	s.act = make([]int, nr)
	for j := range s.act {
		s.act[j] = j
	}
	s.ztA = s.zt
	s.w, s.wNext = make([]float64, nr*c), make([]float64, nr*c)
	s.e, s.eNext = make([]float64, m*c), make([]float64, m*c)
	s.g, s.wts, s.last = make([]float64, nr+m), make([]float64, nr+m), make([]float64, nr)
	s.accel = mdl.p == 1 && mdl.r >= 1 && !mdl.plain
	if s.accel {
		s.gOld, s.fOld = make([]float64, nr+m), make([]float64, nr+m)
	}
	s.depth = -1
	s.check = irlsCheck0
	s.wA = make([]float64, nr*c)
	s.s2inv = make([]float64, nr)
	s.s1, s.s1inv = make([]float64, m), make([]float64, m)
	s.lam = make([]float64, m*c)
	s.boost = make([]float64, nr)
	return s
}

func sq(x float64) float64 { return x * x }

// smoothing returns the relative floor δ on the norms in the weights of
// exponent q (q < 2): the weight ∝ ‖v‖^{q−2} of a zero row is then
// irlsWeightRange times that of a row of norm equal to the scale, which
// keeps the reweighted systems within reach of double precision (δ =
// 10⁻¹² for q = 1, 10⁻⁸ for q = 0.5, 1.4·10⁻⁷ for q = 0.25).
func smoothing(q float64) float64 {
	if q >= 2 {
		return 0
	}
	return math.Pow(irlsWeightRange, 1/(q-2))
}

// grow returns buf if it holds n values, else a new slice of n.
func grow(buf []float64, n int) []float64 {
	if len(buf) >= n {
		return buf
	}
	return make([]float64, n)
}

// pow returns x^a for x ≥ 0, with the exponents of r, p ∈ {1, 2} exact
// and fast.
func pow(x, a float64) float64 {
	switch a {
	case 0:
		return 1
	case 1:
		return x
	case 0.5:
		return math.Sqrt(x)
	case -0.5:
		return 1 / math.Sqrt(x)
	}
	return math.Pow(x, a)
}

// norm2 returns the squared norm of v.
func norm2(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}

// step performs iteration k of Algorithm 1 (or its accelerated form) and
// applies the stopping rule.
func (s *irls) step(k int) (float64, Status, error) {
	first := k == 1
	extrapolated := !first && s.weights()
	var obj float64
	for attempt := 0; ; attempt++ {
		var err error
		if obj, err = s.solveShifted(first); err != nil {
			return math.NaN(), NotTerminated, err
		}
		if first {
			break
		}
		if extrapolated {
			// An accelerated step is kept only if J did not rise at
			// all; otherwise the plain step is taken, which cannot
			// raise it (Theorem 1) but for rounding.
			if obj <= s.obj {
				s.accepted++
				s.fails = 0
				s.payOff(s.obj - obj)
				break
			}
			s.rejected++
			s.fails++
			s.skip = 1<<min(s.fails, irlsMaxBackoff) - 1
			extrapolated = false
			copy(s.wts, s.g)
			continue
		}
		if obj <= s.obj*(1+irlsRiseTol) {
			break
		}
		// The objective rose: undo what the last working-set change did.
		switch {
		case s.dropd:
			s.act = append(s.act[:0], s.prevAct...)
			s.gather, s.dropd, s.noDrop = true, false, true
			s.depth = min(s.depth, 0)
			continue
		case s.reviv && attempt < 3:
			for j := range s.boost {
				s.boost[j] *= 1e-3
			}
			continue
		case s.reviv:
			s.act = slices.DeleteFunc(s.act, func(j int) bool { return s.boost[j] > 0 })
			clear(s.boost)
			s.gather, s.reviv = true, false
			s.notes = append(s.notes, "irls: rows that violated the optimality condition of a zero row could not be revived without raising the objective; they were left at zero")
			continue
		}
		// A rise with the working set unchanged: rounding, or for r < 1
		// what the smoothing hides (Theorem 1 is about the smoothed
		// objective, which the weights come from). Kept.
		break
	}
	prev := s.obj
	if !first && !extrapolated {
		s.plainDec = prev - obj
	}
	s.w, s.wNext = s.wNext, s.w
	s.e, s.eNext = s.eNext, s.e
	s.obj = obj
	s.dropd, s.reviv = false, false
	clear(s.boost)
	if first {
		big := 0.0
		for j := 0; j < s.nr; j++ {
			big = math.Max(big, norm2(s.w[j*s.c:(j+1)*s.c]))
		}
		if big == 0 {
			big = 1
		}
		s.epsW = sq(smoothing(s.p)) * big
	}
	if s.noDrop {
		s.noDrop = false
	} else {
		s.drop()
	}
	s.extrapolated = extrapolated
	if s.accel {
		return obj, s.stopAccelerated(extrapolated), nil
	}
	if first || s.tol <= 0 || math.Abs(prev-obj) > s.tol*math.Abs(obj) {
		return obj, NotTerminated, nil
	}
	if s.p == 1 && s.kkt > 0 && s.revive() {
		s.kkt--
		return obj, NotTerminated, nil
	}
	return obj, Converged, nil
}

// stopAccelerated is the stopping rule of the accelerated iteration (see
// irlsModel) after an accepted iterate; extrapolated tells whether it came
// from an accelerated step.
func (s *irls) stopAccelerated(extrapolated bool) Status {
	s.hist = append(s.hist, s.obj)
	s.plainHist = append(s.plainHist, !extrapolated)
	if len(s.hist) <= irlsWindow {
		return NotTerminated
	}
	change := math.Abs(s.hist[len(s.hist)-1-irlsWindow]-s.obj) / math.Abs(s.obj)
	checked := false
	if s.check > math.Max(s.tol, irlsCheckMin) && change <= s.check {
		// A checkpoint: put back the rows that left the working set
		// wrongly before the iteration goes on towards tol. The check
		// needs the multiplier of a plain step (an accelerated one's
		// residual weights are extrapolated, and S₁E with them is not
		// the loss gradient).
		if extrapolated {
			s.plainNext = true
			return NotTerminated
		}
		s.check /= 10
		checked = true
		if s.revive() {
			return NotTerminated
		}
	}
	switch {
	case s.tol <= 0 || change > s.tol:
		return NotTerminated
	case extrapolated:
		s.plainNext = true
		return NotTerminated
	case !s.plainHist[len(s.hist)-2]:
		// settled compares two plain steps in a row.
		s.plainNext = true
		return NotTerminated
	case !s.settled():
		return NotTerminated
	case !checked && s.kkt > 0 && s.revive():
		s.kkt--
		return NotTerminated
	}
	return Converged
}

// settled reports whether the last two iterates, both from plain steps,
// look like the tail of the iteration: with δ and δ′ the decreases of J
// made by the last step and the one before, it is not when δ > δ′·
// irlsSettleGrowth, i.e. when the plain steps are speeding up. After an
// accelerated step, plain IRLS steps can make small decreases for a few
// iterations that then grow again (a lull while the norms the
// extrapolation moved settle); the window alone stopped there: on a fold
// of the breast-cancer demo 1.2·10⁻⁴ above the optimum, with three
// decreases of 3, 5 and 8·10⁻⁸ relative, and a top 10 other than the
// optimum's (docs/notes/irls-demo-fold.md). A step that did not
// decrease J (δ ≤ 0), or whose predecessor did not (δ′ ≤ 0), is rounding:
// settled. The margin lets through tails that speed up by a fraction of
// a per cent per step (rows growing into the support at the rate they
// will keep for hundreds of iterations: ALLAML, where waiting for them
// took 850 iterations instead of 58).
func (s *irls) settled() bool {
	n := len(s.hist)
	d := s.hist[n-2] - s.hist[n-1]
	d0 := s.hist[n-3] - s.hist[n-2]
	return d <= 0 || d0 <= 0 || d <= d0*irlsSettleGrowth
}

// weights sets wts, the norms the next reweighted system is built from,
// from the current iterate, and reports whether they are an accelerated
// choice rather than the plain one of Algorithm 1 (the iterate's own
// norms, g).
//
// The acceleration is Anderson's (type II, depth one; Walker & Ni, SIAM J.
// Numer. Anal. 49(4), 2011) applied to the fixed-point map wts ↦ g of
// IRLS: with f = g − wts and the previous pair (g′, f′), the step is
// g − θ(g − g′), θ = ⟨f − f′, f⟩/‖f − f′‖², the secant extrapolation of
// the norms towards the fixed point. It is applied to each row's norm
// only in the direction the plain step moves it (a norm the plain step
// raised is not lowered below g, one it lowered is not raised above g nor
// taken below zero): rows decaying towards zero get there in a few steps
// instead of hundreds, and rows growing into the support are not pushed
// back.
func (s *irls) weights() bool {
	nr, c := s.nr, s.c
	for j := 0; j < nr; j++ {
		v := math.Sqrt(norm2(s.w[j*c : (j+1)*c]))
		s.g[j] = v
		if v > 0 && !s.extrapolated {
			s.last[j] = v
		}
	}
	for i := 0; i < s.m; i++ {
		s.g[nr+i] = math.Sqrt(norm2(s.e[i*c : (i+1)*c]))
	}
	if !s.accel || s.depth < 0 {
		copy(s.wts, s.g)
		s.depth = min(s.depth+1, 0)
		return false
	}
	// The components the weights depend on: the working set's rows and,
	// unless r = 2 (constant residual weights), the residual rows.
	res := 0
	if s.r < 2 {
		res = s.m
	}
	num, den := 0.0, 0.0
	each := func(fn func(t int)) {
		for _, j := range s.act {
			fn(j)
		}
		for i := 0; i < res; i++ {
			fn(nr + i)
		}
	}
	each(func(t int) {
		ft := s.g[t] - s.wts[t]
		if s.depth > 0 {
			df := ft - s.fOld[t]
			num += df * ft
			den += df * df
		}
	})
	theta := 0.0
	use := s.depth > 0 && den > 0 && !s.plainNext && s.skip == 0
	if use {
		theta = num / den
	}
	s.plainNext = false
	if s.skip > 0 {
		s.skip--
	}
	changed := false
	each(func(t int) {
		g, u := s.g[t], s.wts[t]
		d := g
		if use {
			d = g - theta*(g-s.gOld[t])
			if g >= u {
				d = math.Max(d, g)
			} else {
				d = math.Min(math.Max(d, 0), g)
			}
		}
		s.fOld[t] = g - u
		s.gOld[t] = g
		s.wts[t] = d
		changed = changed || d != g
	})
	for i := res; i < s.m; i++ {
		s.wts[nr+i] = s.g[nr+i]
	}
	s.depth = 1
	if changed && s.perturb != nil {
		s.perturb(s.wts)
	}
	return changed
}

// drop removes from the working set the rows of the iterate with norm at
// most irlsDropTol times the largest: the next iterate will have them at
// zero. The iterate itself is left as it is (its objective was computed
// with them), so that the drop can be undone.
func (s *irls) drop() {
	c := s.c
	big := 0.0
	for _, j := range s.act {
		big = math.Max(big, norm2(s.w[j*c:(j+1)*c]))
	}
	limit := sq(irlsDropTol) * big
	keep := 0
	for _, j := range s.act {
		if norm2(s.w[j*c:(j+1)*c]) > limit {
			keep++
		}
	}
	if keep == len(s.act) || keep == 0 {
		return
	}
	s.prevAct = append(s.prevAct[:0], s.act...)
	s.act = slices.DeleteFunc(s.act, func(j int) bool { return norm2(s.w[j*c:(j+1)*c]) <= limit })
	s.gather, s.dropd = true, true
}

// revive checks the optimality condition of the rows outside the working
// set at the iterate and puts back those that violate it, each with its
// last nonzero norm as a floor on its weight for the next system; it
// reports whether it put any back.
func (s *irls) revive() bool {
	c := s.c
	// The loss gradient is ∇_W = 2ZᵀS₁E (Eq. 3); ‖∇_{wʲ}‖/λ is the
	// factor by which the next iteration would scale a small row j. Row j
	// of ∇ is 2·ztⱼ·F with F = S₁E (see multiplier).
	f := s.multiplier()
	if s.grad == nil {
		s.grad = make([]float64, s.nr*c)
	}
	s.ztMul(2, f, s.grad)
	big := 0.0
	for _, j := range s.act {
		big = math.Max(big, norm2(s.w[j*c:(j+1)*c]))
	}
	floor := irlsDropTol * math.Sqrt(big)
	limit := sq(s.lambda * (1 + math.Min(irlsKKTMargin, math.Sqrt(math.Max(s.tol, irlsCheckMin)))))
	in := 0
	added := false
	for j := 0; j < s.nr; j++ {
		if in < len(s.act) && s.act[in] == j {
			in++
			continue
		}
		if norm2(s.grad[j*c:(j+1)*c]) > limit {
			s.boost[j] = math.Max(floor, s.last[j])
			added = true
		}
	}
	if !added {
		return false
	}
	for j, b := range s.boost {
		if b > 0 {
			s.act = append(s.act, j)
		}
	}
	slices.Sort(s.act)
	s.gather, s.reviv = true, true
	// The next step is a plain one from the enlarged working set, and
	// the stopping rule waits for a new window of iterations.
	s.depth = min(s.depth, 0)
	s.hist = s.hist[:0]
	s.plainHist = s.plainHist[:0]
	return true
}

// multiplier returns F = S₁E (m×c, in lam's storage) for the last
// iterate, S₁ the weights it was computed with: the multiplier of the
// reweighted system, which stays meaningful where a residual row tends to
// zero and E/‖E‖ would not. In the dual form it is taken from Λ itself,
// F = −λΛ: E = KΛ − Y is then a difference of nearly equal terms when the
// residuals are nearly zero (m ≪ N), and S₁E computed from it was off by
// 0.5% on GLIOMA. lam holds F afterwards, until the next solve.
func (s *irls) multiplier() []float64 {
	m, c := s.m, s.c
	f := s.lam[:m*c]
	if s.fReady {
		return f
	}
	s.fReady = true
	if s.dual {
		for i := range f {
			f[i] *= -s.lambda
		}
	} else {
		for i := 0; i < m; i++ {
			for t := 0; t < c; t++ {
				f[i*c+t] = s.s1[i] * s.e[i*c+t]
			}
		}
	}
	return f
}

// weightsE sets s₁ and 1/s₁ from the residual norms in wts (Algorithm 1,
// line 7).
func (s *irls) weightsE() {
	for i := 0; i < s.m; i++ {
		v := (s.r / 2) * pow(sq(s.wts[s.nr+i])+s.epsE, (s.r-2)/2)
		s.s1[i], s.s1inv[i] = v, 1/v
	}
}

// solve computes the next iterate into wNext and eNext from the weights
// of the norms in wts (the identity on the first iteration, Algorithm 1
// line 3) and returns its objective. shift is passed to factorSolve.
func (s *irls) solve(first bool, shift float64) (float64, error) {
	m, c := s.m, s.c
	s.gatherRows()
	na := len(s.act)
	zta := linalg.General{Rows: na, Cols: m, Stride: m, Data: s.ztA[:na*m]}
	s2inv := s.s2inv[:na]
	if first {
		for i := range s2inv {
			s2inv[i] = 1
		}
		for i := range s.s1 {
			s.s1[i], s.s1inv[i] = 1, 1
		}
	} else {
		// Algorithm 1, line 8, as 1/s₂ⱼ = (2/p)(‖wʲ‖² + ε)^{(2−p)/2}.
		for idx, j := range s.act {
			nw := sq(math.Max(s.wts[j], s.boost[j]))
			s2inv[idx] = (2 / s.p) * pow(nw+s.epsW, (2-s.p)/2)
		}
		s.weightsE()
	}
	wa := linalg.General{Rows: na, Cols: c, Stride: c, Data: s.wA[:na*c]}
	s.dual = s.form == formDual || (s.form == formAuto && m <= na)
	s.fReady = false
	if s.dual {
		// Dual form: (ZS₂⁻¹Zᵀ + λS₁⁻¹)Λ = Y, W = S₂⁻¹ZᵀΛ
		// (rfs-nie-2010 Eq. 19).
		// K = ZS₂⁻¹Zᵀ is kept: ZW = KΛ below.
		s.gram = grow(s.gram, m*m)
		s.sys = grow(s.sys, m*m)
		kz := linalg.General{Rows: m, Cols: m, Stride: m, Data: s.gram}
		linalg.AtDA(1, zta, s2inv, 0, kz)
		s.work += float64(m)*float64(m)*float64(na)/2 + float64(m)*float64(m)*float64(m)/3
		g := linalg.General{Rows: m, Cols: m, Stride: m, Data: s.sys[:m*m]}
		copy(g.Data, kz.Data)
		for i := 0; i < m; i++ {
			g.Data[i*m+i] += s.lambda * s.s1inv[i]
		}
		lam := linalg.General{Rows: m, Cols: c, Stride: c, Data: s.lam}
		copy(lam.Data, s.y)
		if err := factorSolve(g, lam, shift); err != nil {
			return 0, err
		}
		linalg.Gemm(false, false, 1, zta, lam, 0, wa)
		linalg.Gemm(false, false, 1, kz, lam, 0, linalg.General{Rows: m, Cols: c, Stride: c, Data: s.eNext})
		for idx, v := range s2inv {
			row := wa.Data[idx*c : (idx+1)*c]
			for t := range row {
				row[t] *= v
			}
		}
	} else {
		// Primal form: (ZᵀS₁Z + λS₂)W = ZᵀS₁Y (Eq. 4).
		s.sys = grow(s.sys, na*na)
		h := linalg.General{Rows: na, Cols: na, Stride: na, Data: s.sys[:na*na]}
		linalg.ADAt(1, zta, s.s1, 0, h)
		s.work += float64(na)*float64(na)*float64(m)/2 + float64(na)*float64(na)*float64(na)/3
		for idx, v := range s2inv {
			h.Data[idx*na+idx] += s.lambda / v
		}
		sy := linalg.General{Rows: m, Cols: c, Stride: c, Data: s.lam}
		for i := 0; i < m; i++ {
			for t := 0; t < c; t++ {
				sy.Data[i*c+t] = s.s1[i] * s.y[i*c+t]
			}
		}
		linalg.Gemm(false, false, 1, zta, sy, 0, wa)
		if err := factorSolve(h, wa, shift); err != nil {
			return 0, err
		}
	}
	// E = ZW − Y (Algorithm 1, line 6): in the primal form directly; in
	// the dual form the product ZW = Z(S₂⁻¹ZᵀΛ) was computed above as
	// (ZS₂⁻¹Zᵀ)Λ, which costs m²c instead of m|A|c.
	if !s.dual {
		linalg.Gemm(true, false, 1, zta, wa, 0, linalg.General{Rows: m, Cols: c, Stride: c, Data: s.eNext})
	}
	for i, v := range s.y {
		s.eNext[i] -= v
	}
	clear(s.wNext)
	for idx, j := range s.act {
		copy(s.wNext[j*c:(j+1)*c], wa.Data[idx*c:(idx+1)*c])
	}
	return s.exactJ(s.eNext, wa.Data[:na*c]), nil
}

// exactJ is the exact objective J(W) of Eq. (2), Σᵢ‖eᵢ‖^r + λΣⱼ‖wʲ‖^p,
// from the residual rows e (m×c) and rows of W (any number of rows of c;
// rows at zero add nothing).
func (s *irls) exactJ(e, w []float64) float64 {
	return sumPowNorms(e[:s.m*s.c], s.c, s.r/2) + s.lambda*sumPowNorms(w, s.c, s.p/2)
}

// sumPowNorms returns Σ_rows pow(‖row‖², a) over the rows of c values of
// v, in order; a = 0.5 (r or p = 1, the sums of norms of rfs) calls
// math.Sqrt directly, without pow's dispatch in the loop.
func sumPowNorms(v []float64, c int, a float64) float64 {
	sum := 0.0
	if a == 0.5 {
		for len(v) >= c && c > 0 {
			sum += math.Sqrt(norm2(v[:c]))
			v = v[c:]
		}
		return sum
	}
	for len(v) >= c && c > 0 {
		sum += pow(norm2(v[:c]), a)
		v = v[c:]
	}
	return sum
}

// errIndefinite reports a failed Cholesky factorisation.
var errIndefinite = errors.New("irls: reweighted system not positive definite")

// solveShifted is solve, retried with a diagonal shift growing from 10⁻¹⁴
// of the largest diagonal entry when rounding has made the system
// indefinite (weights spanning many orders of magnitude); a shift is
// noted once.
func (s *irls) solveShifted(first bool) (float64, error) {
	for shift := 0.0; shift <= 1e-6; shift = max(1e-14, 100*shift) {
		obj, err := s.solve(first, shift)
		if err != errIndefinite {
			if err == nil && shift > 0 && !s.shift {
				s.shift = true
				s.notes = append(s.notes, fmt.Sprintf("irls: a reweighted system was not numerically positive definite; it was solved with a diagonal shift of %.0e relative", shift))
			}
			return obj, err
		}
	}
	return 0, fmt.Errorf("irls: the reweighted system is not positive definite even with a diagonal shift; try a larger lambda or a looser tol")
}

// factorSolve factorises g as factorShifted does and solves g·X = b in
// place.
func factorSolve(g, b linalg.General, shift float64) error {
	if !factorShifted(g, shift) {
		return errIndefinite
	}
	linalg.CholeskySolve(g, b)
	return nil
}

// factorShifted adds shift times the largest diagonal entry to the
// diagonal of the symmetric g and factorises it in place by Cholesky;
// false if it is not positive definite to working precision.
func factorShifted(g linalg.General, shift float64) bool {
	n := g.Rows
	if shift > 0 {
		big := 0.0
		for i := 0; i < n; i++ {
			big = math.Max(big, g.Data[i*g.Stride+i])
		}
		for i := 0; i < n; i++ {
			g.Data[i*g.Stride+i] += shift * big
		}
	}
	return linalg.Cholesky(g)
}
