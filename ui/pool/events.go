package pool

import "sparsefs/api"

// What the workers say about their jobs.

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
