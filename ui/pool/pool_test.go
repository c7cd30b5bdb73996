package pool

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"sparsefs/api"
)

// fake records the transport calls.
type fake struct{ log []string }

func (f *fake) Spawn(slot int)      { f.log = append(f.log, fmt.Sprintf("spawn %d", slot)) }
func (f *fake) Terminate(slot int)  { f.log = append(f.log, fmt.Sprintf("terminate %d", slot)) }
func (f *fake) Load(slot, data int) { f.log = append(f.log, fmt.Sprintf("load %d→%d", data, slot)) }
func (f *fake) Unload(slot, data int) {
	f.log = append(f.log, fmt.Sprintf("unload %d→%d", data, slot))
}
func (f *fake) Start(slot int, j *api.Job) {
	f.log = append(f.log, fmt.Sprintf("start %d(%s)→%d", j.ID, j.Task.Run.Method, slot))
}

// task is a job's task, named for the transport's log.
func task(name string) api.Task { return api.Task{Run: &api.Request{Method: name}} }

func (f *fake) take() string {
	s := strings.Join(f.log, "; ")
	f.log = nil
	return s
}

// clock is a settable time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                   { return &clock{time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)} }
func want(t *testing.T, got, expected string) {
	t.Helper()
	if got != expected {
		t.Errorf("transport calls\n got: %s\nwant: %s", got, expected)
	}
}

func TestDispatchLoadsDataOncePerWorker(t *testing.T) {
	f := &fake{}
	p := New(f, 2, newClock().now)
	p.Depth = 1
	want(t, f.take(), "spawn 0; spawn 1")
	var done []string
	onDone := func(j *Job) { done = append(done, fmt.Sprintf("%d:%s", j.ID, j.State)) }
	var jobs []*Job
	for k := 1; k <= 4; k++ {
		jobs = append(jobs, p.Submit(fmt.Sprint("job ", k), task(fmt.Sprint("r", k)), 7, false, nil, onDone))
	}
	want(t, f.take(), "load 7→0; start 1(r1)→0; load 7→1; start 2(r2)→1")
	if sl := p.Slots(); len(sl) != 2 || sl[0] != jobs[0] || sl[1] != jobs[1] {
		t.Errorf("slots %v", sl)
	}
	p.Result(&api.Result{ID: 2, Response: []byte("ok2")})
	want(t, f.take(), "start 3(r3)→1") // slot 1 has the data already
	// A job at the front overtakes the queue; one without data loads none.
	p.Submit("methods", task("m"), 0, true, nil, onDone)
	p.Failed(1, "bad parameter")
	want(t, f.take(), "start 5(m)→0")
	if jobs[0].State != Failed || jobs[0].Err != "bad parameter" || jobs[1].State != Done || string(jobs[1].Response) != "ok2" {
		t.Errorf("jobs %+v %+v", jobs[0], jobs[1])
	}
	p.Result(&api.Result{ID: 5})
	p.Result(&api.Result{ID: 3})
	want(t, f.take(), "start 4(r4)→0")
	p.Result(&api.Result{ID: 4})
	if sl := p.Slots(); len(sl) != 2 || sl[0] != nil || sl[1] != nil {
		t.Errorf("idle slots %v", sl)
	}
	if p.Busy() || strings.Join(done, " ") != "2:done 1:failed 5:done 3:done 4:done" {
		t.Errorf("busy %v, done %v", p.Busy(), done)
	}
	// A new file: the workers forget the old one.
	p.Forget(7)
	want(t, f.take(), "unload 7→0; unload 7→1")
}

