package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"sparsefs/core/dataset"
	"sparsefs/core/job"
)

// recorder collects posted messages and lets a test wait for the end of a
// job.
type recorder struct {
	mu   sync.Mutex
	msgs []message
	done chan message
}

func newRecorder() *recorder { return &recorder{done: make(chan message, 8)} }

func (r *recorder) post(m message) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
	if t := m["type"]; t == "result" || t == "error" {
		r.done <- m
	}
}

func (r *recorder) wait(t *testing.T) message {
	t.Helper()
	select {
	case m := <-r.done:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no result or error message")
		return nil
	}
}

const table = "a,b,label\n1,0,0\n2,2,0\n6,5,1\n7,5,1\n"

func TestJobResult(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.start(7, `{"method":"fstat","data":{"name":"x.csv"}}`, -1, []byte(table), nil)
	m := r.wait(t)
	if m["type"] != "result" || m["id"] != 7 {
		t.Fatalf("message %v", m)
	}
	var sel job.Selection
	if err := json.Unmarshal([]byte(m["response"].(string)), &sel); err != nil {
		t.Fatal(err)
	}
	if sel.Method != "fstat" || sel.Ranking[0] != 0 || sel.Dataset.Name != "x.csv" {
		t.Errorf("selection %+v", sel)
	}
}

func TestJobErrors(t *testing.T) {
	for request, fragment := range map[string]string{
		`{"method":`:        "malformed request",
		`{"method":"nope"}`: `unknown method "nope"`,
		`{"method":"fisher","data":{"name":"b.csv"}}`: `b.csv: line 2, column 2 ("b"): "x" is not a number`,
	} {
		r := newRecorder()
		newWorker(r.post, nil).start(1, request, -1, []byte("a,b,label\n1,x,0\n2,3,1\n"), nil)
		m := r.wait(t)
		if m["type"] != "error" || !strings.Contains(m["message"].(string), fragment) || m["cancelled"] != false {
			t.Errorf("%s: message %v, want an error containing %q", request, m, fragment)
		}
	}
}

// A panic inside a job becomes an error message instead of a silent death.
func TestPanicReported(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.exec = func(context.Context, *job.Request, func(job.Progress)) (*job.Response, error) {
		var m map[string]int
		m["boom"] = 1 // nil map write
		return nil, nil
	}
	w.start(3, `{"method":"fisher"}`, -1, nil, nil)
	m := r.wait(t)
	if m["type"] != "error" || m["id"] != 3 || !strings.Contains(m["message"].(string), "internal error") {
		t.Errorf("message %v", m)
	}
}

// Cancelling a running job ends it with a "cancelled" error; progress is
// throttled and the yield hook runs while the job computes.
func TestCancelAndProgress(t *testing.T) {
	r := newRecorder()
	yields := 0
	w := newWorker(r.post, func() { yields++ })
	started := make(chan struct{})
	w.exec = func(ctx context.Context, _ *job.Request, progress func(job.Progress)) (*job.Response, error) {
		close(started)
		for k := 1; ; k++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(job.Progress{Iteration: k, MaxIterations: 1 << 30, Objective: 1 / float64(k)})
			time.Sleep(time.Millisecond)
		}
	}
	w.start(5, `{}`, -1, nil, nil)
	<-started
	time.Sleep(300 * time.Millisecond)
	w.cancel(5)
	m := r.wait(t)
	if m["type"] != "error" || m["cancelled"] != true || m["message"] != "cancelled" {
		t.Fatalf("message %v", m)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	progress := 0
	for _, m := range r.msgs {
		if m["type"] == "progress" {
			progress++
		}
	}
	// About 300 iterations in 300 ms: throttled to a few messages.
	if progress < 2 || progress > 10 || yields < 2 {
		t.Errorf("%d progress messages, %d yields", progress, yields)
	}
	w.mu.Lock()
	if len(w.running) != 0 {
		t.Errorf("running jobs left: %v", w.running)
	}
	w.mu.Unlock()
}

