package main

import (
	"context"
	"encoding/json"
	"time"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
)

// The warm-up's slice of the data and its time budget per prepare job.
//
// V8 first runs a wasm function in its baseline tier and compiles it with
// its optimising tier (on background threads) once the function has run
// enough (dynamic tiering). On a first visit (nothing in Chromium's code
// cache) the rfs-nie-2010 Table 1 run on GLIOMA with two workers spent
// 1.0–1.5 s of background compilation during the run itself (180–190
// functions; e2e/bench/trace-table1.mjs), taken from the workers on two cores.
// Running each selector of the configuration once on a slice of the data
// while the user configures makes V8 compile much of that code
// beforehand. The slice must be large enough for the hot functions to
// exhaust V8's tiering budget — on 24 samples × 60 features the selectors
// ran for 1–2 ms each and the run still compiled 1.35 s — and small enough
// to be cheap: with 40 × 400 the run compiles 0.4–0.7 s (about 140
// functions, of which 60–70 are the page's own module, which this does not
// touch), about what 40 × 1000 or the whole data left.
const (
	warmRows   = 40
	warmCols   = 400
	warmBudget = 200 * time.Millisecond
)

// warmSlice returns a small table cut from ds for the warm-up: up to
// warmRows samples taken in turn from each class (so that every class is
// there for a stratified split) and up to warmCols features spread evenly
// over the columns. The values are copied: nothing of ds is shared.
func warmSlice(ds *dataset.Dataset) *dataset.Dataset {
	m, n := ds.X.Dims()
	var rows []int
	if len(ds.Classes) > 0 {
		byClass := make([][]int, len(ds.Classes))
		for i, y := range ds.Y {
			byClass[y] = append(byClass[y], i)
		}
		for r := 0; len(rows) < min(warmRows, m); r++ {
			for _, c := range byClass {
				if r < len(c) && len(rows) < warmRows {
					rows = append(rows, c[r])
				}
			}
		}
	} else {
		for i := 0; i < min(warmRows, m); i++ {
			rows = append(rows, i)
		}
	}
	nc := min(warmCols, n)
	out := &dataset.Dataset{X: mat.NewDense(len(rows), nc, nil), Features: make([]string, nc),
		Label: ds.Label, Classes: ds.Classes, TargetNames: ds.TargetNames}
	cols := make([]int, nc)
	for j := range cols {
		cols[j] = j * n / nc
		out.Features[j] = ds.Features[cols[j]]
	}
	if ds.Targets != nil {
		_, t := ds.Targets.Dims()
		out.Targets = mat.NewDense(len(rows), t, nil)
	}
	for i, r := range rows {
		for j, c := range cols {
			out.X.Set(i, j, ds.X.At(r, c))
		}
		if ds.Y != nil {
			out.Y = append(out.Y, ds.Y[r])
		}
		if out.Targets != nil {
			out.Targets.SetRow(i, ds.Targets.RawRowView(r))
		}
	}
	return out
}

// warmPlan is the plan a warm-up runs for variant v of plan on a slice n
// features wide: v alone (a sweep's first value), the plan's classifiers
// and settings, its K list cut to n, 2-fold cross-validation, no tuning
// and no fixed subset.
func warmPlan(plan *api.Plan, v api.Variant, n int) *api.Plan {
	p := *plan
	wv := api.Variant{Method: v.Method, Params: map[string]any{}}
	for name, val := range v.Params {
		if list, ok := val.([]any); ok && len(list) > 0 {
			val = list[0]
		}
		if k, ok := val.(float64); ok && name == api.KParam {
			val = min(k, float64(n))
		}
		wv.Params[name] = val
	}
	p.Methods = []api.Variant{wv}
	p.K = nil
	for _, k := range plan.K {
		if k = min(k, n); len(p.K) == 0 || p.K[len(p.K)-1] < k {
			p.K = append(p.K, k)
		}
	}
	p.Features, p.Tune, p.InnerFolds = nil, nil, 0
	p.WeightRows = min(p.WeightRows, n)
	p.Protocol = api.Protocol{Kind: api.CV, Folds: 2}
	return &p
}

