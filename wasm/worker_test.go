package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
)

// recorder collects posted messages and lets a test wait for the end of a
// job.
type recorder struct {
	mu   sync.Mutex
	msgs []*api.FromWorker
	done chan *api.FromWorker
}

func newRecorder() *recorder { return &recorder{done: make(chan *api.FromWorker, 8)} }

// post records a message as the page would receive it: encoded and
// decoded again.
func (r *recorder) post(m *api.FromWorker) {
	head, body, err := m.Encode()
	if err != nil {
		panic(err)
	}
	if m, err = api.DecodeFromWorker(head, body); err != nil {
		panic(err)
	}
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	if m.Result != nil || m.Failed != nil {
		r.done <- m
	}
}

func (r *recorder) wait(t *testing.T) *api.FromWorker {
	t.Helper()
	select {
	case m := <-r.done:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no result or error message")
		return nil
	}
}

// load stores a dataset and reads it before it returns (handle reads it on
// a goroutine of its own).
func (w *worker) load(l *api.Load) {
	w.read(l, w.register(l))
}

// loaded waits for the first Loaded message.
func (r *recorder) loaded(t *testing.T) *api.Loaded {
	t.Helper()
	for range 1000 {
		r.mu.Lock()
		for _, m := range r.msgs {
			if m.Loaded != nil {
				r.mu.Unlock()
				return m.Loaded
			}
		}
		r.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no Loaded message")
	return nil
}

// id is the job a Result or Failed message answers.
func id(m *api.FromWorker) int {
	if m.Result != nil {
		return m.Result.ID
	}
	return m.Failed.ID
}

// failed returns the message of a Failed answer ("" for a Result).
func failed(m *api.FromWorker) string {
	if m.Failed == nil {
		return ""
	}
	return m.Failed.Message
}

// request reads a request written as JSON.
func request(t *testing.T, text string) *api.Request {
	t.Helper()
	var req api.Request
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		t.Fatal(err)
	}
	return &req
}

// send hands the worker a message as the page sends it: encoded and
// decoded again.
func send(t *testing.T, w *worker, m *api.ToWorker) {
	t.Helper()
	head, body, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := api.DecodeToWorker(head, body)
	if err != nil {
		t.Fatal(err)
	}
	w.handle(back)
}

// runTask starts a job and waits for its answer.
func runTask(t *testing.T, w *worker, r *recorder, jobID, data int, task api.Task) *api.FromWorker {
	t.Helper()
	send(t, w, &api.ToWorker{Job: &api.Job{ID: jobID, Data: data, Task: task}})
	m := r.wait(t)
	if id(m) != jobID {
		t.Fatalf("message for job %d, want %d: %+v", id(m), jobID, m)
	}
	return m
}

// runJob runs a request (JSON) on loaded data.
func runJob(t *testing.T, w *worker, r *recorder, jobID int, text string, data int) *api.FromWorker {
	t.Helper()
	return runTask(t, w, r, jobID, data, api.Task{Run: request(t, text)})
}

const table = "a,b,label\n1,0,0\n2,2,0\n6,5,1\n7,5,1\n"

// sha of table computed with coreutils' sha256sum (an independent
// implementation).
const tableSHA256 = "03653a1d880cee901aaf09779ede30fb9d4b48beec9528e6747d11f726570760"

func TestJobResult(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	send(t, w, &api.ToWorker{Load: &api.Load{Data: 1, Name: "x.csv", Bytes: []byte(table)}})
	m := runJob(t, w, r, 7, `{"method":"fstat","data":{"name":"x.csv"}}`, 1)
	if m.Result == nil {
		t.Fatalf("message %+v", m)
	}
	var sel api.Selection
	if err := json.Unmarshal(m.Result.Response, &sel); err != nil {
		t.Fatal(err)
	}
	if sel.Method != "fstat" || sel.Ranking[0] != 0 || sel.Dataset.Name != "x.csv" {
		t.Errorf("selection %+v", sel)
	}
}

