package selection

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
	"sparsefs/core/sparse"
)

// TopK is the exact top-K selector of Cai, Nie and Huang, "Exact top-k
// feature selection via ℓ2,0-norm constraint", IJCAI 2013 (the baseline
// TopK of l20-nmapg §6; docs/methods.md#topk spells its algorithm out):
//
//	min_{W,b} ||XW + 1bᵀ − Y||_{2,1}   s.t.  ||W||_{2,0} = K,
//
// X (m×n) centred, Y = Y01, b ∈ R^c a free (unpenalised) intercept. An
// augmented Lagrangian with the splittings V = W (V carries the ℓ2,0
// constraint) and E = XW + 1bᵀ − Y, multipliers Λ (n×c) for W − V and Σ
// (m×c) for XW + 1bᵀ − Y − E, and penalty μ; from zero, each iteration
// updates in turn
//
//	b = mean of the rows of Y + E − Σ/μ                       (1ᵀX = 0)
//	W = (I + XᵀX)⁻¹(V − Λ/μ + Xᵀ(Y + E − Σ/μ − 1bᵀ))
//	V = W + Λ/μ with all but its K largest rows set to zero
//	E = row-wise shrinkage of XW + 1bᵀ − Y + Σ/μ by 1/μ
//	Λ += μ(W − V),  Σ += μ(XW + 1bᵀ − Y − E),  μ = min(1e10, ρμ)
//
// with μ = 0.1 and ρ = 1.02 to start (the values of l20-nmapg §6) and at
// most 1000 iterations (Settings.MaxIterations). The objective at (V, b)
// is not monotone, so the loop's relative-change rule is replaced by the
// usual rule of an augmented Lagrangian: stop when both primal residuals
// are small, ||W − V||_F / max(||V||_F, 1) ≤ tol and ||XW + 1bᵀ − Y −
// E||_F / max(||Y||_F, 1) ≤ tol (Settings.Tolerance, 1e−6 by default);
// with μ growing by ρ = 1.02 this takes most of the 1000 iterations. The matrix I + XᵀX is fixed: it is factored once, in the
// smaller dimension: when m < n through Woodbury, (I + XᵀX)⁻¹ =
// I − Xᵀ(I + XXᵀ)⁻¹X, which also gives XW = (I + XXᵀ)⁻¹X·r for the
// right-hand side r; X·r is then updated from XV (K rows) and a tracked XΛ,
// so an iteration costs one m×n×c product.
//
// The result is (V, b): Result.Objective and the trace are ||XV + 1bᵀ −
// Y||_{2,1} after each iteration; W is V with the intercept (for the
// uncentred X) as its last row; the scores are the row norms of V, so the K
// selected features come first and the others follow by column order.
// Without Problem.Bias there is no intercept (b = 0) and X is not centred.
type TopK struct {
	// K is the number of features to select.
	K int
	// Mu is the initial penalty μ > 0 and Rho > 1 its growth factor.
	Mu, Rho float64
}

// NewTopK returns topk with the settings of docs/methods.md#topk for K
// features.
func NewTopK(k int) *TopK { return &TopK{K: k, Mu: 0.1, Rho: 1.02} }

var _ Selector = (*TopK)(nil)

// Validate checks the parameters that do not depend on the data.
func (t *TopK) Validate() error {
	switch {
	case t.K < 1:
		return fmt.Errorf("topk: parameter k = %d is invalid: it must be at least 1", t.K)
	case !(t.Mu > 0) || math.IsInf(t.Mu, 0):
		return fmt.Errorf("topk: parameter mu = %v is invalid: it must be a finite number > 0", t.Mu)
	case !(t.Rho >= 1) || math.IsInf(t.Rho, 0):
		return fmt.Errorf("topk: parameter rho = %v is invalid: it must be a finite number ≥ 1", t.Rho)
	}
	return nil
}

// TopKFit is a topk fit with the split variable W of the last iteration
// (n×c), whose sparsity level l20-nmapg §6.4 plots.
type TopKFit struct {
	*Result
	Split *mat.Dense
}

// Fit runs the ALM.
func (t *TopK) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	f, err := t.Solve(ctx, p, s)
	if err != nil {
		return nil, err
	}
	return f.Result, nil
}

