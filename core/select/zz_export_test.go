package selection

var (
	PolishExactFit = &polishExactFit
	PolishDebug    = &polishDebug
)
