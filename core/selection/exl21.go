package selection

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/sparse"
)

// Exl21 is the exclusive ℓ2,1 selector of Ming & Ding,
//
//	min_W  J(W) = ‖XW − Y‖_F² + α‖W‖_{2,1} + β‖W‖_{1,2}²,
//
// with ‖W‖_{2,1} = Σ_j ‖w^j‖₂ and ‖W‖_{1,2}² = Σ_j ‖w^j‖₁² (D. Ming and
// C. Ding, "Robust flexible feature selection via exclusive L21
// regularization", IJCAI 2019; Eq. 14). X is the design matrix (the bias
// column appended when the problem asks for one; its row of W is penalised
// like any other, docs/methods.md#bias), Y the one-hot coding Y01 by
// default, or the problem's coding override or real-valued targets. With
// α = 0 the model is the exclusive lasso (Elasso).
//
// Features are ranked by ‖w^j‖₂. As in the paper's evaluation (§6.2, "we
// select the top features with largest weights for each class") the result
// also ranks the features of each class k by |W_jk| (Result.PerClass).
//
// # Solvers
//
// The model is convex, and three solvers are offered:
//
//   - "cd" (the default): block coordinate descent over the rows of W, each
//     row minimised exactly with the residual updated incrementally; it
//     converges for a smooth loss plus a row-separable convex penalty (Tseng,
//     JOTA 2001). Most sweeps visit only the nonzero rows (as glmnet does).
//
//   - "fista": accelerated proximal gradient (Beck & Teboulle, SIAM J.
//     Imaging Sci. 2009) with back-tracking on the Lipschitz constant of
//     ∇‖XW − Y‖² (estimated as 2λ_max(XᵀX) by power iteration) and a
//     function-value restart (O'Donoghue & Candès 2015): a step that would
//     raise J is replaced by a plain proximal-gradient step from the last
//     iterate.
//
//   - "alm": Algorithm 2 of the paper as published: Z = W split, Z-step
//     row-wise by Eq. (20) with τ, μ_τ from Algorithm 1, one sweep of the
//     row-wise W-step of Eqs. (22)–(24) with the residual updated
//     incrementally, then Λ ← Λ + ν(Z − W) (Eq. 25) and ν ← ρν (Eq. 26),
//     from ν₀ = 1/‖X‖_F, ρ = 1.1, Λ = 0 and W = 0 (the paper starts from
//     a random W; a fixed start keeps results reproducible). It stops by the
//     paper's rule |J(Wᵗ⁺¹) − J(Wᵗ)|/J(Wᵗ) ≤ 10⁻⁸ and ‖Z − W‖_∞ ≤ 10⁻⁵
//     (status method_converged) or by the shared relative-change rule (tol).
//     Because ν grows geometrically and each W-step is a single sweep, the
//     iterates freeze (Z and W pinned together while the steps shrink like
//     1/ν) before reaching the optimum: on GLIOMA it stops about 1e−3
//     relatively above the minimum of J that cd and fista reach (see the
//     tests and docs/results.md#exl21-convergence). It is kept for
//     comparison with the paper, not as the default.
//
//   - "reweight" (α = 0 only, the default of elasso): alternating weighted
//     ridge regressions from the variational form of the squared ℓ1 norm,
//     ‖w^j‖₁² = min_{η ∈ Δ} Σ_k W_jk²/η_jk, each solved in the m×m dual
//     (Woodbury) form when the design is wide, with safeguarded Anderson
//     acceleration of η (exl21rw.go). All rows of W stay nonzero when α = 0
//     (Proposition 3 of the paper), which slows cd and fista on wide data;
//     this solver is not affected by it.
//
// cd and fista need the exact proximal map of the whole row penalty
// α‖w‖₂ + β‖w‖₁², which sparse.ProxL2L1Sq computes (a derivation extending
// the paper's Theorem 5; see there). They stop when a duality gap certifies
// J(W) − J* ≤ tol·J(W) (status method_converged): the gap is that of the
// Fenchel dual at Θ = 2(XW − Y), with the conjugate of the row penalty from
// sparse.ConjL2L1Sq; reweight stops by the same rule. So for these solvers tol bounds the relative
// distance to the optimum itself, not just the last change of J. All three
// start from W = 0, report the exact J after every iteration and never let
// it rise (up to rounding in fista's restarts). The least-squares term is
// handled through the residual XW − Y when the design has at least as many
// columns as rows and through the Gram matrix XᵀX otherwise.
type Exl21 struct {
	// Alpha and Beta are α and β of Eq. (14), both ≥ 0.
	Alpha, Beta float64
	// Solver chooses the algorithm (see above).
	Solver Exl21Solver
}

