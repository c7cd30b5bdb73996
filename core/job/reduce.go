package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"sparsefs/api"
	"sparsefs/core/dataset"
)

// runReduce writes the data restricted to the features req.Columns as CSV
// (OpReduce; dataset.WriteCSV), named after the data: "name-topK.csv".
func runReduce(ctx context.Context, req *api.Request, in Input) (*api.Reduced, error) {
	if len(req.Columns) == 0 {
		return nil, errors.New("no features chosen for the reduced data")
	}
	t, err := table(ctx, req, in)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.Data.WriteCSV(&buf, req.Columns); err != nil {
		return nil, err
	}
	return &api.Reduced{Name: fmt.Sprintf("%s-top%d.csv", baseName(dataName(&req.Data)), len(req.Columns)), CSV: buf.String()}, nil
}

// baseName is a data file's name without its directory and extensions.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSuffix(name, ".gz")
	for _, ext := range []string{".csv", ".tsv", ".txt"} {
		name = strings.TrimSuffix(name, ext)
	}
	if name == "" || name == "-" {
		return "data"
	}
	return name
}

// runSynth generates the data of gsr-fs §5.1 (dataset.Synth) as CSV
// (OpSynth): exactly the file `sparsefs synth` writes with the same
// settings.
func runSynth(s *api.Synth) (*api.Reduced, error) {
	if s == nil {
		return nil, errors.New("synth: no settings given (m, d1, d2, c, outliers, seed, task)")
	}
	targets, label, err := SynthColumns(s.Task)
	if err != nil {
		return nil, err
	}
	g := dataset.Synth{M: s.M, D1: s.D1, D2: s.D2, C: s.C, Outliers: s.Outliers, Seed: s.Seed}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if cells := float64(s.M) * float64(3*s.D1+s.D2); s.MaxCells > 0 && cells > float64(s.MaxCells) {
		return nil, fmt.Errorf("synth: %d samples × %d features is %.0f values; at most %d fit here (use the command line, sparsefs synth, for more)", s.M, 3*s.D1+s.D2, cells, s.MaxCells)
	}
	data, err := g.Generate()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := data.WriteCSV(&buf, targets, label); err != nil {
		return nil, err
	}
	name := s.Name
	if name == "" {
		name = "synthetic.csv"
	}
	return &api.Reduced{Name: name, CSV: buf.String()}, nil
}

// SynthColumns says which columns follow the features of generated data
// for a task (api.Synth.Task; "" is a classification).
func SynthColumns(task string) (targets, label bool, err error) {
	switch strings.ToLower(task) {
	case "", api.TaskClassification:
		return false, true, nil
	case api.TaskRegression:
		return true, false, nil
	case api.TaskBoth:
		return true, true, nil
	}
	return false, false, fmt.Errorf("synth: task %q: use classification, regression or both", task)
}
