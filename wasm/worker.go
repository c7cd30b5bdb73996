// Command wasm is the sparsefs Web Worker (build with GOOS=js GOARCH=wasm).
//
// It speaks a small message protocol with the page (ui/); every message is a
// plain object with a "type":
//
//	page → worker  {type: "load", data: ID, name, bytes: ArrayBuffer}
//	               {type: "unload", data: ID}
//	               {type: "job", id, request: JSON, data?: ID, part?: JSON}
//	               {type: "cancel", id}
//	               {type: "peer", session, port: MessagePort}      (transferred)
//	               {type: "collector", session, port: MessagePort} (transferred)
//	worker → page  {type: "ready"}
//	               {type: "loaded", data: ID, size, sha256}
//	               {type: "started", id}
//	               {type: "progress", id, iteration, maxIterations, objective, fraction}
//	               {type: "result", id, response: JSON (UTF-8 in an ArrayBuffer, transferred), digest?: JSON, forwarded?: true}
//	               {type: "error", id, message, cancelled}
//	worker → worker (the port) {session, digest: JSON, part: ArrayBuffer} (transferred)
//
// A dataset is sent once per worker with "load" (its bytes transferred, not
// cloned) under a number the page chooses; jobs name it by that number. The
// worker keeps the bytes and the parsed tables (one per way of reading
// them: label column, delimiter, header, missing values), so a run of many
// jobs on one file parses it once per worker. "loaded" answers with the
// file's SHA-256, which the page records in its reports.
//
// A job's request is a job.Request and its response the job's JSON. The
// worker also performs the operations of the job format that only a worker
// can (core/job/worker.go): "reduce" (the loaded data restricted to the
// features "columns", as CSV: a job.Reduced), "synth" (the gsr-fs §5.1
// synthetic data, exactly as "sparsefs synth" writes them: a job.Reduced),
// "prepare" (read the data and warm up, for the plan in its Eval if
// any: warm.go), "collect" (keep an evaluation's
// part for a merge here), a "merge" with a session (merge the parts kept)
// and "report" (write a report a light merge kept). A light "collect"
// carries the part's digest in its request and the part's JSON beside it,
// in the message's "part": the worker reads the JSON only when it writes
// the report (see collect).
//
// For an evaluation run on several workers the page makes a MessageChannel
// from each worker to the one that merges the run's parts ("peer" and
// "collector", per session): a unit's part then goes straight to the
// merging worker (link, forward, receive), with its digest, as a light
// collect would bring it, and the answer to the page says "forwarded";
// the page still gets the part (for the details, a merge elsewhere, a
// resume) but no longer sends it on. A worker without a link for the
// session keeps its unit's part itself, as before.
//
// Jobs run one after another, in the order they arrive: the page may send
// a worker its next job before the current one ends (so that no time is
// lost waiting for the page between two jobs), and "started" says when a
// job begins. A job runs in a goroutine of its own and every panic becomes
// an "error" message: the page is never left waiting on a dead job. The
// logic here is plain Go, tested natively; main_js.go holds the only code
// that touches the browser.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"sparsefs/core/dataset"
	"sparsefs/core/evaluate"
	"sparsefs/core/job"
)

// message is one message to the page.
type message = map[string]any

// Timing of the progress hook: messages are posted at most every
// progressEvery, and the job yields to the worker's event loop every
// yieldEvery so that a cancel message is received while it computes (Go's
// wasm port is not preemptive; see WASM-NOTES trap 9).
const (
	progressEvery = 100 * time.Millisecond
	yieldEvery    = 50 * time.Millisecond
)

// maxParsed is how many readings of one dataset a worker keeps.
const maxParsed = 2

// stored is a dataset sent with "load".
type stored struct {
	name   string
	bytes  []byte
	parsed []parsed // most recent last
}

// parsed is one reading of a stored dataset.
type parsed struct {
	key parseKey
	ds  *dataset.Dataset
}

// parseKey is what changes how a file is read.
type parseKey struct{ label, delimiter, header, missing string }

func keyOf(d *job.Data) parseKey {
	return parseKey{d.Label, d.Delimiter, strings.ToLower(d.Header), strings.ToLower(d.Missing)}
}

