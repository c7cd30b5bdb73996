// Package results is the page's results section (Vugu components): the
// ranking mode's jobs, ranking and charts (Rank, Jobs), and the
// evaluation's table, charts, details and units (Eval, Table, Details,
// Units), each chart with its SVG and PNG buttons (Chart). They show an
// app.App and call its Rank, Eval and exports; Chart, Table and Jobs
// report to their parent with typed events (SaveEvent, PickEvent).
package results

import (
	vjs "github.com/vugu/vugu/js"

	"sparsefs/ui/app"
)

// Painter draws a chart's markup into its box (the browser).
type Painter interface {
	// Paint puts markup into an element unless it already holds the
	// markup with this key.
	Paint(el vjs.Value, key, markup string)
}

// Section is the results section: the results of the run shown.
type Section struct {
	App     *app.App `vugu:"data"`
	Painter Painter  `vugu:"data"`
}

//vugugen:event Save
//vugugen:event Pick

// SaveEvent asks for a chart to be saved as a file of a format.
type SaveEvent struct {
	Chart  app.Chart
	Format app.ChartFormat
}

// PickEvent says which row of a table was picked (its index).
type PickEvent struct {
	Index int
}
