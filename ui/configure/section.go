// Package configure is the page's configuration section (Vugu
// components): presets, the mode, the selectors (Methods) and their
// parameters (Params), the preprocessing, the evaluation's protocol
// (Protocol), the ranking's K and the workers. They show an app.App and
// call its Config.
package configure

import "sparsefs/ui/app"

// Section is the configuration section.
type Section struct {
	App *app.App `vugu:"data"`
}