func TestJobErrors(t *testing.T) {
	for text, fragment := range map[string]string{
		`{"method":"nope"}`:                           `unknown method "nope"`,
		`{"method":"fisher","data":{"name":"b.csv"}}`: `b.csv: line 2, column 2 ("b"): "x" is not a number`,
	} {
		r := newRecorder()
		w := newWorker(r.post, nil)
		w.load(&api.Load{Data: 1, Bytes: []byte(table)})
		w.load(&api.Load{Data: 2, Bytes: []byte("a,b,label\n1,x,0\n2,3,1\n")})
		m := runJob(t, w, r, 1, text, 1)
		if strings.Contains(text, "b.csv") {
			m = runJob(t, w, r, 1, text, 2)
		}
		if m.Failed == nil || !strings.Contains(m.Failed.Message, fragment) || m.Failed.Cancelled {
			t.Errorf("%s: message %+v, want an error containing %q", text, m, fragment)
		}
	}
	r := newRecorder()
	w := newWorker(r.post, nil)
	for task, fragment := range map[*api.Task]string{
		{}: "exactly one task (it has 0)",
		{Run: &api.Request{Op: api.OpMethods}, WriteReport: &api.WriteReport{Session: 1}}: "exactly one task (it has 2)",
	} {
		if m := runTask(t, w, r, 2, 0, *task); !strings.Contains(failed(m), fragment) {
			t.Errorf("%+v: %+v, want %q", task, m, fragment)
		}
	}
}

// A message of none or two kinds, or one that is not JSON, is refused by
// the decoder.
func TestMessagesOfOneKind(t *testing.T) {
	for _, head := range []string{`{}`, `{"cancel":{"id":1},"unload":{"data":1}}`, `{"job":`} {
		if _, err := api.DecodeToWorker([]byte(head), nil); err == nil {
			t.Errorf("%s accepted", head)
		}
	}
	m := &api.ToWorker{Load: &api.Load{Data: 3, Name: "n", Bytes: []byte("abc")}}
	head, body, err := m.Encode()
	if err != nil || string(head) != `{"load":{"data":3,"name":"n"}}` || string(body) != "abc" {
		t.Errorf("encoded %s %q %v", head, body, err)
	}
}

// A panic inside a job becomes an error message instead of a silent death.
func TestPanicReported(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.exec = func(context.Context, *api.Request, job.Input, func(api.Progress)) (*api.Response, error) {
		var m map[string]int
		m["boom"] = 1 // nil map write
		return nil, nil
	}
	m := runJob(t, w, r, 3, `{"method":"fisher"}`, 0)
	if !strings.Contains(failed(m), "internal error") {
		t.Errorf("message %+v", m)
	}
}

