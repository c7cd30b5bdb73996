// Package pool runs independent jobs on a pool of Web Workers: a queue,
// per-job progress, an overall fraction and an estimate of the time left,
// and a cancel that stops every worker at once (they are terminated and
// started afresh; finished jobs keep their results).
//
// A worker runs one job at a time, but while the queue is long it is sent
// its next job before the current one ends (Depth): the worker starts it
// the moment it is free, instead of waiting for the page to read the
// answer and send another — which, when the page is busy drawing, cost
// about 0.15 s per job.
//
// A dataset is sent to a worker once ("load"), the first time a job on it
// goes there; the jobs then name it by number. A worker started afresh gets
// it again when it next needs it.
//
// The pool is plain Go: a Transport (Web Workers in the page, fakes in the
// tests) carries its messages. It is not safe for concurrent use; the page
// calls it, and feeds it the workers' messages, under its own lock.
package pool

import (
	"fmt"
	"time"

	"sparsefs/api"
)

// Transport starts workers and posts messages to them (the worker
// protocol of package api). Messages posted to a worker before it is ready
// are queued by the worker, in order; a worker runs the jobs it is sent one
// after another, in order.
type Transport interface {
	// Spawn starts the worker of a slot (replacing none: the slot is
	// free).
	Spawn(slot int)
	// Terminate stops the worker of a slot at once.
	Terminate(slot int)
	// Load sends dataset data (the bytes kept under that number) to a
	// slot's worker (api.Load); Unload makes it forget them.
	Load(slot, data int)
	Unload(slot, data int)
	// Start sends a job (api.Job).
	Start(slot int, j *api.Job)
}

// State is where a job is.
type State int

const (
	Queued State = iota
	Running
	Done
	Failed
	Cancelled
)

var stateNames = [...]string{"queued", "running", "done", "failed", "cancelled"}

func (s State) String() string { return stateNames[s] }

// Finished reports whether the job has ended, one way or another.
func (s State) Finished() bool { return s >= Done }

// Job is one unit of work.
type Job struct {
	ID int
	// Label says what the job does, for people.
	Label string
	Task  api.Task
	// Data is the dataset the job reads (0: none).
	Data int
	// Want is the slot the job must run on (negative: any): a job that
	// uses what an earlier job left in that worker. Should that slot be
	// gone (the pool shrank), any worker takes it.
	Want int

	// State is Queued until the job runs (also while it waits in its
	// worker behind another job), then Running, then finished.
	State    State
	Slot     int // the slot it was sent to (−1 before)
	Progress api.Progress
	// Queued, Started and Ended are when the job entered each state.
	Queued, Started, Ended time.Time
	// Response is the worker's answer (Done), Digest what the worker
	// digested of it for the page (if anything); Err says why it failed.
	Response []byte
	Digest   []byte
	// Forwarded says the worker also sent the response to the worker that
	// merges a run's parts (api.Link).
	Forwarded bool
	Err       string

	onProgress func(*Job)
	onDone     func(*Job)
}

// Seconds is the job's running time so far (or in all, once finished).
func (j *Job) Seconds(now time.Time) float64 {
	switch {
	case j.Started.IsZero():
		return 0
	case j.Ended.IsZero():
		return now.Sub(j.Started).Seconds()
	}
	return j.Ended.Sub(j.Started).Seconds()
}

// Fraction is the share of the job done: 1 once finished, the worker's
// estimate while it runs.
func (j *Job) Fraction() float64 {
	switch {
	case j.State.Finished():
		return 1
	case j.State == Running:
		return clamp01(j.Progress.Fraction)
	}
	return 0
}

