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
}

// Request is job.Request, plus Columns for the worker's reduce operation.
type Request struct {
	Op          string         `json:"op,omitempty"`
	Data        Data           `json:"data"`
	Method      string         `json:"method,omitempty"`
	Params      map[string]any `json:"params,omitempty"`
	Preprocess  string         `json:"preprocess,omitempty"`
	Bias        *bool          `json:"bias,omitempty"`
	Coding      string         `json:"coding,omitempty"`
	K           int            `json:"k,omitempty"`
	PreviewRows int            `json:"preview_rows,omitempty"`
	WeightRows  int            `json:"weight_rows,omitempty"`
	Columns     []int          `json:"columns,omitempty"`
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

// Reduced is the answer of the worker's reduce operation.
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
