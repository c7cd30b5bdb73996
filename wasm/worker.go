// Command wasm is the sparsefs Web Worker (build with GOOS=js GOARCH=wasm).
//
// It speaks the worker protocol of package api (api/worker.go: the message
// types, and how they travel): the page sends it datasets (api.Load) and
// jobs (api.Job), and it answers each job with api.Started, then
// api.Result or api.Failed, with api.JobProgress meanwhile.
//
// A job's task is a request of the job format (Task.Run, performed by
// core/job.Run on the loaded data), or one of the tasks only a worker can
// do, because they need what a worker keeps between jobs:
//
//   - Prepare: read the loaded data as a run will and warm the code up
//     (warm.go);
//   - Collect: keep an evaluation's part for a merge here;
//   - Merge: merge the parts kept for a session (light: the summaries
//     now, the report's JSON on WriteReport);
//   - WriteReport: write the report of a light merge.
//
// The worker keeps, per dataset, a way to read the file from its start
// (the page sends a Blob: the file is streamed in, never held whole as
// bytes) and the tables it was read into (one per way of reading it:
// label column, delimiter, header, missing values), so a run of many jobs
// on one file reads it once per worker.
//
// For an evaluation run on several workers the page gives each worker a
// MessagePort to the one that merges the run's parts (api.Link): a unit's
// part then goes straight to the merging worker, as an api.Collect, and
// the answer to the page says Forwarded; the page still gets the part (for
// the details, a merge elsewhere, a resume) but no longer sends it on.
//
// Jobs run one after another, in the order they arrive: the page may send
// a worker its next job before the current one ends, and Started says when
// a job begins. A job runs in a goroutine of its own and every panic
// becomes a Failed message: the page is never left waiting on a dead job.
// The logic here is plain Go, tested natively; main_js.go holds the only
// code that touches the browser.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
)

// ownedGCPercent is the collector's GOGC while a job holds a table of its
// own (one larger than keepBytes): its heap may then grow by a quarter of
// what is live before a collection, not double as by default — the
// large arrays it holds hold no pointers, so that a collection costs
// little, and a worker's memory, which never shrinks, stays near the
// job's live data (docs/results.md#memory-large).
const ownedGCPercent = 25

// Timing of the progress hook: messages are posted at most every
// progressEvery, and the job yields to the worker's event loop every
// yieldEvery so that a cancel message is received while it computes (Go's
// wasm port is not preemptive: docs/wasm.md#no-preemption).
const (
	progressEvery = 100 * time.Millisecond
	yieldEvery    = 50 * time.Millisecond
)

// maxReadings is how many readings of one dataset a worker keeps.
const maxReadings = 2

// keepBytes is the largest table (its float64 matrix) a worker keeps
// between jobs. A larger one is read afresh, as the file streams in, by
// every job on it, which then owns it (job.Input.Own: a selection scales
// it in place): the worker's peak is then the command line's — the table,
// the fit's working copy and its own (docs/results.md §4.1) — where a
// kept table would add a scaled copy of it, at the price of a parse per
// job.
const keepBytes = 64 << 20

// stored is a dataset sent with Load. Its file is read on a goroutine of
// its own (handle, read); ready is closed when that read has ended, after
// open and lines are set — or err, where it failed.
type stored struct {
	name     string
	ready    chan struct{}
	err      error
	open     func() (io.ReadCloser, error) // the file from its start
	lines    int                           // its line count (job.Input.Lines)
	readings []reading                     // most recent last
}

// reading is one reading of a stored dataset.
type reading struct {
	key   readKey
	table *job.Table
}

// readKey is what changes how a file is read.
type readKey struct{ label, targets, delimiter, header, missing string }

func keyOf(d *api.Data) readKey {
	return readKey{d.Label, strings.Join(d.Targets, "\x00"), d.Delimiter, strings.ToLower(d.Header), strings.ToLower(d.Missing)}
}

