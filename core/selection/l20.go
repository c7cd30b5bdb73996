package selection

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// L20 is the ℓ2,0-constrained robust feature selector of An, Dong and Qin,
// "Robust feature selection via nonconvex sparsity-based methods", J.
// Nonlinear Var. Anal. 5 (2021) 59–77 (l20-nmapg-an-dong-qin-2021):
//
//	min_W ||AW − Y||_{2,1} + γ||W||_{2,1}   s.t.  ||W_F||_{2,0} ≤ K        (2.3)
//
// with A = [X 1] (m×(n+1), the bias column last) or X, Y = Y01 (or real
// targets), W (n+1)×c, and W_F its n feature rows: the bias row carries γ
// but is neither counted nor zeroed by the constraint
// (docs/methods.md#bias). The paper writes X as n×m and the loss as
// ||XᵀW − Y||_{2,1}; the two agree with its X our Aᵀ.
//
// Method. The constraint becomes the exact penalty (3.2),
//
//	F(W) = ||AW − Y||_{2,1} + γ||W||_{2,1} + ρ(||W_F||_{2,1} − ||W_F||_{K,21}),
//
// whose minimisers are feasible for ρ > ρ_max = m·max_ij|x_ij| − γ (Theorem
// 3.1; the maximum runs over the feature columns only, since the proof only
// zeroes feature rows). Both ℓ2,1 terms are smoothed (Theorem 4.1,
// Corollary 4.1, Proposition 5.3: each row norm becomes a Huber function of
// width μ) and F_μ is minimised by nmAPG (Algorithm 1, with τ = 2L_μ,
// δ = 0.1(τ − L_μ), η = 0.9 as in §6) using the proximal map of
// ρ(ℓ2,1 − ℓK,21) (Theorem 5.1, see sparse.TopKRows.Prox for a
// correction). Algorithm 2 runs Algorithm 1 for μ = μ0, σμ0, σ²μ0, … from
// W⁰ = 0, each stage starting from the previous solution and ending after
// StageIter iterations or when ||W^k − W^{k−1}||_F / max(||W^k||_F, 1) ≤ tol
// (rule (6.1), tol = 1e−7; §6.3).
//
// Decisions where the paper is silent or loose (documented, deliberate):
//
//   - The last stage runs at μ* = 2ε/(m + γp) exactly (μ_{k+1} =
//     max(σμ_k, μ*)), so that (5.9) bounds the smoothing gap by ε. Algorithm
//     2 as printed stops once σμ_k < μ* without running that stage, which
//     only bounds the gap by ε/σ. If μ0 ≤ μ*, one stage runs: Algorithm 1
//     at μ0.
//   - The step uses L_μ = (σ_max(A)² + γ)/μ (Lipschitz constant of ∇G_μ;
//     σ_max by the power method) instead of the paper's (||A||_F² + pγ)/μ,
//     which is valid but larger (BenchmarkL20Lipschitz measures both;
//     Lipschitz selects).
//   - ρ = RhoRel·ρ_max (0.01, §6.3) unless Rho is set; when ρ_max ≤ 0 (data
//     of tiny scale) the default ρ is 0 and the projection below enforces
//     the constraint.
//   - The user asks for K features and gets at most K: when the penalised
//     solution has more than K nonzero feature rows (ρ < ρ_max gives no
//     guarantee, Remark 3.1), its K largest rows are kept and the convex
//     model (2.1) restricted to them (ρ = 0, the same smoothing, nmAPG and
//     μ schedule) is solved from there; Result.Notes says so.
//   - Then (our addition, Swaps > 0, on by default) a support refinement by
//     greedy forward–backward swaps (see refine): the penalised method ends
//     in a local minimiser whose support is often a few per cent worse than
//     the best K-subset (docs/results.md#l20-optimality: 24 of 140 small
//     brute-forced cases above 2%, none after refinement). It never
//     increases the objective; Swaps = 0 gives the paper's method with the
//     projection.
//
// Result.Objective is the exact objective of (2.3) at the returned W (which
// is feasible); Result.Trace is the smoothed objective F_μ(W^k) of the stage
// in force at each iteration (then of the restricted model after a
// projection); Notes give ρ, ρ_max and the sparsity level of the penalised
// solution. Settings.Tolerance is the threshold of rule (6.1) (0 means
// 1e−7; negative disables it); Settings.MaxIterations bounds each of the
// two phases (0 means L20MaxIterations).
type L20 struct {
	// K is the number of features to select (≥ 1).
	K int
	// Gamma is γ ≥ 0, the weight of the ℓ2,1 regulariser.
	Gamma float64
	// Rho is the penalty ρ ≥ 0 of (3.2); 0 means RhoRel·ρ_max.
	Rho float64
	// RhoRel is ρ/ρ_max when Rho is 0 (the paper uses 0.01 and 0.001).
	RhoRel float64
	// Mu0 > 0, Sigma ∈ (0,1) and Epsilon > 0 drive Algorithm 2: μ starts
	// at Mu0, is multiplied by Sigma after each stage, and the last stage
	// has μ* = 2·Epsilon/(m + γp).
	Mu0, Sigma, Epsilon float64
	// StageIter is the most iterations of one μ-stage (200 in §6.3).
	StageIter int
	// Lipschitz chooses the constant behind the step 1/τ.
	Lipschitz LipschitzRule
	// Swaps bounds the accepted changes of the support refinement (our
	// addition, see refine); 0 disables it, leaving the paper's method
	// and the projection.
	Swaps int
}

