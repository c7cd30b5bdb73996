// Package wire holds the page's copy of the job format (sparsefs/core/job):
// the requests it sends to the workers and the responses it reads back, as
// JSON. The page could import core/job itself, but that would link every
// selector and gonum into ui.wasm, which only needs the types; the tests of
// this package check, field by field, that these types still speak the same
// JSON as core/job. The numbers' JSON codec is shared (core/jsonfloat, a
// leaf package).
package wire

import "sparsefs/core/jsonfloat"

// Operations (job.OpSelect, job.OpInspect, job.OpMethods, and the worker's
// own reduce).
const (
	OpSelect  = "select"
	OpInspect = "inspect"
	OpMethods = "methods"
	OpReduce  = "reduce"
	OpSynth   = "synth"
	// OpPrepare reads loaded data ahead of a run and warms the worker up;
	// OpCollect keeps an evaluation part in a worker for a merge there
	// (Request.Session; the merge then names the session).
	OpPrepare = "prepare"
	OpCollect = "collect"
	// OpReport writes the JSON of a report a merge with a session and
	// Light kept in the worker.
	OpReport = "report"
	// The evaluation's operations (job.OpEval, OpEvalPlan, OpMerge).
	OpEval     = "eval"
	OpEvalPlan = "eval-plan"
	OpMerge    = "merge"
)

// Data says how to read a dataset (job.Data without the bytes, which
// travel apart).
type Data struct {
	Path      string `json:"path,omitempty"`
	Name      string `json:"name,omitempty"`
	Label     string `json:"label,omitempty"`
	Delimiter string `json:"delimiter,omitempty"`
	Header    string `json:"header,omitempty"`
	Missing   string `json:"missing,omitempty"`
	// Targets name real-valued target columns (evaluation by RMSE).
	Targets []string `json:"targets,omitempty"`
}