// worker runs jobs and posts their messages.
type worker struct {
	post    func(*api.FromWorker)
	yield   func()
	exec    func(context.Context, *api.Request, job.Input, func(api.Progress)) (*api.Response, error)
	now     func() time.Time // the clock of the progress hook
	keepMax int              // the largest table kept (keepBytes)

	mu      sync.Mutex
	running map[int]context.CancelFunc // queued and running jobs
	queue   []queued
	busy    bool // a goroutine is working through the queue
	data    map[int]*stored
	reads   int // datasets read so far (for tests)
	// sessions hold the evaluation parts collected for a merge here.
	sessions map[int][]kept
	// reports hold the parts of a light merge until the page asks for the
	// report's JSON.
	reports map[int][]kept
	// warming stops the warm-up going on, if any; warmed are the
	// variants warmUp has run (and "parts", the way of the parts), and
	// warmedData the table prepare last warmed up on in full.
	warming    context.CancelFunc
	warmed     map[string]bool
	warmedData *job.Table
	// peer sends this worker's parts to the worker that merges them;
	// collecting is the session whose parts other workers send here.
	peer       peer
	collecting int
	// ownedTable is the table the job running holds of its own (read for
	// it alone: table), spare the memory of the last such table's values,
	// which the next reading reads into (dataset.Options.Buffer); both
	// set and read by work's goroutine only.
	ownedTable *job.Table
	spare      []float64
}

// peer is a link to the worker that merges a session (link).
type peer struct {
	session int
	send    func(*api.Collect) error
}

// kept is a part kept for a merge: in full (raw nil), or light — its
// units' digest (api.UnitDigest), enough for the report's summaries — and
// its JSON, read in full only for the report's JSON.
type kept struct {
	part *api.EvalPart
	raw  []byte
}

// queued is a job waiting for its turn.
type queued struct {
	ctx context.Context
	job *api.Job
}

func newWorker(post func(*api.FromWorker), yield func()) *worker {
	return &worker{post: post, yield: yield, exec: job.Run, now: time.Now, keepMax: keepBytes, running: map[int]context.CancelFunc{}, data: map[int]*stored{},
		sessions: map[int][]kept{}, reports: map[int][]kept{}, warmed: map[string]bool{}}
}

// handle acts on a message from the page (a Link, which carries a port,
// is main_js.go's).
func (w *worker) handle(m *api.ToWorker) {
	switch {
	case m.Load != nil:
		// The read may wait for the browser (Stream): not in the
		// message's callback. The jobs that need the data wait for it.
		go w.read(m.Load, w.register(m.Load))
	case m.Unload != nil:
		w.unload(m.Unload.Data)
	case m.Job != nil:
		w.start(m.Job)
	case m.Cancel != nil:
		w.cancel(m.Cancel.ID)
	}
}

// register stores l's dataset, not yet read, in place of any earlier one
// of the same number.
func (w *worker) register(l *api.Load) *stored {
	s := &stored{name: l.Name, ready: make(chan struct{})}
	w.mu.Lock()
	w.data[l.Data] = s
	w.mu.Unlock()
	return s
}

// read reads l's file into s, as it streams in: its size, SHA-256 and
// line count, answered by a Loaded message, or a Failed one naming the
// file that cannot be read. It reads through Stream where the receiving
// side set it (one buffer, no chunks left to the browser's collector).
func (w *worker) read(l *api.Load, s *stored) {
	defer close(s.ready)
	open := l.Stream
	if open == nil {
		open = l.Open
	}
	if open == nil {
		b := l.Bytes
		open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	h := sha256.New()
	n, lines, err := digest(h, open)
	if err != nil {
		s.err = err // the jobs on it fail with it
		w.post(&api.FromWorker{Failed: &api.Failed{ID: -1, Message: fmt.Sprintf("cannot read %s: %v", l.Name, err)}})
		return
	}
	s.open, s.lines = open, lines
	w.post(&api.FromWorker{Loaded: &api.Loaded{Data: l.Data, Size: int(n), SHA256: hex.EncodeToString(h.Sum(nil))}})
}

// digest writes the file open opens into w and returns its size and its
// line count (dataset.RowsHint with default options: 0 when the file is
// not delimited text), both from the one read.
func digest(w io.Writer, open func() (io.ReadCloser, error)) (int64, int, error) {
	f, err := open()
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	cw := &counter{w: w}
	tee := io.TeeReader(f, cw)
	lines, err := dataset.RowsHint(context.Background(), tee, dataset.Options{MaxBytes: -1})
	if err != nil {
		return 0, 0, err
	}
	// The rest of the file, where the count stopped early.
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return 0, 0, err
	}
	return cw.n, lines, nil
}

