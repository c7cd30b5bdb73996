package results

import (
	"github.com/vugu/vugu"

	"sparsefs/ui/app"
)

// Units is the evaluation's folded table of units: every unit's state,
// time, iterations, stop reason, objective, nonzero rows and accuracy
// (built only while unfolded).
type Units struct {
	App *app.App `vugu:"data"`
}

// HandleToggle opens or closes the table from a click on its summary:
// the state is the App's (a render would otherwise undo the browser's own
// toggling).
func (c *Units) HandleToggle(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.App.Eval.ToggleUnits()
}