// sha of table computed with coreutils' sha256sum (an independent
// implementation).
const tableSHA256 = "03653a1d880cee901aaf09779ede30fb9d4b48beec9528e6747d11f726570760"

// runJob starts a job on loaded data and waits for its message.
func runJob(t *testing.T, w *worker, r *recorder, id int, request string, data int) message {
	t.Helper()
	w.start(id, request, data, nil, nil)
	m := r.wait(t)
	if m["id"] != id {
		t.Fatalf("message for job %v, want %d: %v", m["id"], id, m)
	}
	return m
}

// A dataset is loaded once and parsed once per way of reading it; jobs name
// it by number and get the same answer as with the bytes inline.
func TestLoadedDataParsedOnce(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.load(4, "x.csv", []byte(table))
	r.mu.Lock()
	loaded := r.msgs[0]
	r.mu.Unlock()
	if loaded["type"] != "loaded" || loaded["data"] != 4 || loaded["size"] != len(table) || loaded["sha256"] != tableSHA256 {
		t.Fatalf("loaded message %v", loaded)
	}
	inline := func(request string) string {
		w.start(99, request, -1, []byte(table), nil)
		return r.wait(t)["response"].(string)
	}
	for i, request := range []string{
		`{"method":"fstat","data":{"name":"x.csv"}}`,
		`{"method":"fisher","data":{"name":"x.csv"}}`,
		`{"method":"fstat","data":{"name":"x.csv","label":"last"}}`, // another key, same table
	} {
		m := runJob(t, w, r, i+1, request, 4)
		var got, want job.Selection
		json.Unmarshal([]byte(m["response"].(string)), &got)
		json.Unmarshal([]byte(inline(request)), &want)
		got.Seconds, want.Seconds = 0, 0
		if m["type"] != "result" || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v\ngot  %+v\nwant %+v", request, m, got, want)
		}
	}
	// fstat and fisher read the file the same way; "last" is another key.
	if w.parses != 2 {
		t.Errorf("%d parses, want 2", w.parses)
	}
	// A third reading evicts the oldest (at most maxParsed are kept).
	runJob(t, w, r, 5, `{"method":"fstat","data":{"label":"1"}}`, 4)
	runJob(t, w, r, 6, `{"method":"fstat","data":{"name":"x.csv"}}`, 4)
	if w.parses != 4 {
		t.Errorf("%d parses, want 4", w.parses)
	}
	// Inspection reads the stored bytes (it needs the preview rows).
	m := runJob(t, w, r, 7, `{"op":"inspect","data":{"name":"x.csv"},"preview_rows":3}`, 4)
	var in job.Inspection
	if err := json.Unmarshal([]byte(m["response"].(string)), &in); err != nil || len(in.Preview) != 3 || in.Dataset.Samples != 4 {
		t.Errorf("inspection %v: %+v", err, in)
	}
	// A parse error names the file and the place.
	w.load(5, "bad.csv", []byte("a,b,label\n1,x,0\n2,3,1\n"))
	m = runJob(t, w, r, 8, `{"method":"fisher","data":{"name":"bad.csv"}}`, 5)
	if m["type"] != "error" || !strings.Contains(m["message"].(string), `bad.csv: line 2, column 2 ("b"): "x" is not a number`) {
		t.Errorf("parse error: %v", m)
	}
	// Unloaded data are gone.
	w.unload(4)
	m = runJob(t, w, r, 9, `{"method":"fstat"}`, 4)
	if m["type"] != "error" || !strings.Contains(m["message"].(string), "were not sent to this worker") {
		t.Errorf("job on unloaded data: %v", m)
	}
}