// Exl21Solver names a solver of the exclusive ℓ2,1 model.
type Exl21Solver int

const (
	Exl21CD       Exl21Solver = iota // exact block coordinate descent over rows (default)
	Exl21FISTA                       // accelerated proximal gradient
	Exl21ALM                         // Algorithm 2 of Ming & Ding, as published
	Exl21Reweight                    // alternating weighted ridge regressions (α = 0 only)
)

var exl21SolverNames = []string{"cd", "fista", "alm", "reweight"}

func (s Exl21Solver) String() string {
	if int(s) < len(exl21SolverNames) {
		return exl21SolverNames[s]
	}
	return "unknown"
}

var _ Selector = Exl21{}

// Validate checks the parameters.
func (e Exl21) Validate() error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"alpha", e.Alpha}, {"beta", e.Beta}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) || p.v < 0 {
			return fmt.Errorf("exl21: parameter %s = %v must be a finite number ≥ 0", p.name, p.v)
		}
	}
	if e.Solver < 0 || int(e.Solver) >= len(exl21SolverNames) {
		return fmt.Errorf("exl21: unknown solver %d", e.Solver)
	}
	if e.Solver == Exl21Reweight && (e.Alpha != 0 || e.Beta == 0) {
		return fmt.Errorf("exl21: solver reweight needs alpha = 0 and beta > 0 (alpha = %v, beta = %v); use cd", e.Alpha, e.Beta)
	}
	return nil
}

// exl21Model holds the data of one fit.
type exl21Model struct {
	loss        *sqLoss
	alpha, beta float64
	n, nf, c    int // rows of W, feature rows, columns
}

// penalty returns α‖W‖_{2,1} + β‖W‖_{1,2}².
func (md *exl21Model) penalty(w *mat.Dense) float64 {
	d := w.RawMatrix().Data
	return md.alpha*sparse.RowsL21(d, md.c) + md.beta*sparse.RowsL12Sq(d, md.c)
}

// rowsPenalty returns the penalty of the listed rows of W.
func (md *exl21Model) rowsPenalty(w *mat.Dense, rows []int) float64 {
	s := 0.0
	for _, j := range rows {
		row := w.RawRowView(j)
		l1 := sparse.L1(row)
		s += md.alpha*sparse.L2(row) + md.beta*l1*l1
	}
	return s
}

// objective returns J(W) from W and its auxiliary matrix.
func (md *exl21Model) objective(w, aux *mat.Dense) float64 {
	return md.loss.value(w, aux) + md.penalty(w)
}

// dualityGap returns J(W) − D(Θ) ≥ J(W) − J*, where D is the Fenchel dual
// of the model at Θ = 2s(XW − Y):
//
//	D(Θ) = −‖Θ‖²/4 − ⟨Θ, Y⟩ − Σ_j h*(−x_jᵀΘ),  h(w) = α‖w‖₂ + β‖w‖₁²,
//
// (f(Z) = ‖Z − Y‖² has f*(Θ) = ‖Θ‖²/4 + ⟨Θ, Y⟩; h* is sparse.ConjL2L1Sq).
// With β > 0, s = 1 (Θ = ∇f at the solution is the dual optimum); with
// β = 0, h* is the indicator of ‖·‖₂ ≤ α and s ≤ 1 scales Θ into its
// domain. With α = β = 0 there is no bounded dual point of this form and
// the gap is +Inf. grad is N×c scratch.
func (md *exl21Model) dualityGap(w, aux, grad *mat.Dense, primal float64, scratch []float64) float64 {
	if md.alpha == 0 && md.beta == 0 {
		return math.Inf(1)
	}
	l := md.loss
	l.halfGrad(grad, aux) // X_jᵀ(XW − Y), so x_jᵀΘ = 2s·grad_j
	rr, ry := l.value(w, aux), l.dotY(w, aux)
	s := 1.0
	if md.beta == 0 {
		gmax := 0.0
		for j := 0; j < md.n; j++ {
			gmax = math.Max(gmax, sparse.L2(grad.RawRowView(j)))
		}
		if 2*gmax > md.alpha {
			s = md.alpha / (2 * gmax) * (1 - 1e-12)
		}
	}
	dual := -s*s*rr - 2*s*ry
	u := make([]float64, md.c)
	for j := 0; j < md.n; j++ {
		for k, v := range grad.RawRowView(j) {
			u[k] = -2 * s * v
		}
		dual -= sparse.ConjL2L1Sq(u, md.alpha, md.beta, scratch)
	}
	return primal - dual
}

