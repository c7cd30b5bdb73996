package configure

import (
	"sparsefs/api"
	"sparsefs/ui/app"
	"sparsefs/ui/lab"
	"strings"
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

// words is a parameter's line in words, or its formula line when the page
// has none.
func (c *Params) words(p api.Param) string {
	if w := lab.ParamWords(c.Method.Name, p.Name); w != "" {
		return w
	}
	return p.Doc
}

// defaults is the line a closed form shows: the parameters' defaults.
func (c *Params) defaults() string {
	if len(c.Method.Params) == 0 {
		return "No parameters."
	}
	parts := make([]string, 0, len(c.Method.Params))
	for _, p := range c.Method.Params {
		if !c.App.Config.ParamHidden(c.Method, p) {
			parts = append(parts, p.Name+" "+lab.DefaultText(p))
		}
	}
	return "Defaults: " + strings.Join(parts, " · ")
}