// Solve is Fit with the split variable W.
func (t *TopK) Solve(ctx context.Context, p *Problem, s *Settings) (*TopKFit, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := p.CheckMemory("topk", p.embeddedNeeds(2, p.gram(2))...); err != nil {
		return nil, err
	}
	m, n := p.X.Dims()
	if t.K > n {
		return nil, fmt.Errorf("topk: k = %d is out of range: it must be between 1 and the number of features, %d", t.K, n)
	}
	yd := p.Response(OneHot)
	_, c := yd.Dims()
	y := denseData(yd)
	// X centred (with an intercept).
	x := make([]float64, m*n)
	mean := make([]float64, n)
	for i := 0; i < m; i++ {
		row := p.X.RawRowView(i)
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("topk: the data hold a non-finite value in sample %d, feature %d", i, j)
			}
			x[i*n+j] = v
			mean[j] += v
		}
	}
	if p.Bias {
		for j := range mean {
			mean[j] /= float64(m)
		}
		for i := 0; i < m; i++ {
			for j := range mean {
				x[i*n+j] -= mean[j]
			}
		}
	} else {
		clear(mean)
	}
	// The fixed factor: I + XXᵀ (m < n, Woodbury) or I + XᵀX.
	dual := topkDual(m, n)
	dim := n
	if dual {
		dim = m
	}
	// All products and solves run on core/linalg.
	gram := general(dim, dim, make([]float64, dim*dim))
	xg := general(m, n, x)
	xd := &design{a: x, m: m, p: n}
	if dual {
		linalg.ADAt(1, xg, nil, 0, gram) // XXᵀ
	} else {
		linalg.AtDA(1, xg, nil, 0, gram) // XᵀX
	}
	for i := 0; i < dim; i++ {
		gram.Data[i*dim+i]++
	}
	chol := general(dim, dim, append([]float64(nil), gram.Data...))
	if !linalg.Cholesky(chol) {
		return nil, errors.New("topk: I + XᵀX is not positive definite (non-finite data?)")
	}

	var (
		w, v, lam  = make([]float64, n*c), make([]float64, n*c), make([]float64, n*c)
		e, sig, xw = make([]float64, m*c), make([]float64, m*c), make([]float64, m*c)
		r, xlam    = make([]float64, m*c), make([]float64, m*c)
		xv         = make([]float64, m*c)
		b          = make([]float64, c)
		mu         = t.Mu
		ws         sparse.TopKRows
		keep       []bool
	)
	ynorm := math.Max(math.Sqrt(frobenius2(y)), 1)
	loop := Settings{MaxIterations: DefaultMaxIterations, Tolerance: -1}
	tol := DefaultTolerance
	if s != nil {
		loop.MaxIterations, loop.Progress = s.maxIter(), s.Progress
		if s.Tolerance != 0 {
			tol = s.Tolerance
		}
	}
	// xvOf sets xv = XV from the K kept rows of V.
	xvOf := func() {
		clear(xv)
		for j, kp := range keep {
			if !kp {
				continue
			}
			vj := v[j*c : (j+1)*c]
			for i := 0; i < m; i++ {
				a := x[i*n+j]
				if a == 0 {
					continue
				}
				d := xv[i*c : (i+1)*c]
				for l, vl := range vj {
					d[l] += a * vl
				}
			}
		}
	}
	// objective = ||XV + 1bᵀ − Y||_{2,1}.
	objective := func() float64 {
		f := 0.0
		for i := 0; i < m; i++ {
			s := 0.0
			for l := 0; l < c; l++ {
				d := xv[i*c+l] + b[l] - y[i*c+l]
				s += d * d
			}
			f += math.Sqrt(s)
		}
		return f
	}
	step := func(k int) (float64, Status, error) {
		// b = column mean of Y + E − Σ/μ.
		if p.Bias {
			clear(b)
			for i := 0; i < m; i++ {
				for l := 0; l < c; l++ {
					b[l] += y[i*c+l] + e[i*c+l] - sig[i*c+l]/mu
				}
			}
			for l := range b {
				b[l] /= float64(m)
			}
		}
		// R = Y + E − Σ/μ − 1bᵀ.
		for i := 0; i < m; i++ {
			for l := 0; l < c; l++ {
				r[i*c+l] = y[i*c+l] + e[i*c+l] - sig[i*c+l]/mu - b[l]
			}
		}
		if dual {
			// X·rhs = XV − XΛ/μ + XXᵀR, XW = (I + XXᵀ)⁻¹X·rhs,
			// W = rhs − Xᵀ·XW = V − Λ/μ + Xᵀ(R − XW).
			// XXᵀR = (I + XXᵀ)R − R.
			linalg.Gemm(false, false, 1, gram, general(m, c, r), 0, general(m, c, xw))
			for i := range xw {
				xw[i] += xv[i] - xlam[i]/mu - r[i]
			}
			linalg.CholeskySolve(chol, general(m, c, xw))
			for i := range r {
				r[i] -= xw[i]
			}
			xd.mulT(w, r, c)
			for i := range w {
				w[i] += v[i] - lam[i]/mu
			}
		} else {
			xd.mulT(w, r, c)
			for i := range w {
				w[i] += v[i] - lam[i]/mu
			}
			linalg.CholeskySolve(chol, general(n, c, w))
			xd.mul(xw, w, c)
		}
		// V = the K largest rows of W + Λ/μ.
		for i := range v {
			v[i] = w[i] + lam[i]/mu
		}
		keep = ws.Project(v, v, c, t.K)
		xvOf()
		// E = row shrinkage of XW + 1bᵀ − Y + Σ/μ by 1/μ.
		for i := 0; i < m; i++ {
			ei := e[i*c : (i+1)*c]
			for l := range ei {
				ei[l] = xw[i*c+l] + b[l] - y[i*c+l] + sig[i*c+l]/mu
			}
			if s := rowNorm(ei); s > 1/mu {
				f := 1 - 1/(mu*s)
				for l := range ei {
					ei[l] *= f
				}
			} else {
				clear(ei)
			}
		}
		// Multipliers, and XΛ kept in step with Λ.
		for i := range lam {
			lam[i] += mu * (w[i] - v[i])
		}
		if dual {
			for i := range xlam {
				xlam[i] += mu * (xw[i] - xv[i])
			}
		}
		for i := 0; i < m; i++ {
			for l := 0; l < c; l++ {
				sig[i*c+l] += mu * (xw[i*c+l] + b[l] - y[i*c+l] - e[i*c+l])
			}
		}
		// Rule: both primal residuals small (relative).
		r1, nv, r2 := 0.0, 0.0, 0.0
		for i := range w {
			r1 += (w[i] - v[i]) * (w[i] - v[i])
			nv += v[i] * v[i]
		}
		for i := 0; i < m; i++ {
			for l := 0; l < c; l++ {
				d := xw[i*c+l] + b[l] - y[i*c+l] - e[i*c+l]
				r2 += d * d
			}
		}
		res := math.Max(math.Sqrt(r1)/math.Max(math.Sqrt(nv), 1), math.Sqrt(r2)/ynorm)
		mu = math.Min(1e10, t.Rho*mu)
		if res <= tol {
			return objective(), MethodConverged, nil
		}
		return objective(), NotTerminated, nil
	}
	run, err := Iterate(ctx, &loop, step)
	if err != nil {
		return nil, err
	}
	// W = [V; b − Vᵀx̄] so that [X 1]W = X_c V + 1bᵀ.
	rows := n
	if p.Bias {
		rows++
	}
	out := mat.NewDense(rows, c, nil)
	od := out.RawMatrix().Data
	copy(od, v)
	if p.Bias {
		last := od[n*c:]
		copy(last, b)
		for j, kp := range keep {
			if !kp || mean[j] == 0 {
				continue
			}
			for l := range last {
				last[l] -= mean[j] * v[j*c+l]
			}
		}
	}
	res := EmbeddedResult(out, n, run)
	level := NonzeroRows(RowNorms(mat.NewDense(n, c, w), n), SparsityTol)
	res.Notes = []string{fmt.Sprintf("sparsity level of the split variable W: %d feature rows above %g×the largest; V has K = %d", level, SparsityTol, t.K)}
	return &TopKFit{Result: res, Split: mat.NewDense(n, c, append([]float64(nil), w...))}, nil
}

