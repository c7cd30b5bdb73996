package configure

import (
	"sparsefs/api"
	"sparsefs/ui/app"
)

// Params are a chosen method's parameters: a text field for each (a value
// or a list of values), a check box per choice of a categorical one.
type Params struct {
	App    *app.App       `vugu:"data"`
	Method api.MethodInfo `vugu:"data"`
}

// id is the id of a parameter's element: kind "p" its field, "n" its
// name, "d" its description.
func (c *Params) id(kind string, p api.Param) string {
	return kind + "-" + c.Method.Name + "-" + p.Name
}
