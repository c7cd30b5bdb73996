package evaluate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/plan"
	"sparsefs/core/selection"
)

// Data are the samples an evaluation splits: raw features (a missing value
// is NaN, imputed with the training part's mean), and class labels and/or
// real-valued targets.
type Data struct {
	X *mat.Dense
	// Y holds each sample's class in 0…Classes−1; nil without a label.
	Y       []int
	Classes int
	// Targets is m×t, or nil.
	Targets *mat.Dense
}

// Shape returns the shape a plan is normalised against.
func (d *Data) Shape() api.Shape {
	m, n := d.X.Dims()
	sh := api.Shape{Samples: m, Features: n}
	if d.Y != nil {
		sh.Classes = d.Classes
	}
	if d.Targets != nil {
		_, sh.Targets = d.Targets.Dims()
	}
	return sh
}

// part is a subset of the samples, copied out of the data: a unit hands
// the selector, the scaler and the classifiers the training part alone.
type part struct {
	x *mat.Dense
	y []int
	t *mat.Dense
}

func (d *Data) part(idx []int) *part {
	return (&part{x: d.X, y: d.Y, t: d.Targets}).rows(idx)
}

// rows copies the given rows of p, into an array with room for one more
// column: a fit lent the part (trainProblem) transposes it in place with
// its bias row.
func (p *part) rows(idx []int) *part {
	_, n := p.x.Dims()
	out := p.gather(idx)
	k := max(len(idx), 1)
	out.x = mat.NewDense(k, n, make([]float64, k*n, k*(n+1)))
	if len(idx) == 0 {
		out.x = &mat.Dense{}
	}
	for r, i := range idx {
		copy(out.x.RawRowView(r), p.x.RawRowView(i))
	}
	return out
}

// gather returns the labels and targets of the given rows of p, copied,
// in a part without x.
func (p *part) gather(idx []int) *part {
	out := &part{}
	if p.y != nil {
		out.y = make([]int, len(idx))
		for r, i := range idx {
			out.y[r] = p.y[i]
		}
	}
	if p.t != nil && len(idx) > 0 {
		_, t := p.t.Dims()
		out.t = mat.NewDense(len(idx), t, nil)
		for r, i := range idx {
			copy(out.t.RawRowView(r), p.t.RawRowView(i))
		}
	}
	return out
}

// variant is one row of results: a method with one setting of its
// parameters, or the fixed subset. A method that selects exactly K
// features (perK) is refitted for every K of the list with its parameter
// api.KParam set to K; any other method's ranking is cut at each K.
type variant struct {
	info   api.VariantInfo
	spec   *selection.Spec // nil for the fixed subset
	params map[string]any
	perK   bool
	grids  []api.Grid // the selector grids this method takes
}

// Evaluation is a plan bound to its data, ready to run unit by unit.
type Evaluation struct {
	plan     api.Plan
	data     *Data
	variants []*variant
	splits   []Split
	header   api.Header
	scaling  dataset.Scaling
	coding   selection.Coding
	notes    []string
	// MemoryBudget bounds what a fit may allocate
	// (selection.Problem.MemoryBudget).
	MemoryBudget int64
	// Own says the data are the evaluation's alone, read by nothing
	// after it: a run of one unit then takes its training and test
	// parts out of the data in place (Data.partsInPlace) instead of
	// copying them, and the data can serve no other unit (spent).
	Own   bool
	spent atomic.Bool
}

