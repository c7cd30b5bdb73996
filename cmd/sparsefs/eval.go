package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"sparsefs/core/classify"
	"sparsefs/core/dataset"
	"sparsefs/core/evaluate"
	"sparsefs/core/job"
	selection "sparsefs/core/select"
)

// repeated collects a repeatable flag's values.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// listValue is one value as text, or a list of them (a sweep or a grid).
func listValue(s string) any {
	items := splitList(s)
	if len(items) == 1 {
		return items[0]
	}
	out := make([]any, len(items))
	for i, v := range items {
		out[i] = v
	}
	return out
}

func parseEval(args []string, stderr io.Writer) (*job.Request, output, error) {
	req := &job.Request{Op: job.OpEval}
	var (
		methods, ks, classifiers, feats, holdout, foldFile, targets, units, requestPath string
		params, tune                                                                    repeated
		cv, inner, neighbors, workers                                                   int
		seed                                                                            uint64
		cost                                                                            float64
		multiclass, svmBias, preprocess, coding                                         string
		bias, describe                                                                  bool
		o                                                                               output
	)
	fs := newFlagSet("eval", "eval -data PATH -methods LIST [flags]", stderr)
	dataFlags(fs, &req.Data)
	fs.StringVar(&targets, "targets", "", "real-valued target columns (names or 1-based numbers, comma-separated), evaluated by least-squares RMSE; with -label none the file has no class")
	fs.StringVar(&methods, "methods", "", `selection methods, comma-separated (see "sparsefs methods")`)
	fs.Var(&params, "param", "a method parameter NAME=VALUE for every listed method that has it, or METHOD.NAME=VALUE for one; VALUE may be a comma-separated list to sweep it (repeatable)")
	fs.StringVar(&ks, "k", "", "the numbers of top features to evaluate: 20,80 or 1:50 or 10:100:10 (default 10:100:10 up to the number of features)")
	fs.StringVar(&classifiers, "classifier", "svm", "classifiers: svm, knn or svm,knn (none with -label none)")
	fs.Float64Var(&cost, "C", 1, "the SVM's cost C")
	fs.StringVar(&multiclass, "multiclass", "ovo", "the SVM's multiclass rule: ovo (one-vs-one voting, as LIBSVM) or ovr (one-vs-rest)")
	fs.StringVar(&svmBias, "svm-bias", "free", "the SVM's intercept: free (unregularised, as LIBSVM/scikit-learn SVC) or regularized (a constant feature, as LIBLINEAR -B 1)")
	fs.IntVar(&neighbors, "neighbors", 1, "k of the k-NN classifier")
	fs.IntVar(&cv, "cv", 0, "stratified k-fold cross-validation with this many folds (the default protocol, 5 folds)")
	fs.StringVar(&holdout, "holdout", "", "repeated stratified holdout: TRAINxREPEATS, e.g. 0.7x10 (70% training, 10 times)")
	fs.StringVar(&foldFile, "foldfile", "", "a file with one integer fold id per sample; each fold is tested once")
	fs.StringVar(&feats, "features", "", "evaluate this fixed feature subset too (0-based column indices as in rankings, e.g. 0,5,7 or 0:19), without selection")
	fs.Uint64Var(&seed, "seed", 0, "the seed of every random choice (splits, inner folds)")
	fs.Var(&tune, "tune", "tune a parameter by inner cross-validation: NAME=V1,V2,... for a method parameter, svm.C=... or knn.neighbors=... (repeatable)")
	fs.IntVar(&inner, "inner", 0, "folds of the tuning cross-validation (0: 3 below 200 training samples, else 8)")
	fs.IntVar(&workers, "workers", runtime.NumCPU(), "units run at once (never changes the result)")
	fs.StringVar(&preprocess, "preprocess", "zscore", "preprocessing fitted on each training part: zscore, minmax or none")
	fs.BoolVar(&bias, "bias", true, "append a constant-1 column for the embedded models")
	fs.StringVar(&coding, "coding", "", "override the methods' label coding: y01 or ypm")
	fs.StringVar(&units, "units", "", "run only these units (e.g. 0:4) and print them as a part for \"sparsefs merge\"")
	fs.BoolVar(&describe, "describe", false, "print the evaluation's units and splits without running them")
	fs.StringVar(&requestPath, "request", "", "run the request of a report (or a request file) again; -data may point to the data's new place")
	outputFlags(fs, &o, true)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, o, err
		}
		return nil, o, errUsage
	}
	if err := o.check(); err != nil {
		return nil, o, err
	}
	if fs.NArg() > 0 {
		return nil, o, fmt.Errorf("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if requestPath != "" {
		for name := range set {
			switch name {
			case "request", "data", "workers", "units", "describe", "indent", "progress":
			default:
				return nil, o, fmt.Errorf("-%s cannot be combined with -request (the request holds every setting)", name)
			}
		}
		loaded, err := readRequest(requestPath)
		if err != nil {
			return nil, o, err
		}
		if set["data"] {
			loaded.Data.Path = req.Data.Path
		}
		req = loaded
	} else {
		if req.Data.Path == "" {
			fs.Usage()
			return nil, o, errors.New("-data is required")
		}
		plan, err := evalPlan(set, methods, ks, classifiers, feats, holdout, foldFile, cv, inner, neighbors, seed, cost, multiclass, svmBias, params, tune)
		if err != nil {
			return nil, o, err
		}
		plan.Preprocess, plan.Coding, plan.Bias = preprocess, coding, &bias
		if targets != "" {
			req.Data.Targets = splitList(targets)
			if strings.EqualFold(req.Data.Label, "none") && !set["classifier"] {
				plan.Classifiers = nil
			}
		}
		req.Eval = plan
	}
	req.Op = job.OpEval
	req.Workers = workers
	if describe {
		req.Op = job.OpEvalPlan
	}
	if units != "" {
		list, err := evaluate.ParseInts(units)
		if err != nil {
			return nil, o, fmt.Errorf("-units: %v", err)
		}
		req.Units = list
	}
	return req, o, nil
}