// worker runs jobs and posts their messages.
type worker struct {
	post  func(message)
	yield func()
	exec  func(context.Context, *job.Request, func(job.Progress)) (*job.Response, error)

	mu      sync.Mutex
	running map[int]context.CancelFunc // queued and running jobs
	queue   []queuedJob
	busy    bool // a goroutine is working through the queue
	data    map[int]*stored
	parses  int // datasets parsed so far (for tests)
	// sessions hold the evaluation parts collected for a merge here.
	sessions map[int][]kept
	// reports hold the parts of a light merge until the page asks for the
	// report's JSON.
	reports map[int][]kept
	// warming stops the warm-up going on, if any; warmed are the
	// variants warmUp has run (and "parts", the way of the parts), and
	// warmedData the data prepare last warmed up on in full.
	warming    context.CancelFunc
	warmed     map[string]bool
	warmedData *dataset.Dataset
	// peer sends this worker's parts to the worker that merges them;
	// collecting is the session whose parts other workers send here.
	peer       peer
	collecting int
}

// peer is a link to the worker that merges a session (link).
type peer struct {
	session int
	send    func(digest, part []byte) error
}

// kept is a part kept for a merge: in full (raw nil), or light — its units
// without the fits' rankings, scores, per-class rankings and weights (a
// unit's digest), enough for the report's summaries — and its JSON, read
// in full only for the report's JSON.
type kept struct {
	part *job.EvalPart
	raw  []byte
}

// queuedJob is a job waiting for its turn.
type queuedJob struct {
	ctx    context.Context
	id     int
	text   string
	dataID int
	inline []byte
	part   []byte
}

func newWorker(post func(message), yield func()) *worker {
	return &worker{post: post, yield: yield, exec: job.Run, running: map[int]context.CancelFunc{}, data: map[int]*stored{},
		sessions: map[int][]kept{}, reports: map[int][]kept{}, warmed: map[string]bool{}}
}

// load stores a dataset's bytes under id (replacing any earlier one) and
// answers with their size and SHA-256.
func (w *worker) load(id int, name string, b []byte) {
	sum := sha256.Sum256(b)
	w.mu.Lock()
	w.data[id] = &stored{name: name, bytes: b}
	w.mu.Unlock()
	w.post(message{"type": "loaded", "data": id, "size": len(b), "sha256": hex.EncodeToString(sum[:])})
}

// unload forgets a dataset.
func (w *worker) unload(id int) {
	w.mu.Lock()
	delete(w.data, id)
	w.mu.Unlock()
}

// dataset returns the reading of stored data id that d asks for, parsing
// it only when this worker has not read it that way recently.
func (w *worker) dataset(id int, d *job.Data) (*dataset.Dataset, error) {
	key := keyOf(d)
	w.mu.Lock()
	s := w.data[id]
	if s == nil {
		w.mu.Unlock()
		return nil, fmt.Errorf("the data (number %d) were not sent to this worker; load the file again", id)
	}
	for _, p := range s.parsed {
		if p.key == key {
			w.mu.Unlock()
			return p.ds, nil
		}
	}
	raw := s.bytes
	w.mu.Unlock()
	dd := *d
	dd.Bytes, dd.Parsed = raw, nil
	ds, err := job.Load(&dd)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.parses++
	if s == w.data[id] {
		if len(s.parsed) == maxParsed {
			s.parsed = s.parsed[1:]
		}
		s.parsed = append(s.parsed, parsed{key, ds})
	}
	return ds, nil
}

// start queues a job; the jobs run one after another, in a goroutine. A
// warm-up going on stops (prepare).
// dataID names a loaded dataset (negative: none); inline, if not nil, is
// the data itself; part, if not nil, is the JSON of the part a light
// collect keeps.
func (w *worker) start(id int, text string, dataID int, inline, part []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running[id] = cancel
	w.queue = append(w.queue, queuedJob{ctx, id, text, dataID, inline, part})
	if w.warming != nil {
		w.warming() // a job waits: the warm-up stops at its next step
	}
	if !w.busy {
		w.busy = true
		go w.work()
	}
}