// counter passes writes on to w and counts their bytes.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// unload forgets a dataset.
func (w *worker) unload(id int) {
	w.mu.Lock()
	delete(w.data, id)
	w.mu.Unlock()
}

// stored returns dataset id once its load's read has ended, or an error
// for people. It may wait: a job's goroutine only.
func (w *worker) stored(id int) (*stored, error) {
	w.mu.Lock()
	s := w.data[id]
	w.mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("the data (number %d) were not sent to this worker; load the file again", id)
	}
	<-s.ready
	if s.err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", s.name, s.err)
	}
	return s, nil
}

// table returns the reading of stored data id that d asks for, reading
// the file only when this worker has not read it that way recently; own
// says it is not kept (it is larger than keepBytes): the job it is for
// may change it, and when the job ends the worker keeps the memory of its
// values for the next reading (work).
func (w *worker) table(ctx context.Context, id int, d *api.Data) (t *job.Table, own bool, err error) {
	s, err := w.stored(id)
	if err != nil {
		return nil, false, err
	}
	key := keyOf(d)
	w.mu.Lock()
	for _, r := range s.readings {
		if r.key == key {
			w.mu.Unlock()
			return r.table, false, nil
		}
	}
	w.mu.Unlock()
	buf := w.spare
	w.spare = nil
	if t, err = (job.Input{Open: s.open, Lines: s.lines, Buffer: buf}).ReadTable(ctx, d); err != nil {
		return nil, false, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reads++
	if r, c := t.Data.X.Dims(); 8*r*c > w.keepMax {
		w.ownedTable = t
		return t, true, nil
	}
	if s == w.data[id] {
		if len(s.readings) == maxReadings {
			s.readings = s.readings[1:]
		}
		s.readings = append(s.readings, reading{key, t})
	}
	return t, false, nil
}

// start queues a job; the jobs run one after another, in a goroutine. A
// warm-up going on stops (prepare).
func (w *worker) start(j *api.Job) {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running[j.ID] = cancel
	w.queue = append(w.queue, queued{ctx, j})
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
			w.post(&api.FromWorker{Failed: &api.Failed{ID: q.job.ID, Message: "cancelled", Cancelled: true}})
		} else {
			w.post(&api.FromWorker{Started: &api.Started{ID: q.job.ID}})
			w.run(q.ctx, q.job)
		}
		if t := w.ownedTable; t != nil {
			// The job's table is garbage now but for the memory of its
			// values, which the next reading of the file reads into: an
			// array of that size allocated afresh would not fit where the
			// old one was once smaller objects took some of that space,
			// and the worker's memory, which never shrinks, would grow by
			// a table per job (docs/wasm.md#sync-read-starves-gc). The
			// rest is collected before the next job reads its own table,
			// so that it is not added to that job's peak (the collector
			// would wait for the heap to double).
			w.ownedTable = nil
			if t.Data != nil && t.Data.X != nil {
				w.spare = t.Data.X.RawMatrix().Data
			}
			runtime.GC()
		}
		w.mu.Lock()
		cancel := w.running[q.job.ID]
		delete(w.running, q.job.ID)
		w.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
}

// cancel stops a running job, or drops a queued one; its Failed message
// says it was cancelled.
func (w *worker) cancel(id int) {
	w.mu.Lock()
	c := w.running[id]
	w.mu.Unlock()
	if c != nil {
		c()
	}
}