// Cancelling a running job ends it with a "cancelled" error, and the
// worker forgets it.
func TestCancel(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	started := make(chan struct{})
	w.exec = func(ctx context.Context, _ *api.Request, _ job.Input, progress func(api.Progress)) (*api.Response, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	send(t, w, &api.ToWorker{Job: &api.Job{ID: 5, Task: api.Task{Run: &api.Request{}}}})
	<-started
	send(t, w, &api.ToWorker{Cancel: &api.Cancel{ID: 5}})
	m := r.wait(t)
	if m.Failed == nil || !m.Failed.Cancelled || m.Failed.Message != "cancelled" {
		t.Fatalf("message %+v", m)
	}
	// The job leaves the running set after its message is posted.
	waitIdle(t, w)
	w.mu.Lock()
	if len(w.running) != 0 {
		t.Errorf("running jobs left: %v", w.running)
	}
	w.mu.Unlock()
}

// Progress is posted at most every progressEvery and the job yields every
// yieldEvery, by the worker's clock: 1000 iterations 1 ms apart post 10
// messages (at 1, 101, …, 901 ms) and yield 20 times.
func TestProgressThrottled(t *testing.T) {
	r := newRecorder()
	yields := 0
	w := newWorker(r.post, func() { yields++ })
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w.now = func() time.Time { return clock }
	w.exec = func(_ context.Context, _ *api.Request, _ job.Input, progress func(api.Progress)) (*api.Response, error) {
		for k := 1; k <= 1000; k++ {
			clock = clock.Add(time.Millisecond)
			progress(api.Progress{Iteration: k, MaxIterations: 1000, Objective: api.Float(1 / float64(k))})
		}
		return &api.Response{Methods: &api.MethodList{}}, nil
	}
	runTask(t, w, r, 1, 0, api.Task{Run: &api.Request{}})
	r.mu.Lock()
	defer r.mu.Unlock()
	var iterations []int
	for _, m := range r.msgs {
		if m.Progress != nil {
			iterations = append(iterations, m.Progress.Iteration)
		}
	}
	if want := []int{1, 101, 201, 301, 401, 501, 601, 701, 801, 901}; !reflect.DeepEqual(iterations, want) || yields != 20 {
		t.Errorf("progress at iterations %v (want %v), %d yields (want 20)", iterations, want, yields)
	}
}

// A dataset is loaded once and read once per way of reading it; jobs name
// it by number and get the answer core/job gives for the bytes.
func TestLoadedDataReadOnce(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	send(t, w, &api.ToWorker{Load: &api.Load{Data: 4, Name: "x.csv", Bytes: []byte(table)}})
	loaded := r.loaded(t)
	if loaded == nil || loaded.Data != 4 || loaded.Size != len(table) || loaded.SHA256 != tableSHA256 {
		t.Fatalf("loaded message %+v", loaded)
	}
	for i, text := range []string{
		`{"method":"fstat","data":{"name":"x.csv"}}`,
		`{"method":"fisher","data":{"name":"x.csv"}}`,
		`{"method":"fstat","data":{"name":"x.csv","label":"last"}}`, // another key, same table
	} {
		sameAsDirect(t, runJob(t, w, r, i+1, text, 4), text)
	}
	// fstat and fisher read the file the same way; "last" is another key.
	if w.reads != 2 {
		t.Errorf("%d reads, want 2", w.reads)
	}
	// A third reading evicts the oldest (at most maxReadings are kept).
	runJob(t, w, r, 5, `{"method":"fstat","data":{"label":"2"}}`, 4)
	runJob(t, w, r, 6, `{"method":"fstat","data":{"name":"x.csv"}}`, 4)
	if w.reads != 4 {
		t.Errorf("%d reads, want 4", w.reads)
	}
	// Inspection reads the stored bytes (it needs the preview rows).
	m := runJob(t, w, r, 7, `{"op":"inspect","data":{"name":"x.csv"},"preview_rows":3}`, 4)
	var in api.Inspection
	if err := json.Unmarshal(m.Result.Response, &in); err != nil || len(in.Preview) != 3 || in.Dataset.Samples != 4 {
		t.Errorf("inspection %v: %+v", err, in)
	}
	// A parse error names the file and the place.
	w.load(&api.Load{Data: 5, Name: "bad.csv", Bytes: []byte("a,b,label\n1,x,0\n2,3,1\n")})
	m = runJob(t, w, r, 8, `{"method":"fisher","data":{"name":"bad.csv"}}`, 5)
	if !strings.Contains(failed(m), `bad.csv: line 2, column 2 ("b"): "x" is not a number`) {
		t.Errorf("parse error: %+v", m)
	}
	// Unloaded data are gone.
	send(t, w, &api.ToWorker{Unload: &api.Unload{Data: 4}})
	m = runJob(t, w, r, 9, `{"method":"fstat"}`, 4)
	if !strings.Contains(failed(m), "were not sent to this worker") {
		t.Errorf("job on unloaded data: %+v", m)
	}
}

// sameAsDirect checks that a worker's answer m to the selection request
// text on table is core/job's for the bytes.
func sameAsDirect(t *testing.T, m *api.FromWorker, text string) {
	t.Helper()
	direct, err := job.Run(context.Background(), request(t, text), job.Input{Raw: []byte(table)}, nil)
	if err != nil || m.Result == nil {
		t.Fatalf("%s: %v %+v", text, err, m)
	}
	var got api.Selection
	json.Unmarshal(m.Result.Response, &got)
	want := *direct.Selection
	got.Seconds, want.Seconds = 0, 0
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("%s:\ngot  %s\nwant %s", text, a, b)
	}
}

// A table larger than the worker keeps is read afresh by every job, which
// scales it in place; the answers are those of a table kept, and the
// preparation does not hold on to it.
func TestLargeTableNotKept(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.keepMax = 8 // bytes: every table is larger
	send(t, w, &api.ToWorker{Load: &api.Load{Data: 1, Name: "x.csv", Bytes: []byte(table)}})
	p := &api.Prepare{Data: api.Data{Name: "x.csv"}}
	if _, err := w.prepare(context.Background(), 1, p); err != nil || w.warmedData != nil {
		t.Fatalf("prepare: %v, warmed on a table not kept: %v", err, w.warmedData != nil)
	}
	jobs := []string{`{"method":"rfs","data":{"name":"x.csv"}}`, `{"method":"rfs","data":{"name":"x.csv"}}`, `{"method":"fisher","data":{"name":"x.csv"}}`}
	for i, text := range jobs {
		sameAsDirect(t, runJob(t, w, r, i+1, text, 1), text)
	}
	if s := w.data[1]; w.reads != 1+len(jobs) || len(s.readings) != 0 {
		t.Errorf("%d reads (want %d), %d readings kept", w.reads, 1+len(jobs), len(s.readings))
	}
}

