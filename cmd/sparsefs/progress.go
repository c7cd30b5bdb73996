package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"sparsefs/api"
)

// progressLine shows the progress of a long command on standard error, so
// that a person running an evaluation of several minutes sees that it
// moves and roughly how long it has left. Standard output keeps only the
// JSON result.
//
// Nothing is shown during the first second (quick commands stay silent).
// On a terminal one line is redrawn in place at most four times a second
// — also between reports, so that the time elapsed moves while units run
// on several workers, which report only when a unit ends — and erased at
// the end; elsewhere (-progress on into a log) a line is written every
// five seconds at most, when a report comes.
type progressLine struct {
	w    io.Writer
	name string
	// fit says that the command is a single fit, whose Fraction counts
	// iterations against the limit (most fits stop far sooner): it shows
	// the iteration, not a share done or a time left.
	fit   bool
	tty   bool
	now   func() time.Time
	start time.Time
	next  time.Time // no line before this
	shown bool

	mu   sync.Mutex    // reports come from the workers' goroutines, ticks from ticks'
	last *api.Progress // the last report (nil before the first)
	done chan struct{} // closed by end: ticks returns
	tick sync.WaitGroup
}

const (
	progressQuiet  = time.Second
	progressRedraw = 250 * time.Millisecond
	progressLog    = 5 * time.Second
)

// newProgressLine returns the progress display for mode auto, on or off
// (checked by output.check); it is nil, and its methods do nothing, when
// no progress is to be shown.
func newProgressLine(w io.Writer, name, mode string, fit bool, now func() time.Time) *progressLine {
	tty := isTerminal(w)
	if mode == "" || mode == "off" || (mode != "on" && !tty) { // "": no -progress flag
		return nil
	}
	t := now()
	p := &progressLine{w: w, name: name, fit: fit, tty: tty, now: now, start: t, next: t.Add(progressQuiet)}
	if tty {
		p.done = make(chan struct{})
		tk := time.NewTicker(progressRedraw)
		p.tick.Go(func() {
			defer tk.Stop()
			p.ticks(tk.C)
		})
	}
	return p
}

// ticks redraws the terminal's line with the last report at every tick
// (every progressRedraw) until end.
func (p *progressLine) ticks(tick <-chan time.Time) {
	for {
		select {
		case <-p.done:
			return
		case <-tick:
			p.mu.Lock()
			if p.last != nil {
				p.draw(*p.last)
			}
			p.mu.Unlock()
		}
	}
}

// check rejects a -progress value other than auto, on and off.
func (o output) check() error {
	switch o.progress {
	case "", "auto", "on", "off":
		return nil
	}
	return fmt.Errorf("-progress %q: give auto, on or off", o.progress)
}

// isTerminal says whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update is job.Run's progress callback.
func (p *progressLine) update(pr api.Progress) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = &pr
	p.draw(pr)
}

// draw shows pr unless a line was shown too recently (p.mu held).
func (p *progressLine) draw(pr api.Progress) {
	t := p.now()
	if t.Before(p.next) {
		return
	}
	if p.tty {
		p.next = t.Add(progressRedraw)
		fmt.Fprintf(p.w, "\r\x1b[K%s", fit(p.text(pr, t.Sub(p.start)), columns()))
	} else {
		p.next = t.Add(progressLog)
		fmt.Fprintln(p.w, p.text(pr, t.Sub(p.start)))
	}
	p.shown = true
}

// end stops the redrawing and erases the terminal's progress line.
func (p *progressLine) end() {
	if p == nil {
		return
	}
	if p.done != nil {
		close(p.done)
		p.tick.Wait()
	}
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// text is one progress line: for an evaluation the share done, the time
// elapsed and, once 5% is done, the time left at the rate so far; the
// iteration and objective J when a single fit reports them (a select, or
// an evaluation on one worker), what the fit does after its iterations
// (api.Progress.PhaseText), and a select's time elapsed.
func (p *progressLine) text(pr api.Progress, elapsed time.Duration) string {
	var parts []string
	if !p.fit {
		frac := min(max(pr.Fraction, 0), 1)
		parts = append(parts, fmt.Sprintf("%.0f%% done", 100*frac), durationText(elapsed)+" elapsed")
		if frac >= 0.05 && frac < 1 {
			left := time.Duration(float64(elapsed) * (1 - frac) / frac)
			parts = append(parts, "about "+durationText(left)+" left")
		}
	}
	if pr.MaxIterations > 0 && pr.Iteration > 0 {
		s := fmt.Sprintf("iteration %d/%d", pr.Iteration, pr.MaxIterations)
		if !math.IsNaN(float64(pr.Objective)) {
			s += fmt.Sprintf(", J %.6g", float64(pr.Objective))
		}
		parts = append(parts, s)
	}
	if t := pr.PhaseText(); t != "" {
		parts = append(parts, t)
	}
	if p.fit {
		parts = append(parts, durationText(elapsed))
	}
	return p.name + ": " + strings.Join(parts, " · ")
}

// columns is the terminal's width: $COLUMNS, else 80.
func columns() int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}

// fit cuts s to fewer than cols characters, so that the line never wraps
// (\r then redraws only the last screen row, leaving the rest behind).
func fit(s string, cols int) string {
	if r := []rune(s); len(r) >= cols {
		return string(r[:max(cols-2, 0)]) + "…"
	}
	return s
}

// durationText writes d as 42 s, 3 min 05 s or 1 h 02 min.
func durationText(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %02d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %02d min", s/3600, s/60%60)
}
