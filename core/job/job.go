// Package job runs a request of the job format (package api) and returns
// its response. The command line, the Web Worker and the tests all build an
// api.Request, call Run and read the api.Response, so that every entry
// point computes exactly the same thing.
//
// Run reads nothing by itself: the caller hands it the data's bytes (the
// command line read a file or standard input; the worker received them
// from the page), and may keep the Table they were read into for the next
// requests on the same data.
package job

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/selection"
)

// Input is the data a request runs on: the file's bytes, and the Table they
// were read into with the request's Data settings, when the caller keeps
// one (it wins over Raw, except for an inspection, which reads the file).
// Open, when set and Raw is not, opens the file from its start to be read
// as it streams in (the command line's way, and a worker's: the file's
// bytes are never held whole); an inspection, which may try several ways
// of reading a file, opens it once for each.
type Input struct {
	Raw   []byte
	Table *Table
	Open  func() (io.ReadCloser, error)
	// Own says the Table is the request's alone (the caller keeps no
	// reference to it): a selection scales it in place, as a table it
	// reads itself, rather than scale a copy.
	Own bool
	// Lines is the file's line count (dataset.RowsHint with default
	// options) when the caller knows it — a worker counts it as the file
	// streams in at load —; 0: a reading counts the lines itself, which
	// costs a read of the file.
	Lines int
	// Buffer is memory a reading may read the values into
	// (dataset.Options.Buffer): an earlier table's, no longer read.
	Buffer []float64
}

// Run performs a request. progress may be nil. Errors a user can cause are
// returned with a message that names the problem.
func Run(ctx context.Context, req *api.Request, in Input, progress func(api.Progress)) (*api.Response, error) {
	switch strings.ToLower(req.Op) {
	case "", api.OpSelect:
		sel, err := runSelect(ctx, req, in, progress)
		if err != nil {
			return nil, err
		}
		return &api.Response{Selection: sel}, nil
	case api.OpInspect:
		ins, err := runInspect(ctx, req, in)
		if err != nil {
			return nil, err
		}
		return &api.Response{Inspection: ins}, nil
	case api.OpMethods:
		return &api.Response{Methods: Methods()}, nil
	case api.OpEval, api.OpEvalPlan:
		return runEval(ctx, req, in, progress)
	case api.OpMerge:
		rep, err := Merge(req.Parts)
		if err != nil {
			return nil, err
		}
		return &api.Response{EvalReport: rep}, nil
	case api.OpReduce:
		red, err := runReduce(ctx, req, in)
		if err != nil {
			return nil, err
		}
		return &api.Response{Reduced: red}, nil
	case api.OpSynth:
		red, err := runSynth(req.Synth)
		if err != nil {
			return nil, err
		}
		return &api.Response{Reduced: red}, nil
	}
	return nil, fmt.Errorf("unknown operation %q: use %s", req.Op, strings.Join(api.Ops, ", "))
}

// Methods lists the registered methods.
func Methods() *api.MethodList {
	return &api.MethodList{Methods: selection.Catalog()}
}

// table returns the table a request reads (in.ReadTable).
func table(ctx context.Context, req *api.Request, in Input) (*Table, error) {
	return in.ReadTable(ctx, &req.Data)
}

// ReadTable returns the caller's table, or reads one as d says, from Raw
// or, when Raw is not set, from Open as the file streams in.
func (in Input) ReadTable(ctx context.Context, d *api.Data) (*Table, error) {
	if in.Table != nil {
		return in.Table, nil
	}
	ds, err := parse(ctx, in.source(), d, 0)
	if err != nil {
		return nil, err
	}
	return NewTable(ds), nil
}

// Read reads a file's bytes as d says (its format, label, targets,
// delimiter, header, missing values and limits) into a Table; it stops
// soon after ctx is done.
func Read(ctx context.Context, raw []byte, d *api.Data) (*Table, error) {
	return Input{Raw: raw}.ReadTable(ctx, d)
}

// source is a file to read: open opens it from its start, as many times
// as a reading needs; lines is its line count when known (Input.Lines).
type source struct {
	open   func() (io.ReadCloser, error)
	lines  int
	buffer []float64 // Input.Buffer
}

