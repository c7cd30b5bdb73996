// Package job is the one request/response format of sparsefs. The command
// line, the Web Worker and the tests all build a Request, call Run and read
// the Response, so that every entry point computes exactly the same thing.
//
// Both types are JSON-serialisable. The bytes of the data file travel beside
// the JSON (Data.Bytes is not serialised): the CLI reads Data.Path, the
// worker receives the file as a transferred ArrayBuffer.
package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"
	"time"

	"sparsefs/core/dataset"
	"sparsefs/core/evaluate"
	selection "sparsefs/core/select"
)

// Operations a Request can ask for.
const (
	// OpSelect fits a selector and ranks the features (the default).
	OpSelect = "select"
	// OpInspect reads the data and describes them (for a preview).
	OpInspect = "inspect"
	// OpMethods lists the available methods and their parameters.
	OpMethods = "methods"
	// OpEval evaluates methods by cross-validation or holdout (see
	// eval.go): the whole report, or with Units only those units.
	OpEval = "eval"
	// OpEvalPlan describes an evaluation's units without running them.
	OpEvalPlan = "eval-plan"
	// OpMerge merges the partial results of OpEval into the report.
	OpMerge = "merge"
)

// Data says where a dataset comes from and how to read it.
type Data struct {
	// Path is a file to read (CLI and tests); "-" is standard input.
	Path string `json:"path,omitempty"`
	// Name is a display name (the browser's file name).
	Name string `json:"name,omitempty"`
	// Bytes is the file's content when it is already in memory; it wins
	// over Path and is not serialised.
	Bytes []byte `json:"-"`
	// Label is the label column: a name, a 1-based number, "first" or
	// "last" (the default).
	Label string `json:"label,omitempty"`
	// Targets name the columns holding real-valued regression targets
	// (header names or 1-based numbers); Label may then be "none".
	Targets []string `json:"targets,omitempty"`
	// Delimiter is ",", ";", "\t" or "" to detect it.
	Delimiter string `json:"delimiter,omitempty"`
	// Header is "auto" (default), "yes" or "no".
	Header string `json:"header,omitempty"`
	// Missing is "reject" (default) or "mean" (impute the training mean).
	Missing string `json:"missing,omitempty"`
	// Parsed, if set, is this Data already read with the same Label,
	// Delimiter, Header and Missing (a worker's cache, see Load); it wins
	// over Bytes and Path, is shared rather than copied (nothing may
	// modify it) and is not serialised. OpInspect ignores it.
	Parsed *dataset.Dataset `json:"-"`
}