// gapRule is the stopping rule of the fista and cd solvers: J(W) is within
// tol·J(W) of the optimum, as certified by the duality gap. The gap costs a
// product with Xᵀ, so it is evaluated only when the objective has stopped
// moving by more than tol relatively, or every 25 iterations.
type gapRule struct {
	tol, prev float64
	always    bool // evaluate the gap after every iteration
	lastGap   float64
}

func (g *gapRule) check(k int, f float64, gap func() float64) Status {
	small := math.Abs(g.prev-f) <= g.tol*math.Abs(f)
	g.prev = f
	if !small && !g.always && k%25 != 0 {
		return NotTerminated
	}
	g.lastGap = gap()
	if g.lastGap <= g.tol*math.Abs(f) {
		return MethodConverged
	}
	return NotTerminated
}

// faceHook says how a solver takes the face's Newton steps (iterate).
type faceHook struct {
	// due, when set, reports whether the steps may run at iteration k
	// with the relative gaps so far (besides iterate's own conditions).
	due func(k int, gaps []float64) bool
	// certifiedOnly keeps the steps' iterate only where it certifies;
	// otherwise the iterate is the solver's again.
	certifiedOnly bool
	// taken, when set, is called with J once the solver's iterate is the
	// steps' (so that the solver's own state follows it).
	taken func(f float64)
}

// iterate runs step through the shared loop with the gap rule in place of
// the relative-change rule; step returns J at the new iterate and that
// iterate with its auxiliary matrix. With face, every exl21FaceEvery
// iterations where the gap is above tol and its fall over the last
// exl21FaceEvery iterations would not bring it to tol within as many
// more (and face.due agrees), the iterate takes the face's Newton steps
// (faceSteps) and the rule looks at the gap again. Where their iterate is
// not kept (certifiedOnly), the next steps wait twice as long as the last
// wait (20, 40, … iterations).
func (md *exl21Model) iterate(ctx context.Context, s *Settings, always bool, face *faceHook, step func(k int) (f float64, w, aux *mat.Dense)) (Run, error) {
	ls := Settings{MaxIterations: s.maxIter(), Tolerance: -1}
	if s != nil {
		ls.Progress = s.Progress
	}
	rule := gapRule{tol: s.tol(), prev: math.NaN(), always: always}
	grad := mat.NewDense(md.n, md.c, nil)
	scratch := make([]float64, md.c)
	var gaps []float64 // relative gaps, one per iteration (always)
	// The first iteration at which the face's steps may run, and the wait
	// after steps whose iterate was not kept (doubled each time).
	next, wait := exl21FaceEvery, exl21FaceEvery
	return Iterate(ctx, &ls, func(k int) (float64, Status, error) {
		f, w, aux := step(k)
		gap := func() float64 { return md.dualityGap(w, aux, grad, f, scratch) }
		st := rule.check(k, f, gap)
		if face == nil || !always || st != NotTerminated {
			return f, st, nil
		}
		gaps = append(gaps, rule.lastGap/math.Abs(f))
		if k < next || k%exl21FaceEvery != 0 || faceReaches(gaps, rule.tol, exl21FaceEvery) || (face.due != nil && !face.due(k, gaps)) {
			return f, st, nil
		}
		var w0, aux0 *mat.Dense
		if face.certifiedOnly {
			w0, aux0 = mat.DenseCopyOf(w), mat.DenseCopyOf(aux)
		}
		f0 := f
		certified := func() (float64, bool) {
			f = md.objective(w, aux)
			rule.prev = f
			st = rule.check(k, f, gap) // also refreshes grad at w
			return rule.lastGap / math.Abs(f), st != NotTerminated
		}
		lowered := md.faceSteps(ctx, w, aux, grad, certified, ls.certifying(k, f))
		if face.certifiedOnly && (!lowered || st == NotTerminated) {
			wait *= 2
			next = k + wait
			w.Copy(w0)
			aux.Copy(aux0)
			rule.prev = f0
			return f0, NotTerminated, nil
		}
		if !lowered {
			return f0, st, nil
		}
		if face.taken != nil {
			face.taken(f)
		}
		return f, st, nil
	})
}