// Request is job.Request, plus Columns for the worker's reduce operation.
type Request struct {
	Op     string         `json:"op,omitempty"`
	Data   Data           `json:"data"`
	Method string         `json:"method,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	// Eval, Units, Workers and Parts are the evaluation's (job.OpEval,
	// OpEvalPlan, OpMerge; see docs/evaluation.md).
	Eval        *EvalPlan   `json:"eval,omitempty"`
	Units       []int       `json:"units,omitempty"`
	Workers     int         `json:"workers,omitempty"`
	Parts       []*EvalPart `json:"parts,omitempty"`
	Preprocess  string      `json:"preprocess,omitempty"`
	Bias        *bool       `json:"bias,omitempty"`
	Coding      string      `json:"coding,omitempty"`
	K           int         `json:"k,omitempty"`
	PreviewRows int         `json:"preview_rows,omitempty"`
	WeightRows  int         `json:"weight_rows,omitempty"`
	// Columns, Synth, Session, Expect and Light belong to the worker's own
	// operations: the features reduce keeps, what synth generates, the
	// parts collected for a merge, how many the merge expects, and whether
	// it answers with the summaries only (OpReport then writes the
	// report).
	Columns []int  `json:"columns,omitempty"`
	Synth   *Synth `json:"synth,omitempty"`
	Session int    `json:"session,omitempty"`
	Expect  int    `json:"expect,omitempty"`
	Light   bool   `json:"light,omitempty"`
}

// MaxSynthCells bounds the table the worker's synth operation generates
// (samples × features): the CSV text of a million numbers is about 20 MB,
// and every worker keeps a copy.
const MaxSynthCells = 1_000_000

// Synth is what the worker's synth operation generates: the gsr-fs §5.1
// data of `sparsefs synth` (m samples, d1 informative, d2 irrelevant
// features, c classes or targets, a fraction of outliers, a seed), with the
// task "classification" (a label column) or "regression" (targets y1…yc),
// written as CSV under Name.
type Synth struct {
	M        int     `json:"m"`
	D1       int     `json:"d1"`
	D2       int     `json:"d2"`
	C        int     `json:"c"`
	Outliers float64 `json:"outliers"`
	Seed     uint64  `json:"seed"`
	Task     string  `json:"task"`
	Name     string  `json:"name"`
}

// Selection is job.Selection.
type Selection struct {
	Method      string         `json:"method"`
	Params      map[string]any `json:"params"`
	Preprocess  string         `json:"preprocess"`
	Bias        bool           `json:"bias"`
	Coding      string         `json:"coding,omitempty"`
	Dataset     DatasetInfo    `json:"dataset"`
	Features    []string       `json:"features"`
	Ranking     []int          `json:"ranking"`
	Scores      Floats         `json:"scores"`
	Selected    []int          `json:"selected,omitempty"`
	PerClass    [][]int        `json:"per_class,omitempty"`
	Objective   *Float         `json:"objective"`
	Iterations  int            `json:"iterations"`
	Stop        string         `json:"stop"`
	Trace       Floats         `json:"trace"`
	NonzeroRows *int           `json:"nonzero_rows"`
	Seconds     float64        `json:"seconds"`
	Warnings    []string       `json:"warnings"`
	Weights     *Weights       `json:"weights,omitempty"`
}

// Weights is job.Weights: |W| of the top-ranked rows.
type Weights struct {
	Rows    []int    `json:"rows"`
	Columns []string `json:"columns"`
	Abs     []Floats `json:"abs"`
}

// DatasetInfo is job.DatasetInfo.
type DatasetInfo struct {
	Name           string   `json:"name,omitempty"`
	Samples        int      `json:"samples"`
	Features       int      `json:"features"`
	Label          string   `json:"label"`
	Delimiter      string   `json:"delimiter"`
	Header         bool     `json:"header"`
	Classes        []string `json:"classes"`
	Counts         []int    `json:"class_counts"`
	Constant       []int    `json:"constant"`
	Missing        int      `json:"missing"`
	MissingColumns []int    `json:"missing_columns"`
	Targets        []string `json:"targets,omitempty"`
	SHA256         string   `json:"sha256,omitempty"`
}

// Inspection is job.Inspection.
type Inspection struct {
	Dataset     DatasetInfo `json:"dataset"`
	Columns     []string    `json:"columns"`
	LabelColumn int         `json:"label_column"`
	Preview     [][]string  `json:"preview"`
	Warnings    []string    `json:"warnings"`
}

// MethodList is job.MethodList.
type MethodList struct {
	Methods []MethodInfo `json:"methods"`
}

// Kinds of method (selection.Kind).
const (
	Filter   = "filter"
	Embedded = "embedded"
)

// MethodInfo is job.MethodInfo.
type MethodInfo struct {
	Name   string  `json:"name"`
	Title  string  `json:"title"`
	Doc    string  `json:"doc"`
	Paper  string  `json:"paper"`
	Kind   string  `json:"kind"`
	Params []Param `json:"params"`
	// SelectsK: the method's parameter k is the number of features it
	// selects, filled from Request.K.
	SelectsK bool `json:"selects_k,omitempty"`
}

// Param is selection.Param: a numeric parameter with a range, or a
// categorical one with Choices (its Default is then the index of a choice).
type Param struct {
	Name    string   `json:"name"`
	Default float64  `json:"default"`
	Choices []string `json:"choices,omitempty"`
	Min     float64  `json:"min"`
	Max     float64  `json:"max"`
	MinOpen bool     `json:"min_open,omitempty"`
	MaxOpen bool     `json:"max_open,omitempty"`
	Integer bool     `json:"integer,omitempty"`
	Doc     string   `json:"doc"`
}

// Reduced is the answer of the worker's reduce and synth operations.
type Reduced struct {
	Name string `json:"name"`
	CSV  string `json:"csv"`
}

// Progress is what a worker reports about a running job (job.Progress).
type Progress struct {
	Iteration     int
	MaxIterations int
	Objective     float64
	Fraction      float64
}

// Float is job.Float: null reads as NaN, the largest double stands for
// +Inf.
type Float = jsonfloat.Float

// Floats is job.Floats.
type Floats = jsonfloat.Floats

// Param returns the parameter of a method by name, or nil.
func (m *MethodInfo) Param(name string) *Param {
	for i := range m.Params {
		if m.Params[i].Name == name {
			return &m.Params[i]
		}
	}
	return nil
}

// EvalPlan is evaluate.Plan: what an evaluation runs (docs/evaluation.md).
type EvalPlan struct {
	Methods     []EvalVariant `json:"methods"`
	Features    []int         `json:"features,omitempty"`
	K           []int         `json:"k"`
	Classifiers []Classifier  `json:"classifiers"`
	Protocol    EvalProtocol  `json:"protocol"`
	Seed        uint64        `json:"seed"`
	Preprocess  string        `json:"preprocess"`
	Bias        *bool         `json:"bias"`
	Coding      string        `json:"coding,omitempty"`
	Tune        []EvalGrid    `json:"tune,omitempty"`
	InnerFolds  int           `json:"inner_folds,omitempty"`
	// WeightRows asks every embedded fit for |W| of its top rows
	// (Fit.Weights).
	WeightRows int `json:"weight_rows,omitempty"`
}

// EvalVariant is evaluate.Variant: a method and its parameters (a list of
// values sweeps a parameter).
type EvalVariant struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params,omitempty"`
}

// EvalGrid is evaluate.Grid: a parameter tuned by inner cross-validation.
type EvalGrid struct {
	Param  string `json:"param"`
	Values []any  `json:"values"`
}

// EvalProtocol is evaluate.Protocol: "cv" (Folds), "holdout" (Train,
// Repeats) or "folds" (Assignment).
type EvalProtocol struct {
	Kind       string  `json:"kind"`
	Folds      int     `json:"folds,omitempty"`
	Train      float64 `json:"train,omitempty"`
	Repeats    int     `json:"repeats,omitempty"`
	Assignment []int   `json:"assignment,omitempty"`
}

