package selection

import (
	"fmt"

	"sparsefs/core/internal/budget"
	"sparsefs/core/linalg"
)

// DefaultMemoryBudget is the default bound on the bytes of the matrices a
// fit allocates (budget.Default, 1 GiB).
const DefaultMemoryBudget = budget.Default

// Need is a group of equal matrices a fit allocates (budget.Need).
type Need = budget.Need

// CheckMemory refuses a fit whose matrices would exceed p's memory budget,
// before it allocates them: the message names the method, the total, the
// largest need and what in the data causes it (the classes, the samples,
// the features).
func (p *Problem) CheckMemory(method string, needs ...Need) error {
	return budget.Check(p.MemoryBudget, method, p.cause, needs...)
}

// share returns p with the memory budget of one of fits fits run at the
// same time (fitAll's workers): each gets an equal part of p's budget,
// so that together they stay within it, and none may use X's memory
// (Problem.Lend). p itself is not changed.
func (p *Problem) share(fits int) *Problem {
	if fits <= 1 {
		return p
	}
	q := *p
	q.MemoryBudget = budget.Share(p.MemoryBudget, fits)
	q.Lend = false // the fits read X side by side
	return &q
}

// cause says what in the data makes a need large.
func (p *Problem) cause(n Need) string {
	m, _ := p.X.Dims()
	if n.RowsOf == "classes" || n.ColsOf == "classes" {
		return budget.ClassCause(m, p.Y, p.C)
	}
	if n.RowsOf == n.ColsOf {
		return fmt.Sprintf("a %s × %s system grows with the square of the %s", n.RowsOf, n.ColsOf, n.RowsOf)
	}
	return ""
}

// classNeeds are the matrices every method that uses class labels
// allocates at least once: per-class statistics (c × n), as the filters
// keep them (anova's class means) and the embedded models' weights are.
func (p *Problem) classNeeds() []Need {
	_, n := p.X.Dims()
	return []Need{{What: "the per-class statistics", Rows: p.C, RowsOf: "classes", Cols: n, ColsOf: "features", Copies: 1}}
}

// embeddedNeeds are the matrices of a regression-based model fitted to p
// with r responses (the coded labels' c, or the targets' t): the copies
// of the design Z = [X 1] (m × N) the solver makes (design: the IRLS
// family builds only its transpose, straight from X, and none when X is
// lent to it; the others Z and its transpose), the response and the residuals
// and multipliers the solvers keep beside it (5 × m × r), the weights and
// their iterates (4 × N × r), the systems given (the m × m or N × N
// Gram matrices), and the packing space of core/linalg's products (one
// buffer for each of the two goroutines a large product is split over).
func (p *Problem) embeddedNeeds(design int, systems ...Need) []Need {
	m, n := p.X.Dims()
	if p.Bias {
		n++
	}
	r, of := p.C, "classes"
	if p.Targets != nil {
		_, r = p.Targets.Dims()
		of = "targets"
	}
	what := "the design matrix and its transpose"
	if design == 1 {
		what = "the design matrix's transpose"
	}
	var needs []Need
	if design > 0 {
		needs = append(needs, Need{What: what, Rows: m, RowsOf: "samples", Cols: n, ColsOf: "features", Copies: design})
	}
	needs = append(needs,
		Need{What: "the coded labels, residuals and multipliers", Rows: m, RowsOf: "samples", Cols: r, ColsOf: of, Copies: 5},
		Need{What: "the weights and their iterates", Rows: n, RowsOf: "features", Cols: r, ColsOf: of, Copies: 4},
		packingNeed,
	)
	return append(needs, systems...)
}

// packingNeed is the packing space of core/linalg's products, one buffer
// for each of their two goroutines.
var packingNeed = Need{What: "the products' packing space", Rows: 2, RowsOf: "goroutines", Cols: linalg.PackingFloats, ColsOf: "values"}

// gram is the need of k copies of the Gram system of the smaller side of
// the design (m × m when there are fewer samples than features, N × N
// otherwise), as the dual and primal forms use.
func (p *Problem) gram(k int) Need {
	m, n := p.X.Dims()
	if p.Bias {
		n++
	}
	if m <= n {
		return p.bySamples("the Gram systems", k)
	}
	return Need{What: "the Gram systems", Rows: n, RowsOf: "features", Cols: n, ColsOf: "features", Copies: k}
}

// bySamples is the need of k m × m matrices.
func (p *Problem) bySamples(what string, k int) Need {
	m, _ := p.X.Dims()
	return Need{What: what, Rows: m, RowsOf: "samples", Cols: m, ColsOf: "samples", Copies: k}
}