// warmUp runs what a run of the prepared plan spends its time in on a
// slice of the table (warmSlice), so that V8 compiles that code with its
// optimising tier before the run: for each variant not warmed up before by
// this worker, a unit kept in a session (the fit, the classifiers, the
// part's JSON and digest); once, the way of the parts — a unit as another
// worker sends it, a collect, a light merge and the report's JSON. The
// jobs run in a scratch worker that shares nothing with this one but the
// code, and their results are thrown away. The warm-up stops when ctx is
// done (a job arrived: see start) or its budget is spent (budget): a step
// stops at the next iteration of its fit once the budget is spent. It
// reports whether it ran anything.
func (w *worker) warmUp(ctx context.Context, p *api.Prepare, t *job.Table) (ran bool) {
	if p.Eval == nil || len(p.Eval.Methods) == 0 {
		return false
	}
	ctx = budget{ctx, w.now().Add(warmBudget), w.now}
	small := warmSlice(t.Data)
	_, n := small.X.Dims()
	var last *api.FromWorker
	scratch := newWorker(func(m *api.FromWorker) { last = m }, w.yield)
	scratch.exec = w.exec
	const data = 1
	read := make(chan struct{})
	close(read) // the slice is read already
	scratch.data[data] = &stored{name: p.Data.Name, ready: read, readings: []reading{{keyOf(&p.Data), job.NewTable(small)}}}
	step := func(id int, task api.Task) bool {
		if ctx.Err() != nil {
			return false
		}
		last, ran = nil, true
		scratch.run(ctx, &api.Job{ID: id, Data: data, Task: task})
		if w.yield != nil {
			w.yield()
		}
		return last != nil && last.Result != nil
	}
	for i, v := range p.Eval.Methods {
		if ctx.Err() != nil {
			break
		}
		key, _ := json.Marshal([]any{v.Method, p.Eval.Classifiers, p.Eval.Preprocess})
		if w.warmed[string(key)] {
			continue
		}
		plan := warmPlan(p.Eval, v, n)
		session := 2 + i
		unit := func(u int) *api.Request {
			return &api.Request{Op: api.OpEval, Data: p.Data, Eval: plan, Units: []int{u}}
		}
		if !step(2*i+1, api.Task{Run: unit(0), Session: session}) {
			continue // stopped, or the method refuses the slice
		}
		w.warmed[string(key)] = true
		if w.warmed["parts"] {
			continue
		}
		// The parts' way: unit 1 as another worker computes it, then
		// collected beside unit 0 (kept above), merged, written.
		if !step(2*i+2, api.Task{Run: unit(1)}) {
			continue
		}
		raw := last.Result.Response
		var part api.EvalPart
		if json.Unmarshal(raw, &part) != nil {
			continue
		}
		digest, err := unitDigest(&part)
		if err != nil {
			continue
		}
		if !step(-1, api.Task{Collect: &api.Collect{Session: session, Digest: digest, Part: raw}}) ||
			!step(-2, api.Task{Merge: &api.Merge{Session: session, Expect: 2, Light: true}}) ||
			!step(-3, api.Task{WriteReport: &api.WriteReport{Session: session}}) {
			continue
		}
		w.warmed["parts"] = true
	}
	return ran
}

// budget is a context that is also done once its end has passed, checked
// on every call of Err. A deadline's timer (context.WithDeadline) cannot
// fire while a fit computes — a Go wasm program has one thread and a busy
// goroutine is not preempted — but the fits and the evaluation ask Err at
// every iteration, so a warm-up step with a slow method (a large max_iter,
// the e2e test double's busy iterations) stops at the budget instead of
// holding the worker for its whole fit.
// Its clock is the worker's (worker.now).
type budget struct {
	context.Context
	end time.Time
	now func() time.Time
}

func (b budget) Err() error {
	if err := b.Context.Err(); err != nil {
		return err
	}
	if b.now().After(b.end) {
		return context.DeadlineExceeded
	}
	return nil
}
