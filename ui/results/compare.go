package results

import "sparsefs/ui/app"

// Compare shows the selectors of an evaluation side by side at the K of
// the details: their top K, their overlap (a heat map and its table), the
// consensus ranking, and the comparison as CSV.
type Compare struct {
	App     *app.App `vugu:"data"`
	Painter Painter  `vugu:"data"`
}