// run performs one job and posts exactly one Result or Failed message for
// it, whatever happens.
func (w *worker) run(ctx context.Context, j *api.Job) {
	fail := func(cancelled bool, msg string) {
		w.post(&api.FromWorker{Failed: &api.Failed{ID: j.ID, Message: msg, Cancelled: cancelled}})
	}
	defer func() {
		if r := recover(); r != nil {
			fail(false, fmt.Sprintf("internal error (please report it): %v\n%s", r, debug.Stack()))
		}
	}()
	res := &api.Result{ID: j.ID}
	var err error
	t := &j.Task
	switch kinds := count(t.Run != nil, t.Prepare != nil, t.Collect != nil, t.Merge != nil, t.WriteReport != nil); {
	case kinds != 1:
		err = fmt.Errorf("a job must have exactly one task (it has %d)", kinds)
	case t.Run != nil:
		err = w.runRequest(ctx, j, res)
	case t.Prepare != nil:
		res.Response, err = w.prepare(ctx, j.Data, t.Prepare)
	case t.Collect != nil:
		res.Response, err = w.collect(t.Collect)
	case t.Merge != nil:
		res.Response, err = w.mergeSession(t.Merge)
	case t.WriteReport != nil:
		res.Response, err = w.report(t.WriteReport.Session)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fail(true, "cancelled")
		} else {
			fail(false, err.Error())
		}
		return
	}
	w.post(&api.FromWorker{Result: res})
}

// count is how many of its arguments are true.
func count(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}

// runRequest performs a job's request on its data; with a session, the
// part of an evaluation's units is kept here for the merge, or sent to the
// worker that merges it.
func (w *worker) runRequest(ctx context.Context, j *api.Job, res *api.Result) error {
	req := j.Task.Run
	var in job.Input
	if j.Data != 0 {
		s, err := w.stored(j.Data)
		if err != nil {
			return err
		}
		in.Open, in.Lines = s.open, s.lines
		if op := strings.ToLower(req.Op); op != api.OpInspect && op != api.OpMethods && op != api.OpMerge && op != api.OpSynth {
			if in.Table, in.Own, err = w.table(ctx, j.Data, &req.Data); err != nil {
				return err
			}
			if in.Own {
				defer debug.SetGCPercent(debug.SetGCPercent(ownedGCPercent))
			}
		}
	}
	resp, err := w.exec(ctx, req, in, w.progress(j.ID))
	if err != nil {
		return err
	}
	if res.Response, err = json.Marshal(resp); err != nil {
		return errors.New("cannot encode the result: " + err.Error())
	}
	if j.Task.Session > 0 && resp.EvalPart != nil && len(resp.EvalPart.Units) > 0 {
		if res.Digest, err = unitDigest(resp.EvalPart); err != nil {
			return err
		}
		c := &api.Collect{Session: j.Task.Session, Digest: res.Digest, Part: res.Response}
		if res.Forwarded = w.forward(c); !res.Forwarded {
			w.keep(j.Task.Session, kept{part: resp.EvalPart})
		}
	}
	return nil
}

// link makes this worker send the parts of session's units to the worker
// that merges them, through send (in the browser a MessagePort the page
// gave both workers: the parts go from worker to worker, the page's
// thread neither receives nor forwards them). A newer session replaces the
// link.
func (w *worker) link(session int, send func(*api.Collect) error) {
	w.mu.Lock()
	w.peer = peer{session, send}
	w.mu.Unlock()
}

