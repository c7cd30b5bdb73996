package results

import "github.com/vugu/vugu"

var _ vugu.DOMEvent // import fixer

// PickHandler is the interface for things that can handle PickEvent.
type PickHandler interface {
	PickHandle(event PickEvent)
}

// PickFunc implements PickHandler as a function.
type PickFunc func(event PickEvent)

// PickHandle implements the PickHandler interface.
func (f PickFunc) PickHandle(event PickEvent) { f(event) }

// assert PickFunc implements PickHandler
var _ PickHandler = PickFunc(nil)

// SaveHandler is the interface for things that can handle SaveEvent.
type SaveHandler interface {
	SaveHandle(event SaveEvent)
}

// SaveFunc implements SaveHandler as a function.
type SaveFunc func(event SaveEvent)

// SaveHandle implements the SaveHandler interface.
func (f SaveFunc) SaveHandle(event SaveEvent) { f(event) }

// assert SaveFunc implements SaveHandler
var _ SaveHandler = SaveFunc(nil)
