package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"sparsefs/api"
	"sparsefs/core/job"
	"sparsefs/ui/lab"
)

// presetFixed are the eval flags a preset decides: the methods, their
// parameters and the protocol. With -preset the command line may still say
// how to read the data, the seed, the workers, the units and the output.
var presetFixed = []string{"methods", "param", "k", "classifier", "C", "multiclass", "svm-bias", "neighbors",
	"cv", "holdout", "foldfile", "features", "tune", "inner", "preprocess", "bias", "coding", "targets", "request"}

// presetPlan returns what completes an evaluation request from the page's
// preset id once the data are read: the plan the page builds for the
// preset on the same data (ui/lab's Preset.EvalPlan), with the seed
// replaced when -seed was given. The data are read once: the table read
// for the data's shape is the one evaluated. What checking the plan against
// the data left out is said on stderr.
func presetPlan(id string, set map[string]bool, seed uint64, stderr io.Writer) (func(ctx context.Context, req *api.Request, in *job.Input) error, error) {
	for _, name := range presetFixed {
		if set[name] {
			return nil, fmt.Errorf("-%s cannot be combined with -preset (the preset sets the methods and the protocol; -seed, -workers, -units and the flags that say how to read the data may be given)", name)
		}
	}
	p := lab.FindPreset(id)
	if p == nil {
		return nil, fmt.Errorf("no preset %q: the presets are %s", id, strings.Join(presetIDs(), ", "))
	}
	var seedp *int64
	if set["seed"] {
		if seed >= 1<<53 {
			return nil, fmt.Errorf("-seed %d is too large: use a whole number below 2^53", seed)
		}
		s := int64(seed)
		seedp = &s
	}
	return func(ctx context.Context, req *api.Request, in *job.Input) error {
		t, err := in.ReadTable(ctx, &req.Data)
		if err != nil {
			return err
		}
		info := t.Info(&req.Data)
		var notes []string
		if req.Eval, notes, err = p.EvalPlan(job.Methods().Methods, info.Shape(), seedp); err != nil {
			return err
		}
		for _, n := range notes {
			fmt.Fprintf(stderr, "sparsefs eval: %s\n", n)
		}
		in.Table = t
		return nil
	}, nil
}

// presetIDs lists the presets' ids.
func presetIDs() []string {
	ps, _ := lab.Presets()
	ids := make([]string, len(ps))
	for i := range ps {
		ids[i] = ps[i].ID
	}
	return slices.Clip(ids)
}

// listPresets writes the presets, as the page lists them, as JSON.
func listPresets(stdout, stderr io.Writer) int {
	ps, err := lab.Presets()
	if err == nil {
		var out []byte
		if out, err = json.MarshalIndent(map[string]any{"presets": ps}, "", "  "); err == nil {
			_, err = stdout.Write(append(out, '\n'))
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "sparsefs presets: %v\n", err)
		return 1
	}
	return 0
}
