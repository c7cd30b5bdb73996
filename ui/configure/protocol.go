package configure

import "sparsefs/ui/app"

// Protocol is the evaluation's form: the splits, the seed, the K list,
// the classifiers and the tuning grid.
type Protocol struct {
	App *app.App `vugu:"data"`
}

func (c *Protocol) form() *app.ProtocolForm { return &c.App.Config.Protocol }
