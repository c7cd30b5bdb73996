package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
)

// wideTable is a CSV of 45 samples of 3 classes (15 each, in turn) and
// 700 features, the first ten shifted by the class.
func wideTable() []byte {
	var b strings.Builder
	for j := 0; j < 700; j++ {
		fmt.Fprintf(&b, "g%d,", j)
	}
	b.WriteString("label\n")
	for i := 0; i < 45; i++ {
		for j := 0; j < 700; j++ {
			v := math.Sin(float64(7*i+13*j) * 0.37)
			if j < 10 {
				v += float64(i % 3)
			}
			fmt.Fprintf(&b, "%.4f,", v)
		}
		fmt.Fprintf(&b, "c%d\n", i%3)
	}
	return []byte(b.String())
}

// warmEval is the evaluation the warm-up tests configure: two filters and
// an embedded method, K beyond the slice's width, mRMR's k too.
const warmEval = `"eval":{"methods":[{"method":"fstat"},{"method":"mrmr","params":{"k":500}},{"method":"rfs","params":{"gamma":[0.5,2]}}],` +
	`"k":[5,500],"classifiers":[{"name":"svm"},{"name":"knn","neighbors":3}],"protocol":{"kind":"cv","folds":3},"seed":4}`

// withoutSeconds is a part's JSON with its units' and fits' timings set
// to zero (the only values that differ between two runs).
func withoutSeconds(t *testing.T, s []byte) string {
	t.Helper()
	var p api.EvalPart
	if err := json.Unmarshal(s, &p); err != nil {
		t.Fatal(err)
	}
	for _, u := range p.Units {
		u.Seconds = 0
		for k := range u.Fits {
			u.Fits[k].Seconds = 0
		}
	}
	b, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A warm-up with the configuration's plan runs every method and the way
// of the parts once, in a scratch worker: the worker keeps no session, no
// report and no other reading of the data, and the units of the run after
// it are those of a worker that never warmed up, byte for byte but the
// timings.
func TestWarmUpLeavesNoTrace(t *testing.T) {
	csv := wideTable()
	rw, rc := newRecorder(), newRecorder()
	warm, cold := newWorker(rw.post, nil), newWorker(rc.post, nil)
	// A clock that stands still: the warm-up's budget never runs out, on
	// however slow or loaded a machine.
	t0 := time.Now()
	warm.now = func() time.Time { return t0 }
	warm.load(&api.Load{Data: 1, Name: "wide.csv", Bytes: csv})
	cold.load(&api.Load{Data: 1, Name: "wide.csv", Bytes: csv})
	if m := runTask(t, warm, rw, 1, 1, prepareTask(t)); m.Result == nil || string(m.Result.Response) != "{}" {
		t.Fatalf("prepare: %+v", m)
	}
	if len(warm.warmed) != 4 || !warm.warmed["parts"] || warm.warmedData == nil {
		t.Errorf("warmed up: %v (data %v); want the three methods and the parts", warm.warmed, warm.warmedData != nil)
	}
	if len(warm.sessions) != 0 || len(warm.reports) != 0 || warm.reads != 1 || len(warm.data) != 1 || len(warm.data[1].readings) != 1 {
		t.Errorf("the warm-up left sessions %v, reports %v, %d reads, data %v", warm.sessions, warm.reports, warm.reads, warm.data)
	}
	for u := 0; u < 12; u++ {
		req := fmt.Sprintf(`{"op":"eval","data":{"name":"wide.csv"},%s,"units":[%d]}`, warmEval, u)
		a := runJob(t, warm, rw, 10+u, req, 1)
		b := runJob(t, cold, rc, 10+u, req, 1)
		if a.Result == nil || b.Result == nil {
			t.Fatalf("unit %d: %+v / %+v", u, a, b)
		}
		if x, y := withoutSeconds(t, a.Result.Response), withoutSeconds(t, b.Result.Response); x != y {
			t.Errorf("unit %d after a warm-up:\n%s\nwithout:\n%s", u, x, y)
		}
	}
	// A second prepare with the same methods warms nothing up again.
	calls := 0
	warm.exec = func(ctx context.Context, req *api.Request, in job.Input, p func(api.Progress)) (*api.Response, error) {
		calls++
		return job.Run(ctx, req, in, p)
	}
	runTask(t, warm, rw, 30, 1, prepareTask(t))
	if calls != 0 {
		t.Errorf("a second prepare ran %d jobs", calls)
	}
}

// A job that arrives while a worker warms up stops the warm-up: the step
// under way is cancelled (not ended by the budget), the prepare answers
// and the job runs.
func TestWarmUpStopsForAJob(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.load(&api.Load{Data: 1, Name: "wide.csv", Bytes: wideTable()})
	blocked := make(chan bool, 1)
	var stopped error
	w.exec = func(ctx context.Context, req *api.Request, in job.Input, p func(api.Progress)) (*api.Response, error) {
		if in.Table != nil && in.Table.Data.Rows() == warmRows {
			blocked <- true
			<-ctx.Done() // a long step of the warm-up
			stopped = context.Cause(ctx)
			return nil, ctx.Err()
		}
		return job.Run(ctx, req, in, p)
	}
	send(t, w, &api.ToWorker{Job: &api.Job{ID: 1, Data: 1, Task: prepareTask(t)}})
	<-blocked
	send(t, w, &api.ToWorker{Job: &api.Job{ID: 2, Task: api.Task{Run: &api.Request{Op: api.OpMethods}}}})
	if m := r.wait(t); m.Result == nil || m.Result.ID != 1 {
		t.Fatalf("prepare: %+v", m)
	}
	if m := r.wait(t); m.Result == nil || m.Result.ID != 2 {
		t.Fatalf("the job after the warm-up: %+v", m)
	}
	if !errors.Is(stopped, context.Canceled) {
		t.Errorf("the warm-up's step ended with %v, not cancelled by the job", stopped)
	}
	if len(w.warmed) != 0 || w.warmedData != nil || w.warming != nil {
		t.Errorf("a stopped warm-up counts as done: %v, %v", w.warmed, w.warmedData != nil)
	}
}

// A warm-up step whose fit computes for long (a large max_iter; in wasm a
// busy goroutine is not preempted, so no message can stop it) ends at the
// budget: the fits ask ctx.Err at every iteration.
func TestWarmUpStopsAtItsBudget(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.load(&api.Load{Data: 1, Name: "wide.csv", Bytes: wideTable()})
	var stopped error
	w.exec = func(ctx context.Context, req *api.Request, in job.Input, p func(api.Progress)) (*api.Response, error) {
		if in.Table != nil && in.Table.Data.Rows() == warmRows {
			// A fit's loop: compute, ask ctx.Err, never block.
			for {
				if stopped = ctx.Err(); stopped != nil {
					return nil, stopped
				}
			}
		}
		return job.Run(ctx, req, in, p)
	}
	if m := runTask(t, w, r, 1, 1, prepareTask(t)); m.Result == nil {
		t.Fatalf("prepare: %+v", m)
	}
	if !errors.Is(stopped, context.DeadlineExceeded) {
		t.Errorf("the step ended with %v, not at the budget", stopped)
	}
}

// prepareTask is the Prepare of the warm-up tests' evaluation.
func prepareTask(t *testing.T) api.Task {
	t.Helper()
	req := request(t, `{"data":{"name":"wide.csv"},`+warmEval+`}`)
	return api.Task{Prepare: &api.Prepare{Data: req.Data, Eval: req.Eval}}
}

// The slice takes samples of every class in turn and features spread over
// the columns, and copies them.
func TestWarmSlice(t *testing.T) {
	ds, err := dataset.Parse(wideTable(), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := warmSlice(ds)
	if s.Rows() != warmRows || len(s.Features) != warmCols || s.Features[1] != "g1" || s.Features[warmCols-1] != fmt.Sprintf("g%d", (warmCols-1)*700/warmCols) {
		t.Fatalf("slice %d×%d, features %v…", s.Rows(), len(s.Features), s.Features[:3])
	}
	count := map[int]int{}
	for _, y := range s.Y {
		count[y]++
	}
	if len(count) != 3 || count[0] < 13 || count[2] < 13 {
		t.Errorf("classes in the slice: %v", count)
	}
	if s.X.At(1, 1) != ds.X.At(1, 1) {
		t.Errorf("value %v, want %v", s.X.At(1, 1), ds.X.At(1, 1))
	}
	s.X.Set(0, 0, 99)
	if ds.X.At(0, 0) == 99 {
		t.Error("the slice shares the data's values")
	}
}

// The warm-up's plan: one variant (a sweep's first value), K and a
// method's k cut to the slice, 2-fold cross-validation, no tuning.
func TestWarmPlan(t *testing.T) {
	plan := &api.Plan{K: []int{10, 300, 500}, Tune: []api.Grid{{Param: "gamma", Values: []any{1.0, 2.0}}}, WeightRows: 900, Features: []int{3},
		Protocol: api.Protocol{Kind: api.Holdout, Train: 0.7}, Preprocess: "minmax"}
	p := warmPlan(plan, api.Variant{Method: "l20", Params: map[string]any{"k": 800.0, "gamma": []any{0.5, 3.0}}}, 400)
	got, _ := json.Marshal(p)
	want := `{"methods":[{"method":"l20","params":{"gamma":0.5,"k":400}}],"k":[10,300,400],"classifiers":null,"protocol":{"kind":"cv","folds":2},"seed":0,"preprocess":"minmax","bias":null,"weight_rows":400}`
	if string(got) != want {
		t.Errorf("warm plan\n%s\nwant\n%s", got, want)
	}
}
