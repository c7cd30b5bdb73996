package configure

import "sparsefs/ui/app"

// Methods is the chooser of selectors: the methods the workers listed, by
// kind, each with a check box.
type Methods struct {
	App *app.App `vugu:"data"`
}
