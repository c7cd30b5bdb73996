package main

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"sparsefs/api"
	"sparsefs/core/job"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestProgressLineIntoALog(t *testing.T) {
	var buf bytes.Buffer
	clock := &fakeClock{t: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)}
	p := newProgressLine(&buf, "sparsefs eval", "on", false, clock.now)
	if p == nil || p.tty {
		t.Fatal("-progress on into a buffer: want a log of lines")
	}
	p.update(api.Progress{Fraction: 0.1, Objective: api.Float(math.NaN())})
	if buf.Len() != 0 {
		t.Fatalf("a line within the first second: %q", buf.String())
	}
	clock.t = clock.t.Add(2 * time.Second)
	p.update(api.Progress{Fraction: 0.25, Objective: api.Float(math.NaN())})
	// 2 s for a quarter: 6 s for the three quarters left.
	want := "sparsefs eval: 25% done · 2 s elapsed · about 6 s left\n"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
	clock.t = clock.t.Add(4 * time.Second)
	p.update(api.Progress{Fraction: 0.5, Objective: api.Float(math.NaN())})
	if buf.String() != want {
		t.Fatalf("a second line within five seconds: %q", buf.String())
	}
	clock.t = clock.t.Add(time.Second)
	p.update(api.Progress{Fraction: 1, Objective: api.Float(math.NaN())})
	want += "sparsefs eval: 100% done · 7 s elapsed\n"
	if buf.String() != want {
		t.Fatalf("got %q, want %q", buf.String(), want)
	}
	p.end() // a log keeps its lines
	if buf.String() != want {
		t.Fatalf("end changed a log: %q", buf.String())
	}
}

func TestProgressLineOfAFit(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := newProgressLine(&bytes.Buffer{}, "sparsefs select", "on", true, clock.now)
	// The fraction of a fit counts iterations against the limit: no share
	// done and no time left are shown for it.
	got := p.text(api.Progress{Iteration: 12, MaxIterations: 1000, Objective: 3.25, Fraction: 0.012}, 65*time.Second)
	if want := "sparsefs select: iteration 12/1000, J 3.25 · 1 min 05 s"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// An evaluation on one worker: the share done first, then the fit's
	// iteration.
	p.fit, p.name = false, "sparsefs eval"
	got = p.text(api.Progress{Iteration: 149, MaxIterations: 1000, Objective: 3.83202, Fraction: 0.5}, 90*time.Second)
	if want := "sparsefs eval: 50% done · 1 min 30 s elapsed · about 1 min 30 s left · iteration 149/1000, J 3.83202"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// After its iterations the fit says it is certifying its answer.
	p.fit, p.name = true, "sparsefs select"
	got = p.text(api.Progress{Iteration: 40, MaxIterations: 1000, Objective: 2.5, Fraction: 0.04, Phase: api.PhaseCertifying, Steps: 7}, 3*time.Second)
	if want := "sparsefs select: iteration 40/1000, J 2.5 · certifying the optimum, step 7 · 3 s"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// On a terminal the line is cut short of its width, never wrapped.
	if f := fit(got, 80); len([]rune(f)) != 79 || !strings.HasSuffix(f, "…") {
		t.Fatalf("cut to 80 columns: %q (%d)", f, len([]rune(f)))
	}
	if f := fit("short", 80); f != "short" {
		t.Fatalf("a short line was changed: %q", f)
	}
}

func TestProgressLineOnATerminalIsRedrawnAndErased(t *testing.T) {
	var buf bytes.Buffer
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := &progressLine{w: &buf, name: "sparsefs eval", tty: true, now: clock.now, start: clock.t, next: clock.t.Add(progressQuiet)}
	for i := 1; i <= 20; i++ { // 20 reports 100 ms apart from 1.1 s to 3 s
		clock.t = time.Unix(0, 0).Add(time.Second + time.Duration(i)*100*time.Millisecond)
		p.update(api.Progress{Fraction: float64(i) / 20, Objective: api.Float(math.NaN())})
	}
	p.end()
	out := buf.String()
	// At most four redraws a second: 1.1, 1.4, 1.7, 2.0, 2.3, 2.6, 2.9 s.
	if n := strings.Count(out, "\r\x1b[Ksparsefs eval: "); n != 7 {
		t.Fatalf("%d redraws in %q, want 7", n, out)
	}
	if !strings.HasSuffix(out, "\r\x1b[K") || strings.Contains(out, "\n") {
		t.Fatalf("the line is not redrawn in place and erased: %q", out)
	}
}

