package job

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/evaluate"
	"sparsefs/core/selection"
	"sparsefs/core/stats"
)

// runSelect fits a method to the whole data (OpSelect).
func runSelect(ctx context.Context, req *api.Request, in Input, progress func(api.Progress)) (*api.Selection, error) {
	if req.Method == "" {
		return nil, errors.New("no method given; the methods are " + strings.Join(selection.Names(), ", "))
	}
	spec, err := selection.Lookup(req.Method)
	if err != nil {
		return nil, err
	}
	params, err := spec.Resolve(req.Params)
	if err != nil {
		return nil, err
	}
	// A method that selects a given number of features declares the
	// parameter k; the request's K fills it.
	takesK := spec.SelectsK
	if takesK && req.K > 0 {
		if _, given := req.Params[selection.KParam]; given && params[selection.KParam] != float64(req.K) {
			return nil, fmt.Errorf("%s: k is given twice, as k = %d and as the parameter k = %v", spec.Name, req.K, params[selection.KParam])
		}
		params[selection.KParam] = float64(req.K)
	}
	scaling, err := dataset.ParseScaling(req.Preprocess)
	if err != nil {
		return nil, err
	}
	coding, err := selection.ParseCoding(req.Coding)
	if err != nil {
		return nil, err
	}
	if (req.Halves != nil || req.Tallies != nil) && spec.Name != "stabsel" {
		return nil, fmt.Errorf("%s: halves and tallies are stability selection's (stabsel)", spec.Name)
	}
	sel, err := spec.New(params)
	if err != nil {
		return nil, err
	}
	t, err := table(ctx, req, in)
	if err != nil {
		return nil, err
	}
	ds := t.Data
	n := len(ds.Features)
	if req.K < 0 || req.K > n {
		return nil, fmt.Errorf("k = %d is out of range: the data have %d features", req.K, n)
	}
	if err := checkQ(req, spec); err != nil {
		return nil, err
	}
	if req.WeightRows < 0 {
		return nil, fmt.Errorf("weight_rows = %d is negative", req.WeightRows)
	}
	bias := req.Bias == nil || *req.Bias
	dinfo := t.Info(&req.Data)
	warnings := nonNil(ds.Warnings)
	if len(dinfo.Constant) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d constant feature(s) set to zero, e.g. %q", len(dinfo.Constant), ds.Features[dinfo.Constant[0]]))
	}
	if ds.Missing > 0 {
		warnings = append(warnings, fmt.Sprintf("%d missing value(s) imputed with the column mean", ds.Missing))
	}
	// The whole file is the training part here: the scaler is fitted on it.
	// A table read for this request alone is scaled in place (nothing reads
	// its values after this); a caller's is copied unless it is the
	// request's own.
	// Either way x is this request's alone: it is lent to the fit
	// (selection.Problem.Lend).
	scaler := dataset.FitScaler(scaling, ds.X)
	x := ds.X
	if in.Table == nil || in.Own {
		scaler.TransformTo(x, x)
	} else {
		x = scaler.Transform(x)
	}
	prob := &selection.Problem{X: x, Y: ds.Y, C: len(ds.Classes), Bias: bias, Coding: coding, Targets: ds.Targets,
		MemoryBudget: req.MemoryBudget, Lend: true}
	settings := params.Settings()
	settings.Progress = progress
	settings.PValues = true
	settings.Workers = req.Workers
	settings.Halves, settings.Tallies = req.Halves, req.Tallies
	start := time.Now()
	res, err := sel.Fit(ctx, prob, &settings)
	if err != nil {
		return nil, err
	}
	rec := res.Record(time.Since(start).Seconds())
	if res.Tally != nil {
		return &api.Selection{Method: spec.Name, Params: spec.Display(params), Preprocess: string(scaling), Bias: bias, Coding: string(coding),
			Dataset: dinfo, Features: ds.Features, Tally: res.Tally, Seconds: rec.Seconds, Warnings: warnings}, nil
	}
	if res.Status == selection.IterationLimit {
		warnings = append(warnings, fmt.Sprintf("%s stopped at its iteration limit (%d iterations) before meeting its stopping rule: the answer may be away from the optimum; raise max_iter", spec.Name, res.Iterations))
	}
	out := &api.Selection{
		Method: spec.Name, Params: spec.Display(params), Preprocess: string(scaling), Bias: bias, Coding: string(coding),
		Dataset: dinfo, Features: ds.Features, Ranking: res.Ranking, Scores: res.Scores, PerClass: res.PerClass,
		Objective: rec.Objective, Iterations: rec.Iterations, Stop: rec.Stop, Trace: rec.Trace, Certificate: res.Certificate, StabilitySelection: res.Stability, Consensus: res.Consensus,
		NonzeroRows: rec.NonzeroRows, Seconds: rec.Seconds, Warnings: append(warnings, res.Notes...),
	}
	if res.PValues != nil {
		out.PValues = res.PValues
		out.QValues = stats.BH(res.PValues)
	}
	switch {
	case req.Q > 0:
		out.Q = req.Q
		out.Selected = stats.QCut(res.Ranking, out.QValues, req.Q)
		if len(out.Selected) == 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("no feature has a q-value of at most %v", req.Q))
		}
	case req.K > 0:
		out.Selected = res.Ranking[:req.K]
	case takesK:
		out.Selected = res.Ranking[:min(int(params[selection.KParam]), len(res.Ranking))]
	}
	if res.W != nil && req.WeightRows > 0 {
		out.Weights = topWeights(res.W, res.Ranking, req.WeightRows, ds.Classes)
	}
	return out, nil
}

// topWeights returns |W| for the first k features of ranking (fewer when
// there are fewer). The bias row, if any, is never among them: rankings
// index feature rows only.
func topWeights(w *mat.Dense, ranking []int, k int, classes []string) *api.Weights {
	k = min(k, len(ranking))
	_, c := w.Dims()
	cols := classes
	if len(cols) != c {
		cols = make([]string, c)
		for j := range cols {
			cols[j] = fmt.Sprintf("w%d", j+1)
		}
	}
	rows := append([]int(nil), ranking[:k]...)
	return &api.Weights{Rows: rows, Columns: append([]string(nil), cols...), Abs: evaluate.AbsRows(w, rows)}
}
