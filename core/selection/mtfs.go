package selection

import "context"

// MTFS is multi-task feature selection,
//
//	min_W ‖XW − Y‖_F² + λ‖W‖_{2,1},
//
// with Y = Y01 unless the problem overrides the coding. Reference: G.
// Obozinski, B. Taskar, M. Jordan, "Multi-task feature selection", UC
// Berkeley technical report 2006; J. Liu, S. Ji, J. Ye, UAI 2009; as the
// r = 2, p = 1 case of Table 1 of gsr-fs-peng-fan-irls, solved by its
// Algorithm 1 (the shared IRLS engine, irlsModel). The model is convex;
// with r = 2 the loss weights stay the identity and only the penalty is
// reweighted.
type MTFS struct {
	// Lambda is λ > 0; zero means DefaultLambda.
	Lambda float64
	// Solver chooses the accelerated iteration (default) or Algorithm 1.
	Solver IRLSSolver
}

var _ Selector = MTFS{}

// Fit solves the model; s sets the loop.
func (t MTFS) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	mdl := irlsModel{r: 2, p: 1, lambda: orDefault(t.Lambda, DefaultLambda), coding: OneHot, plain: t.Solver == IRLSPlain}
	return mdl.fit(ctx, p, s, "mtfs", "lambda")
}

func init() {
	Register(&Spec{
		Name:   "mtfs",
		Title:  "MTFS (least squares + ℓ2,1)",
		Doc:    "multi-task feature selection: ‖XW−Y‖²_F + λ‖W‖₂,₁ with one-hot labels (GSR-FS with r = 2, p = 1)",
		Paper:  "Obozinski, Taskar, Jordan 2006; as in Peng & Fan, AAAI 2017 (Table 1)",
		Kind:   Embedded,
		Params: []Param{lambdaParam, irlsSolverParam, irlsTolParam},
		New: func(p Params) (Selector, error) {
			return MTFS{Lambda: p["lambda"], Solver: IRLSSolver(p["solver"])}, nil
		},
	})
}
