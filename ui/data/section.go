// Package data is the page's data section (Vugu components): the file
// chosen, dropped or bundled (Section), the generator of synthetic data
// (Generator) and the preview of the file open (Preview). They show an
// app.App and call its Data and Synth.
package data

import (
	"github.com/vugu/vugu"

	"sparsefs/ui/app"
)

// Files reads the files the user chooses or drops (the browser: DOM
// events carry them).
type Files interface {
	// OpenInput reads the file chosen in a file input (the event's
	// target), OpenDrop the first file of a drop event; each keeps the
	// bytes under a new data number.
	OpenInput(ev vugu.DOMEvent, done func(f app.Opened))
	OpenDrop(ev vugu.DOMEvent, done func(f app.Opened))
	// ReadText reads the file chosen in a file input as text.
	ReadText(ev vugu.DOMEvent, done func(name, text string, err error))
}

// Section is the data section: the file input, the drop zone, the demos,
// the generator, the preview and the report input.
type Section struct {
	App   *app.App `vugu:"data"`
	Files Files    `vugu:"data"`

	dragOver bool // a file is dragged over the drop zone
}

// HandleDragOver lets the drop zone accept files.
func (c *Section) HandleDragOver(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.dragOver = true
}

// HandleDragLeave resets the drop zone's highlight.
func (c *Section) HandleDragLeave(ev vugu.DOMEvent) { c.dragOver = false }

// HandleDrop reads a dropped file (not during a run: the error line says
// so).
func (c *Section) HandleDrop(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.dragOver = false
	if done := c.App.Data.DropFile(); done != nil {
		c.Files.OpenDrop(ev, done)
	}
}

func (c *Section) dropClass() string {
	if c.dragOver {
		return "dropzone over"
	}
	return "dropzone"
}
