// Command wiregen writes ui/wire/wire_gen.go, the page's copy of the job
// format, from the Go sources of the core's types.
//
// The page (ui/) reads and writes the JSON of core/job — requests, the
// methods list, selections, evaluation plans, parts and reports — but must
// not import core/job: that would link every selector and gonum into
// ui.wasm, which only needs the types. So package ui/wire holds copies of
// those types, and this command makes them: it parses the core's packages
// (go/parser, with their comments; build constraints as for js/wasm),
// starts from the root types and constants listed in wire below, and
// writes every type they reach, with their fields, JSON tags and doc
// comments:
//
//   - a struct keeps its exported fields, except those tagged json:"-"
//     (the bytes and the parsed data that never travel as JSON);
//   - a type is renamed where two packages use one name, or where the
//     core's name would mislead in the page (renames: evaluate.Plan is
//     EvalPlan);
//   - any other named type (selection.Kind) becomes an alias of its
//     underlying type, and an alias (job.Progress) is followed;
//   - a type of a leaf package (one that imports nothing of the module:
//     jsonfloat, select/param) is used as it is, with its methods, through
//     an alias of the same name;
//   - a listed constant brings its whole declaration group.
//
// Methods are not copied. A type whose JSON is its own (MarshalJSON,
// UnmarshalJSON, …) is refused unless it is a leaf package's, or listed in
// customJSON with the reason the page can read and write it without those
// methods.
//
// build.sh runs it; a test of this package fails when wire_gen.go is not
// what it would write now.
//
// Usage (from anywhere in the module): go run ./internal/tools/wiregen
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// wire is what ui/wire/wire_gen.go holds.
var wire = config{
	Package: "wire",
	Output:  "ui/wire/wire_gen.go",
	Roots: []string{
		"sparsefs/core/job.Request",
		"sparsefs/core/job.Inspection",
		"sparsefs/core/job.MethodList",
		"sparsefs/core/job.Selection",
		"sparsefs/core/job.EvalPart",
		"sparsefs/core/job.EvalReport",
		"sparsefs/core/job.Reduced",
		"sparsefs/core/job.Progress",
	},
	Consts: []string{
		"sparsefs/core/job.OpSelect",
		"sparsefs/core/job.OpReduce",
		"sparsefs/core/job.MaxSynthCells",
		"sparsefs/core/select.Filter",
	},
	Renames: map[string]string{
		"sparsefs/core/evaluate.Plan":     "EvalPlan",
		"sparsefs/core/evaluate.Variant":  "EvalVariant",
		"sparsefs/core/evaluate.Grid":     "EvalGrid",
		"sparsefs/core/evaluate.Protocol": "EvalProtocol",
		"sparsefs/core/evaluate.Header":   "EvalHeader",
		"sparsefs/core/evaluate.Report":   "EvalResults",
		"sparsefs/core/evaluate.Weights":  "FitWeights",
		"sparsefs/core/classify.Config":   "Classifier",
	},
	Leaves: []string{"sparsefs/core/jsonfloat", "sparsefs/core/select/param"},
}

func main() {
	out := flag.String("o", "", "the file to write (default: "+wire.Output+" in the module)")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "wiregen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	src, err := generate(root, wire)
	if err != nil {
		return err
	}
	if out == "" {
		out = filepath.Join(root, wire.Output)
	}
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, src) {
		return nil
	}
	return os.WriteFile(out, src, 0o644)
}

// moduleRoot returns the directory of the go.mod above the working
// directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