// work runs the queued jobs until none is left.
func (w *worker) work() {
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.busy = false
			w.mu.Unlock()
			return
		}
		q := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		if q.ctx.Err() != nil {
			w.post(message{"type": "error", "id": q.id, "cancelled": true, "message": "cancelled"})
		} else {
			w.post(message{"type": "started", "id": q.id})
			w.run(q.ctx, q.id, q.text, q.dataID, q.inline, q.part)
		}
		w.mu.Lock()
		cancel := w.running[q.id]
		delete(w.running, q.id)
		w.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// cancel stops a running job, or drops a queued one; its error message
// says it was cancelled.
func (w *worker) cancel(id int) {
	w.mu.Lock()
	c := w.running[id]
	w.mu.Unlock()
	if c != nil {
		c()
	}
}

// run performs one job and posts exactly one "result" or "error" message
// for it, whatever happens.
func (w *worker) run(ctx context.Context, id int, text string, dataID int, inline, part []byte) {
	fail := func(cancelled bool, msg string) {
		w.post(message{"type": "error", "id": id, "cancelled": cancelled, "message": msg})
	}
	defer func() {
		if r := recover(); r != nil {
			fail(false, fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack()))
		}
	}()
	var req job.Request
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		fail(false, "malformed request: "+err.Error())
		return
	}
	op := strings.ToLower(req.Op)
	switch {
	case inline != nil:
		req.Data.Bytes = inline
	case dataID >= 0 && op == job.OpInspect:
		w.mu.Lock()
		s := w.data[dataID]
		w.mu.Unlock()
		if s == nil {
			fail(false, fmt.Sprintf("the data (number %d) were not sent to this worker; load the file again", dataID))
			return
		}
		req.Data.Bytes = s.bytes
	case dataID >= 0 && op != job.OpMethods:
		ds, err := w.dataset(dataID, &req.Data)
		if err != nil {
			fail(false, err.Error())
			return
		}
		req.Data.Parsed = ds
	}
	var out, digest []byte
	var forwarded bool
	var err error
	switch {
	case op == job.OpReduce:
		out, err = reduce(&req)
	case op == job.OpSynth:
		out, err = synth(req.Synth)
	case op == job.OpPrepare:
		out, err = w.prepare(ctx, &req)
	case op == job.OpCollect:
		out, err = w.collect(&req, part)
	case op == job.OpMerge && req.Session > 0:
		out, err = w.mergeSession(&req)
	case op == job.OpReport:
		out, err = w.report(req.Session)
	default:
		var resp *job.Response
		resp, err = w.exec(ctx, &req, w.progress(id))
		if err == nil {
			out, err = job.Marshal(resp, false)
			if err != nil {
				err = errors.New("cannot encode the result: " + err.Error())
			}
		}
		if err == nil && req.Session > 0 && resp.EvalPart != nil && len(resp.EvalPart.Units) > 0 {
			if digest, err = unitDigest(resp.EvalPart); err == nil {
				if forwarded = w.forward(req.Session, digest, out); !forwarded {
					w.keep(req.Session, kept{part: resp.EvalPart})
				}
			}
		}
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fail(true, "cancelled")
		} else {
			fail(false, err.Error())
		}
		return
	}
	msg := message{"type": "result", "id": id, "response": string(out)}
	if digest != nil {
		msg["digest"] = string(digest)
	}
	if forwarded {
		msg["forwarded"] = true
	}
	w.post(msg)
}

// link makes this worker send the parts of session's units, as light
// collects, to the worker that merges them, through send (in the browser
// a MessagePort the page gave both workers: the parts go from worker to
// worker, the page's thread neither receives nor forwards them). A newer
// session replaces the link.
func (w *worker) link(session int, send func(digest, part []byte) error) {
	w.mu.Lock()
	w.peer = peer{session, send}
	w.mu.Unlock()
}

// forward sends a unit's part and digest to the worker that merges its
// session, if this worker has a link for it, and reports whether it did.
func (w *worker) forward(session int, digest, part []byte) bool {
	w.mu.Lock()
	p := w.peer
	w.mu.Unlock()
	if p.send == nil || p.session != session {
		return false
	}
	if err := p.send(digest, part); err != nil {
		fmt.Println("sparsefs worker: cannot send a part to the merging worker:", err)
		return false
	}
	return true
}

