package results

import (
	"strconv"

	"github.com/vugu/vugu"

	"sparsefs/ui/app"
)

// Details show the features a selector setting of the evaluation chose,
// at a K, across the splits or on one split: the ranking, the per-class
// selection of exl21 and elasso, the |W| heat map.
type Details struct {
	App     *app.App `vugu:"data"`
	Painter Painter  `vugu:"data"`
}

// across reports whether the ranking is across the splits (rather than
// one split's own).
func (c *Details) across() bool { return c.App.Eval.Split() < 0 }

// index is the value of the select an event came from: an index the page
// wrote (0 if it cannot be read, as before).
func index(ev vugu.DOMEvent) int {
	i, _ := strconv.Atoi(ev.PropString("target", "value"))
	return i
}
