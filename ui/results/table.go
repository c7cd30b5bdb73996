package results

import "sparsefs/ui/app"

// Table is the evaluation's results table: one row per selector setting
// and classifier; a row's Show button tells the parent (Pick) which
// setting the details show.
type Table struct {
	App  *app.App    `vugu:"data"`
	Pick PickHandler `vugu:"data"`
}

func (c *Table) pick(variant int) {
	if c.Pick != nil {
		c.Pick.PickHandle(PickEvent{Index: variant})
	}
}
