// Package run is the page's run section (a Vugu component): Run and
// Cancel, what Run will do, the progress and what each worker is doing.
// It shows an app.App and calls its Run and Cancel.
package run

import "sparsefs/ui/app"

// Section is the run section.
type Section struct {
	App *app.App `vugu:"data"`
}

func (c *Section) planOK() bool     { _, ok := c.App.Plan(); return ok }
func (c *Section) planLine() string { s, _ := c.App.Plan(); return s }

// busyAttr is "yes" while a run goes on (the browser tests wait for
// "no").
func (c *Section) busyAttr() string {
	if c.App.Running() {
		return "yes"
	}
	return "no"
}