// A load's read runs on a goroutine of its own, not in the message's
// callback (its reads may wait for the browser): handle returns at once,
// a job sent before the read ends waits for it, and a job on a file that
// cannot be read fails naming it.
func TestLoadReadsAfterTheCallback(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	release := make(chan struct{})
	slow := func() (io.ReadCloser, error) {
		<-release
		return io.NopCloser(strings.NewReader(table)), nil
	}
	// The receiving side sets Stream (main_js.go); send would drop it.
	w.handle(&api.ToWorker{Load: &api.Load{Data: 1, Name: "x.csv", Stream: slow}})
	send(t, w, &api.ToWorker{Job: &api.Job{ID: 1, Data: 1, Task: api.Task{Run: request(t, `{"method":"fstat","data":{"name":"x.csv"}}`)}}})
	select {
	case m := <-r.done:
		t.Fatalf("an answer before the file was read: %+v", m)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if m := r.wait(t); id(m) != 1 || m.Result == nil {
		t.Fatalf("message %+v", m)
	}
	if l := r.loaded(t); l.Size != len(table) || l.SHA256 != tableSHA256 {
		t.Errorf("loaded %+v", l)
	}
	broken := func() (io.ReadCloser, error) { return nil, errors.New("the file was moved") }
	w.handle(&api.ToWorker{Load: &api.Load{Data: 2, Name: "gone.csv", Stream: broken}})
	if m := r.wait(t); !strings.Contains(failed(m), "cannot read gone.csv: the file was moved") {
		t.Fatalf("message %+v", m)
	}
	m := runJob(t, w, r, 2, `{"method":"fstat","data":{"name":"gone.csv"}}`, 2)
	if !strings.Contains(failed(m), "gone.csv") {
		t.Errorf("job on the unreadable file: %+v", m)
	}
}

// The load counts the file's lines as it computes the digest, in the same
// read (a gzip file's too: the lines of what it holds), and a job on a
// table not kept reads the file once — the parse, without a count of its
// own — for the answer core/job gives the bytes; a file of another
// format has no count.
func TestLoadCountsLines(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(table))
	zw.Close()
	for _, f := range []struct {
		name  string
		body  []byte
		lines int
	}{
		{"x.csv", []byte(table), 5},
		{"x.csv.gz", gz.Bytes(), 5},
		{"x.arff", []byte("@relation r\n@attribute a numeric\n@attribute class {0,1}\n@data\n1,0\n2,1\n"), 0},
	} {
		r := newRecorder()
		w := newWorker(r.post, nil)
		w.keepMax = 8 // bytes: every table is larger
		opens := 0
		open := func() (io.ReadCloser, error) {
			opens++
			return io.NopCloser(bytes.NewReader(f.body)), nil
		}
		w.load(&api.Load{Data: 1, Name: f.name, Open: open})
		r.mu.Lock()
		loaded := r.msgs[0].Loaded
		r.mu.Unlock()
		if sum := sha256.Sum256(f.body); loaded == nil || loaded.Size != len(f.body) || loaded.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("%s: loaded %+v", f.name, loaded)
		}
		if s := w.data[1]; s.lines != f.lines || opens != 1 {
			t.Errorf("%s: %d lines (want %d), %d opens at load (want 1)", f.name, s.lines, f.lines, opens)
		}
		if f.lines == 0 {
			continue
		}
		text := `{"method":"fisher","data":{"name":"x.csv"}}`
		for i := 1; i <= 2; i++ {
			sameAsDirect(t, runJob(t, w, r, i, text, 1), text)
		}
		if opens != 3 {
			t.Errorf("%s: %d opens after two jobs, want 3 (the load, one parse each)", f.name, opens)
		}
	}
}

