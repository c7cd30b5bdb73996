// Package core is the numerical heart of sparsefs. Its sub-packages are pure
// Go (gonum) and build both natively and for GOOS=js GOARCH=wasm; none of
// them touches the browser (only wasm/ and ui/ do).
//
//	dataset  reading CSV/TSV files, label encoding, preprocessing
//	select   the selectors, their shared iteration loop and registry
//	job      the one request/response format spoken by the CLI, the worker
//	         and the tests
package core