// forward sends a unit's part to the worker that merges its session, if
// this worker has a link for it, and reports whether it did.
func (w *worker) forward(c *api.Collect) bool {
	w.mu.Lock()
	p := w.peer
	w.mu.Unlock()
	if p.send == nil || p.session != c.Session {
		return false
	}
	if err := p.send(c); err != nil {
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

// receive keeps a part another worker sent here (forward), as a Collect
// job would.
func (w *worker) receive(c *api.Collect) error {
	_, err := w.collect(c)
	return err
}

// unitDigest is api.DigestOf(p) as JSON.
func unitDigest(p *api.EvalPart) ([]byte, error) { return json.Marshal(api.DigestOf(p)) }

// collect keeps a part of an evaluation for the merge of its session in
// this worker: parts computed by other workers are taken as they come,
// while the other units run, instead of all at the end. It keeps the
// part's digest and its JSON unread: reading a part of a wide dataset in
// full takes 10–20 ms in a browser's worker, taken from the units still to
// run, and the summaries a light merge shows need only the digest. The
// JSON is read when the report's is written (report), where the parts are
// checked against each other as in any merge.
func (w *worker) collect(c *api.Collect) ([]byte, error) {
	if c.Session <= 0 || c.Digest == nil || c.Part == nil {
		return nil, errors.New("collect: a session, a part and its digest are needed")
	}
	var d api.UnitDigest
	if err := json.Unmarshal(c.Digest, &d); err != nil {
		return nil, fmt.Errorf("collect: a part's digest cannot be read: %v", err)
	}
	w.keep(c.Session, kept{part: &api.EvalPart{Units: d.Units}, raw: c.Part})
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

// mergeSession merges the parts collected for a session, and forgets the
// session. It refuses when the parts number fewer
// than the task expects (the page then sends them all). A light merge
// answers with the report's summaries, from the parts as kept (digests
// for the light ones, with the request, data and splits of a part kept in
// full), and keeps the parts for report.
func (w *worker) mergeSession(m *api.Merge) ([]byte, error) {
	if m.Session <= 0 {
		return nil, errors.New("merge: a session is needed")
	}
	w.awaitParts(m.Session, m.Expect)
	w.mu.Lock()
	ks := w.sessions[m.Session]
	delete(w.sessions, m.Session)
	w.mu.Unlock()
	if len(ks) < m.Expect {
		return nil, fmt.Errorf("incomplete session: %d of %d parts collected", len(ks), m.Expect)
	}
	if !m.Light {
		rep, err := mergeKept(ks)
		if err != nil {
			return nil, err
		}
		return json.Marshal(rep)
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
		if s < m.Session {
			delete(w.reports, s)
		}
	}
	w.reports[m.Session] = ks
	w.mu.Unlock()
	light := *rep
	summary := *rep.Report
	summary.Results = append([]api.VariantResult(nil), rep.Results...)
	for i := range summary.Results {
		summary.Results[i].Units = nil
	}
	light.Report = &summary
	return json.Marshal(&light)
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
func lightParts(ks []kept) ([]*api.EvalPart, error) {
	var whole *api.EvalPart
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
	parts := make([]*api.EvalPart, len(ks))
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
func mergeKept(ks []kept) (*api.EvalReport, error) {
	parts := make([]*api.EvalPart, len(ks))
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
func readPart(raw []byte) (*api.EvalPart, error) {
	var p api.EvalPart
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
	return json.Marshal(rep)
}

// prepare reads the loaded data as a run will (the worker keeps the
// reading) and warms the worker's code up, so that a run does not pay for
// V8's first, slower compilation of it (docs/wasm.md#baseline-tier): the
// task's plan, if any, on a slice of the data (warmUp), then a unit of the
// F statistic on half the samples of the whole data (which also leaves the
// table's facts — SHA-256, constant features — computed for the run). Any
// job that arrives meanwhile stops the warm-up (start). It answers {}
// whether or not the warm-up could run.
func (w *worker) prepare(ctx context.Context, data int, p *api.Prepare) ([]byte, error) {
	if data == 0 {
		return []byte("{}"), nil
	}
	t, own, err := w.table(ctx, data, &p.Data)
	if err != nil {
		return nil, err
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
	ran := w.warmUp(ctx, p, t)
	ds := t.Data
	// A table not kept (own) is not warmed up on in full: the jobs read
	// their own.
	if own || len(ds.Classes) < 2 || ctx.Err() != nil || (!ran && w.warmedData == t) {
		return []byte("{}"), nil
	}
	warm := &api.Request{Op: api.OpEval, Data: p.Data, Units: []int{0}, Eval: &api.Plan{Methods: []api.Variant{{Method: "fstat"}},
		K: []int{min(5, len(ds.Features))}, Protocol: api.Protocol{Kind: api.CV, Folds: 2}}}
	if resp, err := w.exec(ctx, warm, job.Input{Table: t}, nil); err == nil {
		json.Marshal(resp)
		w.warmedData = t
	}
	return []byte("{}"), nil
}

// progress returns the job's progress hook: it posts throttled progress
// messages and yields to the event loop regularly.
func (w *worker) progress(id int) func(api.Progress) {
	var lastPost, lastYield time.Time
	return func(p api.Progress) {
		now := w.now()
		if now.Sub(lastPost) >= progressEvery {
			lastPost = now
			if math.IsInf(float64(p.Objective), 0) {
				p.Objective = api.Float(math.NaN())
			}
			w.post(&api.FromWorker{Progress: &api.JobProgress{ID: id, Progress: p}})
		}
		if w.yield != nil && now.Sub(lastYield) >= yieldEvery {
			lastYield = now
			w.yield()
		}
	}
}