// Reduce runs on the loaded data, as core/job writes it.
func TestReduce(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.load(&api.Load{Data: 1, Name: "p.csv.gz", Bytes: []byte("\"g,1\",g2,g3,outcome\n1.5,NA,0.1,sick\n2,3,1e-7,well\n4,5,6,sick\n")})
	m := runJob(t, w, r, 1, `{"op":"reduce","data":{"name":"p.csv.gz","missing":"mean"},"columns":[1,0]}`, 1)
	var out api.Reduced
	if err := json.Unmarshal(m.Result.Response, &out); err != nil {
		t.Fatalf("%v: %+v", err, m)
	}
	want := "g2,\"g,1\",outcome\n,1.5,sick\n3,2,well\n5,4,sick\n"
	if out.CSV != want || out.Name != "p-top2.csv" {
		t.Errorf("reduced %q named %q, want %q", out.CSV, out.Name, want)
	}
	if m := runJob(t, w, r, 2, `{"op":"reduce","data":{}, "columns":[0]}`, 1); !strings.Contains(failed(m), "missing") {
		t.Errorf("reduce without imputation: %+v", m)
	}
}

// Jobs run one after another in the order they came, each announced by
// Started; a queued job that is cancelled never starts.
func TestJobsRunInTurn(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	release := make(chan struct{})
	var order []int
	var mu sync.Mutex
	w.exec = func(ctx context.Context, req *api.Request, _ job.Input, _ func(api.Progress)) (*api.Response, error) {
		mu.Lock()
		order = append(order, req.K)
		mu.Unlock()
		if req.K == 1 {
			<-release
		}
		return &api.Response{Methods: &api.MethodList{}}, nil
	}
	for k := 1; k <= 3; k++ {
		send(t, w, &api.ToWorker{Job: &api.Job{ID: k, Task: api.Task{Run: &api.Request{K: k}}}})
	}
	send(t, w, &api.ToWorker{Cancel: &api.Cancel{ID: 2}})
	close(release)
	got := []string{}
	for i := 0; i < 3; i++ {
		m := r.wait(t)
		kind := "result"
		if m.Failed != nil {
			kind = "error"
		}
		got = append(got, fmt.Sprintf("%s %d", kind, id(m)))
	}
	if want := []string{"result 1", "error 2", "result 3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("messages %v, want %v", got, want)
	}
	r.mu.Lock()
	var started []int
	for _, m := range r.msgs {
		if m.Started != nil {
			started = append(started, m.Started.ID)
		}
	}
	r.mu.Unlock()
	if !reflect.DeepEqual(started, []int{1, 3}) || !reflect.DeepEqual(order, []int{1, 3}) {
		t.Errorf("started %v, ran %v", started, order)
	}
}

// Synth writes the data "sparsefs synth" writes (both call
// dataset.SynthData.WriteCSV); a page's bound on the cells is enforced.
func TestSynth(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	m := runJob(t, w, r, 1, `{"op":"synth","synth":{"m":20,"d1":2,"d2":3,"c":3,"outliers":0.1,"seed":5,"task":"regression","name":"s.csv"}}`, 0)
	var out api.Reduced
	if err := json.Unmarshal(m.Result.Response, &out); err != nil {
		t.Fatalf("%v: %+v", err, m)
	}
	data, err := dataset.Synth{M: 20, D1: 2, D2: 3, C: 3, Outliers: 0.1, Seed: 5}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	data.WriteCSV(&want, true, false)
	if out.Name != "s.csv" || out.CSV != want.String() || !strings.HasPrefix(out.CSV, "f1,f2,f3,f4,f5,f6,f7,f8,f9,y1,y2,y3\n") {
		t.Errorf("%q: %q", out.Name, out.CSV)
	}
	m = runJob(t, w, r, 2, `{"op":"synth","synth":{"m":2000,"d1":100,"d2":700,"c":5,"max_cells":1000000}}`, 0)
	if !strings.Contains(failed(m), "at most 1000000 fit here") {
		t.Errorf("too large: %+v", m)
	}
}

// evalUnit is the request of one unit of a small evaluation.
func evalUnit(u int) string {
	return fmt.Sprintf(`{"op":"eval","data":{"name":"d.csv"},"eval":{"methods":[{"method":"fisher"},{"method":"fstat"}],"k":[1,2],"protocol":{"kind":"cv","folds":2}},"units":[%d]}`, u)
}

// timings matches the wall times in a report, which differ between two
// runs of a unit.
var timings = regexp.MustCompile(`"(seconds|fit_seconds)":(\{[^}]*\}|[-0-9.e+]+|null)`)