// Cancel terminates the busy workers at once and replaces them, ends the
// queued and running jobs as cancelled, keeps the finished ones; late
// messages from the old workers are ignored and the next run works.
func TestCancel(t *testing.T) {
	f := &fake{}
	p := New(f, 2, newClock().now)
	p.Depth = 1
	f.take()
	var jobs []*Job
	cancelled := 0
	for k := 1; k <= 5; k++ {
		jobs = append(jobs, p.Submit("j", task(fmt.Sprint(k)), 1, false, nil, func(j *Job) {
			if j.State == Cancelled {
				cancelled++
			}
		}))
	}
	p.Result(&api.Result{ID: 1, Response: []byte("first")})
	f.take()
	if n := p.Cancel(); n != 4 || cancelled != 4 {
		t.Fatalf("cancelled %d (callbacks %d), want 4", n, cancelled)
	}
	want(t, f.take(), "terminate 0; spawn 0; terminate 1; spawn 1")
	if jobs[0].State != Done || string(jobs[0].Response) != "first" {
		t.Errorf("the finished job lost its result: %+v", jobs[0])
	}
	for _, j := range jobs[1:] {
		if j.State != Cancelled {
			t.Errorf("job %d is %s", j.ID, j.State)
		}
	}
	// The old workers' last words change nothing.
	p.Result(&api.Result{ID: 2, Response: []byte("late")})
	p.Progress(3, api.Progress{Fraction: 0.5})
	if jobs[1].State != Cancelled || jobs[1].Response != nil || p.Busy() {
		t.Error("a late message revived a cancelled job")
	}
	// The fresh workers need the data again.
	p.Submit("again", task("a"), 1, false, nil, nil)
	want(t, f.take(), "load 1→0; start 6(a)→0")
	// Cancelling with idle workers leaves them alone.
	p.Result(&api.Result{ID: 6})
	if n := p.Cancel(); n != 0 || f.take() != "" {
		t.Errorf("idle cancel: %d", n)
	}
}

func TestFatalAndResize(t *testing.T) {
	f := &fake{}
	p := New(f, 1, newClock().now)
	p.Depth = 1
	f.take()
	a := p.Submit("a", task("a"), 3, false, nil, nil)
	p.Submit("b", task("b"), 3, false, nil, nil)
	want(t, f.take(), "load 3→0; start 1(a)→0")
	p.Ready(0)
	p.Fatal(0, "out of memory")
	want(t, f.take(), "terminate 0; spawn 0; load 3→0; start 2(b)→0")
	if a.State != Failed || a.Err != "out of memory" {
		t.Errorf("job on a dead worker: %+v", a)
	}
	p.Resize(3)
	want(t, f.take(), "spawn 1; spawn 2")
	if p.Size() != 3 {
		t.Errorf("size %d", p.Size())
	}
	// Shrinking: idle workers stop now, a busy one when its job ends.
	p.Resize(1)
	want(t, f.take(), "terminate 1; terminate 2")
	p.Submit("c", task("c"), 3, false, nil, nil)
	p.Resize(0) // at least one
	if p.Size() != 1 || f.take() != "" {
		t.Errorf("size %d", p.Size())
	}
	p.Result(&api.Result{ID: 2})
	want(t, f.take(), "start 3(c)→0")
	if p.ReadyCount() != 0 {
		t.Error("the fresh worker has not said it is ready")
	}
}

// A worker that dies before it ever starts is not replaced (it would die
// the same way); once none is left, the waiting jobs fail with its message.
func TestWorkersThatCannotStart(t *testing.T) {
	f := &fake{}
	p := New(f, 2, newClock().now)
	p.Depth = 1
	f.take()
	a := p.Submit("a", task("a"), 0, false, nil, nil)
	b := p.Submit("b", task("b"), 0, false, nil, nil)
	c := p.Submit("c", task("c"), 0, false, nil, nil)
	f.take()
	p.Fatal(0, "cannot load the computing module")
	want(t, f.take(), "terminate 0") // b still runs on worker 2, c waits
	if p.Size() != 1 || a.State != Failed || c.State != Queued {
		t.Fatalf("size %d, a %s, c %s", p.Size(), a.State, c.State)
	}
	d := p.Submit("d", task("d"), 0, false, nil, nil)
	p.Fatal(1, "cannot load the computing module")
	want(t, f.take(), "terminate 1")
	for _, j := range []*Job{b, c, d} {
		if j.State != Failed || j.Err != "cannot load the computing module" {
			t.Errorf("job %s: %s %q", j.Label, j.State, j.Err)
		}
	}
	if p.Size() != 0 || p.Busy() {
		t.Errorf("size %d busy %v", p.Size(), p.Busy())
	}
	// Asking for workers again starts fresh ones.
	p.Resize(1)
	want(t, f.take(), "spawn 0")
}