// topkDual chooses the Woodbury (m×m) form; tests replace it to compare
// the two forms.
var topkDual = func(m, n int) bool { return m < n }

func init() {
	Register(&Spec{
		Name:     "topk",
		Title:    "Exact top-K (ℓ2,0-constrained ℓ2,1 loss, ALM)",
		Doc:      "min ||XW + 1bᵀ − Y||_{2,1} s.t. exactly K nonzero rows of W, by an augmented Lagrangian",
		Paper:    "Cai, Nie & Huang, Exact top-k feature selection via ℓ2,0-norm constraint, IJCAI 2013 (settings of An, Dong & Qin 2021 §6)",
		Kind:     Embedded,
		SelectsK: true,
		Params: []Param{
			{Name: KParam, Default: 10, Min: 1, Max: 1e9, Integer: true, Doc: "number of features to select (K of ||W||_{2,0} = K); the request's k sets it"},
			{Name: "mu", Default: 0.1, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "initial augmented-Lagrangian penalty μ"},
			{Name: "rho", Default: 1.02, Min: 1, Max: math.Inf(1), Doc: "growth factor ρ of μ per iteration (μ ≤ 1e10)"},
			{Name: "tol", Default: DefaultTolerance, Min: 0, Max: 1, MinOpen: true, Doc: "stop when both relative primal residuals, ||W − V|| and ||XW + 1bᵀ − Y − E||, are at most tol"},
		},
		New: func(p Params) (Selector, error) {
			t := &TopK{K: int(p[KParam]), Mu: p["mu"], Rho: p["rho"]}
			return t, t.Validate()
		},
	})
}