// The reduced data keep the chosen features in the order given and the
// label, as CSV that quotes what needs quoting and leaves missing cells
// empty.
func TestReduce(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.load(1, "p.csv.gz", []byte("\"g,1\",g2,g3,outcome\n1.5,NA,0.1,sick\n2,3,1e-7,well\n4,5,6,sick\n"))
	m := runJob(t, w, r, 1, `{"op":"reduce","data":{"name":"p.csv.gz","missing":"mean"},"columns":[1,0]}`, 1)
	var out map[string]string
	if err := json.Unmarshal([]byte(m["response"].(string)), &out); err != nil {
		t.Fatalf("%v: %v", err, m)
	}
	want := "g2,\"g,1\",outcome\n,1.5,sick\n3,2,well\n5,4,sick\n"
	if out["csv"] != want || out["name"] != "p-top2.csv" {
		t.Errorf("reduced %q named %q, want %q", out["csv"], out["name"], want)
	}
	for request, fragment := range map[string]string{
		`{"op":"reduce","data":{"missing":"mean"},"columns":[3]}`: "feature 3 does not exist: the data have 3 features",
		`{"op":"reduce","data":{"missing":"mean"}}`:               "no features chosen",
		`{"op":"reduce","data":{}, "columns":[0]}`:                "missing",
	} {
		m := runJob(t, w, r, 2, request, 1)
		if m["type"] != "error" || !strings.Contains(m["message"].(string), fragment) {
			t.Errorf("%s: %v, want an error containing %q", request, m, fragment)
		}
	}
}

// Jobs run one after another in the order they came, each announced by
// "started"; a queued job that is cancelled never starts.
func TestJobsRunInTurn(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	release := make(chan struct{})
	var order []int
	var mu sync.Mutex
	w.exec = func(ctx context.Context, req *job.Request, _ func(job.Progress)) (*job.Response, error) {
		mu.Lock()
		order = append(order, req.K)
		mu.Unlock()
		if req.K == 1 {
			<-release
		}
		return &job.Response{Methods: &job.MethodList{}}, nil
	}
	w.start(1, `{"k":1}`, -1, nil, nil)
	w.start(2, `{"k":2}`, -1, nil, nil)
	w.start(3, `{"k":3}`, -1, nil, nil)
	w.cancel(2)
	close(release)
	got := []string{}
	for i := 0; i < 3; i++ {
		m := r.wait(t)
		got = append(got, fmt.Sprintf("%s %v", m["type"], m["id"]))
	}
	if want := []string{"result 1", "error 2", "result 3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("messages %v, want %v", got, want)
	}
	r.mu.Lock()
	var started []any
	for _, m := range r.msgs {
		if m["type"] == "started" {
			started = append(started, m["id"])
		}
	}
	r.mu.Unlock()
	if !reflect.DeepEqual(started, []any{1, 3}) || !reflect.DeepEqual(order, []int{1, 3}) {
		t.Errorf("started %v, ran %v", started, order)
	}
}

// "synth" writes the data "sparsefs synth" writes (both call
// dataset.Synth.WriteCSV): features f1…f(3·d1+d2), then the label (1…c)
// or the targets y1…yc; too large a table is refused with a message.
func TestSynth(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	for _, task := range []string{"classification", "regression"} {
		m := runJob(t, w, r, 1, `{"op":"synth","synth":{"m":20,"d1":2,"d2":3,"c":3,"outliers":0.1,"seed":5,"task":"`+task+`","name":"s.csv"}}`, -1)
		var out map[string]string
		if err := json.Unmarshal([]byte(m["response"].(string)), &out); err != nil {
			t.Fatalf("%v: %v", err, m)
		}
		data, err := dataset.Synth{M: 20, D1: 2, D2: 3, C: 3, Outliers: 0.1, Seed: 5}.Generate()
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		data.WriteCSV(&want, task == "regression", task == "classification")
		lines := strings.Split(strings.TrimSpace(out["csv"]), "\n")
		head := "f1,f2,f3,f4,f5,f6,f7,f8,f9,label"
		if task == "regression" {
			head = "f1,f2,f3,f4,f5,f6,f7,f8,f9,y1,y2,y3"
		}
		if out["name"] != "s.csv" || out["csv"] != want.String() || lines[0] != head || len(lines) != 21 {
			t.Errorf("%s: %q, header %q, %d lines", task, out["name"], lines[0], len(lines))
		}
	}
	for request, fragment := range map[string]string{
		`{"op":"synth"}`: "no settings",
		`{"op":"synth","synth":{"m":2000,"d1":100,"d2":700,"c":5}}`:     "at most 1000000 fit in a page",
		`{"op":"synth","synth":{"m":1,"d1":1,"d2":1,"c":2}}`:            "m = 1 samples",
		`{"op":"synth","synth":{"m":9,"d1":1,"d2":1,"c":2,"task":"x"}}`: `task "x"`,
	} {
		m := runJob(t, w, r, 2, request, -1)
		if m["type"] != "error" || !strings.Contains(m["message"].(string), fragment) {
			t.Errorf("%s: %v, want an error containing %q", request, m, fragment)
		}
	}
}