// noTimes is a report's JSON with its wall times zeroed.
func noTimes(b []byte) string { return timings.ReplaceAllString(string(b), `"$1":0`) }

const evalTable = "a,b,c,label\n1,0,3,x\n2,2,1,x\n6,5,2,y\n7,5,0,y\n1,1,1,x\n8,6,2,y\n"

// collectTask is the Collect of a part as the page sends it: its digest,
// and its JSON beside.
func collectTask(t *testing.T, session int, part []byte) api.Task {
	t.Helper()
	var p api.EvalPart
	if err := json.Unmarshal(part, &p); err != nil {
		t.Fatal(err)
	}
	digest, err := unitDigest(&p)
	if err != nil {
		t.Fatal(err)
	}
	return api.Task{Collect: &api.Collect{Session: session, Digest: digest, Part: part}}
}

// Prepare reads loaded data once for the jobs after it; units run with a
// session are kept in the worker with a digest for the page, parts
// collected join them, and a merge of the session gives the report a
// merge of all the parts gives — light (the summaries now, the report's
// JSON on asking) or not; too few parts are refused.
func TestPrepareCollectMerge(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.load(&api.Load{Data: 1, Name: "d.csv", Bytes: []byte(evalTable)})
	if m := runTask(t, w, r, 1, 1, api.Task{Prepare: &api.Prepare{Data: api.Data{Name: "d.csv"}}}); m.Result == nil || string(m.Result.Response) != "{}" {
		t.Fatalf("prepare: %+v", m)
	}
	var parts [][]byte
	for u := 0; u < 4; u++ {
		task := api.Task{Run: request(t, evalUnit(u))}
		if u < 2 {
			task.Session = 7 // kept in the worker
		}
		m := runTask(t, w, r, 10+u, 1, task)
		parts = append(parts, m.Result.Response)
		// With a session, the answer has a digest: the units without the
		// fits' rankings and scores.
		if d := m.Result.Digest; (d != nil) != (u < 2) {
			t.Errorf("unit %d: digest %s", u, d)
		} else if d != nil {
			var part api.EvalPart
			var digest api.UnitDigest
			json.Unmarshal(parts[u], &part)
			json.Unmarshal(d, &digest)
			f := digest.Units[0].Fits[0]
			if f.Ranking != nil || len(f.Scores) != 0 || digest.Units[0].Unit != u || f.Stop != part.Units[0].Fits[0].Stop ||
				len(digest.Units[0].Selected) != 2 || fmt.Sprint(digest.Units[0].Accuracy) != fmt.Sprint(part.Units[0].Accuracy) {
				t.Errorf("unit %d: digest %s", u, d)
			}
		}
	}
	if w.reads != 1 {
		t.Errorf("%d reads, want 1 (prepare read the data for the units)", w.reads)
	}
	all := runJob(t, w, r, 20, `{"op":"merge","parts":[`+string(bytes.Join(parts, []byte(",")))+`]}`, 0).Result.Response
	for u := 2; u < 4; u++ {
		if m := runTask(t, w, r, 30+u, 0, collectTask(t, 7, parts[u])); m.Result == nil {
			t.Fatalf("collect: %+v", m)
		}
	}
	m := runTask(t, w, r, 40, 0, api.Task{Merge: &api.Merge{Session: 7, Expect: 4}})
	if m.Result == nil || !bytes.Equal(m.Result.Response, all) {
		t.Errorf("merge of the session: %+v\nwant %s", m, all)
	}
	if len(w.sessions) != 0 {
		t.Errorf("sessions left: %v", w.sessions)
	}
	// Light: the summaries now (no units), the report's JSON on asking;
	// the same with or without a part kept in full.
	var full api.EvalReport
	json.Unmarshal(all, &full)
	for i := range full.Results {
		full.Results[i].Units = nil
	}
	summaries, _ := json.Marshal(full) // as JSON: NaN (a redundancy at K = 1) is not DeepEqual to itself
	for _, own := range []bool{false, true} {
		session := 11
		if own {
			session = 12
			runTask(t, w, r, 50, 1, api.Task{Run: request(t, evalUnit(0)), Session: session})
		}
		for u := 0; u < 4; u++ {
			if !(own && u == 0) {
				runTask(t, w, r, 60+u, 0, collectTask(t, session, parts[u]))
			}
		}
		m := runTask(t, w, r, 70, 0, api.Task{Merge: &api.Merge{Session: session, Expect: 4, Light: true}})
		var light api.EvalReport
		json.Unmarshal(m.Result.Response, &light)
		for i := range light.Results {
			if light.Results[i].Units != nil {
				t.Errorf("light result %d has units", i)
			}
		}
		if got, _ := json.Marshal(light); noTimes(got) != noTimes(summaries) {
			t.Errorf("the light report (a part kept in full: %v) is not the report without its units:\n%s\n%s", own, got, summaries)
		}
		if m := runTask(t, w, r, 71, 0, api.Task{WriteReport: &api.WriteReport{Session: session}}); m.Result == nil || noTimes(m.Result.Response) != noTimes(all) {
			t.Errorf("the kept report (a part kept in full: %v): %+v", own, m)
		}
		if m := runTask(t, w, r, 72, 0, api.Task{WriteReport: &api.WriteReport{Session: session}}); !strings.Contains(failed(m), "no report kept for session") {
			t.Errorf("a report asked twice: %+v", m)
		}
	}
	// A part whose JSON is broken: its digest serves the summaries; the
	// report's JSON says what is wrong.
	for u := 1; u < 4; u++ {
		runTask(t, w, r, 80+u, 0, collectTask(t, 16, parts[u]))
	}
	broken := collectTask(t, 16, parts[0])
	broken.Collect.Part = []byte(`{"units":`)
	runTask(t, w, r, 84, 0, broken)
	if m := runTask(t, w, r, 85, 0, api.Task{Merge: &api.Merge{Session: 16, Expect: 4, Light: true}}); m.Result == nil {
		t.Errorf("light merge: %+v", m)
	}
	if m := runTask(t, w, r, 86, 0, api.Task{WriteReport: &api.WriteReport{Session: 16}}); !strings.Contains(failed(m), "a collected part cannot be read") {
		t.Errorf("a broken part's JSON: %+v", m)
	}
	runTask(t, w, r, 90, 0, collectTask(t, 8, parts[0]))
	runTask(t, w, r, 91, 0, collectTask(t, 9, parts[1])) // a newer run: session 8 is dropped
	if m := runTask(t, w, r, 92, 0, api.Task{Merge: &api.Merge{Session: 8, Expect: 1}}); !strings.Contains(failed(m), "incomplete session: 0 of 1 parts") {
		t.Errorf("an old session: %+v", m)
	}
	if m := runTask(t, w, r, 93, 0, api.Task{Merge: &api.Merge{Session: 9, Expect: 4}}); !strings.Contains(failed(m), "incomplete session: 1 of 4 parts") {
		t.Errorf("incomplete session: %+v", m)
	}
	bad := api.Task{Collect: &api.Collect{Session: 10, Digest: []byte(`[1]`), Part: parts[0]}}
	if m := runTask(t, w, r, 94, 0, bad); !strings.Contains(failed(m), "a part's digest cannot be read") {
		t.Errorf("bad digest: %+v", m)
	}
}

