package evaluate

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/classify"
	"sparsefs/core/dataset"
	"sparsefs/core/jsonfloat"
	selection "sparsefs/core/select"
)

// Fit is one fit of a selector inside a unit: the whole ranking and the
// model's record (objective, iterations, why it stopped, the objective after
// every iteration for the convergence plot, the sparsity level of W).
type Fit struct {
	// K is the subset size a per-K method was fitted for (0 otherwise).
	K       int              `json:"k,omitempty"`
	Ranking []int            `json:"ranking"`
	Scores  jsonfloat.Floats `json:"scores"`
	// PerClass ranks the features once per class, for the methods that
	// select per class (exl21, elasso); omitted otherwise.
	PerClass [][]int `json:"per_class,omitempty"`
	// Objective is null for filters.
	Objective  *jsonfloat.Float `json:"objective"`
	Iterations int              `json:"iterations"`
	Stop       string           `json:"stop"`
	Trace      jsonfloat.Floats `json:"trace"`
	// NonzeroRows is the sparsity level of W (METHODS.md); null for
	// filters.
	NonzeroRows *int `json:"nonzero_rows"`
	// Seconds is the wall time of the selector's fit.
	Seconds float64 `json:"seconds"`
	// Weights holds |W| of the top-ranked rows when Plan.WeightRows asks
	// for them (embedded methods only).
	Weights *Weights `json:"weights,omitempty"`
}

// Weights is |W| of a fit's top-ranked feature rows, in ranking order (the
// bias row is never among them: rankings index feature rows only).
type Weights struct {
	Rows []int              `json:"rows"`
	Abs  []jsonfloat.Floats `json:"abs"`
}

// AbsRows returns |W| of the given rows of w.
func AbsRows(w *mat.Dense, rows []int) []jsonfloat.Floats {
	_, c := w.Dims()
	out := make([]jsonfloat.Floats, len(rows))
	for i, j := range rows {
		row := make(jsonfloat.Floats, c)
		for q, v := range w.RawRowView(j) {
			row[q] = math.Abs(v)
		}
		out[i] = row
	}
	return out
}

// UnitResult is the outcome of one unit: one variant on one split. Every
// per-K array follows Header.K.
type UnitResult struct {
	Unit    int `json:"unit"`
	Variant int `json:"variant"`
	Split   int `json:"split"`
	// Params are the method's parameters as used (tuned ones at the
	// values chosen for this split).
	Params map[string]any `json:"params"`
	// Fits holds the selector's fit on the training part: one, or one
	// per K for a per-K method, none for the fixed subset.
	Fits []Fit `json:"fits"`
	// Selected lists, per K, the features the classifiers were trained
	// on (the first K of the ranking; null where K exceeds a fixed
	// subset).
	Selected [][]int `json:"selected"`
	// Accuracy is the test accuracy of each classifier (Header order)
	// for each K.
	Accuracy []jsonfloat.Floats `json:"accuracy"`
	// RMSE is the test root mean square error of least squares on the
	// selected features for each K (when the data have targets).
	RMSE jsonfloat.Floats `json:"rmse"`
	// Redundancy is RED of the selected features on the training part,
	// and Sparsity the sparsity level of the fit behind each K (null for
	// filters).
	Redundancy jsonfloat.Floats `json:"redundancy"`
	Sparsity   []*int           `json:"sparsity"`
	// Tuning records the inner cross-validation, when parameters were
	// tuned.
	Tuning *Tuning `json:"tuning,omitempty"`
	// Seconds is the wall time of the whole unit (tuning included).
	Seconds float64  `json:"seconds"`
	Notes   []string `json:"notes"`
}

// RunUnit runs unit u (0 ≤ u < Units()). progress, if not nil, receives the
// selector's progress. The unit copies its training rows and its test rows
// out of the data separately: preprocessing, selection, tuning and the
// classifiers are fitted on the training copy alone, and only the fitted
// models ever see the test copy.
func (e *Evaluation) RunUnit(ctx context.Context, u int, progress func(selection.Progress)) (*UnitResult, error) {
	if u < 0 || u >= e.header.Units {
		return nil, fmt.Errorf("unit %d does not exist: the evaluation has units 0 to %d", u, e.header.Units-1)
	}
	start := time.Now()
	ns := len(e.splits)
	vi, si := u/ns, u%ns
	v := e.variants[vi]
	rc := runCtx{ctx: ctx, progress: progress}
	train := e.data.part(e.splits[si].Train)
	over, cls, tuning, err := e.tune(rc, v, train, si)
	if err != nil {
		return nil, e.unitError(v, si, err)
	}
	fitted, err := e.train(rc, v, over, cls, train)
	if err != nil {
		return nil, e.unitError(v, si, err)
	}
	test := e.data.part(e.splits[si].Test)
	acc, rmse := fitted.test(test)
	res := &UnitResult{Unit: u, Variant: vi, Split: si, Params: map[string]any{}, Fits: fitted.fits,
		Selected: fitted.subsets, Accuracy: acc, RMSE: rmse, Redundancy: fitted.red, Sparsity: fitted.sparse,
		Tuning: tuning, Notes: dedupe(fitted.notes)}
	if v.spec != nil {
		_, res.Params, _ = v.resolve(over)
	}
	if res.Fits == nil {
		res.Fits = []Fit{}
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

func (e *Evaluation) unitError(v *variant, split int, err error) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err
	}
	return fmt.Errorf("%s on split %d: %w", v.info.Method, split+1, err)
}

// fitted is what a training part yields: the fitted preprocessing, the
// feature subsets, and the models trained on them.
type fitted struct {
	scaler  *dataset.Scaler
	subsets [][]int
	fits    []Fit
	models  [][]classify.Model // [classifier][K]
	linear  []*classify.Linear // [K], when there are targets
	red     []float64
	sparse  []*int
	notes   []string
}