// The estimate: with one job done and another half done 10 s after the
// first started, 1.5 jobs' work took 10 s; the 2.5 left of 4 take about
// 2.5 / 0.15 = 16.7 s.
func TestSummarize(t *testing.T) {
	c := newClock()
	f := &fake{}
	p := New(f, 2, c.now)
	p.Depth = 1
	var jobs []*Job
	for k := 0; k < 4; k++ {
		jobs = append(jobs, p.Submit("j", task(""), 0, false, nil, nil))
	}
	s := Summarize(jobs, c.now())
	if s.Known || s.Running != 2 || s.Queued != 2 || s.Fraction != 0 {
		t.Errorf("at start %+v", s)
	}
	if !strings.Contains(s.Text(), "estimating") {
		t.Errorf("text %q", s.Text())
	}
	c.advance(4 * time.Second)
	p.Result(&api.Result{ID: 1}) // job 3 starts at 4 s
	c.advance(6 * time.Second)
	p.Progress(2, api.Progress{Fraction: 0.5})
	p.Progress(3, api.Progress{Fraction: 0})
	s = Summarize(jobs, c.now())
	if !s.Known || math.Abs(s.Left.Seconds()-2.5/0.15) > 1e-6 || s.Fraction != 1.5/4 {
		t.Errorf("summary %+v, want 16.67 s left and 0.375 done", s)
	}
	if got := s.Text(); got != "1 of 4 done · 2 running · 1 waiting · about 17 s left" {
		t.Errorf("text %q", got)
	}
	// Cancelled jobs are no longer work to do.
	p.Cancel()
	s = Summarize(jobs, c.now())
	if s.Total != 4 || s.Cancelled != 3 || s.Fraction != 1 {
		t.Errorf("after cancel %+v", s)
	}
	if got := s.Text(); got != "1 of 1 done · 3 cancelled" {
		t.Errorf("text %q", got)
	}
	for d, w := range map[time.Duration]string{500 * time.Millisecond: "less than a second left", 89 * time.Second: "about 89 s left",
		20 * time.Minute: "about 20 min left", 3 * time.Hour: "about 3.0 h left"} {
		if got := LeftText(d); got != w {
			t.Errorf("LeftText(%v) = %q", d, got)
		}
	}
}