// readRequest reads a request, or the request of a report.
func readRequest(path string) (*job.Request, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the request: %w", err)
	}
	var wrapper struct {
		Request *job.Request `json:"request"`
	}
	if err := json.Unmarshal(raw, &wrapper); err != nil {
		return nil, fmt.Errorf("%s is not JSON: %v", path, err)
	}
	if wrapper.Request != nil {
		return wrapper.Request, nil
	}
	var req job.Request
	if err := json.Unmarshal(raw, &req); err != nil || req.Eval == nil {
		return nil, fmt.Errorf("%s holds neither a report nor an evaluation request", path)
	}
	return &req, nil
}

// evalPlan builds the evaluation plan from the command's flags.
func evalPlan(set map[string]bool, methods, ks, classifiers, feats, holdout, foldFile string, cv, inner, neighbors int,
	seed uint64, cost float64, multiclass, svmBias string, params, tune repeated) (*evaluate.Plan, error) {
	plan := &evaluate.Plan{Seed: seed, InnerFolds: inner}
	names := splitList(methods)
	specs := make([]*selection.Spec, len(names))
	for i, name := range names {
		spec, err := selection.Lookup(name)
		if err != nil {
			return nil, err
		}
		specs[i] = spec
		plan.Methods = append(plan.Methods, evaluate.Variant{Method: spec.Name, Params: map[string]any{}})
	}
	for _, p := range params {
		name, value, ok := strings.Cut(p, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(value) == "" {
			return nil, fmt.Errorf("-param %q is not NAME=VALUE", p)
		}
		method, pname, scoped := strings.Cut(name, ".")
		if !scoped {
			method, pname = "", name
		}
		applied := false
		for i, spec := range specs {
			if scoped && !strings.EqualFold(spec.Name, method) {
				continue
			}
			if !scoped && !evaluate.HasParam(spec, pname) {
				continue
			}
			if _, dup := plan.Methods[i].Params[pname]; dup {
				return nil, fmt.Errorf("-param: %s of %s is given twice", pname, spec.Name)
			}
			plan.Methods[i].Params[pname] = listValue(value)
			applied = true
		}
		if !applied {
			if scoped {
				return nil, fmt.Errorf("-param %s: method %s is not in -methods", name, method)
			}
			return nil, fmt.Errorf("-param %s: none of the methods %s has a parameter %s", name, strings.Join(names, ", "), pname)
		}
	}
	if ks != "" {
		list, err := evaluate.ParseInts(ks)
		if err != nil {
			return nil, fmt.Errorf("-k: %v", err)
		}
		plan.K = list
	}
	if feats != "" {
		list, err := evaluate.ParseInts(feats)
		if err != nil {
			return nil, fmt.Errorf("-features: %v", err)
		}
		plan.Features = list
	}
	for _, name := range splitList(classifiers) {
		c := classify.Config{Name: strings.ToLower(name)}
		switch c.Name {
		case classify.NameSVM:
			c.C, c.Multiclass, c.Bias = cost, multiclass, svmBias
		case classify.NameKNN:
			c.Neighbors = neighbors
		}
		plan.Classifiers = append(plan.Classifiers, c)
	}
	protocols := 0
	for _, f := range []string{"cv", "holdout", "foldfile"} {
		if set[f] {
			protocols++
		}
	}
	if protocols > 1 {
		return nil, errors.New("give one protocol: -cv, -holdout or -foldfile")
	}
	switch {
	case set["holdout"]:
		train, reps, ok := strings.Cut(strings.ToLower(holdout), "x")
		f, err1 := strconv.ParseFloat(strings.TrimSpace(train), 64)
		r, err2 := strconv.Atoi(strings.TrimSpace(reps))
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("-holdout %q is not TRAINxREPEATS (e.g. 0.7x10)", holdout)
		}
		plan.Protocol = evaluate.Protocol{Kind: evaluate.Holdout, Train: f, Repeats: r}
	case set["foldfile"]:
		raw, err := os.ReadFile(foldFile)
		if err != nil {
			return nil, fmt.Errorf("cannot read the fold file: %w", err)
		}
		assign, err := job.ReadFoldFile(raw)
		if err != nil {
			return nil, err
		}
		plan.Protocol = evaluate.Protocol{Kind: evaluate.Folds, Assignment: assign}
	default:
		plan.Protocol = evaluate.Protocol{Kind: evaluate.CV, Folds: cv}
	}
	for _, g := range tune {
		name, values, ok := strings.Cut(g, "=")
		if !ok || strings.TrimSpace(name) == "" || len(splitList(values)) == 0 {
			return nil, fmt.Errorf("-tune %q is not NAME=V1,V2,...", g)
		}
		grid := evaluate.Grid{Param: strings.TrimSpace(name)}
		for _, v := range splitList(values) {
			grid.Values = append(grid.Values, v)
		}
		plan.Tune = append(plan.Tune, grid)
	}
	return plan, nil
}