// faceReaches reports whether the relative gaps, falling as they did over
// the last exl21FaceEvery iterations (or as many as there are), reach tol
// within n more.
func faceReaches(gaps []float64, tol float64, n int) bool {
	k := len(gaps)
	d := min(exl21FaceEvery, k-1)
	if d < 1 {
		return false
	}
	now, then := gaps[k-1], gaps[k-1-d]
	if !(now < then) || !(now > 0) {
		return false
	}
	// Linear convergence at the rate (now/then)^(1/d) per iteration.
	return now*math.Pow(now/then, float64(n)/float64(d)) <= tol
}

// Fit minimises J for p.
func (e Exl21) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if err := p.ValidateTargets(); err != nil {
		return nil, err
	}
	if err := p.CheckMemory("exl21", p.embeddedNeeds(2, p.gram(1))...); err != nil {
		return nil, err
	}
	a := p.Design()
	y := p.Response(OneHot)
	_, nf := p.X.Dims()
	_, n := a.Dims()
	_, c := y.Dims()
	md := &exl21Model{loss: newSqLoss(a, y), alpha: e.Alpha, beta: e.Beta, n: n, nf: nf, c: c}
	var (
		w   *mat.Dense
		run Run
		err error
	)
	switch e.Solver {
	case Exl21FISTA:
		w, run, err = md.fista(ctx, s)
	case Exl21ALM:
		w, run, err = md.alm(ctx, s, a)
	case Exl21Reweight:
		w, run, err = md.reweight(ctx, s, a)
	default:
		w, run, err = md.cd(ctx, s)
	}
	if err != nil {
		return nil, err
	}
	res := EmbeddedResult(w, nf, run)
	res.PerClass = PerClassRanking(w, nf)
	if e.Solver == Exl21ALM {
		res.Notes = append(res.Notes, "the ALM of the paper (Algorithm 2) can stop short of the optimum of its model; the cd and fista solvers reach it")
	}
	res.Certificate = md.certificate(w, res.Scores)
	name := "exl21"
	if e.Alpha == 0 {
		name = "elasso"
	}
	res.Status = uncertified(name, res.Certificate, res.Objective, res.Status, &res.Notes)
	return res, nil
}

// certificate bounds how far J(W) is from the optimum by the duality gap
// at W (dualityGap): a certificate whenever the gap is finite, relative to
// J(W); nil with α = β = 0 or J(W) = 0.
func (md *exl21Model) certificate(w *mat.Dense, scores []float64) *Certificate {
	aux := md.loss.newAux()
	md.loss.aux(aux, w)
	primal := md.objective(w, aux)
	gap := md.dualityGap(w, aux, mat.NewDense(md.n, md.c, nil), primal, make([]float64, md.c))
	if math.IsInf(gap, 0) || math.IsNaN(gap) || !(primal > 0) {
		return nil
	}
	return &Certificate{Gap: gap / primal, Dual: primal - gap, Support: NonzeroRows(scores, SparsityTol)}
}