// train fits everything on the training part tr: the preprocessing, the
// selector (once, or once per K) with the parameter overrides over, and
// every classifier of cls (and least squares, with targets) on each top-K
// subset.
func (e *Evaluation) train(rc runCtx, v *variant, over map[string]any, cls []classify.Config, tr *part) (*fitted, error) {
	f := &fitted{scaler: dataset.FitScaler(e.scaling, tr.x)}
	xs := f.scaler.Transform(tr.x)
	ks := e.plan.K
	f.subsets = make([][]int, len(ks))
	f.sparse = make([]*int, len(ks))
	f.red = make([]float64, len(ks))
	switch {
	case v.spec == nil:
		feats := e.plan.Features
		for i, k := range ks {
			if k <= len(feats) {
				f.subsets[i] = feats[:k]
			}
		}
		f.red = redundancyPrefix(xs, feats, ks)
	case v.kParam == "":
		fit, err := e.fitSelector(rc, v, over, xs, tr, f)
		if err != nil {
			return nil, err
		}
		for i, k := range ks {
			f.subsets[i] = fit.Ranking[:k]
			f.sparse[i] = fit.NonzeroRows
		}
		f.red = redundancyPrefix(xs, fit.Ranking, ks)
	default:
		for i, k := range ks {
			o := map[string]any{v.kParam: float64(k)}
			for name, val := range over {
				o[name] = val
			}
			fit, err := e.fitSelector(rc, v, o, xs, tr, f)
			if err != nil {
				return nil, err
			}
			f.fits[i].K = k
			f.subsets[i] = fit.Ranking[:k]
			f.sparse[i] = fit.NonzeroRows
			f.red[i] = redundancyPrefix(xs, fit.Ranking, []int{k})[0]
		}
	}
	f.models = make([][]classify.Model, len(cls))
	for q := range cls {
		f.models[q] = make([]classify.Model, len(ks))
	}
	if tr.t != nil {
		f.linear = make([]*classify.Linear, len(ks))
	}
	for i, subset := range f.subsets {
		if subset == nil {
			continue
		}
		if err := rc.ctx.Err(); err != nil {
			return nil, err
		}
		xk := columns(xs, subset)
		for q, c := range cls {
			model, err := c.Train(xk, tr.y, e.data.Classes)
			if err != nil {
				return nil, err
			}
			f.models[q][i] = model
			f.notes = append(f.notes, model.Notes()...)
		}
		if tr.t != nil {
			f.linear[i] = classify.FitLinear(xk, tr.t)
		}
	}
	return f, nil
}

// fitSelector fits the variant's selector to the preprocessed training part
// and appends the fit to f.fits.
func (e *Evaluation) fitSelector(rc runCtx, v *variant, over map[string]any, xs *mat.Dense, tr *part, f *fitted) (*Fit, error) {
	params, _, err := v.resolve(over)
	if err != nil {
		return nil, err
	}
	sel, err := v.spec.New(params)
	if err != nil {
		return nil, err
	}
	settings := params.Settings()
	settings.Progress = rc.progress
	start := time.Now()
	res, err := sel.Fit(rc.ctx, e.trainProblem(xs, tr), &settings)
	if err != nil {
		return nil, err
	}
	fit := Fit{Ranking: res.Ranking, Scores: res.Scores, PerClass: res.PerClass, Iterations: res.Iterations, Stop: res.Status.String(),
		Trace: res.Trace, Seconds: time.Since(start).Seconds()}
	if fit.Trace == nil {
		fit.Trace = jsonfloat.Floats{}
	}
	if !math.IsNaN(res.Objective) {
		obj := jsonfloat.Float(res.Objective)
		fit.Objective = &obj
	}
	if res.W != nil {
		nz := selection.NonzeroRows(res.Scores, selection.SparsityTol)
		fit.NonzeroRows = &nz
		if e.plan.WeightRows > 0 {
			rows := append([]int(nil), res.Ranking[:min(e.plan.WeightRows, len(res.Ranking))]...)
			fit.Weights = &Weights{Rows: rows, Abs: AbsRows(res.W, rows)}
		}
	}
	if res.Status.Early() {
		f.notes = append(f.notes, fmt.Sprintf("%s stopped early (%s) after %d iterations", v.info.Method, res.Status, res.Iterations))
	}
	f.notes = append(f.notes, res.Notes...)
	f.fits = append(f.fits, fit)
	return &f.fits[len(f.fits)-1], nil
}

// test applies the fitted preprocessing and models to a test part: the
// accuracy of each classifier and the least-squares RMSE for each K (NaN
// where there is no subset).
func (f *fitted) test(te *part) ([]jsonfloat.Floats, jsonfloat.Floats) {
	xs := f.scaler.Transform(te.x)
	acc := make([]jsonfloat.Floats, len(f.models))
	for q := range acc {
		acc[q] = make(jsonfloat.Floats, len(f.subsets))
	}
	var rmse jsonfloat.Floats
	if f.linear != nil {
		rmse = make(jsonfloat.Floats, len(f.subsets))
	}
	for i, subset := range f.subsets {
		if subset == nil {
			for q := range acc {
				acc[q][i] = math.NaN()
			}
			if rmse != nil {
				rmse[i] = math.NaN()
			}
			continue
		}
		xk := columns(xs, subset)
		for q := range acc {
			acc[q][i] = classify.Accuracy(f.models[q][i], xk, te.y)
		}
		if rmse != nil {
			rmse[i] = classify.RMSE(f.linear[i].Predict(xk), te.t)
		}
	}
	return acc, rmse
}

func dedupe(s []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
