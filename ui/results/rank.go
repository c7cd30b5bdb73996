package results

import "sparsefs/ui/app"

// Rank shows a ranking on all the data: the jobs, the exports, the
// ranking of the job picked, and the charts.
type Rank struct {
	App     *app.App `vugu:"data"`
	Painter Painter  `vugu:"data"`
}