// Request is one unit of work.
type Request struct {
	// Op is OpSelect (default), OpInspect, OpMethods, OpEval, OpEvalPlan
	// or OpMerge, or one of the worker's own operations (worker.go).
	Op   string `json:"op,omitempty"`
	Data Data   `json:"data"`
	// Method names the selector; Params sets its parameters (the others
	// take their defaults): numbers, or text (a number, or the name of a
	// categorical parameter's choice).
	Method string         `json:"method,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	// Eval is the plan of OpEval and OpEvalPlan (methods, K list,
	// classifiers, protocol, seed, tuning). Preprocess, Bias and Coding
	// may be given here at the top level instead of in the plan.
	Eval *evaluate.Plan `json:"eval,omitempty"`
	// Units, for OpEval, runs only these units (numbered from 0) and
	// answers with an EvalPart instead of the report.
	Units []int `json:"units,omitempty"`
	// Workers is how many units OpEval runs at once in goroutines
	// (default 1). It never changes the result.
	Workers int `json:"workers,omitempty"`
	// Parts are the partial results OpMerge merges.
	Parts []*EvalPart `json:"parts,omitempty"`
	// Preprocess is "zscore" (default), "minmax" or "none".
	Preprocess string `json:"preprocess,omitempty"`
	// Bias appends a constant-1 column for the embedded models (default
	// true).
	Bias *bool `json:"bias,omitempty"`
	// Coding overrides the method's label coding: "y01" or "ypm".
	Coding string `json:"coding,omitempty"`
	// K, if positive, asks for the top K features in Response.Selected.
	// For a method that selects exactly K features (one that declares the
	// parameter k, as l20 and topk do) it is also that parameter.
	K int `json:"k,omitempty"`
	// PreviewRows is how many rows an inspection returns (default 5).
	PreviewRows int `json:"preview_rows,omitempty"`
	// WeightRows, if positive, asks an embedded method for |W| of its top
	// WeightRows ranked features in Selection.Weights (for a heat map).
	WeightRows int `json:"weight_rows,omitempty"`

	// The fields below belong to the worker's operations (worker.go);
	// Run ignores them.

	// Columns are the 0-based features OpReduce keeps.
	Columns []int `json:"columns,omitempty"`
	// Synth is what OpSynth generates.
	Synth *Synth `json:"synth,omitempty"`
	// Session names the parts a worker keeps for a merge: those OpCollect
	// receives (Part) and those of OpEval jobs with Units run there. An
	// OpMerge with a Session merges them (and its Parts), refusing when
	// they number fewer than Expect.
	Session int       `json:"session,omitempty"`
	Part    *EvalPart `json:"part,omitempty"`
	Expect  int       `json:"expect,omitempty"`
	// Light asks an OpMerge with a Session for the report without its
	// units (the page has them); the worker keeps the parts, and OpReport
	// then writes the report in full. On an OpCollect, Part is the part's
	// digest (its units without the fits' rankings, scores, per-class
	// rankings and weights) and the part's JSON travels beside the
	// request, read only by OpReport.
	Light bool `json:"light,omitempty"`
}

// Response is the answer to a Request. Exactly one of its parts is set,
// according to the operation, and its JSON is that part's JSON.
type Response struct {
	Selection  *Selection
	Inspection *Inspection
	Methods    *MethodList
	EvalReport *EvalReport
	EvalPart   *EvalPart
}

// MarshalJSON implements json.Marshaler: the JSON of the part that is set.
func (r *Response) MarshalJSON() ([]byte, error) {
	switch {
	case r.Selection != nil:
		return json.Marshal(r.Selection)
	case r.Inspection != nil:
		return json.Marshal(r.Inspection)
	case r.Methods != nil:
		return json.Marshal(r.Methods)
	case r.EvalReport != nil:
		return json.Marshal(r.EvalReport)
	case r.EvalPart != nil:
		return json.Marshal(r.EvalPart)
	}
	return []byte("null"), nil
}

// Selection is the answer to OpSelect.
type Selection struct {
	Method string `json:"method"`
	// Params holds every parameter used, defaults included (categorical
	// ones by name).
	Params     map[string]any `json:"params"`
	Preprocess string         `json:"preprocess"`
	Bias       bool           `json:"bias"`
	Coding     string         `json:"coding,omitempty"`
	Dataset    DatasetInfo    `json:"dataset"`
	// Features are the feature names, in column order.
	Features []string `json:"features"`
	// Ranking lists 0-based feature indices (into Features), best first.
	Ranking []int `json:"ranking"`
	// Scores has one score per feature, in column order.
	Scores Floats `json:"scores"`
	// Selected is the first K of Ranking when K was asked for.
	Selected []int `json:"selected,omitempty"`
	// PerClass ranks the features once per class, best first (the
	// per-class selection of the exclusive methods, exl21 and elasso);
	// omitted for the other methods.
	PerClass [][]int `json:"per_class,omitempty"`
	// Objective is the model's exact objective at the solution; null for
	// filters.
	Objective  *Float `json:"objective"`
	Iterations int    `json:"iterations"`
	Stop       string `json:"stop"`
	// Certificate bounds the distance of the objective from the optimum:
	// gsr/mtfs with p = 1 and r > 1 when the Newton polish after the
	// accelerated solver certified a relative gap ≤ 1e−6; absent otherwise.
	Certificate *selection.Certificate `json:"certificate,omitempty"`
	// Trace is the objective after each iteration ([] for filters).
	Trace Floats `json:"trace"`
	// NonzeroRows is the sparsity level of W (feature rows with norm above
	// 1e−6 times the largest); null for filters.
	NonzeroRows *int `json:"nonzero_rows"`
	// Seconds is the wall time of the fit (preprocessing excluded).
	Seconds  float64  `json:"seconds"`
	Warnings []string `json:"warnings"`
	// Weights holds |W| of the top-ranked rows when Request.WeightRows
	// asked for them (embedded methods only).
	Weights *Weights `json:"weights,omitempty"`
}

// DatasetInfo describes the data a response was computed on.
type DatasetInfo struct {
	Name      string   `json:"name,omitempty"`
	Samples   int      `json:"samples"`
	Features  int      `json:"features"`
	Label     string   `json:"label"`
	Delimiter string   `json:"delimiter"`
	Header    bool     `json:"header"`
	Classes   []string `json:"classes"`
	Counts    []int    `json:"class_counts"`
	// Constant lists the 0-based features constant over all samples.
	Constant []int `json:"constant"`
	// Missing counts missing cells; MissingColumns lists their features.
	Missing        int   `json:"missing"`
	MissingColumns []int `json:"missing_columns"`
	// Targets are the names of the real-valued target columns.
	Targets []string `json:"targets,omitempty"`
	// SHA256, in evaluation reports, identifies the data as read: the
	// SHA-256 of the feature names, the values (their IEEE bits), the
	// labels and the targets, so that a re-run can be checked to use the
	// same data whatever file they came from.
	SHA256 string `json:"sha256,omitempty"`
}

// Inspection is the answer to OpInspect: what the data look like.
type Inspection struct {
	Dataset DatasetInfo `json:"dataset"`
	// Columns are all column names in file order, LabelColumn the 0-based
	// position of the label among them, and Preview the first rows.
	Columns     []string   `json:"columns"`
	LabelColumn int        `json:"label_column"`
	Preview     [][]string `json:"preview"`
	Warnings    []string   `json:"warnings"`
}

// MethodList is the answer to OpMethods.
type MethodList struct {
	Methods []MethodInfo `json:"methods"`
}

// MethodInfo describes one method and all the parameters it takes (the
// loop's included), with their defaults.
type MethodInfo struct {
	Name   string            `json:"name"`
	Title  string            `json:"title"`
	Doc    string            `json:"doc"`
	Paper  string            `json:"paper"`
	Kind   selection.Kind    `json:"kind"`
	Params []selection.Param `json:"params"`
	// SelectsK marks a method whose parameter k is the number of features
	// it selects (filled from Request.K).
	SelectsK bool `json:"selects_k,omitempty"`
}

// Methods lists the registered methods.
func Methods() *MethodList {
	specs := selection.Specs()
	out := &MethodList{Methods: make([]MethodInfo, len(specs))}
	for i, s := range specs {
		out.Methods[i] = MethodInfo{Name: s.Name, Title: s.Title, Doc: s.Doc, Paper: s.Paper, Kind: s.Kind, Params: nonNil(s.AllParams()), SelectsK: s.SelectsK}
	}
	return out
}

// Progress is what Run reports while it works.
type Progress = selection.Progress

// Run performs a request. progress may be nil. Errors a user can cause are
// returned with a message that names the problem.
func Run(ctx context.Context, req *Request, progress func(Progress)) (*Response, error) {
	switch strings.ToLower(req.Op) {
	case "", OpSelect:
		sel, err := runSelect(ctx, req, progress)
		if err != nil {
			return nil, err
		}
		return &Response{Selection: sel}, nil
	case OpInspect:
		ins, err := runInspect(req)
		if err != nil {
			return nil, err
		}
		return &Response{Inspection: ins}, nil
	case OpMethods:
		return &Response{Methods: Methods()}, nil
	case OpEval, OpEvalPlan:
		return runEval(ctx, req, progress)
	case OpMerge:
		rep, err := Merge(req.Parts)
		if err != nil {
			return nil, err
		}
		return &Response{EvalReport: rep}, nil
	}
	if workerOp(strings.ToLower(req.Op)) {
		return nil, fmt.Errorf("the operation %s belongs to the browser's worker; here use select, inspect, methods, eval, eval-plan or merge", strings.ToLower(req.Op))
	}
	return nil, fmt.Errorf("unknown operation %q: use select, inspect, methods, eval, eval-plan or merge", req.Op)
}

func load(d *Data, previewRows int) (*dataset.Dataset, error) {
	if d.Parsed != nil {
		return d.Parsed, nil
	}
	opts := dataset.Options{Label: d.Label, PreviewRows: previewRows}
	switch d.Delimiter {
	case "":
	case ",", ";", "\t":
		opts.Delimiter = rune(d.Delimiter[0])
	case "tab", `\t`:
		opts.Delimiter = '\t'
	case "comma":
		opts.Delimiter = ','
	case "semicolon":
		opts.Delimiter = ';'
	default:
		return nil, fmt.Errorf("unknown delimiter %q: use a comma, a semicolon or a tab", d.Delimiter)
	}
	switch strings.ToLower(d.Header) {
	case "", "auto":
	case "yes", "true":
		opts.Header = dataset.HeaderYes
	case "no", "false":
		opts.Header = dataset.HeaderNo
	default:
		return nil, fmt.Errorf("unknown header setting %q: use auto, yes or no", d.Header)
	}
	switch strings.ToLower(d.Missing) {
	case "", "reject":
	case "mean":
		opts.Missing = dataset.ImputeMean
	default:
		return nil, fmt.Errorf("unknown missing-value policy %q: use reject or mean", d.Missing)
	}
	raw := d.Bytes
	if raw == nil {
		if d.Path == "" {
			return nil, errors.New("no data given")
		}
		var err error
		if d.Path == "-" {
			raw, err = io.ReadAll(os.Stdin)
		} else {
			raw, err = os.ReadFile(d.Path)
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("the data file %s does not exist", d.Path)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read the data file: %w", err)
		}
	}
	opts.Targets = d.Targets
	ds, err := dataset.Parse(raw, opts)
	if err != nil {
		return nil, withName(d, err)
	}
	return ds, nil
}

// withName prefixes a data error with the file's name.
func withName(d *Data, err error) error {
	name := d.Name
	if name == "" {
		name = d.Path
	}
	if name == "" || name == "-" {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

func info(d *Data, ds *dataset.Dataset) DatasetInfo {
	name := d.Name
	if name == "" {
		name = d.Path
	}
	constant := append([]int(nil), parsedFacts(d, ds, func() any { return dataset.FitScaler(dataset.None, ds.X).Constant }, "constant").([]int)...)
	return DatasetInfo{
		Name: name, Samples: ds.Rows(), Features: len(ds.Features), Label: ds.Label,
		Delimiter: string(ds.Delimiter), Header: ds.Header,
		Classes: nonNil(ds.Classes), Counts: ds.ClassCounts(),
		Constant: nonNil(constant), Missing: ds.Missing, MissingColumns: nonNil(ds.MissingColumns),
		Targets: ds.TargetNames,
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func runInspect(req *Request) (*Inspection, error) {
	rows := req.PreviewRows
	if rows <= 0 {
		rows = 5
	}
	// A preview must show files with missing values too; the policy only
	// matters when they are used.
	d := req.Data
	d.Missing, d.Parsed = "mean", nil
	ds, err := load(&d, rows)
	if err != nil {
		return nil, err
	}
	return &Inspection{
		Dataset: info(&req.Data, ds), Columns: ds.Columns, LabelColumn: ds.LabelColumn - 1,
		Preview: ds.Preview, Warnings: nonNil(ds.Warnings),
	}, nil
}

func runSelect(ctx context.Context, req *Request, progress func(Progress)) (*Selection, error) {
	if req.Method == "" {
		return nil, errors.New("no method given; the methods are " + strings.Join(selection.Names(), ", "))
	}
	spec, err := selection.Lookup(req.Method)
	if err != nil {
		return nil, err
	}
	params, err := spec.Resolve(req.Params)
	if err != nil {
		return nil, err
	}
	// A method that selects a given number of features declares the
	// parameter k; the request's K fills it.
	takesK := spec.SelectsK
	if takesK && req.K > 0 {
		if _, given := req.Params[selection.KParam]; given && params[selection.KParam] != float64(req.K) {
			return nil, fmt.Errorf("%s: k is given twice, as k = %d and as the parameter k = %v", spec.Name, req.K, params[selection.KParam])
		}
		params[selection.KParam] = float64(req.K)
	}
	scaling, err := dataset.ParseScaling(req.Preprocess)
	if err != nil {
		return nil, err
	}
	coding, err := selection.ParseCoding(req.Coding)
	if err != nil {
		return nil, err
	}
	sel, err := spec.New(params)
	if err != nil {
		return nil, err
	}
	ds, err := load(&req.Data, 0)
	if err != nil {
		return nil, err
	}
	n := len(ds.Features)
	if req.K < 0 || req.K > n {
		return nil, fmt.Errorf("k = %d is out of range: the data have %d features", req.K, n)
	}
	if req.WeightRows < 0 {
		return nil, fmt.Errorf("weight_rows = %d is negative", req.WeightRows)
	}
	bias := req.Bias == nil || *req.Bias
	dinfo := info(&req.Data, ds)
	warnings := nonNil(ds.Warnings)
	if len(dinfo.Constant) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d constant feature(s) set to zero, e.g. %q", len(dinfo.Constant), ds.Features[dinfo.Constant[0]]))
	}
	if ds.Missing > 0 {
		warnings = append(warnings, fmt.Sprintf("%d missing value(s) imputed with the column mean", ds.Missing))
	}
	// The whole file is the training part here: the scaler is fitted on it.
	scaler := dataset.FitScaler(scaling, ds.X)
	prob := &selection.Problem{X: scaler.Transform(ds.X), Y: ds.Y, C: len(ds.Classes), Bias: bias, Coding: coding, Targets: ds.Targets}
	settings := params.Settings()
	settings.Progress = progress
	start := time.Now()
	res, err := sel.Fit(ctx, prob, &settings)
	if err != nil {
		return nil, err
	}
	seconds := time.Since(start).Seconds()
	out := &Selection{
		Method: spec.Name, Params: spec.Display(params), Preprocess: string(scaling), Bias: bias, Coding: string(coding),
		Dataset: dinfo, Features: ds.Features, Ranking: res.Ranking, Scores: res.Scores, PerClass: res.PerClass,
		Iterations: res.Iterations, Stop: res.Status.String(), Trace: nonNil(res.Trace), Certificate: res.Certificate,
		Seconds: seconds, Warnings: append(warnings, res.Notes...),
	}
	switch {
	case req.K > 0:
		out.Selected = res.Ranking[:req.K]
	case takesK:
		out.Selected = res.Ranking[:min(int(params[selection.KParam]), len(res.Ranking))]
	}
	if !math.IsNaN(res.Objective) {
		f := Float(res.Objective)
		out.Objective = &f
	}
	if res.W != nil {
		nz := selection.NonzeroRows(res.Scores, selection.SparsityTol)
		out.NonzeroRows = &nz
		if req.WeightRows > 0 {
			out.Weights = topWeights(res.W, res.Ranking, req.WeightRows, ds.Classes)
		}
	}
	return out, nil
}

// Marshal returns the JSON of a response, indented for people when indent
// is set.
func Marshal(r *Response, indent bool) ([]byte, error) {
	if indent {
		return json.MarshalIndent(r, "", "  ")
	}
	return json.Marshal(r)
}
