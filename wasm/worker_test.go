package main

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

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

const csv = "a,b,label\n1,0,0\n2,2,0\n6,5,1\n7,5,1\n"

func TestJobResult(t *testing.T) {
	r := newRecorder()
	w := newWorker(r.post, nil)
	w.start(7, `{"method":"fstat","data":{"name":"x.csv"}}`, []byte(csv))
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
		newWorker(r.post, nil).start(1, request, []byte("a,b,label\n1,x,0\n2,3,1\n"))
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
	w.start(3, `{"method":"fisher"}`, nil)
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
	w.start(5, `{}`, nil)
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
