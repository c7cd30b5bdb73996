package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The worker protocol: the messages between the page (ui/) and its Web
// Workers (wasm/), and between two workers. Every message kind is a Go type
// below; a message is one of ToWorker, FromWorker or a Collect sent from
// worker to worker.
//
// On the wire a message is a plain object {head, body, port}: head is the
// message's JSON (Encode), body the bytes that travel beside it (the file
// of a Load, the answer of a Result, the part of a Collect) and port a
// MessagePort (Link), each transferred, never copied through a string:
//
//	page → worker   Load    a dataset (its bytes or a Blob), kept under a number the page chooses
//	                Unload  forget a dataset
//	                Job     a Task, answered by Started, then Result or Failed
//	                Cancel  stop a job (a queued one is dropped)
//	                Link    a port to or from the worker that merges a session
//	worker → page   Ready   the worker listens (sent once)
//	                Loaded  a dataset arrived: its size and SHA-256
//	                Started a job began (jobs run one after another, in order)
//	                Progress, Result, Failed, of a job
//	                Fatal   the worker cannot go on (sent by its bootstrap)
//	worker → worker Collect a unit's part, to the worker that merges the session
//
// A dataset is sent once per worker; jobs name it by its number. The
// worker keeps the parsed table for each way of reading it (label column,
// delimiter, header, missing values), so a run of many jobs on one file
// parses it once per worker.

// ToWorker is a message from the page to a worker: exactly one field is
// set.
type ToWorker struct {
	Load   *Load   `json:"load,omitempty"`
	Unload *Unload `json:"unload,omitempty"`
	Job    *Job    `json:"job,omitempty"`
	Cancel *Cancel `json:"cancel,omitempty"`
	Link   *Link   `json:"link,omitempty"`
}

// Load sends a dataset. The file travels beside the message: as bytes
// (Bytes), or — the page's way — as a Blob, a reference to the file that
// is not copied, which the worker reads as it streams in each time it
// needs to (Open, set by the worker's receiving side; never encoded).
// Stream, when the receiving side sets it, opens the file for the load's
// and the jobs' reads, which may wait for the browser (a goroutine of
// their own, never the message's callback): they then read into one
// buffer, leaving no chunk behind for the browser's collector.
type Load struct {
	Data   int                           `json:"data"`
	Name   string                        `json:"name"`
	Bytes  []byte                        `json:"-"`
	Open   func() (io.ReadCloser, error) `json:"-"`
	Stream func() (io.ReadCloser, error) `json:"-"`
}

// Unload makes a worker forget a dataset.
type Unload struct {
	Data int `json:"data"`
}

// Cancel stops job ID (a queued job is dropped); the job then fails with
// Cancelled set.
type Cancel struct {
	ID int `json:"id"`
}

// Link gives a worker one end of a channel for session's parts (the port
// travels beside the message). The worker that merges the session
// (Merger) receives Collect messages on it; any other worker sends the
// parts of its units of that session there instead of keeping them. A
// newer session replaces the link.
type Link struct {
	Session int  `json:"session"`
	Merger  bool `json:"merger,omitempty"`
}

// Job is a task for a worker. Jobs run one after another in the order
// they arrive; each is answered by Started, then by exactly one Result or
// Failed.
type Job struct {
	ID int `json:"id"`
	// Data is the loaded dataset the task reads (0: none).
	Data int  `json:"data,omitempty"`
	Task Task `json:"task"`
}

// Task is what a job does: exactly one of Run, Prepare, Collect, Merge and
// WriteReport is set.
type Task struct {
	// Run performs a request of the job format (core/job.Run).
	Run *Request `json:"run,omitempty"`
	// Session, with a Run of an evaluation's units, keeps their part in
	// this worker for the merge of that session, or sends it to the
	// worker that merges it (Link; the Result then says Forwarded).
	Session     int          `json:"session,omitempty"`
	Prepare     *Prepare     `json:"prepare,omitempty"`
	Collect     *Collect     `json:"collect,omitempty"`
	Merge       *Merge       `json:"merge,omitempty"`
	WriteReport *WriteReport `json:"write_report,omitempty"`
}

// Prepare reads the loaded data as a run will (the worker keeps the
// reading) and warms the worker's code up (for Eval, when given: its
// methods on a slice of the data). Its Result is {}.
type Prepare struct {
	Data Data  `json:"data"`
	Eval *Plan `json:"eval,omitempty"`
}

// Collect keeps an evaluation's part in the worker for the merge of
// Session: Digest, the part's units without the fits' rankings, scores,
// per-class rankings and weights (UnitDigest), serves the merge's
// summaries; Part, the part's JSON, travels beside the message and is read
// only when the report's JSON is written. Its Result is {}. A worker sends
// the same message to the worker that merges a session (Link).
type Collect struct {
	Session int             `json:"session"`
	Digest  json.RawMessage `json:"digest"`
	Part    []byte          `json:"-"`
}

// UnitDigest is what a Collect's Digest holds.
type UnitDigest struct {
	Units []*UnitResult `json:"units"`
}

// DigestOf is what the page shows of an evaluation part while the run goes
// on: its units without the fits' full rankings, scores, per-class
// rankings and weights — a few kilobytes the page reads instead of the
// part (hundreds of kilobytes for a wide dataset), keeping its thread free
// while the workers compute. The part is not changed.
func DigestOf(p *EvalPart) UnitDigest {
	units := make([]*UnitResult, len(p.Units))
	for i, u := range p.Units {
		d := *u
		d.Fits = make([]Fit, len(u.Fits))
		for k, f := range u.Fits {
			f.Ranking, f.Scores, f.PerClass, f.Weights = nil, nil, nil, nil
			d.Fits[k] = f
		}
		units[i] = &d
	}
	return UnitDigest{Units: units}
}

