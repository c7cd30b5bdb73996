package evaluate

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"time"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/classify"
	"sparsefs/core/dataset"
	"sparsefs/core/selection"
)

// Weights is |W| of a fit's top-ranked feature rows, in ranking order (the
// bias row is never among them: rankings index feature rows only).
type Weights struct {
	Rows []int        `json:"rows"`
	Abs  []api.Floats `json:"abs"`
}

// AbsRows returns |W| of the given rows of w.
func AbsRows(w *mat.Dense, rows []int) []api.Floats {
	_, c := w.Dims()
	out := make([]api.Floats, len(rows))
	for i, j := range rows {
		row := make(api.Floats, c)
		for q, v := range w.RawRowView(j) {
			row[q] = math.Abs(v)
		}
		out[i] = row
	}
	return out
}

// RunUnit runs unit u (0 ≤ u < Units()). progress, if not nil, receives the
// selector's progress. The unit copies its training rows and its test rows
// out of the data separately (or, on data the evaluation owns, takes them
// as two separate blocks of the data's rows in place: Own): preprocessing,
// selection, tuning and the classifiers are fitted on the training part
// alone, and only the fitted models ever see the test part.
func (e *Evaluation) RunUnit(ctx context.Context, u int, progress func(selection.Progress)) (*api.UnitResult, error) {
	return e.runUnit(runCtx{ctx: ctx, progress: progress, workers: 1, budget: e.MemoryBudget, inPlace: e.Own}, u)
}

