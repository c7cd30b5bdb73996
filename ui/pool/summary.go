package pool

import (
	"fmt"
	"time"
)

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