// fista runs the accelerated proximal-gradient solver.
func (md *exl21Model) fista(ctx context.Context, s *Settings) (*mat.Dense, Run, error) {
	n, c := md.n, md.c
	l := md.loss
	lip := 2 * l.lipschitz() * (1 + 1e-6)
	if lip == 0 {
		lip = 1
	}
	x := mat.NewDense(n, c, nil) // current iterate
	xPrev := mat.NewDense(n, c, nil)
	yPt := mat.NewDense(n, c, nil) // extrapolated point
	xNew := mat.NewDense(n, c, nil)
	ax, axPrev, ay, axNew := l.newAux(), l.newAux(), l.newAux(), l.newAux()
	grad := mat.NewDense(n, c, nil)
	l.aux(ax, x)
	axPrev.Copy(ax)
	fx := md.objective(x, ax)
	scratch := make([]float64, c)
	t := 1.0
	// proxStep sets xNew = prox_{h/L}(v − ∇f(v)/L) from the point v with
	// auxiliary matrix av and loss value fv, back-tracking L until the
	// quadratic upper bound holds; it returns J(xNew).
	proxStep := func(v, av *mat.Dense, fv float64) float64 {
		l.halfGrad(grad, av)
		vd, gd := v.RawMatrix().Data, grad.RawMatrix().Data
		for {
			xd := xNew.RawMatrix().Data
			for j := 0; j < n; j++ {
				row := xd[j*c : (j+1)*c]
				for k := range row {
					row[k] = vd[j*c+k] - 2*gd[j*c+k]/lip
				}
				sparse.ProxL2L1Sq(row, row, md.alpha/lip, md.beta/lip, scratch)
			}
			l.aux(axNew, xNew)
			fNew := l.value(xNew, axNew)
			// f(x⁺) ≤ f(v) + ⟨∇f(v), x⁺ − v⟩ + L/2‖x⁺ − v‖².
			lin, sq := 0.0, 0.0
			for i, xv := range xd {
				d := xv - vd[i]
				lin += 2 * gd[i] * d
				sq += d * d
			}
			if fNew <= fv+lin+lip/2*sq+1e-12*math.Abs(fv) || sq == 0 {
				return fNew + md.penalty(xNew)
			}
			lip *= 2
		}
	}
	step := func(k int) (float64, *mat.Dense, *mat.Dense) {
		// Extrapolation y = x + ((t_{k−1} − 1)/t_k)(x − x_prev), and the
		// same combination of the auxiliary matrices (they are affine in W).
		tNext := (1 + math.Sqrt(1+4*t*t)) / 2
		mom := (t - 1) / tNext
		combine(yPt, x, xPrev, mom)
		combine(ay, ax, axPrev, mom)
		fNew := proxStep(yPt, ay, l.value(yPt, ay))
		if fNew > fx {
			// Restart: a proximal-gradient step from x, which cannot
			// increase J (in exact arithmetic: it is accepted even when
			// rounding makes J rise by an ulp, so that the iterates keep
			// approaching the minimiser where J is flat).
			tNext = 1
			fNew = proxStep(x, ax, l.value(x, ax))
		}
		t = tNext
		xPrev, x, xNew = x, xNew, xPrev
		axPrev, ax, axNew = ax, axNew, axPrev
		fx = fNew
		return fx, x, ax
	}
	run, err := md.iterate(ctx, s, false, nil, step)
	return x, run, err
}

// combine sets dst = x + mom(x − prev).
func combine(dst, x, prev *mat.Dense, mom float64) {
	dd, xd, pd := dst.RawMatrix().Data, x.RawMatrix().Data, prev.RawMatrix().Data
	for i, v := range xd {
		dd[i] = v + mom*(v-pd[i])
	}
}