// runUnit runs unit u; rc.workers goroutines are open to a method made of
// several fits (selection.Settings.Workers).
func (e *Evaluation) runUnit(rc runCtx, u int) (*api.UnitResult, error) {
	if u < 0 || u >= e.header.Units {
		return nil, fmt.Errorf("unit %d does not exist: the evaluation has units 0 to %d", u, e.header.Units-1)
	}
	start := time.Now()
	ns := len(e.splits)
	vi, si := u/ns, u%ns
	v := e.variants[vi]
	if m, n := e.data.X.Dims(); 8*int64(m)*int64(n) >= collectBytes {
		// The last unit's copies of the rows are garbage now: collected
		// before this unit makes its own, they are not added to the peak.
		debug.FreeOSMemory()
	}
	train, testPart, err := e.parts(rc, e.splits[si])
	if err != nil {
		return nil, err
	}
	over, cls, tuning, err := e.tune(rc, v, train, si)
	if err != nil {
		return nil, e.unitError(v, si, err)
	}
	fitted, err := e.train(rc, v, over, cls, train)
	if err != nil {
		return nil, e.unitError(v, si, err)
	}
	acc, rmse := fitted.test(testPart())
	res := &api.UnitResult{Unit: u, Variant: vi, Split: si, Params: map[string]any{}, Fits: fitted.fits,
		Selected: fitted.subsets, Accuracy: acc, RMSE: rmse, Redundancy: fitted.red, Sparsity: fitted.sparse,
		Tuning: tuning, Notes: dedupe(fitted.notes)}
	if v.spec != nil {
		_, res.Params, _ = v.resolve(over)
	}
	if res.Fits == nil {
		res.Fits = []api.Fit{}
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
	fits    []api.Fit
	models  [][]classify.Model // [classifier][K]
	// perClass holds, for each K, the per-class rankings behind it and
	// votes which classifiers are per-class votes (api.Classifier.PerClass),
	// whose models read whole rows.
	perClass [][][]int
	votes    []bool
	linear   []*classify.Linear // [K], when there are targets
	red      []float64
	sparse   []*int
	notes    []string
}

// train fits everything on the training part tr (its rows are scaled in
// place: tr's rows are the fit's own): the preprocessing, the
// selector (once, or once per K) with the parameter overrides over, and
// every classifier of cls (and least squares, with targets) on each top-K
// subset, after checking the classifiers' memory (checkClassifiers).
func (e *Evaluation) train(rc runCtx, v *variant, over map[string]any, cls []api.Classifier, tr *part) (*fitted, error) {
	if err := e.checkClassifiers(cls, tr, rc.budget); err != nil {
		return nil, err
	}
	f := &fitted{scaler: dataset.FitScaler(e.scaling, tr.x)}
	// tr's rows are this fit's own (e.parts): they are scaled in place.
	xs := tr.x
	f.scaler.TransformTo(xs, xs)
	ks := e.plan.K
	f.subsets = make([][]int, len(ks))
	f.sparse = make([]*int, len(ks))
	f.red = make([]float64, len(ks))
	f.perClass = make([][][]int, len(ks))
	switch {
	case v.spec == nil:
		feats := e.plan.Features
		for i, k := range ks {
			if k <= len(feats) {
				f.subsets[i] = feats[:k]
			}
		}
		f.red = redundancyPrefix(xs, feats, ks)
	case !v.perK:
		fit, err := e.fitSelector(rc, v, over, xs, tr, f)
		if err != nil {
			return nil, err
		}
		for i, k := range ks {
			f.subsets[i] = fit.Ranking[:k]
			f.sparse[i] = fit.NonzeroRows
			f.perClass[i] = fit.PerClass
		}
		f.red = redundancyPrefix(xs, fit.Ranking, ks)
	default:
		for i, k := range ks {
			o := map[string]any{api.KParam: float64(k)}
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
			f.perClass[i] = fit.PerClass
			f.red[i] = redundancyPrefix(xs, fit.Ranking, []int{k})[0]
		}
	}
	f.models = make([][]classify.Model, len(cls))
	f.votes = make([]bool, len(cls))
	for q, c := range cls {
		f.models[q] = make([]classify.Model, len(ks))
		f.votes[q] = c.PerClass
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
			var model classify.Model
			var err error
			if c.PerClass {
				model, err = classify.TrainVote(c, xs, tr.y, e.data.Classes, topOfEach(f.perClass[i], len(subset)))
			} else {
				model, err = classify.Train(c, xk, tr.y, e.data.Classes)
			}
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
func (e *Evaluation) fitSelector(rc runCtx, v *variant, over map[string]any, xs *mat.Dense, tr *part, f *fitted) (*api.Fit, error) {
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
	settings.Workers = rc.workers
	start := time.Now()
	res, err := sel.Fit(rc.ctx, e.trainProblem(xs, tr, rc.budget), &settings)
	if err != nil {
		return nil, err
	}
	fit := api.Fit{Ranking: res.Ranking, Scores: res.Scores, PerClass: res.PerClass, StabilitySelection: res.Stability,
		FitRecord: res.Record(time.Since(start).Seconds())}
	if e.voting() {
		_, n := xs.Dims()
		if fit.PerClass, err = perClassOf(v.info.Method, res, n, e.data.Classes); err != nil {
			return nil, err
		}
	}
	if res.W != nil && e.plan.WeightRows > 0 {
		rows := append([]int(nil), res.Ranking[:min(e.plan.WeightRows, len(res.Ranking))]...)
		fit.Weights = &api.FitWeights{Rows: rows, Abs: AbsRows(res.W, rows)}
	}
	if res.Status.Early() {
		f.notes = append(f.notes, fmt.Sprintf("%s stopped early (%s) after %d iterations", v.info.Method, res.Status, res.Iterations))
	}
	f.notes = append(f.notes, res.Notes...)
	f.fits = append(f.fits, fit)
	return &f.fits[len(f.fits)-1], nil
}

// test applies the fitted preprocessing (in place: te's rows are the
// test's own) and models to a test part: the
// accuracy of each classifier and the least-squares RMSE for each K (NaN
// where there is no subset).
func (f *fitted) test(te *part) ([]api.Floats, api.Floats) {
	// te's rows are this test's own (e.parts): they are scaled in place.
	xs := te.x
	f.scaler.TransformTo(xs, xs)
	acc := make([]api.Floats, len(f.models))
	for q := range acc {
		acc[q] = make(api.Floats, len(f.subsets))
	}
	var rmse api.Floats
	if f.linear != nil {
		rmse = make(api.Floats, len(f.subsets))
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
			if f.votes[q] {
				acc[q][i] = classify.Accuracy(f.models[q][i], xs, te.y)
			} else {
				acc[q][i] = classify.Accuracy(f.models[q][i], xk, te.y)
			}
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
