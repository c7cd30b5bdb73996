package selection

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// Problem is what a selector is fitted to.
type Problem struct {
	// X is m×n: samples in rows, preprocessed features in columns, without
	// a bias column.
	X *mat.Dense
	// Y holds the class of each sample, 0 ≤ Y[i] < C.
	Y []int
	// C is the number of classes (at least 2).
	C int
	// Bias appends a constant-1 column to X in the embedded models.
	Bias bool
	// Coding, if set, overrides the label coding a regression-based method
	// uses by default (docs/methods.md#coding: the user can override it).
	Coding Coding
	// Targets, if set, are m×t real-valued targets used by the
	// regression-based methods in place of the coded labels
	// (docs/methods.md#regression). Y and C may then be empty; filters,
	// which need classes, refuse such a problem.
	Targets *mat.Dense
	// MemoryBudget bounds the bytes of the matrices a fit allocates,
	// checked (CheckMemory) before it allocates them: 0 means
	// DefaultMemoryBudget, a negative value no bound.
	MemoryBudget int64
	// Lend lets the fit use X's memory as its own while it runs: X's
	// values, and its backing array past them up to its capacity (which
	// must then hold nothing anyone reads). The IRLS family transposes
	// the design there instead of into a copy (irls_lend.go). X holds its
	// values again, bit for bit, when Fit returns; nothing may read X
	// while the fit runs.
	Lend bool
}

// Coding names a label coding of docs/methods.md#coding.
type Coding string

const (
	// OneHot is Y01: 1 in the sample's class column, 0 elsewhere.
	OneHot Coding = api.OneHot
	// PlusMinus is Ypm: 1 in the sample's class column, −1 elsewhere.
	PlusMinus Coding = api.PlusMinus
)

// ParseCoding accepts "y01", "ypm" or "" (the method's default).
func ParseCoding(s string) (Coding, error) {
	c, err := plan.Coding(s)
	return Coding(c), err
}

// Response returns the m×c right-hand side of a regression-based model:
// the Targets when set, otherwise the labels coded with p.Coding, or with
// def when p.Coding is empty.
func (p *Problem) Response(def Coding) *mat.Dense {
	if p.Targets != nil {
		return p.Targets
	}
	c := p.Coding
	if c == "" {
		c = def
	}
	if c == PlusMinus {
		return p.PlusMinus()
	}
	return p.OneHot()
}

// ValidateTargets checks p for a regression-based method: real-valued
// targets, or class labels as Validate requires.
func (p *Problem) ValidateTargets() error {
	if p.Targets == nil {
		return p.Validate()
	}
	if err := p.validateX(); err != nil {
		return err
	}
	m, _ := p.X.Dims()
	if r, _ := p.Targets.Dims(); r != m {
		return fmt.Errorf("%d target rows for %d samples", r, m)
	}
	return nil
}

func (p *Problem) validateX() error {
	if p.X == nil {
		return errors.New("no data")
	}
	m, n := p.X.Dims()
	if m == 0 || n == 0 {
		return errors.New("the data have no samples or no features")
	}
	return nil
}

// Validate checks the shapes and class labels of p (as a filter needs them).
func (p *Problem) Validate() error {
	if err := p.validateX(); err != nil {
		return err
	}
	m, _ := p.X.Dims()
	if p.Y == nil && p.Targets != nil {
		return errors.New("this method needs class labels, not real-valued targets")
	}
	if len(p.Y) != m {
		return fmt.Errorf("%d labels for %d samples", len(p.Y), m)
	}
	if p.C < 2 {
		return fmt.Errorf("selection needs at least two classes, got %d", p.C)
	}
	seen := make([]bool, p.C)
	present := 0
	for i, y := range p.Y {
		if y < 0 || y >= p.C {
			return fmt.Errorf("sample %d has class index %d outside 0…%d", i, y, p.C-1)
		}
		if !seen[y] {
			seen[y] = true
			present++
		}
	}
	if present < 2 {
		return errors.New("all samples belong to one class; selection needs at least two")
	}
	return p.CheckMemory("the method", p.classNeeds()...)
}

// Selector is a fitted-on-demand feature selection method. Its parameters
// are the fields of the value that implements it.
type Selector interface {
	// Fit fits the method to p. Iterative methods run through Iterate with
	// s; filters ignore s except for s.Progress. A cancelled ctx makes Fit
	// return ctx.Err() promptly.
	Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error)
}

