package apptest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"sparsefs/api"
	"sparsefs/core/job"
)

// The workers: they run the jobs they are sent in turn, as wasm/worker.go
// does, with core/job.

// worker is one Web Worker.
type worker struct {
	slot     int
	alive    bool
	data     map[int][]byte
	queue    []*api.Job
	peer     *worker // the merging worker of session peerOf
	peerOf   int
	sessions map[int][]*api.EvalPart
	reports  map[int]*api.EvalReport
}

// --- pool.Transport ---

func (f *Backend) Spawn(slot int) {
	w := &worker{slot: slot, alive: true, data: map[int][]byte{}, sessions: map[int][]*api.EvalPart{}, reports: map[int]*api.EvalReport{}}
	f.slots[slot] = w
	f.post(w, &api.FromWorker{Ready: &api.Ready{}})
}

func (f *Backend) Terminate(slot int) {
	if w := f.slots[slot]; w != nil {
		w.alive, w.queue = false, nil
		delete(f.slots, slot)
	}
}

func (f *Backend) Load(slot, data int) {
	w, fl := f.slots[slot], f.files[data]
	if w == nil || fl.bytes == nil {
		return
	}
	w.data[data] = fl.bytes
	sum := sha256.Sum256(fl.bytes)
	f.post(w, &api.FromWorker{Loaded: &api.Loaded{Data: data, Size: len(fl.bytes), SHA256: hex.EncodeToString(sum[:])}})
}

func (f *Backend) Unload(slot, data int) {
	if w := f.slots[slot]; w != nil {
		delete(w.data, data)
	}
}

func (f *Backend) Start(slot int, j *api.Job) {
	if w := f.slots[slot]; w != nil {
		f.Tasks = append(f.Tasks, j.Task)
		w.queue = append(w.queue, j)
	}
}

func (f *Backend) Link(session, from, to int) {
	if w, m := f.slots[from], f.slots[to]; w != nil && m != nil {
		w.peer, w.peerOf = m, session
	}
}

// run performs a job and posts its answer.
func (f *Backend) run(w *worker, j *api.Job) {
	res, err := f.answer(w, j)
	if err != nil {
		f.post(w, &api.FromWorker{Failed: &api.Failed{ID: j.ID, Message: err.Error()}})
		return
	}
	res.ID = j.ID
	f.post(w, &api.FromWorker{Result: res})
}

func (f *Backend) answer(w *worker, j *api.Job) (*api.Result, error) {
	t := j.Task
	var raw []byte
	if j.Data != 0 {
		var ok bool
		if raw, ok = w.data[j.Data]; !ok {
			return nil, fmt.Errorf("dataset %d is not loaded in this worker", j.Data)
		}
	}
	switch {
	case t.Run != nil:
		req := *t.Run
		resp, err := job.Run(context.Background(), &req, job.Input{Raw: raw}, nil)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return nil, err
		}
		res := &api.Result{Response: b}
		if t.Session > 0 && resp.EvalPart != nil && len(resp.EvalPart.Units) > 0 {
			res.Digest = digest(f.t, resp.EvalPart)
			switch {
			case w.peer != nil && w.peerOf == t.Session:
				res.Forwarded = true
				if w.peer.alive {
					w.peer.keep(t.Session, resp.EvalPart)
				}
			default:
				w.keep(t.Session, resp.EvalPart)
			}
		}
		return res, nil
	case t.Prepare != nil:
		return &api.Result{Response: []byte("{}")}, nil
	case t.Collect != nil:
		var p api.EvalPart
		if err := json.Unmarshal(t.Collect.Part, &p); err != nil {
			return nil, fmt.Errorf("collect: %v", err)
		}
		w.keep(t.Collect.Session, &p)
		return &api.Result{Response: []byte("{}")}, nil
	case t.Merge != nil:
		parts := w.sessions[t.Merge.Session]
		delete(w.sessions, t.Merge.Session)
		if f.FailMerge {
			return nil, errors.New("this worker was started afresh")
		}
		if len(parts) < t.Merge.Expect {
			return nil, fmt.Errorf("incomplete session: %d of %d parts collected", len(parts), t.Merge.Expect)
		}
		rep, err := job.Merge(parts)
		if err != nil {
			return nil, err
		}
		if !t.Merge.Light {
			b, err := json.Marshal(rep)
			return &api.Result{Response: b}, err
		}
		w.reports[t.Merge.Session] = rep
		light, summary := *rep, *rep.Report
		summary.Results = append([]api.VariantResult(nil), rep.Results...)
		for i := range summary.Results {
			summary.Results[i].Units = nil
		}
		light.Report = &summary
		b, err := json.Marshal(&light)
		return &api.Result{Response: b}, err
	case t.WriteReport != nil:
		rep := w.reports[t.WriteReport.Session]
		delete(w.reports, t.WriteReport.Session)
		if rep == nil {
			return nil, errors.New("no report kept for this session")
		}
		b, err := json.Marshal(rep)
		return &api.Result{Response: b}, err
	}
	return nil, errors.New("a job without a task")
}

func (w *worker) keep(session int, p *api.EvalPart) {
	w.sessions[session] = append(w.sessions[session], p)
}

// digest is a part's units without the fits' rankings, scores,
// per-class rankings and weights (as the worker digests them).
func digest(t testing.TB, p *api.EvalPart) []byte {
	b, err := json.Marshal(api.DigestOf(p))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Holders returns how many workers hold dataset data.
func (f *Backend) Holders(data int) int {
	n := 0
	for _, w := range f.slots {
		if w != nil && w.data[data] != nil {
			n++
		}
	}
	return n
}