// Classifier is classify.Config: "svm" (C, Multiclass, Bias) or "knn"
// (Neighbors).
type Classifier struct {
	Name       string  `json:"name"`
	C          float64 `json:"C,omitempty"`
	Multiclass string  `json:"multiclass,omitempty"`
	Bias       string  `json:"bias,omitempty"`
	Neighbors  int     `json:"neighbors,omitempty"`
}

// EvalPart is job.EvalPart: the answer to an eval job with units (those
// units) or to eval-plan (none); Header.Units counts them.
type EvalPart struct {
	Request  *Request      `json:"request"`
	Dataset  DatasetInfo   `json:"dataset"`
	Features []string      `json:"features"`
	Header   *EvalHeader   `json:"header"`
	Units    []*UnitResult `json:"units"`
	Warnings []string      `json:"warnings"`
}

// EvalHeader is evaluate.Header.
type EvalHeader struct {
	K           []int         `json:"k"`
	Classifiers []string      `json:"classifiers"`
	Targets     bool          `json:"targets"`
	Splits      []SplitInfo   `json:"splits"`
	Variants    []VariantInfo `json:"variants"`
	Units       int           `json:"units"`
}

// SplitInfo is evaluate.SplitInfo.
type SplitInfo struct {
	Train int   `json:"train"`
	Test  []int `json:"test"`
}

// VariantInfo is evaluate.VariantInfo.
type VariantInfo struct {
	Method string         `json:"method"`
	Kind   string         `json:"kind"`
	Params map[string]any `json:"params"`
	Tuned  []string       `json:"tuned"`
	PerK   bool           `json:"per_k"`
}

// UnitResult is evaluate.UnitResult: one method on one split.
type UnitResult struct {
	Unit       int            `json:"unit"`
	Variant    int            `json:"variant"`
	Split      int            `json:"split"`
	Params     map[string]any `json:"params"`
	Fits       []Fit          `json:"fits"`
	Selected   [][]int        `json:"selected"`
	Accuracy   []Floats       `json:"accuracy"`
	RMSE       Floats         `json:"rmse"`
	Redundancy Floats         `json:"redundancy"`
	Sparsity   []*int         `json:"sparsity"`
	Tuning     *Tuning        `json:"tuning,omitempty"`
	Seconds    float64        `json:"seconds"`
	Notes      []string       `json:"notes"`
}

// Fit is evaluate.Fit.
type Fit struct {
	K           int         `json:"k,omitempty"`
	Ranking     []int       `json:"ranking"`
	Scores      Floats      `json:"scores"`
	PerClass    [][]int     `json:"per_class,omitempty"`
	Objective   *Float      `json:"objective"`
	Iterations  int         `json:"iterations"`
	Stop        string      `json:"stop"`
	Trace       Floats      `json:"trace"`
	NonzeroRows *int        `json:"nonzero_rows"`
	Seconds     float64     `json:"seconds"`
	Weights     *FitWeights `json:"weights,omitempty"`
}

// FitWeights is evaluate.Weights: |W| of a fit's top-ranked rows (its
// columns are W's: the classes when W has one column per class).
type FitWeights struct {
	Rows []int    `json:"rows"`
	Abs  []Floats `json:"abs"`
}

// Tuning is evaluate.Tuning.
type Tuning struct {
	InnerFolds int            `json:"inner_folds"`
	Chosen     map[string]any `json:"chosen"`
	Grid       []TuneScore    `json:"grid"`
}

// TuneScore is evaluate.TuneScore.
type TuneScore struct {
	Params  map[string]any `json:"params"`
	Measure string         `json:"measure"`
	Score   Float          `json:"score"`
}

// EvalReport is job.EvalReport: the merged report.
type EvalReport struct {
	Request     *Request        `json:"request"`
	Dataset     DatasetInfo     `json:"dataset"`
	Features    []string        `json:"features"`
	K           []int           `json:"k"`
	Classifiers []string        `json:"classifiers"`
	Splits      []SplitInfo     `json:"splits"`
	Results     []VariantResult `json:"results"`
	Warnings    []string        `json:"warnings"`
}

// VariantResult is evaluate.VariantResult: one row of the report.
type VariantResult struct {
	VariantInfo
	Accuracy   []Summary     `json:"accuracy"`
	RMSE       *Summary      `json:"rmse"`
	Redundancy Summary       `json:"redundancy"`
	Sparsity   *Summary      `json:"sparsity"`
	FitSeconds Scalar        `json:"fit_seconds"`
	Units      []*UnitResult `json:"units"`
}

// Summary is evaluate.Summary: per K, mean and sample deviation over the
// splits.
type Summary struct {
	Mean Floats `json:"mean"`
	Std  Floats `json:"std"`
}

// Scalar is evaluate.Scalar.
type Scalar struct {
	Mean Float `json:"mean"`
	Std  Float `json:"std"`
}
