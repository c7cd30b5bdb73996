package results

import "sparsefs/ui/app"

// Eval shows an evaluation: its summary, the results table, the exports,
// the charts, the details of the row picked and the units.
type Eval struct {
	App     *app.App `vugu:"data"`
	Painter Painter  `vugu:"data"`
}