// cd runs exact block coordinate descent over the rows of W: row j
// minimises ‖a_j‖²‖w − v‖² + α‖w‖₂ + β‖w‖₁² with
// v = w^j − a_jᵀ(XW − Y)/‖a_j‖², i.e. w^j = prox at v with weights
// α/(2‖a_j‖²), β/(2‖a_j‖²). As in glmnet (Friedman, Hastie & Tibshirani,
// J. Stat. Softw. 2010) one iteration is a sweep over all rows, which sets
// the active (nonzero) rows, followed by sweeps over the active rows only
// until one changes J by at most tol/1000 relatively (at most 100 of them,
// and none when more than half the rows are active).
// No sweep increases J.
func (md *exl21Model) cd(ctx context.Context, s *Settings) (*mat.Dense, Run, error) {
	n, c := md.n, md.c
	l := md.loss
	w := mat.NewDense(n, c, nil)
	aux := l.newAux()
	l.aux(aux, w)
	g, v, delta, scratch := make([]float64, c), make([]float64, c), make([]float64, c), make([]float64, c)
	var active []int
	innerTol := s.tol() / 1000
	update := func(j int) {
		sq := l.colsq[j]
		row := w.RawRowView(j)
		if sq == 0 { // a zero column: the penalty alone, minimised by 0
			clear(row)
			return
		}
		l.rowHalfGrad(g, j, aux)
		for i := range v {
			v[i] = row[i] - g[i]/sq
		}
		sparse.ProxL2L1Sq(v, v, md.alpha/(2*sq), md.beta/(2*sq), scratch)
		l.setRow(w, aux, j, v, delta)
	}
	step := func(k int) (float64, *mat.Dense, *mat.Dense) {
		active = active[:0]
		for j := 0; j < n; j++ {
			update(j)
			if sparse.L1(w.RawRowView(j)) != 0 {
				active = append(active, j)
			}
		}
		// Recompute the auxiliary matrix from W now and then, so that the
		// incremental updates do not drift.
		if k%10 == 0 {
			l.aux(aux, w)
		}
		f := md.objective(w, aux)
		if 2*len(active) > n {
			return f, w, aux // active sweeps would cost as much as full ones
		}
		for inner := 0; inner < 100; inner++ {
			for _, j := range active {
				update(j)
			}
			// Only the active rows are nonzero.
			fNew := l.value(w, aux) + md.rowsPenalty(w, active)
			done := math.Abs(f-fNew) <= innerTol*math.Abs(fNew)
			f = fNew
			if done {
				break
			}
		}
		return f, w, aux
	}
	// The face's Newton steps, where they pay (α > 0: the rows' norms make
	// J strictly convex on a face); the exclusive lasso's are for its
	// reweight solver.
	var face *faceHook
	if md.alpha != 0 {
		face = &faceHook{}
	}
	run, err := md.iterate(ctx, s, true, face, step)
	return w, run, err
}

// Constants of Algorithm 2 (line 1).
const (
	almRho  = 1.1
	almEps1 = 1e-8
	almEps2 = 1e-5
)

// alm runs Algorithm 2 of Ming & Ding as published.
func (md *exl21Model) alm(ctx context.Context, s *Settings, a *mat.Dense) (*mat.Dense, Run, error) {
	n, c := md.n, md.c
	l := md.loss
	nu := 1 / mat.Norm(a, 2)
	if math.IsInf(nu, 0) || nu == 0 {
		return nil, Run{}, errors.New("exl21: the data matrix is zero")
	}
	w := mat.NewDense(n, c, nil)
	z := mat.NewDense(n, c, nil)
	lam := mat.NewDense(n, c, nil)
	aux := l.newAux()
	l.aux(aux, w)
	prev := md.objective(w, aux)
	g, e, d, delta, scratch := make([]float64, c), make([]float64, c), make([]float64, c), make([]float64, c), make([]float64, c)
	step := func(k int) (float64, Status, error) {
		// Z-step, Eqs. (19)–(20): z^i = prox of (2β/ν)‖·‖₁² at
		// e = w^i − λ^i/ν (Theorem 5 with τ, μ_τ from Algorithm 1).
		for i := 0; i < n; i++ {
			wi, li := w.RawRowView(i), lam.RawRowView(i)
			for k := range e {
				e[k] = wi[k] - li[k]/nu
			}
			sparse.ProxL1Sq(z.RawRowView(i), e, 2*md.beta/nu, scratch)
		}
		// W-step, Eqs. (21)–(24), one sweep over the rows with the
		// residual updated incrementally.
		for i := 0; i < n; i++ {
			aa := l.colsq[i] // a = ‖x^i‖²
			wi, zi, li := w.RawRowView(i), z.RawRowView(i), lam.RawRowView(i)
			// b = x^i Y^{−i} = ‖x^i‖² w^i − x^i(XᵀW − Y)ᵀ… in our
			// orientation b = ‖a_i‖² w^i − a_iᵀ(AW − Y).
			l.rowHalfGrad(g, i, aux)
			den := 2*aa + nu
			for k := range d {
				b := aa*wi[k] - g[k]
				d[k] = (2*b + nu*zi[k] + li[k]) / den // Eq. (23)
			}
			sparse.ShrinkL2(d, d, md.alpha/den) // Eq. (24)
			l.setRow(w, aux, i, d, delta)
		}
		if k%50 == 0 {
			l.aux(aux, w)
		}
		// Eqs. (25)–(26).
		gap := 0.0
		ld, zd, wd := lam.RawMatrix().Data, z.RawMatrix().Data, w.RawMatrix().Data
		for i := range ld {
			diff := zd[i] - wd[i]
			ld[i] += nu * diff
			gap = math.Max(gap, math.Abs(diff))
		}
		nu *= almRho
		f := md.objective(w, aux)
		st := NotTerminated
		if math.Abs(f-prev) <= almEps1*math.Abs(prev) && gap <= almEps2 {
			st = MethodConverged
		}
		prev = f
		return f, st, nil
	}
	run, err := Iterate(ctx, s, step)
	return w, run, err
}