// collectFrom tells this worker that other workers send it session's
// parts (receive), so that its merge waits for them.
func (w *worker) collectFrom(session int) {
	w.mu.Lock()
	w.collecting = session
	w.mu.Unlock()
}

// receive keeps, as a light collect, a part another worker sent here
// (forward): its digest read now, its JSON when the report's is written.
func (w *worker) receive(session int, digest, part []byte) error {
	if part == nil {
		return errors.New("a part came without its JSON")
	}
	var p job.EvalPart
	if err := json.Unmarshal(digest, &p); err != nil {
		return fmt.Errorf("a part's digest cannot be read: %v", err)
	}
	w.keep(session, kept{part: &p, raw: part})
	return nil
}

// unitDigest is what the page shows of an evaluation part while the run
// goes on: its units without the fits' full rankings, scores, per-class
// rankings and weights, {"units": […]} — a few kilobytes the page reads
// instead of the part (hundreds of kilobytes for a wide dataset), keeping
// its thread free while the workers compute.
func unitDigest(p *job.EvalPart) ([]byte, error) {
	units := make([]*evaluate.UnitResult, len(p.Units))
	for i, u := range p.Units {
		d := *u
		d.Fits = make([]evaluate.Fit, len(u.Fits))
		for k, f := range u.Fits {
			f.Ranking, f.Scores, f.PerClass, f.Weights = nil, nil, nil, nil
			d.Fits[k] = f
		}
		units[i] = &d
	}
	return json.Marshal(map[string]any{"units": units})
}

