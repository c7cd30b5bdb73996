package selection

import "context"

// RFS is robust feature selection by joint ℓ2,1-norm minimisation,
//
//	min_W ‖XW − Y‖_{2,1} + γ‖W‖_{2,1},
//
// with Y = Y01 (one-hot) unless the problem overrides the coding, and W
// including the bias row when the problem has a bias. Reference: F. Nie,
// H. Huang, X. Cai, C. Ding, "Efficient and robust feature selection via
// joint ℓ2,1-norms minimization", NIPS 2010 (rfs-nie-2010): the model is
// Eq. (10), solved by Algorithm 1 (the reweighted system of Eq. 19). It is
// the r = p = 1, λ = γ case of the shared IRLS engine (irlsModel), which
// documents the solver, its smoothing and its savings.
type RFS struct {
	// Gamma is γ > 0; zero means DefaultGamma.
	Gamma float64
	// Solver chooses the accelerated iteration (default) or Algorithm 1.
	Solver IRLSSolver
}

// DefaultGamma is the default γ of RFS (docs/methods.md#rfs).
const DefaultGamma = 1

var _ Selector = RFS{}

// Fit solves the model; s sets the loop (1000 iterations, relative change
// 10⁻⁶ by default, measured as irlsModel says for the solver).
func (r RFS) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	mdl := irlsModel{r: 1, p: 1, lambda: orDefault(r.Gamma, DefaultGamma), coding: OneHot, plain: r.Solver == IRLSPlain}
	return mdl.fit(ctx, p, s, "rfs", "gamma")
}

// orDefault returns v, or def when v is zero.
func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

func init() {
	Register(&Spec{
		Name:  "rfs",
		Title: "RFS (joint ℓ2,1)",
		Doc:   "robust feature selection: ‖XW−Y‖₂,₁ + γ‖W‖₂,₁ with one-hot labels, by reweighted least squares",
		Paper: "Nie, Huang, Cai, Ding, NIPS 2010 (Eq. 10, Alg. 1)",
		Kind:  Embedded,
		Params: []Param{
			{Name: "gamma", Default: DefaultGamma, Min: 0, MinOpen: true, Max: irlsMaxLambda, Doc: "weight γ of the ℓ2,1 penalty on W"},
			irlsSolverParam,
			irlsTolParam,
		},
		New: func(p Params) (Selector, error) { return RFS{Gamma: p["gamma"], Solver: IRLSSolver(p["solver"])}, nil },
	})
}
