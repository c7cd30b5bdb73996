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

// colClass marks the label's column.
func (c *Preview) colClass(j int) string {
	if c.App.Data.IsLabel(j) {
		return "label-col"
	}
	return ""
}
