package selection

import "context"

// GSR is general sparsity regularised feature selection (GSR-FS),
//
//	min_W ‖XW − Y‖_{2,r}^r + λ‖W‖_{2,p}^p,   0 < r ≤ 2, 0 < p ≤ 1,
//
// with Y = Ypm (one-vs-rest ±1, as in the paper) unless the problem
// overrides the coding, and W including the bias row when the problem has
// a bias. Reference: H. Peng, Y. Fan, "A general framework for sparsity
// regularized feature selection via iteratively reweighted least square
// minimization", AAAI 2017 (gsr-fs-peng-fan-irls): the model is Eq. (2),
// solved by Algorithm 1 with the updates of Eqs. (3)–(4). The shared IRLS
// engine (irlsModel) documents the solver; mtfs, erfs and rk1u are its
// special cases (Table 1 of the paper). For r < 1 or p < 1 the model is
// not convex: the answer is the stationary point Algorithm 1 reaches from
// its identity start, and the objective still never increases (Theorem 1).
type GSR struct {
	// R is the loss exponent r ∈ (0, 2]; zero means DefaultGSRR.
	R float64
	// P is the penalty exponent p ∈ (0, 1]; zero means DefaultGSRP.
	P float64
	// Lambda is λ > 0; zero means DefaultLambda.
	Lambda float64
	// Solver chooses, when p = 1 and r ≥ 1, the accelerated iteration
	// (default) or Algorithm 1; other cases always run Algorithm 1.
	Solver IRLSSolver
}

// Defaults of GSR (docs/methods.md#gsr).
const (
	DefaultGSRR   = 1
	DefaultGSRP   = 0.5
	DefaultLambda = 1
)

var _ Selector = GSR{}

// Fit solves the model; s sets the loop.
func (g GSR) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	mdl := irlsModel{r: orDefault(g.R, DefaultGSRR), p: orDefault(g.P, DefaultGSRP), lambda: orDefault(g.Lambda, DefaultLambda), coding: PlusMinus, plain: g.Solver == IRLSPlain}
	return mdl.fit(ctx, p, s, "gsr", "lambda")
}

// lambdaParam is the λ parameter of the IRLS family.
var lambdaParam = Param{Name: "lambda", Default: DefaultLambda, Min: 0, MinOpen: true, Max: irlsMaxLambda, Doc: "weight λ of the sparsity penalty on W"}

func init() {
	Register(&Spec{
		Name:  "gsr",
		Title: "GSR-FS (ℓ2,r loss, ℓ2,p penalty)",
		Doc:   "‖XW−Y‖₂,ᵣʳ + λ‖W‖₂,ₚᵖ with ±1 labels, by reweighted least squares",
		Paper: "Peng & Fan, AAAI 2017 (Eq. 2, Alg. 1)",
		Kind:  Embedded,
		Params: []Param{
			{Name: "r", Default: DefaultGSRR, Min: 0, MinOpen: true, Max: 2, Doc: "loss exponent r: smaller is more robust to outliers, 2 is least squares"},
			{Name: "p", Default: DefaultGSRP, Min: 0, MinOpen: true, Max: 1, Doc: "penalty exponent p: smaller gives sparser W, 1 is the convex ℓ2,1"},
			lambdaParam,
			irlsSolverParam,
			irlsTolParam,
		},
		New: func(p Params) (Selector, error) {
			return GSR{R: p["r"], P: p["p"], Lambda: p["lambda"], Solver: IRLSSolver(p["solver"])}, nil
		},
	})
}