// "prepare" reads loaded data once for the jobs after it; "collect" keeps
// an evaluation's parts in the worker and a merge naming the session
// merges them (with any parts it carries) into the report a merge of all
// the parts gives; too few parts are refused.
func TestPrepareCollectMerge(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	csv := "a,b,c,label\n1,0,3,x\n2,2,1,x\n6,5,2,y\n7,5,0,y\n1,1,1,x\n8,6,2,y\n"
	w.load(1, "d.csv", []byte(csv))
	if m := runJob(t, w, r, 1, `{"op":"prepare","data":{"name":"d.csv"}}`, 1); m["type"] != "result" || m["response"] != "{}" {
		t.Fatalf("prepare: %v", m)
	}
	eval := `"eval":{"methods":[{"method":"fisher"},{"method":"fstat"}],"k":[1,2],"protocol":{"kind":"cv","folds":2}}`
	var parts []string
	for u := 0; u < 4; u++ {
		session := ""
		if u < 2 {
			session = `,"session":7` // kept in the worker
		}
		m := runJob(t, w, r, 10+u, fmt.Sprintf(`{"op":"eval","data":{"name":"d.csv"},%s,"units":[%d]%s}`, eval, u, session), 1)
		parts = append(parts, m["response"].(string))
		// With a session, the answer has a digest: the units without the
		// fits' rankings and scores.
		if d, ok := m["digest"].(string); ok != (u < 2) {
			t.Errorf("unit %d: digest %q", u, d)
		} else if ok {
			var part, digest job.EvalPart
			json.Unmarshal([]byte(parts[u]), &part)
			json.Unmarshal([]byte(d), &digest)
			f := digest.Units[0].Fits[0]
			if f.Ranking != nil || len(f.Scores) != 0 || digest.Units[0].Unit != u || f.Stop != part.Units[0].Fits[0].Stop ||
				len(digest.Units[0].Selected) != 2 || fmt.Sprint(digest.Units[0].Accuracy) != fmt.Sprint(part.Units[0].Accuracy) {
				t.Errorf("unit %d: digest %s", u, d)
			}
		}
	}
	if w.parses != 1 {
		t.Errorf("%d parses, want 1 (prepare read the data for the units)", w.parses)
	}
	all := runJob(t, w, r, 20, `{"op":"merge","parts":[`+strings.Join(parts, ",")+`]}`, -1)["response"].(string)
	if m := runJob(t, w, r, 30, fmt.Sprintf(`{"op":"collect","session":7,"part":%s}`, parts[2]), -1); m["type"] != "result" {
		t.Fatalf("collect: %v", m)
	}
	m := runJob(t, w, r, 40, `{"op":"merge","session":7,"expect":4,"parts":[`+parts[3]+`]}`, -1)
	if m["type"] != "result" || m["response"] != all {
		t.Errorf("merge of the session: %v\nwant %s", m["response"], all)
	}
	if len(w.sessions) != 0 {
		t.Errorf("sessions left: %v", w.sessions)
	}
	// Light: the summaries now (no units), the report's JSON on asking.
	for u := 0; u < 4; u++ {
		runJob(t, w, r, 60+u, fmt.Sprintf(`{"op":"collect","session":11,"part":%s}`, parts[u]), -1)
	}
	m = runJob(t, w, r, 70, `{"op":"merge","session":11,"expect":4,"light":true}`, -1)
	var light, full job.EvalReport
	json.Unmarshal([]byte(m["response"].(string)), &light)
	json.Unmarshal([]byte(all), &full)
	for i := range full.Results {
		if light.Results[i].Units != nil {
			t.Errorf("light result %d: %+v", i, light.Results[i])
		}
		full.Results[i].Units, light.Results[i].Units = nil, nil
	}
	a, _ := json.Marshal(light) // as JSON: NaN (a redundancy at K = 1) is not DeepEqual to itself
	b, _ := json.Marshal(full)
	if string(a) != string(b) {
		t.Errorf("the light report is not the report without its units:\n%s\n%s", a, b)
	}
	if m := runJob(t, w, r, 71, `{"op":"report","session":11}`, -1); m["response"] != all {
		t.Errorf("the kept report: %v", m)
	}
	if m := runJob(t, w, r, 72, `{"op":"report","session":11}`, -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "no report kept for session 11") {
		t.Errorf("a report asked twice: %v", m)
	}
	// Light collects: the digest in the request, the part's JSON beside
	// it, read only for the report's JSON; the same summaries and report,
	// with or without a part kept in full.
	collectLight := func(id, session, u int) message {
		var p job.EvalPart
		json.Unmarshal([]byte(parts[u]), &p)
		digest, err := unitDigest(&p)
		if err != nil {
			t.Fatal(err)
		}
		w.start(id, fmt.Sprintf(`{"op":"collect","session":%d,"light":true,"part":%s}`, session, digest), -1, nil, []byte(parts[u]))
		return r.wait(t)
	}
	for _, own := range []bool{false, true} {
		session := 12
		if own {
			session = 13
			runJob(t, w, r, 80, fmt.Sprintf(`{"op":"collect","session":%d,"part":%s}`, session, parts[0]), -1)
		}
		for u := 0; u < 4; u++ {
			if own && u == 0 {
				continue
			}
			if m := collectLight(90+u, session, u); m["type"] != "result" {
				t.Fatalf("light collect: %v", m)
			}
		}
		m := runJob(t, w, r, 95, fmt.Sprintf(`{"op":"merge","session":%d,"expect":4,"light":true}`, session), -1)
		var got job.EvalReport
		json.Unmarshal([]byte(m["response"].(string)), &got)
		if c, _ := json.Marshal(got); string(c) != string(a) {
			t.Errorf("light collects (a part kept in full: %v): the summaries\n%s\nwant\n%s", own, c, a)
		}
		if m := runJob(t, w, r, 96, fmt.Sprintf(`{"op":"report","session":%d}`, session), -1); m["response"] != all {
			t.Errorf("light collects (a part kept in full: %v): the report %v", own, m)
		}
	}
	if m := runJob(t, w, r, 97, fmt.Sprintf(`{"op":"collect","session":14,"light":true,"part":%s}`, parts[0]), -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "needs the part's JSON") {
		t.Errorf("a light collect without the part's JSON: %v", m)
	}
	w.start(98, fmt.Sprintf(`{"op":"collect","session":15,"light":true,"part":%s}`, parts[0]), -1, nil, []byte(`{"units":`))
	r.wait(t)
	// No part kept in full: the first one's JSON gives the request, data
	// and splits.
	if m := runJob(t, w, r, 99, `{"op":"merge","session":15,"expect":1,"light":true}`, -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "a collected part cannot be read") {
		t.Errorf("a light merge of broken parts: %v", m)
	}
	for u := 1; u < 4; u++ {
		collectLight(100+u, 16, u)
	}
	w.start(104, fmt.Sprintf(`{"op":"collect","session":16,"light":true,"part":%s}`, parts[0]), -1, nil, []byte(`{"units":`))
	r.wait(t)
	if m := runJob(t, w, r, 105, `{"op":"merge","session":16,"expect":4,"light":true}`, -1); m["type"] != "result" {
		t.Errorf("light merge: %v", m)
	}
	if m := runJob(t, w, r, 106, `{"op":"report","session":16}`, -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "a collected part cannot be read") {
		t.Errorf("a broken part's JSON: %v", m)
	}
	runJob(t, w, r, 50, fmt.Sprintf(`{"op":"collect","session":8,"part":%s}`, parts[0]), -1)
	runJob(t, w, r, 51, fmt.Sprintf(`{"op":"collect","session":9,"part":%s}`, parts[1]), -1) // a newer run: session 8 is dropped
	if m := runJob(t, w, r, 52, `{"op":"merge","session":8,"expect":1}`, -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "incomplete session: 0 of 1 parts") {
		t.Errorf("an old session: %v", m)
	}
	if m := runJob(t, w, r, 53, `{"op":"merge","session":9,"expect":4}`, -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "incomplete session: 1 of 4 parts") {
		t.Errorf("incomplete session: %v", m)
	}
	if m := runJob(t, w, r, 54, `{"op":"collect","session":10,"part":[1]}`, -1); m["type"] != "error" || !strings.Contains(m["message"].(string), "Request.part of type job.EvalPart") {
		t.Errorf("bad part: %v", m)
	}
}