// With Depth 2 a worker is sent its next job while it runs one, as long as
// at least as many jobs wait as there are workers; the job sent ahead
// waits (Queued) until the one before it ends, then runs on the same
// worker. Near the end of the queue jobs go to idle workers only. When a
// worker dies, the job sent ahead goes back to the queue.
func TestDepth(t *testing.T) {
	c := newClock()
	f := &fake{}
	p := New(f, 2, c.now)
	f.take()
	var jobs []*Job
	for k := 1; k <= 5; k++ {
		jobs = append(jobs, p.Submit("j", task(fmt.Sprint(k)), 1, false, nil, nil))
	}
	// 1 and 2 run; 3 is sent ahead to worker 0 (4 and 5 wait: 3 ≥ 2
	// workers); then 2 wait, so 4 goes ahead to worker 1; 5 waits.
	want(t, f.take(), "load 1→0; start 1(1)→0; load 1→1; start 2(2)→1; start 3(3)→0; start 4(4)→1")
	if jobs[2].State != Queued || jobs[2].Slot != 0 || !jobs[2].Started.IsZero() {
		t.Errorf("job sent ahead: %+v", jobs[2])
	}
	if s := Summarize(jobs, c.now()); s.Running != 2 || s.Queued != 3 {
		t.Errorf("summary %+v", s)
	}
	c.advance(time.Second)
	p.Result(&api.Result{ID: 1})
	// 3 now runs on worker 0; 5 is the last one waiting: it is not sent
	// ahead (one job waits, two workers).
	if jobs[2].State != Running || !jobs[2].Started.Equal(c.now()) || f.take() != "" {
		t.Errorf("after the first result: %+v", jobs[2])
	}
	if sl := p.Slots(); sl[0] != jobs[2] || sl[1] != jobs[1] {
		t.Errorf("slots %v", sl)
	}
	c.advance(time.Second)
	p.Started(3) // the worker's own word: the clock starts now
	if !jobs[2].Started.Equal(c.now()) {
		t.Errorf("started at %v", jobs[2].Started)
	}
	// Worker 1 dies while running 2 with 4 sent ahead: 2 fails, 4 goes
	// back to the head of the queue and to the fresh worker.
	p.Ready(1)
	p.Fatal(1, "out of memory")
	want(t, f.take(), "terminate 1; spawn 1; load 1→1; start 4(4)→1")
	if jobs[1].State != Failed || jobs[3].State != Running || jobs[3].Slot != 1 || jobs[4].State != Queued || jobs[4].Slot != -1 {
		t.Errorf("after the death: %s %s/%d %s/%d", jobs[1].State, jobs[3].State, jobs[3].Slot, jobs[4].State, jobs[4].Slot)
	}
	p.Result(&api.Result{ID: 3})
	want(t, f.take(), "start 5(5)→0")
	// Cancel ends the running and the sent-ahead jobs alike.
	p.Submit("j", task("6"), 1, false, nil, nil)
	p.Submit("j", task("7"), 1, false, nil, nil)
	f.take()
	if n := p.Cancel(); n != 4 || p.Busy() {
		t.Errorf("cancelled %d, busy %v", n, p.Busy())
	}
}

// A job for a given worker waits for that worker, while others overtake
// it; when that worker is gone, any takes it.
func TestSubmitTo(t *testing.T) {
	f := &fake{}
	p := New(f, 2, newClock().now)
	p.Depth = 1
	f.take()
	p.Submit("a", task("a"), 0, false, nil, nil)
	want(t, f.take(), "start 1(a)→0")
	p.SubmitTo(0, "for 0", task("x"), 0, false, nil, nil)
	p.Submit("b", task("b"), 0, false, nil, nil)
	want(t, f.take(), "start 3(b)→1") // b overtakes the job waiting for worker 0
	p.Result(&api.Result{ID: 3})
	if f.take() != "" {
		t.Error("worker 1 took the job for worker 0")
	}
	p.Result(&api.Result{ID: 1})
	want(t, f.take(), "start 2(x)→0")
	if got := p.Live(); len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("live %v", got)
	}
	// Worker 1 retires: a job for it goes to worker 0.
	p.Result(&api.Result{ID: 2})
	p.Resize(1)
	f.take()
	p.SubmitTo(1, "for 1", task("y"), 0, false, nil, nil)
	want(t, f.take(), "start 4(y)→0")
}

// Limit: at most n workers hold a dataset; its jobs wait for them while
// the other workers take jobs on other data, and a worker that was given
// the data (SubmitTo) counts among them.
func TestLimit(t *testing.T) {
	f := &fake{}
	p := New(f, 3, newClock().now)
	p.Depth = 1
	f.take()
	p.Limit(7, 2)
	for k := 1; k <= 4; k++ {
		p.Submit("unit", task(fmt.Sprint("u", k)), 7, false, nil, nil)
	}
	// Two workers load the data; the third stays idle rather than load it.
	want(t, f.take(), "load 7→0; start 1(u1)→0; load 7→1; start 2(u2)→1")
	p.Submit("other", task("o"), 8, false, nil, nil)
	want(t, f.take(), "load 8→2; start 5(o)→2")
	p.Result(&api.Result{ID: 5})
	want(t, f.take(), "") // worker 2 is idle, and may not hold 7
	p.Result(&api.Result{ID: 1})
	want(t, f.take(), "start 3(u3)→0")
	// Lifting the limit lets the idle worker take the next job.
	p.Limit(7, 0)
	want(t, f.take(), "load 7→2; start 4(u4)→2")
}