// PerClassRanking returns, for each column k of w, the first n features
// ranked by |W_jk| descending, ties by lower index (the per-class selection
// of exclusive-l21-ming-ding-2019, §6.2).
func PerClassRanking(w *mat.Dense, n int) [][]int {
	_, c := w.Dims()
	out := make([][]int, c)
	col := make([]float64, n)
	for k := range out {
		for j := range col {
			col[j] = math.Abs(w.At(j, k))
		}
		out[k] = RankByScore(col)
	}
	return out
}

// exl21SolverParam is exl21's solver choice; elassoSolverParam adds
// reweight, which needs α = 0, and makes it the default there (on GLIOMA,
// ALLAML and lymphoma it certifies tol = 1e−6 where cd does not within 1000
// iterations; docs/results.md#exl21-convergence).
var (
	exl21SolverParam = Param{Name: "solver", Default: float64(Exl21CD), Choices: exl21SolverNames[:Exl21Reweight],
		Doc: "cd (row-wise coordinate descent, default), fista (accelerated proximal gradient) or alm (the paper's Algorithm 2, which stops short of the optimum)"}
	elassoSolverParam = Param{Name: "solver", Default: float64(Exl21Reweight), Choices: exl21SolverNames,
		Doc: "reweight (alternating weighted ridge regressions, accelerated; default), cd (row-wise coordinate descent), fista (accelerated proximal gradient) or alm (the paper's Algorithm 2, which stops short of the optimum); with beta = 0 reweight is replaced by cd"}
)

func init() {
	betaParam := Param{Name: "beta", Default: 1, Min: 0, Max: 1e12, Doc: "weight β of the exclusive term ‖W‖_{1,2}² (within-row competition between classes)"}
	// For cd and fista the tolerance bounds the distance to the optimum
	// (a duality gap), not the last change of the objective.
	tolParam := Param{Name: "tol", Default: DefaultTolerance, Min: 0, Max: 1, MinOpen: true,
		Doc: "cd, fista, reweight: stop when a duality gap certifies J(W) − J* ≤ tol·J(W); alm: the paper's rule, or a relative change of J at most tol"}
	Register(&Spec{
		Name:  "exl21",
		Title: "Exclusive ℓ2,1",
		Doc:   "least squares with ℓ2,1 (joint) plus squared ℓ1,2 (exclusive, per-class) row sparsity",
		Paper: "Ming & Ding, Robust flexible feature selection via exclusive L21 regularization, IJCAI 2019 (Eq. 14, Alg. 2)",
		Kind:  Embedded,
		Params: []Param{
			{Name: "alpha", Default: 1, Min: 0, Max: 1e12, Doc: "weight α of ‖W‖_{2,1} (removes whole features)"},
			betaParam,
			exl21SolverParam,
			tolParam,
		},
		New: func(p Params) (Selector, error) {
			e := Exl21{Alpha: p["alpha"], Beta: p["beta"], Solver: Exl21Solver(p["solver"])}
			return e, e.Validate()
		},
	})
	Register(&Spec{
		Name:   "elasso",
		Title:  "Exclusive lasso",
		Doc:    "least squares with the squared ℓ1,2 norm: exl21 with α = 0",
		Paper:  "Zhou, Jin & Hoi, AISTATS 2010; as the baseline of Ming & Ding, IJCAI 2019",
		Kind:   Embedded,
		Params: []Param{betaParam, elassoSolverParam, tolParam},
		New: func(p Params) (Selector, error) {
			e := Exl21{Alpha: 0, Beta: p["beta"], Solver: Exl21Solver(p["solver"])}
			if e.Solver == Exl21Reweight && e.Beta == 0 {
				e.Solver = Exl21CD // least squares: nothing to reweight
			}
			return e, e.Validate()
		},
	})
}