// A worker linked to the merging one (the page's MessageChannel) sends it
// its units' parts itself, late or not, and says so; the merging worker's
// light merge and report are those of a merge of every part. Without a
// link, or for another session, a worker keeps its parts as before.
func TestForwardedParts(t *testing.T) {
	rm, rp := newRecorder(), newRecorder()
	merger, producer := newWorker(rm.post, nil), newWorker(rp.post, nil)
	for _, w := range []*worker{merger, producer} {
		w.load(&api.Load{Data: 1, Name: "d.csv", Bytes: []byte(evalTable)})
	}
	const session = 5
	var sent sync.WaitGroup
	producer.link(session, func(c *api.Collect) error {
		head, body, err := c.Encode() // as the port carries it
		if err != nil {
			return err
		}
		sent.Add(1)
		go func() { // the port delivers later, after the page's merge request
			defer sent.Done()
			time.Sleep(30 * time.Millisecond)
			c, err := api.DecodeCollect(head, body)
			if err == nil {
				err = merger.receive(c)
			}
			if err != nil {
				t.Error(err)
			}
		}()
		return nil
	})
	merger.collectFrom(session)
	if m := runTask(t, producer, rp, 10, 1, api.Task{Run: request(t, evalUnit(0)), Session: session + 1}); m.Result.Forwarded {
		t.Errorf("a unit of another session was forwarded: %+v", m)
	}
	var parts [][]byte
	for u := 0; u < 4; u++ {
		w, r := producer, rp
		if u == 0 {
			w, r = merger, rm
		}
		m := runTask(t, w, r, 20+u, 1, api.Task{Run: request(t, evalUnit(u)), Session: session})
		if m.Result.Forwarded != (u > 0) || m.Result.Digest == nil {
			t.Errorf("unit %d: %+v", u, m)
		}
		parts = append(parts, m.Result.Response)
	}
	if m := runTask(t, merger, rm, 30, 0, api.Task{Merge: &api.Merge{Session: session, Expect: 4, Light: true}}); m.Result == nil {
		t.Fatalf("light merge: %+v", m)
	}
	report := runTask(t, merger, rm, 31, 0, api.Task{WriteReport: &api.WriteReport{Session: session}})
	all := runJob(t, merger, rm, 32, `{"op":"merge","parts":[`+string(bytes.Join(parts, []byte(",")))+`]}`, 0)
	if !bytes.Equal(report.Result.Response, all.Result.Response) {
		t.Errorf("the report of forwarded parts: %s\nwant %s", report.Result.Response, all.Result.Response)
	}
	sent.Wait()
	if len(producer.sessions) != 1 || len(producer.sessions[session+1]) != 1 {
		t.Errorf("the producer kept %v", producer.sessions)
	}
	if _, err := api.DecodeCollect([]byte(`{"session":5,"digest":{}}`), nil); err == nil {
		t.Error("a part without its JSON was accepted")
	}
	if err := merger.receive(&api.Collect{Session: session, Digest: []byte(`{"units":`), Part: parts[0]}); err == nil {
		t.Error("a broken digest was accepted")
	}
}