// New normalises a copy of pl against data (plan.Normalize, with the
// registered methods) and prepares the splits.
func New(pl api.Plan, data *Data) (*Evaluation, error) {
	p, err := plan.Clone(&pl)
	if err != nil {
		return nil, err
	}
	if data == nil || data.X == nil {
		return nil, errors.New("no data")
	}
	m, _ := data.X.Dims()
	if data.Y != nil && len(data.Y) != m {
		return nil, fmt.Errorf("%d labels for %d samples", len(data.Y), m)
	}
	if data.Targets != nil {
		if r, _ := data.Targets.Dims(); r != m {
			return nil, fmt.Errorf("%d target rows for %d samples", r, m)
		}
	}
	notes, err := plan.Normalize(p, data.Shape(), selection.Catalog())
	if err != nil {
		return nil, err
	}
	e := &Evaluation{plan: *p, data: data, notes: notes}
	e.scaling, _ = dataset.ParseScaling(p.Preprocess)
	e.coding = selection.Coding(p.Coding)
	for _, v := range p.Methods {
		spec, err := selection.Lookup(v.Method)
		if err != nil {
			return nil, err
		}
		ev := &variant{spec: spec, params: v.Params, perK: spec.SelectsK,
			info: api.VariantInfo{Method: spec.Name, Kind: string(spec.Kind), Params: v.Params, Tuned: []string{}}}
		ev.info.PerK = ev.perK
		info := spec.Info()
		for _, g := range p.Tune {
			if cls, _ := plan.SplitGridParam(g.Param); cls == "" && plan.Tunable(&info, g.Param) {
				ev.grids = append(ev.grids, g)
				ev.info.Tuned = append(ev.info.Tuned, g.Param)
			}
		}
		e.variants = append(e.variants, ev)
	}
	if len(p.Features) > 0 {
		e.variants = append(e.variants, &variant{params: map[string]any{},
			info: api.VariantInfo{Method: api.FixedMethod, Kind: api.FixedKind, Params: map[string]any{"features": p.Features}, Tuned: []string{}}})
	}
	for _, g := range p.Tune {
		if cls, _ := plan.SplitGridParam(g.Param); cls != "" {
			for _, v := range e.variants {
				v.info.Tuned = append(v.info.Tuned, g.Param)
			}
		}
	}
	var y []int
	if data.Y != nil {
		y = data.Y
	}
	e.splits = makeSplits(p.Protocol, y, data.Classes, m, p.Seed)
	if note := smallClassNote(p.Protocol, y, data.Classes); note != "" {
		e.notes = append(e.notes, note)
	}
	_, n := data.X.Dims()
	h := api.Header{K: p.K, Classifiers: []string{}, Targets: data.Targets != nil, Features: n, Variants: make([]api.VariantInfo, len(e.variants)), Units: len(e.variants) * len(e.splits)}
	for _, c := range p.Classifiers {
		h.Classifiers = append(h.Classifiers, plan.ClassifierLabel(c))
	}
	for i, s := range e.splits {
		if len(s.Train) == 0 || len(s.Test) == 0 {
			return nil, fmt.Errorf("split %d has an empty training or test part", i+1)
		}
		h.Splits = append(h.Splits, api.SplitInfo{Train: len(s.Train), Test: s.Test})
	}
	for i, v := range e.variants {
		h.Variants[i] = v.info
	}
	e.header = h
	return e, nil
}

// smallClassNote says when a class has fewer samples than a
// cross-validation has folds: some folds test none of it, and their
// accuracy says nothing about that class.
func smallClassNote(pr api.Protocol, y []int, classes int) string {
	if pr.Kind != api.CV || y == nil {
		return ""
	}
	counts := make([]int, classes)
	for _, c := range y {
		counts[c]++
	}
	smallest := slices.Min(counts)
	if smallest >= pr.Folds {
		return ""
	}
	return fmt.Sprintf("the smallest class has %d sample(s), fewer than the %d folds: some folds test none of it", smallest, pr.Folds)
}

// Plan returns the normalised plan.
func (e *Evaluation) Plan() api.Plan { return e.plan }

// Header returns what the units share.
func (e *Evaluation) Header() *api.Header { return &e.header }

// Notes are what normalising the plan had to tell (values of K left
// out).
func (e *Evaluation) Notes() []string { return e.notes }

// Units returns the number of units.
func (e *Evaluation) Units() int { return e.header.Units }

// resolve returns the full parameter set of a variant with overrides
// (tuned values, K), checked by the method's Spec.
func (v *variant) resolve(over map[string]any) (selection.Params, map[string]any, error) {
	user := make(map[string]any, len(v.params)+len(over))
	for k, x := range v.params {
		user[k] = x
	}
	for k, x := range over {
		user[k] = x
	}
	params, err := v.spec.Resolve(user)
	if err != nil {
		return nil, nil, err
	}
	display := v.spec.Display(params)
	if v.perK {
		delete(display, api.KParam)
	}
	return params, display, nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// classifierConfigs returns the plan's classifiers with tuned values.
func (e *Evaluation) classifierConfigs(chosen map[string]any) []api.Classifier {
	out := make([]api.Classifier, len(e.plan.Classifiers))
	for i, c := range e.plan.Classifiers {
		if v, ok := chosen[c.Name+".C"]; ok {
			c.C = v.(float64)
		}
		if v, ok := chosen[c.Name+".neighbors"]; ok {
			c.Neighbors = int(v.(float64))
		}
		out[i] = c
	}
	return out
}

// trainProblem is the selection problem of a (preprocessed) training part,
// with the memory budget given. The part is lent to the fit
// (selection.Problem.Lend): its rows are the unit's own, fitted one
// selector at a time, and the array past them is free (part.rows,
// partsInPlace).
func (e *Evaluation) trainProblem(xs *mat.Dense, tr *part, budget int64) *selection.Problem {
	return &selection.Problem{X: xs, Y: tr.y, C: e.data.Classes, Bias: *e.plan.Bias, Coding: e.coding, Targets: tr.t, MemoryBudget: budget, Lend: true}
}

// runCtx carries a unit's context, progress hook and share of the
// workers.
type runCtx struct {
	ctx      context.Context
	progress func(selection.Progress)
	// workers is how many goroutines each of the unit's fits may use.
	workers int
	// budget is the memory budget of the unit's fits and classifiers:
	// Evaluation.MemoryBudget, shared by the units run side by side.
	budget int64
	// inPlace: the unit is the run's only one, on data the evaluation
	// owns (Evaluation.Own).
	inPlace bool
}
