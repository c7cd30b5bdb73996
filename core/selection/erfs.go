package selection

import "context"

// ERFS is the extended robust feature selection of the ℓ2,p matrix norm,
//
//	min_W ‖XW − Y‖_{2,p}^p + λ‖W‖_{2,p}^p,   0 < p ≤ 1,
//
// with Y = Y01 unless the problem overrides the coding (the papers are
// silent; E-RFS generalises RFS, which uses Y01: docs/methods.md#coding).
// Reference: L. Wang, S. Chen, "ℓ2,p matrix norm and its application in
// feature selection", arXiv 1303.3987, 2013; as the r = p case of Table 1 of
// gsr-fs-peng-fan-irls, solved by its Algorithm 1 (the shared IRLS engine,
// irlsModel). p = 1 is RFS with γ = λ. The default p = 0.5 is the value
// gsr-fs-peng-fan-irls §5.2 used for E-RFS.
type ERFS struct {
	// P is p ∈ (0, 1], the exponent of both terms; zero means
	// DefaultSparseP.
	P float64
	// Lambda is λ > 0; zero means DefaultLambda.
	Lambda float64
	// Solver chooses, when p = 1 (the convex case, RFS), the accelerated
	// iteration (default) or Algorithm 1; p < 1 always runs Algorithm 1.
	Solver IRLSSolver
}

// DefaultSparseP is the default p of erfs and rk1u (gsr-fs-peng-fan-irls
// §5.2: "p = 0.5 since it had better classification performance").
const DefaultSparseP = 0.5

var _ Selector = ERFS{}

// Fit solves the model; s sets the loop.
func (e ERFS) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	pp := orDefault(e.P, DefaultSparseP)
	mdl := irlsModel{r: pp, p: pp, lambda: orDefault(e.Lambda, DefaultLambda), coding: OneHot, plain: e.Solver == IRLSPlain}
	return mdl.fit(ctx, p, s, "erfs", "lambda")
}

func init() {
	Register(&Spec{
		Name:  "erfs",
		Title: "E-RFS (joint ℓ2,p)",
		Doc:   "extended RFS: ‖XW−Y‖₂,ₚᵖ + λ‖W‖₂,ₚᵖ with one-hot labels (GSR-FS with r = p)",
		Paper: "Wang & Chen, arXiv 1303.3987 (2013); as in Peng & Fan, AAAI 2017 (Table 1)",
		Kind:  Embedded,
		Params: []Param{
			{Name: "p", Default: DefaultSparseP, Min: 0, MinOpen: true, Max: 1, Doc: "exponent p of both the loss and the penalty"},
			lambdaParam,
			irlsSolverParam,
			irlsTolParam,
		},
		New: func(p Params) (Selector, error) {
			return ERFS{P: p["p"], Lambda: p["lambda"], Solver: IRLSSolver(p["solver"])}, nil
		},
	})
}