// LipschitzRule chooses the Lipschitz constant L_μ of ∇G_μ in l20's nmAPG.
type LipschitzRule int

const (
	// SpectralLipschitz is (σ_max(A)² + γ)/μ, the tight constant.
	SpectralLipschitz LipschitzRule = iota
	// FrobeniusLipschitz is (||A||_F² + pγ)/μ, the paper's (§5).
	FrobeniusLipschitz
)

var lipschitzNames = []string{"spectral", "frobenius"}

// L20MaxIterations is l20's default limit on the iterations of each phase;
// the μ schedule normally ends a phase long before.
const L20MaxIterations = 10000

// DefaultL20Swaps is the default bound on the changes of l20's support
// refinement.
const DefaultL20Swaps = 10

// DefaultSwitchTol is the threshold of the stage-switching rule (6.1).
const DefaultSwitchTol = 1e-7

// NewL20 returns l20 with the defaults of docs/methods.md#l20 for K
// features.
func NewL20(k int) *L20 {
	return &L20{K: k, Gamma: 0.1, RhoRel: 0.01, Mu0: 1, Sigma: 0.1, Epsilon: 0.1, StageIter: 200, Swaps: DefaultL20Swaps}
}

var _ Selector = (*L20)(nil)

// Validate checks the parameters that do not depend on the data.
func (l *L20) Validate() error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("l20: parameter %s = %v is invalid: it must be %s", name, v, want)
	}
	switch {
	case l.K < 1:
		return bad("k", l.K, "at least 1")
	case !(l.Gamma >= 0) || math.IsInf(l.Gamma, 0):
		return bad("gamma", l.Gamma, "a finite number ≥ 0")
	case !(l.Rho >= 0) || math.IsInf(l.Rho, 0):
		return bad("rho", l.Rho, "a finite number ≥ 0")
	case l.Rho == 0 && (!(l.RhoRel > 0) || math.IsInf(l.RhoRel, 0)):
		return bad("rho_rel", l.RhoRel, "a finite number > 0")
	case !(l.Mu0 > 0) || math.IsInf(l.Mu0, 0):
		return bad("mu0", l.Mu0, "a finite number > 0")
	case !(l.Sigma > 0 && l.Sigma < 1):
		return bad("sigma", l.Sigma, "in (0, 1)")
	case !(l.Epsilon > 0) || math.IsInf(l.Epsilon, 0):
		return bad("epsilon", l.Epsilon, "a finite number > 0")
	case l.StageIter < 1:
		return bad("stage_iter", l.StageIter, "at least 1")
	case l.Lipschitz != SpectralLipschitz && l.Lipschitz != FrobeniusLipschitz:
		return bad("lipschitz", l.Lipschitz, "spectral or frobenius")
	case l.Swaps < 0:
		return bad("swaps", l.Swaps, "at least 0")
	}
	return nil
}