// reduce writes the data restricted to req.Columns plus the label as CSV
// (comma-separated, a header row, numbers in their shortest exact form, a
// missing cell empty, the label as its class name), and returns
// {"name", "csv"} as JSON.
func reduce(req *job.Request) ([]byte, error) {
	ds := req.Data.Parsed
	if ds == nil {
		var err error
		if ds, err = job.Load(&req.Data); err != nil {
			return nil, err
		}
	}
	n := len(ds.Features)
	if len(req.Columns) == 0 {
		return nil, errors.New("no features chosen for the reduced data")
	}
	for _, j := range req.Columns {
		if j < 0 || j >= n {
			return nil, fmt.Errorf("feature %d does not exist: the data have %d features", j, n)
		}
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	row := make([]string, 0, len(req.Columns)+1)
	for _, j := range req.Columns {
		row = append(row, ds.Features[j])
	}
	cw.Write(append(row, ds.Label))
	for i := 0; i < ds.Rows(); i++ {
		row = row[:0]
		for _, j := range req.Columns {
			v := ds.X.At(i, j)
			if math.IsNaN(v) {
				row = append(row, "")
			} else {
				row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
		cw.Write(append(row, ds.Classes[ds.Y[i]]))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return nil, err
	}
	name := req.Data.Name
	if name == "" {
		name = "data"
	}
	name = strings.TrimSuffix(name, ".gz")
	for _, ext := range []string{".csv", ".tsv", ".txt"} {
		name = strings.TrimSuffix(name, ext)
	}
	return json.Marshal(job.Reduced{Name: fmt.Sprintf("%s-top%d.csv", name, len(req.Columns)), CSV: buf.String()})
}

// prepare reads the loaded data as a run will (the worker keeps the
// reading) and warms the worker's code up, so that a run does not pay for
// V8's first, slower compilation of it (WASM-NOTES): the request's Eval,
// the configuration's plan if the page has one, on a slice of the data
// (warmUp), then a unit of the F statistic on half the samples of the
// whole data (which also leaves the data's facts — SHA-256, constant
// features — computed for the run). Any job that arrives meanwhile stops
// the warm-up (start). It answers {} whether or not the warm-up could run.
func (w *worker) prepare(ctx context.Context, req *job.Request) ([]byte, error) {
	ds := req.Data.Parsed
	if ds == nil {
		return []byte("{}"), nil
	}
	ctx, cancel := context.WithCancel(ctx)
	w.mu.Lock()
	w.warming = cancel
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.warming = nil
		w.mu.Unlock()
		cancel()
	}()
	ran := w.warmUp(ctx, req, ds)
	if len(ds.Classes) < 2 || ctx.Err() != nil || (!ran && w.warmedData == ds) {
		return []byte("{}"), nil
	}
	warm := *req
	warm.Op, warm.Units = job.OpEval, []int{0}
	warm.Eval = &evaluate.Plan{Methods: []evaluate.Variant{{Method: "fstat"}}, K: []int{min(5, len(ds.Features))},
		Protocol: evaluate.Protocol{Kind: evaluate.CV, Folds: 2}}
	if resp, err := w.exec(ctx, &warm, nil); err == nil {
		job.Marshal(resp, false)
		w.warmedData = ds
	}
	return []byte("{}"), nil
}

// collect keeps a part of an evaluation for a merge in this worker (a
// merge with the same session): parts computed by other workers are read
// as they come, while the other units run, instead of all at the end. (A
// unit job with a session keeps its own part.)
//
// A light collect (Light, with the part's JSON beside the request) keeps
// the part's digest (the request's Part) and its JSON unread: reading a
// part of a wide dataset in full takes 10–20 ms in a browser's worker,
// taken from the units still to run, and the summaries a light merge
// shows need only the digest. The JSON is read when the report's is
// written (report), where the parts are checked against each other as in
// any merge.
func (w *worker) collect(req *job.Request, raw []byte) ([]byte, error) {
	if req.Session <= 0 || req.Part == nil {
		return nil, errors.New("collect: a session and a part are needed")
	}
	k := kept{part: req.Part}
	if req.Light {
		if raw == nil {
			return nil, errors.New("collect: a light collect needs the part's JSON beside the request")
		}
		k.raw = raw
	}
	w.keep(req.Session, k)
	return []byte("{}"), nil
}

// keep adds a part to a session. Sessions are numbered in the order the
// page starts runs: a new one drops the older ones (a run cancelled before
// its merge).
func (w *worker) keep(session int, k kept) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for s := range w.sessions {
		if s < session {
			delete(w.sessions, s)
		}
	}
	w.sessions[session] = append(w.sessions[session], k)
}

// mergeSession merges the parts collected for a session and those of the
// request, and forgets the session. It refuses when the parts number fewer
// than the request expects (the page then sends them all). A light merge
// answers with the report's summaries, from the parts as kept (digests
// for the light ones, with the request, data and splits of a part kept in
// full), and keeps the parts for report.
func (w *worker) mergeSession(req *job.Request) ([]byte, error) {
	w.awaitParts(req.Session, req.Expect-len(req.Parts))
	w.mu.Lock()
	ks := w.sessions[req.Session]
	delete(w.sessions, req.Session)
	w.mu.Unlock()
	for _, p := range req.Parts {
		ks = append(ks, kept{part: p})
	}
	if len(ks) < req.Expect {
		return nil, fmt.Errorf("incomplete session: %d of %d parts collected", len(ks), req.Expect)
	}
	if !req.Light {
		rep, err := mergeKept(ks)
		if err != nil {
			return nil, err
		}
		return job.Marshal(&job.Response{EvalReport: rep}, false)
	}
	parts, err := lightParts(ks)
	if err != nil {
		return nil, err
	}
	rep, err := job.Merge(parts)
	if err != nil {
		return nil, err
	}
	// The summaries now, the report's JSON (a hundred milliseconds and
	// megabytes for a wide dataset) when the page asks for it.
	w.mu.Lock()
	for s := range w.reports {
		if s < req.Session {
			delete(w.reports, s)
		}
	}
	w.reports[req.Session] = ks
	w.mu.Unlock()
	light := *rep
	summary := *rep.Report
	summary.Results = append([]evaluate.VariantResult(nil), rep.Results...)
	for i := range summary.Results {
		summary.Results[i].Units = nil
	}
	light.Report = &summary
	return job.Marshal(&job.Response{EvalReport: &light}, false)
}

// partsWait is how long a merge waits for the parts other workers sent
// here directly (forward): the page asks for the merge once every unit's
// worker has answered it, and a part travels on another channel, so it
// may arrive just after the merge's request.
const partsWait = time.Second

// awaitParts waits, for partsWait at most, until session holds n parts,
// when other workers send it parts (collectFrom).
func (w *worker) awaitParts(session, n int) {
	for deadline := time.Now().Add(partsWait); ; {
		w.mu.Lock()
		have, linked := len(w.sessions[session]), w.collecting == session
		w.mu.Unlock()
		if !linked || have >= n || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond) // in the browser: the worker's event loop delivers them
	}
}

