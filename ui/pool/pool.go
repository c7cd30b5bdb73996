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
	// limit is, per dataset, how many workers may hold it at once (Limit).
	limit map[int]int
}

// DefaultDepth is the pool's Depth: one job sent ahead.
const DefaultDepth = 2

// New starts a pool of n workers (at least one).
func New(t Transport, n int, now func() time.Time) *Pool {
	if now == nil {
		now = time.Now
	}
	p := &Pool{Depth: DefaultDepth, t: t, now: now, jobs: map[int]*Job{}, limit: map[int]int{}}
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
		if j.Want == i {
			return k
		}
		if j.Want >= 0 {
			if w := p.slot(j.Want); w != nil && !w.retired {
				continue
			}
			// Its worker is gone: any may take it.
		}
		if p.mayHold(i, j.Data) {
			return k
		}
	}
	return -1
}

// Limit lets at most n workers hold dataset data at once (n < 1: any
// number): a job on it then goes only to a worker that holds it, or to
// another while fewer than n do. The page sets it for data whose tables
// would not fit in memory once per worker. A job submitted to a given
// worker (SubmitTo) is not held back by it.
func (p *Pool) Limit(data, n int) {
	if n < 1 {
		delete(p.limit, data)
	} else {
		p.limit[data] = n
	}
	p.dispatch()
}

// mayHold reports whether slot i may run a job on dataset data: it holds
// it, or fewer workers than the dataset's limit do.
func (p *Pool) mayHold(i, data int) bool {
	n, ok := p.limit[data]
	if !ok || data <= 0 || p.slots[i].data[data] {
		return true
	}
	for _, s := range p.slots {
		if s != nil && !s.retired && s.data[data] {
			if n--; n == 0 {
				return false
			}
		}
	}
	return true
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
	delete(p.limit, data)
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