// L20Fit is an l20 fit with the details the experiments of §6 plot.
type L20Fit struct {
	*Result
	// K is the constraint's K.
	K int
	// Rho is the penalty used, RhoMax the ρ_max of Theorem 3.1 and MuStar
	// the last smoothing μ*.
	Rho, RhoMax, MuStar float64
	// Mu is the μ in force at each iteration and Exact the exact
	// objective F (3.2) at each iterate (after a projection, of the
	// restricted model, where the penalty is zero).
	Mu, Exact []float64
	// Stages is the number of μ-stages run in the penalised phase.
	Stages int
	// PenalisedRows counts the nonzero feature rows of the penalised
	// solution, and PenalisedLevel those above SparsityTol times the
	// largest (its sparsity level, §6.4).
	PenalisedRows, PenalisedLevel int
	// Projected says the penalised solution had more than K nonzero
	// feature rows and was projected and re-optimised;
	// ReoptIterations counts the iterations of that second phase.
	Projected       bool
	ReoptIterations int
	// Swaps and Additions count the changes the support refinement made,
	// in RefineSolves solves of the restricted convex model.
	Swaps, Additions, RefineSolves int
}

// l20Data is what a fit needs from a problem, computed once and shared by
// the fits of a path over K.
type l20Data struct {
	md     *l21Model
	eng    *nmapg
	n      int // features
	bias   bool
	xInf   float64
	sigma2 float64 // σ_max(A)², NaN until needed
}

func (l *L20) prepare(p *Problem) (*l20Data, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := p.ValidateTargets(); err != nil {
		return nil, err
	}
	if err := p.CheckMemory("l20", p.embeddedNeeds(2)...); err != nil {
		return nil, err
	}
	m, n := p.X.Dims()
	a := denseData(p.Design())
	resp := p.Response(OneHot)
	y := denseData(resp)
	_, c := resp.Dims()
	xInf := 0.0
	for i := 0; i < m; i++ {
		for _, v := range p.X.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("l20: the data hold a non-finite value in sample %d", i)
			}
			xInf = math.Max(xInf, math.Abs(v))
		}
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("l20: target of sample %d is not finite", i/c)
		}
	}
	pp := n
	if p.Bias {
		pp++
	}
	md := &l21Model{design: design{a: a, m: m, p: pp}, y: y, c: c, nf: n}
	return &l20Data{md: md, eng: newNMAPG(md, 0), n: n, bias: p.Bias, xInf: xInf, sigma2: math.NaN()}, nil
}

// lipschitz returns L_μ·μ for a model on the design a (m×pp).
func (l *L20) lipschitz(a *design, gamma float64, sigma2 *float64) float64 {
	if l.Lipschitz == FrobeniusLipschitz {
		return frobenius2(a.a) + float64(a.p)*gamma
	}
	if sigma2 == nil || math.IsNaN(*sigma2) {
		s := spectralNorm2(a)
		if sigma2 == nil {
			return s + gamma
		}
		*sigma2 = s
	}
	return *sigma2 + gamma
}

// Fit solves (2.3) for l.K from W⁰ = 0.
func (l *L20) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	fits, err := l.SolvePath(ctx, p, s, []int{l.K})
	if err != nil {
		return nil, err
	}
	return fits[0].Result, nil
}

// FitPath solves (2.3) for each K of ks in order, each fit starting from the
// solution of the previous one (the warm start of §6.3; the first starts
// from 0). The problem's constants (the design, ||X||_∞, σ_max) are computed
// once. l.K is ignored.
func (l *L20) FitPath(ctx context.Context, p *Problem, s *Settings, ks []int) ([]*Result, error) {
	fits, err := l.SolvePath(ctx, p, s, ks)
	if err != nil {
		return nil, err
	}
	out := make([]*Result, len(fits))
	for i, f := range fits {
		out[i] = f.Result
	}
	return out, nil
}

// SolvePath is FitPath with the details of each fit.
func (l *L20) SolvePath(ctx context.Context, p *Problem, s *Settings, ks []int) ([]*L20Fit, error) {
	if len(ks) == 0 {
		return nil, errors.New("l20: no K given")
	}
	d, err := l.prepare(p)
	if err != nil {
		return nil, err
	}
	out := make([]*L20Fit, 0, len(ks))
	w0 := make([]float64, d.md.p*d.md.c)
	for _, k := range ks {
		if k < 1 || k > d.n {
			return nil, fmt.Errorf("l20: k = %d is out of range: it must be between 1 and the number of features, %d", k, d.n)
		}
		fit, err := l.solve(ctx, d, s, k, w0)
		if err != nil {
			return nil, err
		}
		copy(w0, fit.W.RawMatrix().Data)
		out = append(out, fit)
	}
	return out, nil
}