func TestProgressOffOrNotATerminal(t *testing.T) {
	now := time.Now
	if p := newProgressLine(&bytes.Buffer{}, "x", "off", false, now); p != nil {
		t.Fatal("-progress off shows progress")
	}
	if p := newProgressLine(&bytes.Buffer{}, "x", "auto", false, now); p != nil {
		t.Fatal("-progress auto shows progress on what is not a terminal")
	}
	if p := newProgressLine(os.Stderr, "x", "", false, now); p != nil {
		t.Fatal("a command without -progress shows progress")
	}
	var p *progressLine // its methods do nothing
	p.update(api.Progress{Fraction: 0.5})
	p.end()
	if err := (output{progress: "yes"}).check(); err == nil || !strings.Contains(err.Error(), `-progress "yes"`) {
		t.Fatalf("-progress yes: %v", err)
	}
}

func TestDurationText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		400 * time.Millisecond:                "0 s",
		59*time.Second + 400*time.Millisecond: "59 s",
		61 * time.Second:                      "1 min 01 s",
		3*time.Hour + 125*time.Second:         "3 h 02 min",
	} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%v) = %q, want %q", d, got, want)
		}
	}
}

// An evaluation stopped by Ctrl-C: the run's context is cancelled, the
// command says so (not "context canceled") and exits with 130.
func TestInterruptedRunSaysSo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	raw, err := readData("../../assets/demo/breast-cancer-wisconsin.csv", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := &api.Request{Op: api.OpEval, Eval: &api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{5}}}
	_, err = job.Run(ctx, req, job.Input{Raw: raw}, nil)
	if err == nil {
		t.Fatal("a cancelled evaluation returned no error")
	}
	var buf bytes.Buffer
	if code := failed(ctx, &buf, "eval", err); code != 130 || buf.String() != "sparsefs eval: interrupted; nothing was written\n" {
		t.Fatalf("exit %d, %q", code, buf.String())
	}
	buf.Reset()
	if code := failed(context.Background(), &buf, "eval", errors.New("row 3, column 2: not a number")); code != 1 || buf.String() != "sparsefs eval: row 3, column 2: not a number\n" {
		t.Fatalf("exit %d, %q", code, buf.String())
	}
}

// On a terminal the line is also redrawn between reports (an evaluation on
// several workers reports only when a unit ends), until end stops it.
func TestProgressLineTicksBetweenReports(t *testing.T) {
	var buf bytes.Buffer
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := start.Add(2 * time.Second) // past the quiet first second
	now := func() time.Time { clock = clock.Add(progressRedraw); return clock }
	p := &progressLine{w: &buf, name: "sparsefs eval", tty: true, now: now, start: start, next: start, done: make(chan struct{})}
	tick := make(chan time.Time) // the test's ticker: unbuffered, each send is a tick handled
	p.tick.Go(func() { p.ticks(tick) })
	p.update(api.Progress{Fraction: 0.25, Objective: api.Float(math.NaN())})
	draws := func() int { return strings.Count(buf.String(), "\r\x1b[Ksparsefs eval: 25% done") }
	first := draws()
	for i := 0; i < 3; i++ {
		tick <- time.Now()
	}
	p.end() // waits for ticks to return: the three ticks have been drawn
	if n := draws(); n != first+3 {
		t.Fatalf("%d draws after one report and three ticks, want %d: %q", n, first+3, buf.String())
	}
	select {
	case tick <- time.Now():
		t.Fatal("a tick was taken after end")
	default:
	}
}