// lightParts are the kept parts as a light merge reads them: a digest
// takes the request, data, features and splits of a part kept in full (or
// of the first light part, read in full, when none is).
func lightParts(ks []kept) ([]*job.EvalPart, error) {
	var whole *job.EvalPart
	for _, k := range ks {
		if k.raw == nil {
			whole = k.part
			break
		}
	}
	if whole == nil && len(ks) > 0 {
		var err error
		if whole, err = readPart(ks[0].raw); err != nil {
			return nil, err
		}
	}
	parts := make([]*job.EvalPart, len(ks))
	for i, k := range ks {
		parts[i] = k.part
		if k.raw != nil {
			p := *whole
			p.Units = k.part.Units
			parts[i] = &p
		}
	}
	return parts, nil
}

// mergeKept merges the kept parts in full (reading the light ones'
// JSON).
func mergeKept(ks []kept) (*job.EvalReport, error) {
	parts := make([]*job.EvalPart, len(ks))
	for i, k := range ks {
		parts[i] = k.part
		if k.raw != nil {
			var err error
			if parts[i], err = readPart(k.raw); err != nil {
				return nil, err
			}
		}
	}
	return job.Merge(parts)
}

// readPart reads a part's JSON.
func readPart(raw []byte) (*job.EvalPart, error) {
	var p job.EvalPart
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("a collected part cannot be read: %v", err)
	}
	return &p, nil
}

// report writes the JSON of the report of a light merge (merging the
// parts it kept in full), and forgets them.
func (w *worker) report(session int) ([]byte, error) {
	w.mu.Lock()
	ks, ok := w.reports[session]
	delete(w.reports, session)
	w.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no report kept for session %d", session)
	}
	rep, err := mergeKept(ks)
	if err != nil {
		return nil, err
	}
	return job.Marshal(&job.Response{EvalReport: rep}, false)
}

// synth generates the data of gsr-fs §5.1 (dataset.Synth) and returns
// {"name", "csv"} as JSON: the CSV that "sparsefs synth" writes with the
// same settings.
func synth(s *job.Synth) ([]byte, error) {
	if s == nil {
		return nil, errors.New("synth: no settings given (m, d1, d2, c, outliers, seed, task)")
	}
	var targets, label bool
	switch s.Task {
	case "", "classification":
		label = true
	case "regression":
		targets = true
	default:
		return nil, fmt.Errorf("synth: task %q: use classification or regression", s.Task)
	}
	g := dataset.Synth{M: s.M, D1: s.D1, D2: s.D2, C: s.C, Outliers: s.Outliers, Seed: s.Seed}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if cells := float64(s.M) * float64(3*s.D1+s.D2); cells > job.MaxSynthCells {
		return nil, fmt.Errorf("synth: %d samples × %d features is %.0f values; at most %d fit in a page (use the command line, sparsefs synth, for more)", s.M, 3*s.D1+s.D2, cells, job.MaxSynthCells)
	}
	data, err := g.Generate()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := data.WriteCSV(&buf, targets, label); err != nil {
		return nil, err
	}
	name := s.Name
	if name == "" {
		name = "synthetic.csv"
	}
	return json.Marshal(job.Reduced{Name: name, CSV: buf.String()})
}

// progress returns the job's progress hook: it posts throttled progress
// messages and yields to the event loop regularly.
func (w *worker) progress(id int) func(job.Progress) {
	var lastPost, lastYield time.Time
	return func(p job.Progress) {
		now := time.Now()
		if now.Sub(lastPost) >= progressEvery {
			lastPost = now
			obj := p.Objective
			if math.IsInf(obj, 0) {
				obj = math.NaN()
			}
			w.post(message{"type": "progress", "id": id, "iteration": p.Iteration,
				"maxIterations": p.MaxIterations, "objective": obj, "fraction": p.Fraction})
		}
		if w.yield != nil && now.Sub(lastYield) >= yieldEvery {
			lastYield = now
			w.yield()
		}
	}
}