// solve runs Algorithm 2 on (3.2) for K = k from w0, then the projection
// and re-optimisation when needed, then the support refinement.
func (l *L20) solve(ctx context.Context, d *l20Data, s *Settings, k int, w0 []float64) (*L20Fit, error) {
	md, eng := d.md, d.eng
	m, c, n := md.m, md.c, d.n
	fit := &L20Fit{K: k}
	fit.RhoMax = float64(m)*d.xInf - l.Gamma
	fit.Rho = l.Rho
	if fit.Rho == 0 {
		fit.Rho = math.Max(0, l.RhoRel*fit.RhoMax)
	}
	md.gamma, md.rho, md.k = l.Gamma, fit.Rho, k
	fit.MuStar = 2 * l.Epsilon / (float64(m) + l.Gamma*float64(md.p))
	eng.lip = l.lipschitz(&md.design, l.Gamma, &d.sigma2)
	eng.setW(w0)
	trace := make([]float64, 0, 256)
	run, limitEnd, err := l.continuation(ctx, eng, s, fit.MuStar, fit, &trace, 0)
	if err != nil {
		return nil, err
	}
	fit.Stages = run.stages
	status := run.Status
	w := append([]float64(nil), eng.w...)
	notes := []string{fmt.Sprintf("ρ = %.6g (ρ_max = m·max|x_ij| − γ = %.6g, Theorem 3.1); last smoothing μ* = %.3g", fit.Rho, fit.RhoMax, fit.MuStar)}
	norms := RowNorms(mat.NewDense(md.p, c, w), n)
	for _, v := range norms {
		if v > 0 {
			fit.PenalisedRows++
		}
	}
	fit.PenalisedLevel = NonzeroRows(norms, SparsityTol)
	notes = append(notes, fmt.Sprintf("sparsity level of the penalised solution: %d feature rows above %g×the largest (%d nonzero) for K = %d",
		fit.PenalisedLevel, SparsityTol, fit.PenalisedRows, k))
	if limitEnd {
		notes = append(notes, fmt.Sprintf("the last μ-stage ended at its %d-iteration limit before rule (6.1) held", l.StageIter))
	}
	iterations := run.Iterations
	if fit.PenalisedRows > k {
		fit.Projected = true
		_, keep := md.topk.Select(w[:n*c], c, k)
		run2, limit2, err := l.solveOn(ctx, d, s, fit, &trace, w, support(keep), iterations)
		if err != nil {
			return nil, err
		}
		fit.ReoptIterations = run2.Iterations
		iterations += run2.Iterations
		if run2.Status.Early() {
			status = run2.Status
		}
		notes = append(notes, fmt.Sprintf("the penalised solution had %d nonzero feature rows > K = %d: kept the %d largest and re-optimised the convex model (2.1) on them (%d iterations)",
			fit.PenalisedRows, k, k, run2.Iterations))
		if limit2 {
			notes = append(notes, fmt.Sprintf("the last μ-stage of the re-optimisation ended at its %d-iteration limit before rule (6.1) held", l.StageIter))
		}
	}
	objective := d.objective(w)
	if l.Swaps > 0 {
		before := objective
		var err error
		objective, err = l.refine(ctx, d, s, fit, w, objective, iterations)
		if err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("support refinement: %d swap(s), %d addition(s) in %d trial solves; objective %.8g → %.8g",
			fit.Swaps, fit.Additions, fit.RefineSolves, before, objective))
	}
	wm := mat.NewDense(md.p, c, w)
	res := EmbeddedResult(wm, n, Run{Iterations: iterations, Objective: objective, Trace: trace, Status: status})
	if nz := NonzeroRows(res.Scores, 0); nz < k {
		notes = append(notes, fmt.Sprintf("only %d of the K = %d feature rows are nonzero: ρ may be too large (Remark 3.1); the ranking fills up with zero-weight features by column order", nz, k))
	}
	res.Notes = notes
	fit.Result = res
	return fit, nil
}

