package results

import (
	"sparsefs/ui/app"
	"sparsefs/ui/chart"
)

// Chart is a chart in its figure: the SVG drawn into its box, its note,
// a button showing its values as a table, and buttons that ask the parent
// (Save) to save it as SVG or PNG.
type Chart struct {
	App     *app.App    `vugu:"data"`
	Chart   app.Chart   `vugu:"data"`
	Painter Painter     `vugu:"data"`
	Save    SaveHandler `vugu:"data"`
}

func (c *Chart) save(f app.ChartFormat) {
	if c.Save != nil {
		c.Save.SaveHandle(SaveEvent{Chart: c.Chart, Format: f})
	}
}

// table is the chart's values; tableNote says which rows it leaves out.
func (c *Chart) table() chart.Table { t, _ := c.App.ChartTable(c.Chart); return t }
func (c *Chart) tableNote() string  { _, n := c.App.ChartTable(c.Chart); return n }
