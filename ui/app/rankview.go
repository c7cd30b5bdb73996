package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"sparsefs/api"
	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// JobRow is one line of the ranking run's table of jobs.
type JobRow struct {
	Index                                               int
	Label, State, Time, Iterations, Stop, Objective, NZ string
	// Focus says the row is the job shown in detail; OK that it has a
	// result to show.
	Focus, OK bool
}

// MaxRows bounds the rows of the runs' and units' tables (the report has
// them all).
const MaxRows = 200

// Rows are the lines of the table of the run's jobs (at most MaxRows).
func (rk *Rank) Rows() []JobRow {
	r := rk.run
	if r == nil {
		return nil
	}
	now := rk.a.now()
	var rows []JobRow
	for i, u := range r.units {
		if len(rows) == MaxRows {
			break
		}
		row := JobRow{Index: i, Label: u.Label, Focus: i == rk.focus, Time: "—", Iterations: "—", Stop: "—", Objective: "—", NZ: "—"}
		switch {
		case r.loaded != nil:
			row.State = r.loaded[i].State
			row.Time = SecondsText(r.loaded[i].Seconds)
			if row.State != "done" && r.loaded[i].Error != "" {
				row.Stop = r.loaded[i].Error
			}
		case i < len(r.jobs):
			jobCells(r.jobs[i], now, &row.State, &row.Time, &row.Stop)
		}
		if s := r.results[i]; s != nil {
			row.OK = true
			row.Time = SecondsText(s.Seconds)
			row.Stop = strings.ReplaceAll(s.Stop, "_", " ")
			if s.Objective != nil {
				row.Iterations = strconv.Itoa(s.Iterations)
				row.Objective = chart.Num(float64(*s.Objective))
			}
			if s.NonzeroRows != nil {
				row.NZ = strconv.Itoa(*s.NonzeroRows)
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// MoreRows counts the jobs the table leaves out.
func (rk *Rank) MoreRows() int {
	if rk.run == nil {
		return 0
	}
	return max(0, len(rk.run.units)-MaxRows)
}

// jobCells writes a job's state, running time and error into the cells of
// a table row (leaving them as they are where there is nothing to say).
func jobCells(j *pool.Job, now time.Time, state, time, stop *string) {
	*state = j.State.String()
	if j.State == pool.Running && j.Progress.Fraction > 0 {
		*state = fmt.Sprintf("running %.0f%%", 100*j.Fraction())
	}
	if !j.Started.IsZero() {
		*time = SecondsText(j.Seconds(now))
	}
	if j.State == pool.Failed {
		*stop = j.Err
	}
}

// RankedRow is one line of the ranking table.
type RankedRow struct {
	Rank, Column int
	Name, Score  string
	Freq         string
	// P and Q are the feature's p-value and q-value (HasPValues).
	P, Q string
}

// Ranked is the ranking of the job shown (its first Shown features), with
// how many of the run's jobs have each feature in their top K.
func (rk *Rank) Ranked() []RankedRow {
	f := rk.focused()
	if f == nil {
		return nil
	}
	rs := rk.results()
	count := map[int]int{}
	for _, fc := range lab.Frequency(rs, rk.run.k()) {
		count[fc.Feature] = fc.Count
	}
	pos := make(map[int]int, len(f.Sel.Ranking))
	for i, j := range f.Sel.Ranking {
		pos[j] = i
	}
	list := f.Sel.Ranking
	if rk.QOnly() {
		list = rk.qSet()
	}
	rows := make([]RankedRow, min(rk.a.shown, len(list)))
	for i := range rows {
		j := list[i]
		rows[i] = RankedRow{Rank: pos[j] + 1, Column: j, Name: f.Sel.Features[j], Score: chart.Num(f.Sel.Scores[j]), Freq: fmt.Sprintf("%d / %d", count[j], len(rs))}
		if rk.HasPValues() {
			rows[i].P, rows[i].Q = pvalueText(f.Sel.PValues[j]), pvalueText(f.Sel.QValues[j])
		}
	}
	return rows
}

// FocusSummary describes the job shown.
func (rk *Rank) FocusSummary() string {
	f := rk.focused()
	if f == nil {
		return ""
	}
	s := f.Sel
	out := fmt.Sprintf("%s on %d samples × %d features in %s", f.Label, s.Dataset.Samples, s.Dataset.Features, SecondsText(s.Seconds))
	if s.Objective != nil {
		out += fmt.Sprintf(" · objective %s after %d iterations (%s)", chart.Num(float64(*s.Objective)), s.Iterations, strings.ReplaceAll(s.Stop, "_", " "))
	}
	if s.NonzeroRows != nil {
		out += fmt.Sprintf(" · %d nonzero rows", *s.NonzeroRows)
	}
	return out + certText(s.Certificate)
}

// certText says in words what a certificate proves where it meets the
// certified stop's goal, a relative duality gap of at most 10⁻⁶
// (docs/methods.md#stopping); a looser one comes with a warning instead.
func certText(c *api.Certificate) string {
	if c == nil || c.Gap > 1e-6 {
		return ""
	}
	return " · proven optimal: the objective is within one millionth of its minimum"
}

// FocusWarnings are the warnings of the job shown.
func (rk *Rank) FocusWarnings() []string {
	if f := rk.focused(); f != nil {
		return f.Sel.Warnings
	}
	return nil
}

// FocusFeatures counts the features the job shown ranked.
func (rk *Rank) FocusFeatures() int {
	if f := rk.focused(); f != nil {
		return len(f.Sel.Ranking)
	}
	return 0
}