// objective returns the exact objective of (2.3) (the penalty left out) at
// w, which must be feasible.
func (d *l20Data) objective(w []float64) float64 {
	md := d.md
	md.mul(d.eng.r, w, md.c)
	rho := md.rho
	md.rho = 0
	f := md.exact(w, d.eng.r)
	md.rho = rho
	return f
}

// support lists the marked indices in increasing order.
func support(keep []bool) []int {
	var s []int
	for j, kp := range keep {
		if kp {
			s = append(s, j)
		}
	}
	return s
}

// phaseRun is what one run of Algorithm 2 reports.
type phaseRun struct {
	Run
	stages int
}

// continuation runs Algorithm 2 on eng's model from its current iterate
// down to muStar. When fit is not nil it records μ and F of each iteration
// there, and when trace is not nil it appends F_μ to it. offset numbers
// the iterations for progress reports. It also reports whether the last
// stage ended at its iteration limit rather than by rule (6.1).
func (l *L20) continuation(ctx context.Context, eng *nmapg, s *Settings, muStar float64, fit *L20Fit, trace *[]float64, offset int) (phaseRun, bool, error) {
	switchTol, maxIter := DefaultSwitchTol, L20MaxIterations
	var progress func(Progress)
	if s != nil {
		if s.Tolerance != 0 {
			switchTol = s.Tolerance
		}
		if s.MaxIterations > 0 {
			maxIter = s.MaxIterations
		}
		progress = s.Progress
	}
	// The schedule μ0, σμ0, …, μ*: at most stages·StageIter iterations.
	stages := 1
	for mu := l.Mu0; mu > muStar; mu = math.Max(l.Sigma*mu, muStar) {
		stages++
	}
	budget := min(maxIter, stages*l.StageIter)
	mu := l.Mu0
	eng.start(mu)
	out := phaseRun{stages: 1}
	inStage, limitEnd := 0, false
	step := func(k int) (float64, Status, error) {
		rel := eng.iterate()
		inStage++
		if fit != nil {
			fit.Mu = append(fit.Mu, mu)
			fit.Exact = append(fit.Exact, eng.fwExact)
		}
		f := eng.fw
		byRule := switchTol > 0 && rel <= switchTol
		if inStage >= l.StageIter || byRule {
			limitEnd = !byRule
			if mu <= muStar {
				return f, MethodConverged, nil
			}
			mu = math.Max(l.Sigma*mu, muStar)
			eng.start(mu)
			inStage = 0
			out.stages++
		}
		return f, NotTerminated, nil
	}
	loop := &Settings{MaxIterations: budget, Tolerance: -1}
	if progress != nil {
		loop.Progress = func(p Progress) {
			p.Iteration += offset
			p.MaxIterations += offset
			progress(p)
		}
	}
	run, err := Iterate(ctx, loop, step)
	if trace != nil {
		*trace = append(*trace, run.Trace...)
	}
	out.Run = run
	return out, limitEnd, err
}

// solveOn solves the convex model (2.1) restricted to the feature columns
// cols (and the bias) by Algorithm 2 with ρ = 0, starting from the rows of
// w (p×c), and writes the solution back into w, whose other feature rows
// become zero. fit and trace record as in continuation (either may be nil).
func (l *L20) solveOn(ctx context.Context, d *l20Data, s *Settings, fit *L20Fit, trace *[]float64, w []float64, cols []int, offset int) (phaseRun, bool, error) {
	md := d.md
	m, c, n := md.m, md.c, d.n
	all := cols
	if d.bias {
		all = append(append(make([]int, 0, len(cols)+1), cols...), n)
	}
	pp := len(all)
	a := make([]float64, m*pp)
	for i := 0; i < m; i++ {
		row := md.a[i*md.p : (i+1)*md.p]
		for jj, j := range all {
			a[i*pp+jj] = row[j]
		}
	}
	sub := &l21Model{design: design{a: a, m: m, p: pp}, y: md.y, c: c, nf: len(cols), gamma: md.gamma, rho: 0, k: len(cols)}
	eng := newNMAPG(sub, l.lipschitz(&sub.design, md.gamma, nil))
	w0 := make([]float64, pp*c)
	for jj, j := range all {
		copy(w0[jj*c:(jj+1)*c], w[j*c:(j+1)*c])
	}
	eng.setW(w0)
	muStar := 2 * l.Epsilon / (float64(m) + md.gamma*float64(md.p))
	run, limit, err := l.continuation(ctx, eng, s, muStar, fit, trace, offset)
	if err != nil {
		return run, limit, err
	}
	clear(w[:n*c])
	for jj, j := range all {
		copy(w[j*c:(j+1)*c], eng.w[jj*c:(jj+1)*c])
	}
	return run, limit, nil
}

