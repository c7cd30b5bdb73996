package selection

// For the external tests (package selection_test), which drive the engine
// through core/job as the CLI and the worker do.
var (
	DemoProblem       = demoProblem
	IRLSNewtonOptimum = newtonOptimum
	IRLSRawData       = irlsRawData
	IRLSRealProblem   = irlsRealProblem
	IRLSSlice         = irlsSlice
)
