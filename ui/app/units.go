package app

import (
	"fmt"
	"strconv"
	"strings"

	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
)

// UnitRow is one line of the evaluation's units table.
type UnitRow struct {
	Label, State, Time, Iterations, Stop, Objective, NZ, Acc string
}

// UnitsOpen reports whether the units' panel is open; ToggleUnits opens
// or closes it (the table is built only while it is open).
func (ev *Eval) UnitsOpen() bool { return ev.unitsOpen }
func (ev *Eval) ToggleUnits()    { ev.unitsOpen = !ev.unitsOpen }

// Units describe every unit of the evaluation (at most MaxRows).
func (ev *Eval) Units() []UnitRow {
	e := ev.ev
	if e == nil || e.run == nil {
		return nil
	}
	h := e.run.Plan.Header
	labels := lab.VariantLabels(h.Variants)
	ns := len(h.Splits)
	now := ev.a.now()
	var rows []UnitRow
	for u := range e.run.Parts {
		if len(rows) == MaxRows {
			break
		}
		r := UnitRow{Label: fmt.Sprintf("%s · split %d", labels[u/ns], u%ns+1), State: "done", Time: "—", Iterations: "—", Stop: "—", Objective: "—", NZ: "—", Acc: "—"}
		if u < len(e.jobs) && e.jobs[u] != nil {
			jobCells(e.jobs[u], now, &r.State, &r.Time, &r.Stop)
		}
		if res := e.run.Units[u]; res != nil {
			r.State, r.Time = "done", SecondsText(res.Seconds)
			if len(res.Fits) > 0 {
				f := res.Fits[len(res.Fits)-1]
				r.Stop = strings.ReplaceAll(f.Stop, "_", " ")
				if f.Objective != nil {
					r.Iterations = strconv.Itoa(f.Iterations)
					r.Objective = chart.Num(float64(*f.Objective))
				}
				if f.NonzeroRows != nil {
					r.NZ = strconv.Itoa(*f.NonzeroRows)
				}
			}
			if len(res.Accuracy) > 0 && len(res.Accuracy[0]) > 0 {
				k := len(res.Accuracy[0]) - 1
				r.Acc = strconv.FormatFloat(100*res.Accuracy[0][k], 'f', 1, 64)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// UnitCount counts the evaluation's units.
func (ev *Eval) UnitCount() int {
	if ev.ev == nil || ev.ev.run == nil {
		return 0
	}
	return len(ev.ev.run.Parts)
}

// LastKText names the K of the units table's accuracy column.
func (ev *Eval) LastKText() string {
	ks := ev.KList()
	if len(ks) == 0 {
		return ""
	}
	return strconv.Itoa(ks[len(ks)-1])
}