// refineCandidates is the number of outside features tried per round of
// the support refinement.
const refineCandidates = 3

// refine improves the support of the feasible w (p×c, updated in place),
// whose exact objective is f, by greedy forward–backward swaps, and
// returns the new objective. This step is ours, not the paper's: nmAPG on
// the nonconvex (3.2) ends in a local minimiser whose support can be a few
// per cent worse than the best K-subset (docs/l20.md#support-refinement,
// docs/results.md#l20-optimality). Each round ranks the features j outside
// the support S by ||a_jᵀΠ(R)||, the size of the first-order decrease of the
// loss when j enters (Π(R) the unit residual rows, R = AW − Y), and for the
// best refineCandidates of them in turn: solves (2.1) on S ∪ {j}; if |S| < K
// that is an addition, kept when it lowers the objective; otherwise drops
// the row i ∈ S whose removal raises the objective least (evaluated exactly,
// without re-solving), solves (2.1) on S ∪ {j} − {i}, and keeps the swap
// when the objective falls by more than 1e−7 relative. It stops after a
// round with no improvement or l.Swaps accepted changes. The objective never
// increases.
func (l *L20) refine(ctx context.Context, d *l20Data, s *Settings, fit *L20Fit, w []float64, f float64, offset int) (float64, error) {
	md := d.md
	m, c, n, k := md.m, md.c, d.n, fit.K
	r := make([]float64, m*c)
	g := make([]float64, md.p*c)
	score := make([]float64, n)
	inS := make([]bool, n)
	trial := make([]float64, len(w))
	for changes := 0; changes < l.Swaps; {
		S := make([]int, 0, k+1)
		for j := 0; j < n; j++ {
			inS[j] = rowNorm(w[j*c:(j+1)*c]) > 0
			if inS[j] {
				S = append(S, j)
			}
		}
		// Π(R) and the scores ||a_jᵀΠ(R)|| of the outside features.
		md.mul(r, w, c)
		for i := 0; i < m; i++ {
			ri, yi := r[i*c:(i+1)*c], md.y[i*c:(i+1)*c]
			for q := range ri {
				ri[q] -= yi[q]
			}
			if nr := rowNorm(ri); nr > 0 {
				for q := range ri {
					ri[q] /= nr
				}
			}
		}
		md.mulT(g, r, c)
		for j := range score {
			score[j] = math.Inf(-1)
			if !inS[j] {
				score[j] = rowNorm(g[j*c : (j+1)*c])
			}
		}
		order := RankByScore(score)
		improved := false
		for _, j := range order[:min(refineCandidates, n-len(S))] {
			copy(trial, w)
			grown := append(append([]int(nil), S...), j)
			sortInts(grown)
			if _, _, err := l.solveOn(ctx, d, s, nil, nil, trial, grown, offset); err != nil {
				return f, err
			}
			fit.RefineSolves++
			if len(S) < k {
				if ft := d.objective(trial); ft < f*(1-1e-7) {
					copy(w, trial)
					f, improved = ft, true
					fit.Additions++
				}
				if improved {
					break
				}
				continue
			}
			drop := d.cheapestDrop(trial, S)
			shrunk := make([]int, 0, k)
			for _, i := range grown {
				if i != drop {
					shrunk = append(shrunk, i)
				}
			}
			if _, _, err := l.solveOn(ctx, d, s, nil, nil, trial, shrunk, offset); err != nil {
				return f, err
			}
			fit.RefineSolves++
			if ft := d.objective(trial); ft < f*(1-1e-7) {
				copy(w, trial)
				f, improved = ft, true
				fit.Swaps++
				break
			}
		}
		if !improved {
			break
		}
		changes++
	}
	return f, nil
}

