// Command sparsefs runs the sparsefs feature selectors from a command line.
// It speaks the same job format (package api, run by core/job) as the
// browser's worker, so a ranking computed here equals the one the web page
// shows.
//
// Usage:
//
//	sparsefs select -data PATH -method NAME [-label COLUMN] [-param NAME=VALUE ...]
//	                [-preprocess zscore|minmax|none] [-bias=true|false] [-k N] [-coding y01|ypm]
//	sparsefs inspect -data PATH [-label COLUMN]
//	sparsefs methods
//	sparsefs eval -data PATH -methods LIST [-k LIST] [-classifier svm,knn]
//	              [-cv 5 | -holdout 0.7x10 | -foldfile PATH] [-features LIST]
//	              [-seed S] [-tune NAME=V1,V2,...] [-workers N] [-units LIST]
//	sparsefs eval -data PATH -preset ID [-seed S] [-workers N] [-units LIST]
//	sparsefs presets
//	sparsefs merge PART.json ...
//	sparsefs reduce -data PATH -features LIST [-o FILE]
//	sparsefs synth [-m 2000 -d1 100 -d2 700 -c 5 -outliers 0.1 -seed S] [-task regression] [-o FILE]
//
// See docs/evaluation.md for eval, merge and synth.
//
// Results are one JSON object on standard output (reduce and synth write
// CSV); errors go to standard error with a non-zero exit status (1 for a
// failed run, 2 for bad usage). A file written with -o or -reduced appears
// whole or not at all (a temporary file renamed).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"time"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
	"sparsefs/core/plan"
)

