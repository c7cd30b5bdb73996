package results

import "sparsefs/ui/app"

// Chart is a chart in its figure: the SVG drawn into its box, its note,
// and buttons that ask the parent (Save) to save it as SVG or PNG.
type Chart struct {
	Chart   app.Chart   `vugu:"data"`
	Painter Painter     `vugu:"data"`
	Save    SaveHandler `vugu:"data"`
}

func (c *Chart) save(f app.ChartFormat) {
	if c.Save != nil {
		c.Save.SaveHandle(SaveEvent{Chart: c.Chart, Format: f})
	}
}
