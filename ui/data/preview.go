package data

import (
	"sparsefs/api"
	"sparsefs/ui/app"
)

// Preview describes the file open: its name and shape, the label column
// and the classes, what to know before running, and the first rows.
type Preview struct {
	App *app.App `vugu:"data"`
}

func (c *Preview) dataset() *api.DatasetInfo { return &c.App.Data.Inspection().Dataset }

// colClass marks the label's column, and those that are not features.
func (c *Preview) colClass(j int) string {
	switch {
	case c.App.Data.IsLabel(j):
		return "label-col"
	case c.App.Data.IsAside(j):
		return "id-col"
	}
	return ""
}

// missingOptions are the choices for missing cells, in the page's words.
var missingOptions = []struct{ value, text string }{
	{api.MissingMean, "fill them in with the feature's mean (over the samples a model is fitted on)"},
	{api.MissingDropFeatures, "leave out the features that have them"},
	{api.MissingDropSamples, "leave out the samples that have them"},
}