// Merge merges the parts kept for Session into the report, refusing when
// they number fewer than Expect (the page then sends them all in a Run of
// OpMerge). Light answers with the report without its units (the page has
// them) and keeps the parts for WriteReport.
type Merge struct {
	Session int  `json:"session"`
	Expect  int  `json:"expect"`
	Light   bool `json:"light,omitempty"`
}

// WriteReport answers with the JSON of the full report of a light Merge
// of Session, and forgets its parts.
type WriteReport struct {
	Session int `json:"session"`
}

// FromWorker is a message from a worker to the page: exactly one field is
// set.
type FromWorker struct {
	Ready    *Ready       `json:"ready,omitempty"`
	Loaded   *Loaded      `json:"loaded,omitempty"`
	Started  *Started     `json:"started,omitempty"`
	Progress *JobProgress `json:"progress,omitempty"`
	Result   *Result      `json:"result,omitempty"`
	Failed   *Failed      `json:"failed,omitempty"`
	Fatal    *Fatal       `json:"fatal,omitempty"`
}

// Ready says the worker listens; messages sent before it are queued.
type Ready struct{}

// Loaded answers Load with the file's size and SHA-256 (hex).
type Loaded struct {
	Data   int    `json:"data"`
	Size   int    `json:"size"`
	SHA256 string `json:"sha256"`
}

// Started says job ID began.
type Started struct {
	ID int `json:"id"`
}

// JobProgress reports how far job ID has got (at most ten times a second).
type JobProgress struct {
	ID int `json:"id"`
	Progress
}

// Result is a job's answer: Response, beside the message, is the JSON of
// the Run's Response (or of a Merge's report, or {}). Digest is the
// UnitDigest of a Run of units with a Session; Forwarded says the part
// went to the worker that merges the session.
type Result struct {
	ID        int             `json:"id"`
	Response  []byte          `json:"-"`
	Digest    json.RawMessage `json:"digest,omitempty"`
	Forwarded bool            `json:"forwarded,omitempty"`
}

// Failed says job ID ended without an answer: Message says why, for people;
// Cancelled says it was cancelled. ID −1 is a message that could not be
// read.
type Failed struct {
	ID        int    `json:"id"`
	Message   string `json:"message"`
	Cancelled bool   `json:"cancelled,omitempty"`
}

// Fatal says the worker cannot go on (its program could not start).
type Fatal struct {
	Message string `json:"message"`
}

// Encode returns a message's head (its JSON) and the bytes that travel
// beside it.
func (m *ToWorker) Encode() (head, body []byte, err error) {
	if err := oneOf(m.Load != nil, m.Unload != nil, m.Job != nil, m.Cancel != nil, m.Link != nil); err != nil {
		return nil, nil, err
	}
	if m.Load != nil {
		body = m.Load.Bytes
	}
	if m.Job != nil && m.Job.Task.Collect != nil {
		body = m.Job.Task.Collect.Part
	}
	head, err = json.Marshal(m)
	return head, body, err
}

// DecodeToWorker reads a message to a worker from its head and body.
func DecodeToWorker(head, body []byte) (*ToWorker, error) {
	var m ToWorker
	if err := json.Unmarshal(head, &m); err != nil {
		return nil, fmt.Errorf("a message to the worker cannot be read: %v", err)
	}
	if err := oneOf(m.Load != nil, m.Unload != nil, m.Job != nil, m.Cancel != nil, m.Link != nil); err != nil {
		return nil, err
	}
	switch {
	case m.Load != nil:
		m.Load.Bytes = body
	case m.Job != nil && m.Job.Task.Collect != nil:
		m.Job.Task.Collect.Part = body
	}
	return &m, nil
}

// Encode returns a message's head (its JSON) and the bytes that travel
// beside it.
func (m *FromWorker) Encode() (head, body []byte, err error) {
	if err := oneOf(m.Ready != nil, m.Loaded != nil, m.Started != nil, m.Progress != nil, m.Result != nil, m.Failed != nil, m.Fatal != nil); err != nil {
		return nil, nil, err
	}
	if m.Result != nil {
		body = m.Result.Response
	}
	head, err = json.Marshal(m)
	return head, body, err
}

// DecodeFromWorker reads a message from a worker from its head and body.
func DecodeFromWorker(head, body []byte) (*FromWorker, error) {
	var m FromWorker
	if err := json.Unmarshal(head, &m); err != nil {
		return nil, fmt.Errorf("a message from a worker cannot be read: %v", err)
	}
	if err := oneOf(m.Ready != nil, m.Loaded != nil, m.Started != nil, m.Progress != nil, m.Result != nil, m.Failed != nil, m.Fatal != nil); err != nil {
		return nil, err
	}
	if m.Result != nil {
		m.Result.Response = body
	}
	return &m, nil
}

// Encode returns a Collect's head and body, as a worker sends it to the
// worker that merges its session.
func (c *Collect) Encode() (head, body []byte, err error) {
	head, err = json.Marshal(c)
	return head, c.Part, err
}

// DecodeCollect reads a Collect another worker sent.
func DecodeCollect(head, body []byte) (*Collect, error) {
	var c Collect
	if err := json.Unmarshal(head, &c); err != nil {
		return nil, fmt.Errorf("a part sent by another worker cannot be read: %v", err)
	}
	if body == nil {
		return nil, errors.New("a part came without its JSON")
	}
	c.Part = body
	return &c, nil
}

// oneOf checks that exactly one of a message's kinds is set.
func oneOf(set ...bool) error {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("a message must be of exactly one kind (it has %d)", n)
	}
	return nil
}
