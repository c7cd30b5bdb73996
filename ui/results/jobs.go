package results

import (
	"strings"

	"sparsefs/ui/app"
)

// Jobs is the table of a ranking run's jobs; a job's Show button tells
// the parent (Pick) which job to show.
type Jobs struct {
	App  *app.App    `vugu:"data"`
	Pick PickHandler `vugu:"data"`
}

func (c *Jobs) pick(i int) {
	if c.Pick != nil {
		c.Pick.PickHandle(PickEvent{Index: i})
	}
}

// stateClass is the class of a state cell ("state done").
func stateClass(state string) string {
	st, _, _ := strings.Cut(state, " ")
	return "state " + st
}