// parseMerge reads the parts to merge from files ("-" is standard input,
// which may hold several parts one after another).
func parseMerge(args []string, stdin io.Reader, stderr io.Writer) (*job.Request, output, error) {
	fs := newFlagSet("merge", "merge [-indent] PART.json ...", stderr)
	var o output
	outputFlags(fs, &o, false)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, o, err
		}
		return nil, o, errUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return nil, o, errors.New("give the part files (the outputs of eval -units)")
	}
	req := &job.Request{Op: job.OpMerge}
	for _, path := range fs.Args() {
		var r io.Reader = stdin
		if path != "-" {
			f, err := os.Open(path)
			if err != nil {
				return nil, o, fmt.Errorf("cannot read a part: %w", err)
			}
			defer f.Close()
			r = f
		}
		dec := json.NewDecoder(r)
		for {
			var p job.EvalPart
			err := dec.Decode(&p)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, o, fmt.Errorf("%s: not an evaluation part: %v", path, err)
			}
			req.Parts = append(req.Parts, &p)
		}
	}
	return req, o, nil
}

// runSynth writes the gsr-fs §5.1 synthetic data as CSV.
func runSynth(args []string, stdout, stderr io.Writer) int {
	s := dataset.PaperSynth
	var task, out string
	fs := newFlagSet("synth", "synth [-m 2000 -d1 100 -d2 700 -c 5 -outliers 0 -seed 0 -task regression] [-o FILE]", stderr)
	fs.IntVar(&s.M, "m", s.M, "samples")
	fs.IntVar(&s.D1, "d1", s.D1, "features in each of X1, X2 (informative) and X3 (redundant)")
	fs.IntVar(&s.D2, "d2", s.D2, "irrelevant features X4")
	fs.IntVar(&s.C, "c", s.C, "targets (tasks), and classes of the label")
	fs.Float64Var(&s.Outliers, "outliers", 0, "fraction of rows whose targets change sign (the paper uses 0, 0.01, 0.1)")
	fs.Uint64Var(&s.Seed, "seed", 0, "the random seed")
	fs.StringVar(&task, "task", "regression", "columns after the features: regression (targets y1…yc), classification (a label 1…c: the argmax of the unflipped targets) or both")
	fs.StringVar(&out, "o", "", "write the CSV to this file instead of standard output")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sparsefs synth: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	var targets, label bool
	switch strings.ToLower(task) {
	case "regression":
		targets = true
	case "classification":
		label = true
	case "both":
		targets, label = true, true
	default:
		fmt.Fprintf(stderr, "sparsefs synth: -task %q: use regression, classification or both\n", task)
		return 2
	}
	data, err := s.Generate()
	if err != nil {
		fmt.Fprintf(stderr, "sparsefs synth: %v\n", err)
		return 2
	}
	w := stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			fmt.Fprintf(stderr, "sparsefs synth: %v\n", err)
			return 1
		}
		defer f.Close()
		w = f
	}
	if err := data.WriteCSV(w, targets, label); err != nil {
		fmt.Fprintf(stderr, "sparsefs synth: %v\n", err)
		return 1
	}
	return 0
}