const usage = `sparsefs: sparsity-based feature selection

Commands:
  select   rank the features of a dataset with one method
  inspect  describe a dataset (delimiter, header, classes, preview)
  methods  list the methods and their parameters
  eval     evaluate methods by cross-validation or holdout (accuracy vs K)
  presets  list the papers' experiments that eval -preset runs (as the page's presets)
  merge    merge the parts of an evaluation run unit by unit (eval -units)
  reduce   write a dataset restricted to some features as CSV
  synth    write the synthetic data of gsr-fs §5.1 as CSV

Run "sparsefs COMMAND -h" for the flags of a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks errors in the command line itself.
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	// After the first Ctrl-C the default handling returns: a second one
	// ends the program even in a phase that does not ask ctx (reading a
	// large file).
	context.AfterFunc(ctx, stop)
	var req *api.Request
	var o output
	var err error
	switch args[0] {
	case "select":
		req, o, err = parseSelect(args[1:], stderr)
	case "inspect":
		req, o, err = parseInspect(args[1:], stderr)
	case "methods":
		req, o = &api.Request{Op: api.OpMethods}, output{indent: true}
	case "presets":
		return listPresets(stdout, stderr)
	case "eval":
		req, o, err = parseEval(args[1:], stderr)
	case "merge":
		req, o, err = parseMerge(args[1:], os.Stdin, stderr)
	case "reduce":
		req, o, err = parseReduce(args[1:], stderr)
	case "synth":
		return runSynth(args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "sparsefs: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	if err == flag.ErrHelp {
		return 0
	}
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintf(stderr, "sparsefs %s: %v\n", args[0], err)
		}
		return 2
	}
	var in job.Input
	switch {
	case req.Data.Path == "":
	case req.Data.Path != "-" && req.Op != api.OpInspect:
		// Read as it streams in, when a request needs the table (an
		// inspection reads the file several ways, standard input cannot
		// be read twice: those hold the bytes).
		if in.Open, err = openData(req.Data.Path); err != nil {
			fmt.Fprintf(stderr, "sparsefs %s: %v\n", args[0], err)
			return 1
		}
	default:
		if in.Raw, err = readData(req.Data.Path, os.Stdin); err != nil {
			fmt.Fprintf(stderr, "sparsefs %s: %v\n", args[0], err)
			return 1
		}
	}
	if o.complete != nil {
		if err := o.complete(ctx, req, &in); err != nil {
			return failed(ctx, stderr, args[0], err)
		}
	}
	line := newProgressLine(stderr, "sparsefs "+args[0], o.progress, req.Op == api.OpSelect, time.Now)
	resp, err := job.Run(ctx, req, in, line.update)
	line.end()
	if err != nil {
		return failed(ctx, stderr, args[0], err)
	}
	if o.reduced != "" {
		if err := writeReduced(ctx, req, in, resp.Selection, o.reduced); err != nil {
			return failed(ctx, stderr, args[0], err)
		}
	}
	// The data and the fits' working memory are garbage now: collected
	// before the answer is encoded, they make room for it rather than
	// adding to the peak.
	runtime.GC()
	if err := o.write(stdout, resp); err != nil {
		fmt.Fprintf(stderr, "sparsefs %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

// readData reads the data file at path ("-": stdin).
func readData(path string, stdin io.Reader) ([]byte, error) {
	var raw []byte
	var err error
	if path == "-" {
		raw, err = io.ReadAll(stdin)
	} else {
		raw, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, dataError(path, err)
	}
	return raw, nil
}

// openData checks that the data file at path can be opened and returns
// what opens it, each time the file is to be read.
func openData(path string) (func() (io.ReadCloser, error), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, dataError(path, err)
	}
	st, err := f.Stat()
	f.Close()
	if err == nil && st.IsDir() {
		return nil, fmt.Errorf("cannot read the data file: %s is a directory", path)
	}
	return func() (io.ReadCloser, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, dataError(path, err)
		}
		return f, nil
	}, nil
}

// dataError says why the data file at path could not be read.
func dataError(path string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the data file %s does not exist", path)
	}
	return fmt.Errorf("cannot read the data file: %w", err)
}

// failed reports a command's error and returns its exit code: 130, the
// shells' code for a command stopped by Ctrl-C, when ctx was cancelled by
// the interrupt (the error is then only its echo), else 1.
func failed(ctx context.Context, stderr io.Writer, cmd string, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "sparsefs %s: interrupted; nothing was written\n", cmd)
		return 130
	}
	if errors.Is(err, dataset.ErrLimit) {
		fmt.Fprintf(stderr, "sparsefs %s: %v (flags -max-cells and -max-bytes; -1 for no bound)\n", cmd, err)
		return 1
	}
	var text *dataset.TextCell
	if errors.As(err, &text) && cmd != "inspect" {
		fmt.Fprintf(stderr, "sparsefs %s: %v; sparsefs inspect proposes how to read such a file (its \"label\", \"id\", \"ignore\" and \"transpose\": give them as -label, -id, -ignore, -transpose)\n", cmd, err)
		return 1
	}
	fmt.Fprintf(stderr, "sparsefs %s: %v\n", cmd, err)
	return 1
}

// paramList collects repeated -param NAME=VALUE flags. Values stay text:
// the method's registry entry parses them (numbers, or a choice's name).
type paramList map[string]any

func (p paramList) String() string { return "" }

func (p paramList) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(value) == "" {
		return fmt.Errorf("%q is not NAME=VALUE", s)
	}
	if _, dup := p[name]; dup {
		return fmt.Errorf("parameter %s is given twice", name)
	}
	p[name] = strings.TrimSpace(value)
	return nil
}

// dataFlags registers the flags that say how to read the data.
func dataFlags(fs *flag.FlagSet, d *api.Data) {
	fs.StringVar(&d.Path, "data", "", "the data file: CSV/TSV, XLSX, ARFF, LIBSVM or MATLAB .mat, optionally .gz; - reads standard input (required)")
	fs.StringVar(&d.Format, "format", "", "the file's format: csv, xlsx, arff, libsvm or mat (default: detected from the content)")
	fs.StringVar(&d.Sheet, "sheet", "", "the worksheet of a workbook to read (default: the first that holds a table)")
	fs.StringVar(&d.XVar, "xvar", "", "the MAT-file variable holding the samples × features matrix (default X)")
	fs.StringVar(&d.YVar, "yvar", "", "the MAT-file variable holding the labels (default Y)")
	fs.Int64Var(&d.MaxBytes, "max-bytes", 0, "refuse a file larger than this once decompressed (0: 1 GiB; -1: no bound)")
	fs.Int64Var(&d.MaxCells, "max-cells", 0, "refuse a table of more cells than this (0: 50 million; -1: no bound)")
	fs.StringVar(&d.Label, "label", "", "the label column: a header name, a 1-based column number, first or last (default last)")
	fs.StringVar(&d.Delimiter, "delimiter", "", `the field delimiter: comma, semicolon or tab (default: detected)`)
	fs.StringVar(&d.Header, "header", "auto", "whether the first row is a header: auto, yes or no")
	fs.StringVar(&d.Missing, "missing", "reject", "missing cells (empty, NA, NaN): reject; mean to impute the training mean; drop-features or drop-samples to leave out the features or samples that have them")
	fs.StringVar(&d.ID, "id", "", "the column of sample IDs (a header name or 1-based number): kept in -reduced files, not a feature")
	fs.Func("ignore", "columns to leave out (header names or 1-based numbers, comma-separated)", func(s string) error {
		d.Ignore = append(d.Ignore, splitList(s)...)
		return nil
	})
	fs.BoolFunc("transpose", "the file's rows are the features and its columns the samples (genes × samples)", func(s string) error {
		on, err := strconv.ParseBool(s)
		d.Transpose = map[bool]string{true: "yes", false: "no"}[on]
		return err
	})
}

func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: sparsefs %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse runs fs.Parse and rejects stray arguments and a missing -data.
func parse(fs *flag.FlagSet, args []string, d *api.Data, stderr io.Writer) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return errUsage // the flag package has printed the problem
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	if d.Path == "" {
		fs.Usage()
		return errors.New("-data is required")
	}
	return nil
}

// memoryFlag registers -memory, the bound on what a fit may allocate.
func memoryFlag(fs *flag.FlagSet, budget *int64) {
	fs.Func("memory", "refuse a fit that would allocate more than this, e.g. 512MiB or 8GiB (default 1GiB; none: no bound)", func(s string) error {
		v, err := byteSize(s)
		*budget = v
		return err
	})
}

// byteSize reads a size as a person writes it: a number of bytes, with an
// optional unit KiB, MiB or GiB (K, M, G), or "none" (no bound: −1).
func byteSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "none" {
		return -1, nil
	}
	unit := int64(1)
	for i, suffix := range []string{"kib", "mib", "gib", "k", "m", "g"} {
		if n, ok := strings.CutSuffix(t, suffix); ok {
			t, unit = strings.TrimSpace(n), int64(1)<<(10*(i%3+1))
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v >= 1) || v*float64(unit) > 1<<62 {
		return 0, fmt.Errorf("%q is not a size (e.g. 512MiB, 8GiB, or none)", s)
	}
	return int64(v * float64(unit)), nil
}

// flagSet returns the names of the flags given on the command line.
func flagSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// output is how a command writes its result: indented JSON or not, a
// reduced file's CSV into a file (-o) or to standard output, whether it
// shows progress on standard error (-progress), and where select writes
// the reduced data (-reduced).
type output struct {
	indent   bool
	file     string
	progress string
	reduced  string
	// complete finishes the request once its data are read (eval
	// -preset: the plan depends on the data's shape).
	complete func(ctx context.Context, req *api.Request, in *job.Input) error
}

// write writes a command's result: a Reduced's CSV, else the response's
// JSON.
func (o *output) write(stdout io.Writer, resp *api.Response) error {
	if r := resp.Reduced; r != nil {
		if o.file != "" {
			return saveFile(o.file, func(w io.Writer) error { _, err := io.WriteString(w, r.CSV); return err })
		}
		_, err := io.WriteString(stdout, r.CSV)
		return err
	}
	var out []byte
	var err error
	if o.indent {
		out, err = json.MarshalIndent(resp, "", "  ")
	} else {
		out, err = json.Marshal(resp)
	}
	if err != nil {
		return err
	}
	if _, err := stdout.Write(append(out, '\n')); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}

// outputFlags registers -indent and, for the commands that can take a
// while, -progress.
func outputFlags(fs *flag.FlagSet, o *output, progress bool) {
	fs.BoolVar(&o.indent, "indent", false, "indent the JSON output")
	if progress {
		fs.StringVar(&o.progress, "progress", "auto", "show progress on standard error: auto (when it is a terminal), on or off")
	}
}

func parseSelect(args []string, stderr io.Writer) (*api.Request, output, error) {
	req := &api.Request{Op: api.OpSelect}
	params := paramList{}
	bias := true
	var o output
	fs := newFlagSet("select", "select -data PATH -method NAME [flags]", stderr)
	dataFlags(fs, &req.Data)
	fs.StringVar(&req.Method, "method", "", `the selection method (see "sparsefs methods")`)
	fs.Var(params, "param", "a method parameter NAME=VALUE (repeatable); the others take their defaults")
	fs.StringVar(&req.Preprocess, "preprocess", "zscore", "preprocessing: zscore, minmax or none")
	fs.BoolVar(&bias, "bias", true, "append a constant-1 column for the embedded models")
	fs.StringVar(&req.Coding, "coding", "", "override the method's label coding: y01 (one-hot) or ypm (one-vs-rest ±1)")
	kSet := false
	fs.Func("k", "also report the top K features as \"selected\" (for l20 and topk, the number of features to select); or qALPHA, e.g. q0.05: the features whose q-value is at most ALPHA (methods with p-values)", func(v string) error {
		kSet = true
		var err error
		req.K, req.Q, err = kOrQ(v)
		return err
	})
	fs.IntVar(&req.Workers, "workers", runtime.NumCPU(), "fits run at once by the methods made of several fits (stabsel, consensus); never changes the result")
	fs.StringVar(&o.reduced, "reduced", "", "also write the data restricted to the top K features (-k) as CSV into this file")
	memoryFlag(fs, &req.MemoryBudget)
	outputFlags(fs, &o, true)
	if err := parse(fs, args, &req.Data, stderr); err != nil {
		return nil, o, err
	}
	if req.Method == "" {
		return nil, o, errors.New(`-method is required (see "sparsefs methods")`)
	}
	m, err := plan.Lookup(job.Methods().Methods, req.Method)
	if err != nil {
		return nil, o, err
	}
	if req.Q > 0 && !m.PValues {
		return nil, o, fmt.Errorf("-k q%v: %s gives no p-values, so no q-values to cut", req.Q, m.Name)
	}
	if kSet && req.K < 1 && req.Q == 0 {
		return nil, o, fmt.Errorf("-k %d: give a number of features of at least 1", req.K)
	}
	if req.Workers < 1 {
		return nil, o, fmt.Errorf("-workers %d: use 1 or more", req.Workers)
	}
	if err := o.check(); err != nil {
		return nil, o, err
	}
	if o.reduced != "" && req.K <= 0 && req.Q == 0 {
		return nil, o, errors.New("-reduced writes the top K features: give -k")
	}
	// -k bounds the work of a method that can stop at the top K (mrmr's
	// greedy search), unless its k is given.
	if _, given := params[api.KParam]; m.KDepth && req.K > 0 && !given {
		params[api.KParam] = strconv.Itoa(req.K)
	}
	req.Params = params
	req.Bias = &bias
	return req, o, nil
}

// kOrQ reads select's -k: a number of features K, or qALPHA, the
// features whose q-value is at most ALPHA (0 < ALPHA ≤ 1).
func kOrQ(v string) (k int, q float64, err error) {
	v = strings.TrimSpace(v)
	if rest, ok := strings.CutPrefix(strings.ToLower(v), "q"); ok {
		q, err := strconv.ParseFloat(rest, 64)
		if err != nil || !(q > 0 && q <= 1) {
			return 0, 0, fmt.Errorf("%q: a q-value cut is q followed by a number in (0, 1], e.g. q0.05", v)
		}
		return 0, q, nil
	}
	k, err = strconv.Atoi(v)
	if err != nil {
		return 0, 0, fmt.Errorf("%q is neither a number of features nor a q-value cut such as q0.05", v)
	}
	return k, 0, nil
}

func parseInspect(args []string, stderr io.Writer) (*api.Request, output, error) {
	req := &api.Request{Op: api.OpInspect}
	fs := newFlagSet("inspect", "inspect -data PATH [flags]", stderr)
	dataFlags(fs, &req.Data)
	fs.IntVar(&req.PreviewRows, "rows", 5, "how many rows to preview")
	if err := parse(fs, args, &req.Data, stderr); err != nil {
		return nil, output{}, err
	}
	if req.PreviewRows < 1 {
		return nil, output{}, fmt.Errorf("-rows %d: preview at least 1 row", req.PreviewRows)
	}
	return req, output{indent: true}, nil
}

func parseReduce(args []string, stderr io.Writer) (*api.Request, output, error) {
	req := &api.Request{Op: api.OpReduce}
	var o output
	var feats string
	fs := newFlagSet("reduce", "reduce -data PATH -features LIST [-o FILE]", stderr)
	dataFlags(fs, &req.Data)
	fs.StringVar(&feats, "features", "", "the features to keep, 0-based column indices as in rankings, in this order (e.g. 12,3,40 or 0:19)")
	fs.StringVar(&o.file, "o", "", "write the CSV to this file instead of standard output")
	if err := parse(fs, args, &req.Data, stderr); err != nil {
		return nil, o, err
	}
	if feats == "" {
		return nil, o, errors.New("-features is required")
	}
	list, err := plan.Ints(feats)
	if err != nil {
		return nil, o, fmt.Errorf("-features: %v", err)
	}
	req.Columns = list
	return req, o, nil
}

// writeReduced writes the data restricted to a selection's top K features
// (select -reduced).
func writeReduced(ctx context.Context, req *api.Request, in job.Input, sel *api.Selection, path string) error {
	red := &api.Request{Op: api.OpReduce, Data: req.Data, Columns: sel.Selected}
	resp, err := job.Run(ctx, red, in, nil)
	if err != nil {
		return err
	}
	return saveFile(path, func(w io.Writer) error { _, err := io.WriteString(w, resp.Reduced.CSV); return err })
}