// A worker keeps the memory of a job's own table and reads the next
// job's table into it (dataset.Options.Buffer), whatever the first job
// left there (rfs transposes its table in place, an evaluation unit
// rearranges its rows): the answers are those of the bytes read directly.
func TestOwnedTableMemoryReused(t *testing.T) {
	var b strings.Builder
	b.WriteString("g1,g2,g3,g4,g5,label\n")
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, "%d,%d.5,%d,%d,%d,%c\n", i%13, i%7, (i*i)%11, i%3, (i*5)%17, "ab"[i%2])
	}
	data := []byte(b.String())
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.keepMax = 8 // bytes: every table is larger
	w.load(&api.Load{Data: 1, Name: "g.csv", Bytes: data})
	var first *float64
	for i, text := range []string{
		`{"method":"rfs","data":{"name":"g.csv"}}`,
		`{"op":"eval","data":{"name":"g.csv"},"eval":{"methods":[{"method":"rfs"}],"k":[2],"classifiers":[{"name":"svm"}],"protocol":{"kind":"cv","folds":3}},"units":[1]}`,
		`{"method":"fisher","data":{"name":"g.csv"}}`,
	} {
		m := runJob(t, w, r, i+1, text, 1)
		direct, err := job.Run(context.Background(), request(t, text), job.Input{Raw: data}, nil)
		if err != nil || m.Result == nil {
			t.Fatalf("%s: %v %+v", text, err, m)
		}
		raw, err := json.Marshal(direct)
		if err != nil {
			t.Fatal(err)
		}
		seconds := regexp.MustCompile(`"(fit_)?seconds":(\{[^}]*\}|[-0-9.e]+)`)
		got, want := seconds.ReplaceAllString(string(m.Result.Response), ""), seconds.ReplaceAllString(string(raw), "")
		if got != want {
			t.Errorf("%s:\ngot  %s\nwant %s", text, got, want)
		}
		// The job's table is handed back after its answer is posted:
		// wait until the worker has finished with it.
		waitIdle(t, w)
		if len(w.spare) == 0 {
			t.Fatalf("%s: the table's memory was not kept", text)
		}
		if i == 0 {
			first = &w.spare[0]
		} else if &w.spare[0] != first {
			t.Errorf("%s: the table was read into new memory", text)
		}
	}
}

// waitIdle waits until w's goroutine has worked through its queue (and
// done what follows each job: keeping the table's memory), failing after
// ten seconds.
func waitIdle(t *testing.T, w *worker) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		w.mu.Lock()
		busy := w.busy
		w.mu.Unlock()
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the worker is still busy after 10 s")
		}
	}
}