// cheapestDrop returns the feature of S whose row, set to zero in w
// without re-solving, raises the exact objective least.
func (d *l20Data) cheapestDrop(w []float64, S []int) int {
	md := d.md
	m, c, p := md.m, md.c, md.p
	aw := d.eng.r
	md.mul(aw, w, c)
	best, bestF := S[0], math.Inf(1)
	for _, i := range S {
		wi := w[i*c : (i+1)*c]
		f := -md.gamma * rowNorm(wi)
		for q := 0; q < m; q++ {
			aqi := md.a[q*p+i]
			s := 0.0
			for l := 0; l < c; l++ {
				e := aw[q*c+l] - aqi*wi[l] - md.y[q*c+l]
				s += e * e
			}
			f += math.Sqrt(s)
		}
		if f < bestF {
			best, bestF = i, f
		}
	}
	return best
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

func init() {
	Register(&Spec{
		Name:     "l20",
		Title:    "ℓ2,0-constrained ℓ2,1 regression (nmAPG)",
		Doc:      "min ||XW−Y||_{2,1} + γ||W||_{2,1} s.t. at most K nonzero feature rows, by exact penalty, Nesterov smoothing and nmAPG",
		Paper:    "An, Dong & Qin, J. Nonlinear Var. Anal. 5 (2021) 59–77, Eqs. 2.3, 3.2; Algorithms 1–2",
		Kind:     Embedded,
		SelectsK: true,
		Params: []Param{
			{Name: KParam, Default: 10, Min: 1, Max: 1e9, Integer: true, Doc: "number of features to select (K of ||W||_{2,0} ≤ K); the request's k sets it"},
			{Name: "gamma", Default: 0.1, Min: 0, Max: math.Inf(1), Doc: "weight γ of the ℓ2,1 regulariser"},
			{Name: "rho", Default: 0, Min: 0, Max: math.Inf(1), Doc: "exact-penalty weight ρ of (3.2); 0 means rho_rel·ρ_max, ρ_max = m·max|x_ij| − γ (Theorem 3.1)"},
			{Name: "rho_rel", Default: 0.01, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "ρ/ρ_max when rho is 0 (the paper uses 0.01 and 0.001)"},
			{Name: "mu0", Default: 1, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "initial smoothing μ0 of Algorithm 2"},
			{Name: "sigma", Default: 0.1, Min: 0, Max: 1, MinOpen: true, MaxOpen: true, Doc: "factor σ by which μ decreases between stages"},
			{Name: "epsilon", Default: 0.1, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "smoothing gap ε: the last stage has μ* = 2ε/(m + γ·rows of W)"},
			{Name: "stage_iter", Default: 200, Min: 1, Max: 1e7, Integer: true, Doc: "iteration limit of one μ-stage (§6.3)"},
			{Name: "lipschitz", Default: 0, Choices: lipschitzNames, Doc: "step constant L_μ: spectral (σ_max(X)² + γ)/μ, or the paper's frobenius (||X||_F² + nγ)/μ"},
			{Name: "swaps", Default: DefaultL20Swaps, Min: 0, Max: 1e6, Integer: true, Doc: "most swaps of the support refinement after nmAPG (not in the paper; 0 turns it off)"},
			{Name: "max_iter", Default: L20MaxIterations, Min: 1, Max: 1e7, Integer: true, Doc: "iteration limit of each phase (penalised, re-optimisation); the μ schedule normally ends it first"},
			{Name: "tol", Default: DefaultSwitchTol, Min: 0, Max: 1, MinOpen: true, Doc: "rule (6.1): a μ-stage ends when ||W^k − W^{k−1}||_F / max(||W^k||_F, 1) ≤ tol"},
		},
		New: func(p Params) (Selector, error) {
			l := &L20{
				K: int(p[KParam]), Gamma: p["gamma"], Rho: p["rho"], RhoRel: p["rho_rel"],
				Mu0: p["mu0"], Sigma: p["sigma"], Epsilon: p["epsilon"], StageIter: int(p["stage_iter"]),
				Lipschitz: LipschitzRule(p["lipschitz"]), Swaps: int(p["swaps"]),
			}
			return l, l.Validate()
		},
	})
}
