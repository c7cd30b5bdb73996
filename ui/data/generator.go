package data

import (
	"github.com/vugu/vugu"

	"sparsefs/ui/app"
)

// Generator is the panel that generates synthetic data: its form, the
// line saying what Generate makes (and the `sparsefs synth` command that
// writes the same file), and the button.
type Generator struct {
	App *app.App `vugu:"data"`
}

// HandleToggle opens or closes the panel from a click on its summary: the
// state is the App's (a render would otherwise undo the browser's own
// toggling).
func (c *Generator) HandleToggle(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.App.Synth.Toggle()
}

func (c *Generator) form() *app.SynthForm { return &c.App.Synth.Form }

func (c *Generator) lineOK() bool     { _, ok := c.App.Synth.Form.Line(); return ok }
func (c *Generator) lineText() string { s, _ := c.App.Synth.Form.Line(); return s }