// A worker linked to the merging one (the page's MessageChannel) sends it
// its units' parts itself, late or not, and says so; the merging worker's
// light merge and report are those of a merge of every part. Without a
// link, or for another session, a worker keeps its parts as before.
func TestForwardedParts(t *testing.T) {
	csv := "a,b,c,label\n1,0,3,x\n2,2,1,x\n6,5,2,y\n7,5,0,y\n1,1,1,x\n8,6,2,y\n"
	eval := `"eval":{"methods":[{"method":"fisher"},{"method":"fstat"}],"k":[1,2],"protocol":{"kind":"cv","folds":2}}`
	unit := func(u, session int) string {
		return fmt.Sprintf(`{"op":"eval","data":{"name":"d.csv"},%s,"units":[%d],"session":%d}`, eval, u, session)
	}
	rm, rp := newRecorder(), newRecorder()
	merger, producer := newWorker(rm.post, nil), newWorker(rp.post, nil)
	for _, w := range []*worker{merger, producer} {
		w.load(1, "d.csv", []byte(csv))
	}
	const session = 5
	var sent sync.WaitGroup
	producer.link(session, func(digest, part []byte) error {
		sent.Add(1)
		go func() { // the port delivers later, after the page's merge request
			defer sent.Done()
			time.Sleep(30 * time.Millisecond)
			if err := merger.receive(session, digest, part); err != nil {
				t.Error(err)
			}
		}()
		return nil
	})
	merger.collectFrom(session)
	var parts []string
	if m := runJob(t, producer, rp, 10, unit(0, session+1), 1); m["forwarded"] != nil {
		t.Errorf("a unit of another session was forwarded: %v", m)
	}
	for u := 0; u < 4; u++ {
		w, r := producer, rp
		if u == 0 {
			w, r = merger, rm
		}
		m := runJob(t, w, r, 20+u, unit(u, session), 1)
		if (m["forwarded"] == true) != (u > 0) || m["digest"] == nil {
			t.Errorf("unit %d: %v", u, m)
		}
		parts = append(parts, m["response"].(string))
	}
	light := runJob(t, merger, rm, 30, fmt.Sprintf(`{"op":"merge","session":%d,"expect":4,"light":true}`, session), -1)
	if light["type"] != "result" {
		t.Fatalf("light merge: %v", light)
	}
	report := runJob(t, merger, rm, 31, fmt.Sprintf(`{"op":"report","session":%d}`, session), -1)
	if all := runJob(t, merger, rm, 32, `{"op":"merge","parts":[`+strings.Join(parts, ",")+`]}`, -1); report["response"] != all["response"] {
		t.Errorf("the report of forwarded parts: %v\nwant %v", report, all)
	}
	sent.Wait()
	if len(producer.sessions) != 1 || len(producer.sessions[session+1]) != 1 {
		t.Errorf("the producer kept %v", producer.sessions)
	}
	if err := merger.receive(session, []byte(`{}`), nil); err == nil {
		t.Error("a part without its JSON was accepted")
	}
	if err := merger.receive(session, []byte(`{"units":`), []byte(parts[0])); err == nil {
		t.Error("a broken digest was accepted")
	}
}