// source returns the input's file: Raw when it is set, else Open; a
// source without open when the input has neither.
func (in Input) source() source {
	switch {
	case in.Raw != nil:
		return source{open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(in.Raw)), nil }, lines: in.Lines, buffer: in.Buffer}
	case in.Open != nil:
		return source{open: in.Open, lines: in.Lines, buffer: in.Buffer}
	}
	return source{}
}

// parse reads the file src opens as d says, keeping previewRows rows as
// text.
func parse(ctx context.Context, src source, d *api.Data, previewRows int) (*dataset.Dataset, error) {
	return parseSurvey(ctx, src, d, previewRows, false)
}

// parseSurvey is parse, with survey reading a feature column of text as
// missing cells and describing it (dataset.Options.Survey).
func parseSurvey(ctx context.Context, src source, d *api.Data, previewRows int, survey bool) (*dataset.Dataset, error) {
	if src.open == nil {
		return nil, errors.New("no data given")
	}
	rows := src.rowsHint(ctx, d)
	f, err := src.open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseFrom(ctx, f, d, previewRows, survey, rows, src.buffer)
}

// rowsHint returns a bound on the rows of the file read as d says, which
// lets the read that follows hold the matrix once (dataset.RowsHint): the
// line count where it is known and d reads delimited text in rows, else
// the count of a read of the file once through; 0 where there is none.
func (src source) rowsHint(ctx context.Context, d *api.Data) int {
	opts, err := options(d)
	if err != nil {
		return 0
	}
	if src.lines > 0 {
		if opts.Transpose || (opts.Format != dataset.FormatAuto && opts.Format != dataset.CSV) {
			return 0
		}
		return src.lines
	}
	f, err := src.open()
	if err != nil {
		return 0
	}
	defer f.Close()
	n, _ := dataset.RowsHint(ctx, f, opts)
	return n
}

// parseFrom is parseSurvey reading from a stream, with a bound on its
// rows (dataset.Options.Rows; 0: none) and memory to read into
// (dataset.Options.Buffer; nil: none).
func parseFrom(ctx context.Context, r io.Reader, d *api.Data, previewRows int, survey bool, rows int, buf []float64) (*dataset.Dataset, error) {
	opts, err := options(d)
	if err != nil {
		return nil, err
	}
	opts.PreviewRows, opts.Survey, opts.Rows, opts.Buffer = previewRows, survey, rows, buf
	ds, err := dataset.ReadContext(ctx, r, opts)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		return nil, withName(d, err)
	}
	return ds, nil
}

// options translates how d says to read a file into dataset.Options.
func options(d *api.Data) (dataset.Options, error) {
	opts := dataset.Options{Label: d.Label, Targets: d.Targets, ID: d.ID, Ignore: d.Ignore, Transpose: d.Transpose == "yes",
		Sheet: d.Sheet, XVar: d.XVar, YVar: d.YVar, MaxBytes: d.MaxBytes, MaxCells: d.MaxCells}
	var err error
	if opts.Format, err = dataset.ParseFormat(d.Format); err != nil {
		return opts, err
	}
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
		return opts, fmt.Errorf("unknown delimiter %q: use a comma, a semicolon or a tab", d.Delimiter)
	}
	switch strings.ToLower(d.Header) {
	case "", "auto":
	case "yes", "true":
		opts.Header = dataset.HeaderYes
	case "no", "false":
		opts.Header = dataset.HeaderNo
	default:
		return opts, fmt.Errorf("unknown header setting %q: use auto, yes or no", d.Header)
	}
	switch d.Transpose {
	case "", "yes", "no":
	default:
		return opts, fmt.Errorf("unknown transpose setting %q: use yes or no", d.Transpose)
	}
	switch strings.ToLower(d.Missing) {
	case "", api.MissingReject:
	case api.MissingMean:
		opts.Missing = dataset.ImputeMean
	case api.MissingDropFeatures:
		opts.Missing = dataset.DropFeatures
	case api.MissingDropSamples:
		opts.Missing = dataset.DropSamples
	default:
		return opts, fmt.Errorf("unknown missing-value policy %q: use reject, mean, drop-features or drop-samples", d.Missing)
	}
	return opts, nil
}

// withName prefixes a data error with the file's name.
func withName(d *api.Data, err error) error {
	name := dataName(d)
	if name == "" || name == "-" {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// dataName is the name the data go by: the display name, else the path.
func dataName(d *api.Data) string {
	if d.Name != "" {
		return d.Name
	}
	return d.Path
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