// Result is what a selector returns.
type Result struct {
	// Scores has one score per feature (n), larger is better.
	Scores []float64
	// Ranking lists the n features (0-based columns of X) best first.
	Ranking []int
	// W is the weight matrix of an embedded model: n×c, or (n+1)×c with
	// the bias row last. Nil for filters.
	W *mat.Dense
	// Objective is the exact objective of the method's model at W; NaN
	// for filters.
	Objective float64
	// Iterations is the number of iterations performed.
	Iterations int
	// Status says why the method stopped.
	Status Status
	// Trace holds the objective after each iteration (empty for filters).
	Trace []float64
	// Notes are remarks the method wants the user to see.
	Notes []string
	// PerClass, if set, ranks the features once per class (column of W),
	// best first, by |W_jk| descending with ties by lower index: the
	// per-class selection of the exclusive methods (exl21, elasso). Empty
	// for the other methods.
	PerClass [][]int
	// PValues, for the filters that are hypothesis tests (ttest, fstat)
	// when Settings.PValues asked for them and for consensus, holds one
	// p-value per feature (NaN where no test could be made); nil for the
	// other methods (docs/methods.md#pvalues).
	PValues []float64
	// Stability is what stability selection adds (stabsel only).
	Stability *api.StabilitySelection
	// Tally is a share of stabsel's half-sample fits (Settings.Halves).
	Tally *api.StabilityTally
	// Consensus holds the rankings a consensus aggregated (consensus
	// only).
	Consensus *api.Consensus
	// Certificate, if set, bounds the distance of Objective from the
	// model's optimum: gsr/mtfs with p = 1 and r > 1, the accelerated
	// solver converged and its Newton polish certified a relative gap of
	// at most 10⁻⁶ (see irls.polish); nil otherwise.
	Certificate *Certificate
}

// Record is the fit's record in the job format, its wall time given: the
// objective (null for a filter), iterations, stop reason, trace and the
// sparsity level of W (null without W).
func (r *Result) Record(seconds float64) api.FitRecord {
	rec := api.FitRecord{Iterations: r.Iterations, Stop: r.Status.String(), Trace: r.Trace, Seconds: seconds}
	if rec.Trace == nil {
		rec.Trace = api.Floats{}
	}
	if !math.IsNaN(r.Objective) {
		f := api.Float(r.Objective)
		rec.Objective = &f
	}
	if r.W != nil {
		nz := NonzeroRows(r.Scores, SparsityTol)
		rec.NonzeroRows = &nz
	}
	return rec
}

// FilterResult returns the Result of a filter from its scores.
func FilterResult(scores []float64) *Result {
	return &Result{
		Scores:    scores,
		Ranking:   RankByScore(scores),
		Objective: math.NaN(),
		Status:    ClosedForm,
		Trace:     []float64{},
	}
}

// RankByScore returns the indices of scores sorted by score descending, ties
// by lower index. NaN scores (which selectors should never produce) come
// last.
func RankByScore(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) float64 {
		if math.IsNaN(scores[i]) {
			return math.Inf(-1)
		}
		return scores[i]
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) > key(idx[b]) })
	return idx
}

// RowNorms returns the Euclidean norm of each of the first n rows of w.
func RowNorms(w *mat.Dense, n int) []float64 {
	out := make([]float64, n)
	for j := range out {
		s := 0.0
		for _, v := range w.RawRowView(j) {
			s += v * v
		}
		out[j] = math.Sqrt(s)
	}
	return out
}

// SparsityTol is the default relative tolerance of NonzeroRows
// (docs/methods.md#sparsity).
const SparsityTol = 1e-6

// NonzeroRows counts the norms above tol times the largest one (the sparsity
// level of docs/methods.md#sparsity). All-zero norms count as zero rows.
func NonzeroRows(norms []float64, tol float64) int {
	max := 0.0
	for _, v := range norms {
		max = math.Max(max, v)
	}
	k := 0
	for _, v := range norms {
		if max > 0 && v > tol*max {
			k++
		}
	}
	return k
}

// EmbeddedResult completes a Result for an embedded model whose weight
// matrix w has the n feature rows first: the scores are the feature row
// norms.
func EmbeddedResult(w *mat.Dense, n int, run Run) *Result {
	scores := RowNorms(w, n)
	return &Result{
		Scores:     scores,
		Ranking:    RankByScore(scores),
		W:          w,
		Objective:  run.Objective,
		Iterations: run.Iterations,
		Status:     run.Status,
		Trace:      run.Trace,
	}
}

// Design returns X with a constant-1 column appended when p.Bias is set,
// and X itself otherwise.
func (p *Problem) Design() *mat.Dense {
	if !p.Bias {
		return p.X
	}
	m, n := p.X.Dims()
	a := mat.NewDense(m, n+1, nil)
	for i := 0; i < m; i++ {
		row := a.RawRowView(i)
		copy(row, p.X.RawRowView(i))
		row[n] = 1
	}
	return a
}

// OneHot returns the m×c indicator matrix Y01 of docs/methods.md#coding.
func (p *Problem) OneHot() *mat.Dense {
	y := mat.NewDense(len(p.Y), p.C, nil)
	for i, k := range p.Y {
		y.Set(i, k, 1)
	}
	return y
}

// PlusMinus returns the m×c one-vs-rest ±1 matrix Ypm of
// docs/methods.md#coding.
func (p *Problem) PlusMinus() *mat.Dense {
	y := mat.NewDense(len(p.Y), p.C, nil)
	for i, k := range p.Y {
		row := y.RawRowView(i)
		for j := range row {
			row[j] = -1
		}
		row[k] = 1
	}
	return y
}
