// Package wire holds the page's copy of the job format (sparsefs/core/job):
// the requests it sends to the workers and the responses it reads back, as
// JSON. The page could import core/job itself, but that would link every
// selector and gonum into ui.wasm, which only needs the types.
//
// The types and constants are generated from the core's sources into
// wire_gen.go by internal/tools/wiregen (build.sh runs it; a test fails
// when the file is stale): change the core, never wire_gen.go. A core type
// whose name would be ambiguous here is renamed (evaluate.Plan is
// EvalPlan, classify.Config is Classifier, evaluate.Weights is
// FitWeights); the numbers' JSON codec is shared (core/jsonfloat, a leaf
// package). This file holds what is the page's own.
package wire

//go:generate go run ../../internal/tools/wiregen

// Param returns the parameter of a method by name, or nil.
func (m *MethodInfo) Param(name string) *Param {
	for i := range m.Params {
		if m.Params[i].Name == name {
			return &m.Params[i]
		}
	}
	return nil
}