func clamp01(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

type slot struct {
	// jobs were sent to this worker, in order: the first runs, the others
	// wait in the worker.
	jobs    []*Job
	data    map[int]bool // datasets this worker holds
	ready   bool
	retired bool // to be removed once its job ends (the pool shrank)
}

// Pool dispatches jobs to workers.
type Pool struct {
	// Depth is how many jobs a worker may hold at once (its running job
	// and those sent ahead). A job is sent ahead only while at least as
	// many jobs wait as there are workers, so that near the end of a run
	// no job waits behind a long one while another worker is idle.
	Depth int
	t     Transport
	now   func() time.Time
	slots []*slot
	queue []*Job
	jobs  map[int]*Job // queued and running
	next  int
}

// DefaultDepth is the pool's Depth: one job sent ahead.
const DefaultDepth = 2

// New starts a pool of n workers (at least one).
func New(t Transport, n int, now func() time.Time) *Pool {
	if now == nil {
		now = time.Now
	}
	p := &Pool{Depth: DefaultDepth, t: t, now: now, jobs: map[int]*Job{}}
	p.Resize(n)
	return p
}

// busy reports whether a slot holds a job.
func (s *slot) busy() bool { return len(s.jobs) > 0 }

// Size is the number of workers.
func (p *Pool) Size() int {
	n := 0
	for _, s := range p.slots {
		if s != nil && !s.retired {
			n++
		}
	}
	return n
}

// Ready reports how many workers have said they are ready.
func (p *Pool) ReadyCount() int {
	n := 0
	for _, s := range p.slots {
		if s != nil && !s.retired && s.ready {
			n++
		}
	}
	return n
}

// Resize changes the number of workers (at least one). Extra workers
// stop once their current job ends.
func (p *Pool) Resize(n int) {
	n = max(n, 1)
	live := 0
	for i, s := range p.slots {
		if s == nil {
			continue
		}
		if s.retired && live < n {
			s.retired = false
		}
		if !s.retired {
			live++
			if live > n {
				s.retired = true
				if !s.busy() {
					p.t.Terminate(i)
					p.slots[i] = nil
				}
			}
		}
	}
	for i := 0; live < n; i++ {
		if i == len(p.slots) {
			p.slots = append(p.slots, nil)
		}
		if p.slots[i] == nil {
			p.spawn(i)
			live++
		}
	}
	p.dispatch()
}

func (p *Pool) spawn(i int) {
	p.slots[i] = &slot{data: map[int]bool{}}
	p.t.Spawn(i)
}

// Submit queues a job. onProgress (may be nil) is called on each progress
// report, onDone once when the job ends. Front puts the job at the head of
// the queue (a preview must not wait behind a long run).
func (p *Pool) Submit(label string, task api.Task, data int, front bool, onProgress, onDone func(*Job)) *Job {
	return p.SubmitTo(-1, label, task, data, front, onProgress, onDone)
}

// SubmitTo queues a job for the worker of a slot (negative: any worker).
func (p *Pool) SubmitTo(slot int, label string, task api.Task, data int, front bool, onProgress, onDone func(*Job)) *Job {
	p.next++
	j := &Job{ID: p.next, Label: label, Task: task, Data: data, Want: slot, Slot: -1, Queued: p.now(), onProgress: onProgress, onDone: onDone}
	p.jobs[j.ID] = j
	if front {
		p.queue = append([]*Job{j}, p.queue...)
	} else {
		p.queue = append(p.queue, j)
	}
	p.dispatch()
	return j
}

// dispatch gives queued jobs to idle workers, then, while many jobs wait,
// a job ahead to busy ones, sending their data first where needed.
func (p *Pool) dispatch() {
	for level := 1; level <= max(p.Depth, 1); level++ {
		for i, s := range p.slots {
			if len(p.queue) == 0 || (level > 1 && len(p.queue) < p.Size()) {
				return
			}
			if s == nil || s.retired || len(s.jobs) >= level {
				continue
			}
			k := p.nextFor(i)
			if k < 0 {
				continue
			}
			j := p.queue[k]
			p.queue = append(p.queue[:k:k], p.queue[k+1:]...)
			if j.Data > 0 && !s.data[j.Data] {
				p.t.Load(i, j.Data)
				s.data[j.Data] = true
			}
			j.Slot = i
			s.jobs = append(s.jobs, j)
			if len(s.jobs) == 1 {
				j.State, j.Started = Running, p.now()
			}
			p.t.Start(i, &api.Job{ID: j.ID, Data: j.Data, Task: j.Task})
		}
	}
}

// nextFor returns the index in the queue of the first job slot i may take,
// or −1.
func (p *Pool) nextFor(i int) int {
	for k, j := range p.queue {
		if j.Want < 0 || j.Want == i {
			return k
		}
		if w := p.slot(j.Want); w == nil || w.retired {
			return k // its worker is gone: any may take it
		}
	}
	return -1
}

// Live returns the slots of the workers, in order.
func (p *Pool) Live() []int {
	var out []int
	for i, s := range p.slots {
		if s != nil && !s.retired {
			out = append(out, i)
		}
	}
	return out
}

// Forget makes every worker drop dataset data (a new file was opened).
func (p *Pool) Forget(data int) {
	for i, s := range p.slots {
		if s != nil && s.data[data] {
			p.t.Unload(i, data)
			delete(s.data, data)
		}
	}
}

// Ready records that a slot's worker has started.
func (p *Pool) Ready(slot int) {
	if s := p.slot(slot); s != nil {
		s.ready = true
	}
}

func (p *Pool) slot(i int) *slot {
	if i < 0 || i >= len(p.slots) {
		return nil
	}
	return p.slots[i]
}

// Started records that a worker began a job it had been sent ahead (its
// "started" message): the job's running time counts from now.
func (p *Pool) Started(id int) {
	if j := p.jobs[id]; j != nil && j.State == Running {
		j.Started = p.now()
	}
}

// Progress records a job's progress report.
func (p *Pool) Progress(id int, pr api.Progress) {
	j := p.jobs[id]
	if j == nil || j.State != Running {
		return // a late message from a job already ended
	}
	j.Progress = pr
	if j.onProgress != nil {
		j.onProgress(j)
	}
}

// Result ends a job with its worker's answer.
func (p *Pool) Result(r *api.Result) {
	if j := p.jobs[r.ID]; j != nil && j.Slot >= 0 {
		j.Response, j.Digest, j.Forwarded = r.Response, r.Digest, r.Forwarded
		p.end(j, Done)
	}
}

// Failed ends a job with an error.
func (p *Pool) Failed(id int, msg string) {
	if j := p.jobs[id]; j != nil && j.Slot >= 0 {
		j.Err = msg
		p.end(j, Failed)
	}
}

// Fatal handles a worker that died (it ran out of memory, or could not
// start): its running job fails with msg, and the jobs sent ahead to it go
// back to the head of the queue. A worker that had started is replaced by
// a fresh one; one that never said it was ready is not (its code cannot be
// loaded: starting another would fail the same way, again and again), and
// when no worker is left the queued jobs fail too.
func (p *Pool) Fatal(slot int, msg string) {
	s := p.slot(slot)
	if s == nil {
		return
	}
	jobs := s.jobs
	s.jobs = nil
	p.t.Terminate(slot)
	if s.retired || !s.ready {
		p.slots[slot] = nil
	} else {
		p.spawn(slot)
	}
	if len(jobs) > 0 {
		for _, q := range jobs[1:] {
			q.Slot = -1
		}
		p.queue = append(append([]*Job(nil), jobs[1:]...), p.queue...)
		jobs[0].Err = msg
		p.finish(jobs[0], Failed)
	}
	if p.Size() == 0 {
		queued := p.queue
		p.queue = nil
		for _, q := range queued {
			q.Err = msg
			p.finish(q, Failed)
		}
	}
	p.dispatch()
}

// end finishes a job its worker answered, and starts the clock of the
// next job that worker holds. Workers answer in order; should an answer
// overtake (it cannot with a conforming worker), the jobs before it are
// left to answer in their turn.
func (p *Pool) end(j *Job, st State) {
	if s := p.slot(j.Slot); s != nil {
		for k, q := range s.jobs {
			if q == j {
				s.jobs = append(s.jobs[:k:k], s.jobs[k+1:]...)
				break
			}
		}
		if len(s.jobs) > 0 && s.jobs[0].State == Queued {
			s.jobs[0].State, s.jobs[0].Started = Running, p.now()
		}
		if s.retired && !s.busy() {
			p.t.Terminate(j.Slot)
			p.slots[j.Slot] = nil
		}
	}
	if j.Started.IsZero() {
		j.Started = p.now()
	}
	p.finish(j, st)
	p.dispatch()
}

func (p *Pool) finish(j *Job, st State) {
	j.State, j.Ended = st, p.now()
	delete(p.jobs, j.ID)
	if j.onDone != nil {
		j.onDone(j)
	}
}

// Cancel stops everything at once: every busy worker is terminated and
// replaced, and every queued or running job ends as cancelled. Finished
// jobs are untouched. It returns how many jobs it cancelled.
func (p *Pool) Cancel() int {
	var ended []*Job
	for i, s := range p.slots {
		if s == nil || !s.busy() {
			continue
		}
		ended = append(ended, s.jobs...)
		s.jobs = nil
		p.t.Terminate(i)
		if s.retired {
			p.slots[i] = nil
		} else {
			p.spawn(i)
		}
	}
	ended = append(ended, p.queue...)
	p.queue = nil
	for _, j := range ended {
		j.Err = "cancelled"
		p.finish(j, Cancelled)
	}
	return len(ended)
}

// Busy reports whether any job is queued or running.
func (p *Pool) Busy() bool { return len(p.jobs) > 0 }

// Running returns the running jobs, by slot.
func (p *Pool) Running() []*Job {
	var out []*Job
	for _, s := range p.slots {
		if s != nil && s.busy() {
			out = append(out, s.jobs[0])
		}
	}
	return out
}

// Slots returns what each worker is doing, in slot order: its running
// job, or nil when it is idle.
func (p *Pool) Slots() []*Job {
	var out []*Job
	for _, s := range p.slots {
		if s != nil && !s.retired {
			var j *Job
			if s.busy() {
				j = s.jobs[0]
			}
			out = append(out, j)
		}
	}
	return out
}

// Summary describes a set of jobs (a run) for a progress bar.
type Summary struct {
	Total, Done, Failed, Cancelled, Running, Queued int
	// Fraction is the share of the work done, in [0, 1]: finished jobs
	// count 1, running ones their reported fraction.
	Fraction float64
	// Left estimates the time until the last job ends; Known says
	// whether there is enough evidence for an estimate yet.
	Left  time.Duration
	Known bool
}

// Summarize adds up jobs at time now. The estimate of the time left
// assumes the work still to do proceeds at the rate observed so far (work
// done divided by time since the first job started, which already
// accounts for the workers running side by side); it is given once at
// least half a job's worth of work is done, or one job has finished.
func Summarize(jobs []*Job, now time.Time) Summary {
	var s Summary
	var first time.Time
	done := 0.0
	for _, j := range jobs {
		if !j.Started.IsZero() && (first.IsZero() || j.Started.Before(first)) {
			first = j.Started
		}
		switch j.State {
		case Queued:
			s.Queued++
		case Running:
			s.Running++
			done += j.Fraction()
		case Done:
			s.Done++
			done++
		case Failed:
			s.Failed++
			done++
		case Cancelled:
			s.Cancelled++
		}
	}
	s.Total = len(jobs)
	work := float64(s.Total - s.Cancelled)
	if work > 0 {
		s.Fraction = clamp01(done / work)
	}
	elapsed := now.Sub(first).Seconds()
	if !first.IsZero() && elapsed > 0 && (done >= 0.5 || s.Done+s.Failed > 0) {
		s.Known = true
		left := (work - done) / (done / elapsed)
		s.Left = time.Duration(left * float64(time.Second))
	}
	return s
}

// Text describes a summary in a few words: "3 of 12 done · 2 running ·
// about 40 s left".
func (s Summary) Text() string { return s.TextOf("") }

// TextOf is Text naming what is counted: "3 of 12 units done · …".
func (s Summary) TextOf(noun string) string {
	if noun != "" {
		noun += " "
	}
	t := fmt.Sprintf("%d of %d %sdone", s.Done+s.Failed, s.Total-s.Cancelled, noun)
	if s.Failed > 0 {
		t += fmt.Sprintf(" (%d failed)", s.Failed)
	}
	if s.Running > 0 {
		t += fmt.Sprintf(" · %d running", s.Running)
	}
	if s.Queued > 0 {
		t += fmt.Sprintf(" · %d waiting", s.Queued)
	}
	if s.Cancelled > 0 {
		t += fmt.Sprintf(" · %d cancelled", s.Cancelled)
	}
	if s.Running+s.Queued > 0 {
		if s.Known {
			t += " · " + LeftText(s.Left)
		} else {
			t += " · estimating the time left…"
		}
	}
	return t
}

// LeftText writes a duration as people read an estimate.
func LeftText(d time.Duration) string {
	sec := d.Seconds()
	switch {
	case sec < 1:
		return "less than a second left"
	case sec < 90:
		return fmt.Sprintf("about %.0f s left", sec)
	case sec < 90*60:
		return fmt.Sprintf("about %.0f min left", sec/60)
	}
	return fmt.Sprintf("about %.1f h left", sec/3600)
}
