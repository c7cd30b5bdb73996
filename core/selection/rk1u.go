package selection

import (
	"context"
	"fmt"
)

// RK1U is least squares with an ℓ2,p penalty, p < 1,
//
//	min_W ‖XW − Y‖_F² + λ‖W‖_{2,p}^p,   0 < p < 1,
//
// with Y = Y01 unless the problem overrides the coding (the papers are
// silent; the least-squares family here uses Y01, as MTFS:
// docs/methods.md#coding). Reference: M. Zhang, C. Ding, Y. Zhang, F. Nie,
// "Feature selection at the discrete limit", AAAI 2014 (solved there by
// rank-one updates, hence the name); as the r = 2 case of Table 1 of
// gsr-fs-peng-fan-irls, solved by its Algorithm 1 (the shared IRLS engine,
// irlsModel), which reaches the same kind of stationary point of this
// non-convex model. p = 1 is MTFS.
type RK1U struct {
	// P is p ∈ (0, 1); zero means DefaultSparseP.
	P float64
	// Lambda is λ > 0; zero means DefaultLambda.
	Lambda float64
}

var _ Selector = RK1U{}

// Fit solves the model; s sets the loop.
func (u RK1U) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	mdl := irlsModel{r: 2, p: orDefault(u.P, DefaultSparseP), lambda: orDefault(u.Lambda, DefaultLambda), coding: OneHot}
	if mdl.p >= 1 {
		return nil, fmt.Errorf("rk1u: parameter p = %v is invalid: it must be in (0, 1) (p = 1 is mtfs)", mdl.p)
	}
	return mdl.fit(ctx, p, s, "rk1u", "lambda")
}

func init() {
	Register(&Spec{
		Name:  "rk1u",
		Title: "RK1U (least squares + ℓ2,p, p < 1)",
		Doc:   "‖XW−Y‖²_F + λ‖W‖₂,ₚᵖ with one-hot labels and p < 1 (GSR-FS with r = 2)",
		Paper: "Zhang, Ding, Zhang, Nie, AAAI 2014; as in Peng & Fan, AAAI 2017 (Table 1)",
		Kind:  Embedded,
		Params: []Param{
			{Name: "p", Default: DefaultSparseP, Min: 0, MinOpen: true, Max: 1, MaxOpen: true, Doc: "penalty exponent p < 1 (p = 1 is mtfs)"},
			lambdaParam,
		},
		New: func(p Params) (Selector, error) { return RK1U{P: p["p"], Lambda: p["lambda"]}, nil },
	})
}
