package pool

import (
	"time"

	"sparsefs/api"
)

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
