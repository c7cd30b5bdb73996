package app

import (
	"fmt"

	"sparsefs/ui/chart"
)

// A chart's values as a table, under the chart, on request (issue 13
// point 7: reachable without a mouse); made once per markup.

// maxTableRows bounds the rows a chart's table shows (a long convergence
// trace has thousands of points; the report has them all).
const maxTableRows = 500

// tables remembers which charts show their table, and the tables made.
type tables struct {
	open map[string]bool        // by chart id
	made map[string]chart.Table // by chart key
}

// TableOpen reports whether the chart shows its values as a table.
func (a *App) TableOpen(ch Chart) bool { return a.tables.open[ch.ID] }

// ToggleTable shows the chart's values as a table, or hides them.
func (a *App) ToggleTable(ch Chart) {
	if a.tables.open == nil {
		a.tables.open = map[string]bool{}
	}
	a.tables.open[ch.ID] = !a.tables.open[ch.ID]
}

// ChartTable is the chart's values (at most maxTableRows rows) and a note
// when rows are left out.
func (a *App) ChartTable(ch Chart) (chart.Table, string) {
	if ch.table == nil {
		return chart.Table{}, ""
	}
	t, ok := a.tables.made[ch.Key]
	if !ok {
		t = ch.table()
		if a.tables.made == nil || len(a.tables.made) > 64 {
			a.tables.made = map[string]chart.Table{}
		}
		a.tables.made[ch.Key] = t
	}
	if len(t.Rows) > maxTableRows {
		return chart.Table{Head: t.Head, Rows: t.Rows[:maxTableRows]}, fmt.Sprintf("The first %d of %d rows; the report holds them all.", maxTableRows, len(t.Rows))
	}
	return t, ""
}

// HasTable reports whether the chart has its values as a table.
func (ch Chart) HasTable() bool { return ch.table != nil }
