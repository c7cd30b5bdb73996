package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
	"sparsefs/core/plan"
)

// repeated collects a repeatable flag's values.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

// splitList splits a comma-separated list of names, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func parseEval(args []string, stderr io.Writer) (*api.Request, output, error) {
	req := &api.Request{Op: api.OpEval}
	var (
		methods, ks, classifiers, feats, holdout, foldFile, targets, units, requestPath, preset string
		params, tune                                                                            repeated
		cv, inner, neighbors, workers                                                           int
		seed                                                                                    uint64
		cost                                                                                    float64
		multiclass, svmBias, preprocess, coding                                                 string
		bias, describe                                                                          bool
		o                                                                                       output
	)
	fs := newFlagSet("eval", "eval -data PATH -methods LIST [flags]", stderr)
	dataFlags(fs, &req.Data)
	fs.StringVar(&targets, "targets", "", "real-valued target columns (names or 1-based numbers, comma-separated), evaluated by least-squares RMSE; with -label none the file has no class")
	fs.StringVar(&methods, "methods", "", `selection methods, comma-separated (see "sparsefs methods")`)
	fs.Var(&params, "param", "a method parameter NAME=VALUE for every listed method that has it, or METHOD.NAME=VALUE for one; VALUE may be a list to sweep it (0.1,1,10 or 0.1:1:0.1) (repeatable)")
	fs.StringVar(&ks, "k", "", "the numbers of top features to evaluate: 20,80 or 1:50 or 10:100:10 (from:to:step) (default 10:100:10 up to the number of features)")
	fs.StringVar(&classifiers, "classifier", "svm", "classifiers: svm, knn or svm,knn (none with -label none); svm-vote, knn-vote: one per class on that class's top K features (largest |W_jk|), majority vote (embedded methods only)")
	fs.Float64Var(&cost, "C", 1, "the SVM's cost C")
	fs.StringVar(&multiclass, "multiclass", "ovo", "the SVM's multiclass rule: ovo (one-vs-one voting, as LIBSVM) or ovr (one-vs-rest)")
	fs.StringVar(&svmBias, "svm-bias", "free", "the SVM's intercept: free (unregularised, as LIBSVM/scikit-learn SVC) or regularized (a constant feature, as LIBLINEAR -B 1)")
	fs.IntVar(&neighbors, "neighbors", 1, "k of the k-NN classifier")
	fs.IntVar(&cv, "cv", 0, "stratified k-fold cross-validation with this many folds (the default protocol, 5 folds)")
	fs.StringVar(&holdout, "holdout", "", "repeated stratified holdout: TRAINxREPEATS, e.g. 0.7x10 (70% training, 10 times)")
	fs.StringVar(&foldFile, "foldfile", "", "a file with one integer fold id per sample; each fold is tested once")
	fs.StringVar(&feats, "features", "", "evaluate this fixed feature subset too (0-based column indices as in rankings, e.g. 0,5,7 or 0:19), without selection")
	fs.Uint64Var(&seed, "seed", 0, "the seed of every random choice (splits, inner folds)")
	fs.Var(&tune, "tune", "tune a parameter by inner cross-validation: NAME=VALUES for a method parameter (base.NAME for the method stabsel wraps, m1.NAME … for consensus's), svm.C=... or knn.neighbors=... (repeatable)")
	fs.IntVar(&inner, "inner", 0, "folds of the tuning cross-validation (0: 3 below 200 training samples, else 8)")
	fs.IntVar(&workers, "workers", runtime.NumCPU(), "units run at once (never changes the result)")
	memoryFlag(fs, &req.MemoryBudget)
	fs.StringVar(&preprocess, "preprocess", "zscore", "preprocessing fitted on each training part: zscore, minmax or none")
	fs.BoolVar(&bias, "bias", true, "append a constant-1 column for the embedded models")
	fs.StringVar(&coding, "coding", "", "override the methods' label coding: y01 or ypm")
	fs.StringVar(&units, "units", "", "run only these units (e.g. 0:4) and print them as a part for \"sparsefs merge\"")
	fs.BoolVar(&describe, "describe", false, "print the evaluation's units and splits without running them")
	fs.StringVar(&preset, "preset", "", "run a paper's experiment as the page's preset of this id runs it (see \"sparsefs presets\"); -seed, -workers, -units and how to read the data may be given")
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
	set := flagSet(fs)
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
	} else if preset != "" {
		if req.Data.Path == "" {
			return nil, o, errors.New("-data is required")
		}
		complete, err := presetPlan(preset, set, seed, stderr)
		if err != nil {
			return nil, o, err
		}
		o.complete = complete
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
	req.Op = api.OpEval
	if workers < 1 {
		return nil, o, fmt.Errorf("-workers %d: use 1 or more", workers)
	}
	req.Workers = workers
	if describe {
		req.Op = api.OpEvalPlan
	}
	if units != "" {
		list, err := plan.Ints(units)
		if err != nil {
			return nil, o, fmt.Errorf("-units: %v", err)
		}
		req.Units = list
	}
	return req, o, nil
}

// readRequest reads a request, or the request of a report.
func readRequest(path string) (*api.Request, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the request: %w", err)
	}
	var wrapper struct {
		Request *api.Request `json:"request"`
	}
	if err := json.Unmarshal(raw, &wrapper); err != nil {
		return nil, fmt.Errorf("%s is not JSON: %v", path, err)
	}
	if wrapper.Request != nil {
		return wrapper.Request, nil
	}
	var req api.Request
	if err := json.Unmarshal(raw, &req); err != nil || req.Eval == nil {
		return nil, fmt.Errorf("%s holds neither a report nor an evaluation request", path)
	}
	return &req, nil
}

// evalPlan builds the evaluation plan from the command's flags, reading
// every list with the grammar of package plan; plan.Normalize checks the
// rest when the evaluation runs, with the same messages as the page's.
func evalPlan(set map[string]bool, methods, ks, classifiers, feats, holdout, foldFile string, cv, inner, neighbors int,
	seed uint64, cost float64, multiclass, svmBias string, params, tune repeated) (*api.Plan, error) {
	pl := &api.Plan{Seed: seed, InnerFolds: inner}
	catalog := job.Methods().Methods
	names := splitList(methods)
	infos := make([]*api.MethodInfo, len(names))
	for i, name := range names {
		m, err := plan.Lookup(catalog, name)
		if err != nil {
			return nil, err
		}
		infos[i] = m
		pl.Methods = append(pl.Methods, api.Variant{Method: m.Name, Params: map[string]any{}})
	}
	for _, p := range params {
		name, values, err := plan.Assignment(p)
		if err != nil {
			return nil, fmt.Errorf("-param %v", err)
		}
		method, pname, scoped := strings.Cut(name, ".")
		if !scoped || !listed(names, method) && takes(infos, name) {
			// A wrapped method's parameter (base.C) is not scoped by a
			// method of the list.
			method, pname, scoped = "", name, false
		}
		var value any = values
		if len(values) == 1 {
			value = values[0]
		}
		applied := false
		for i, m := range infos {
			if scoped && !strings.EqualFold(m.Name, method) {
				continue
			}
			if !scoped && !takes([]*api.MethodInfo{m}, pname) {
				continue
			}
			if _, dup := pl.Methods[i].Params[pname]; dup {
				return nil, fmt.Errorf("-param: %s of %s is given twice", pname, m.Name)
			}
			pl.Methods[i].Params[pname] = value
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
		list, err := plan.Ints(ks)
		if err != nil {
			return nil, fmt.Errorf("-k: %v", err)
		}
		pl.K = list
	}
	if feats != "" {
		list, err := plan.Ints(feats)
		if err != nil {
			return nil, fmt.Errorf("-features: %v", err)
		}
		pl.Features = list
	}
	// A flag given is checked as the page checks its field (a plan's 0
	// would mean the default).
	for _, check := range []struct {
		flag string
		err  func() error
	}{
		{"neighbors", func() error { return plan.CheckNeighbors(neighbors) }},
		{"C", func() error { return plan.CheckCost(cost) }},
		{"cv", func() error { return plan.CheckFolds(cv) }},
		{"inner", func() error { return plan.CheckInnerFolds(inner) }},
	} {
		if set[check.flag] {
			if err := check.err(); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range splitList(classifiers) {
		c, err := plan.ClassifierNamed(name)
		if err != nil {
			return nil, fmt.Errorf("-classifier: %v", err)
		}
		switch c.Name {
		case api.SVM:
			c.C, c.Multiclass, c.Bias = cost, multiclass, svmBias
		case api.KNN:
			c.Neighbors = neighbors
		}
		pl.Classifiers = append(pl.Classifiers, c)
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
		pr, err := plan.Holdout(holdout)
		if err != nil {
			return nil, fmt.Errorf("-holdout: %v", err)
		}
		pl.Protocol = pr
	case set["foldfile"]:
		raw, err := os.ReadFile(foldFile)
		if err != nil {
			return nil, fmt.Errorf("cannot read the fold file: %w", err)
		}
		assign, err := plan.FoldFile(raw)
		if err != nil {
			return nil, err
		}
		pl.Protocol = api.Protocol{Kind: api.Folds, Assignment: assign}
	default:
		pl.Protocol = api.Protocol{Kind: api.CV, Folds: cv}
	}
	for _, g := range tune {
		name, values, err := plan.Assignment(g)
		if err != nil {
			return nil, fmt.Errorf("-tune %v", err)
		}
		pl.Tune = append(pl.Tune, api.Grid{Param: name, Values: values})
	}
	return pl, nil
}

// listed reports whether a method name is among names (case-insensitive).
func listed(names []string, method string) bool {
	for _, n := range names {
		if strings.EqualFold(n, method) {
			return true
		}
	}
	return false
}

// takes reports whether one of the methods takes a parameter: its own, or
// SLOT.NAME for a method it wraps (api.MethodInfo.Wraps).
func takes(methods []*api.MethodInfo, name string) bool {
	slot, _, dotted := strings.Cut(name, ".")
	for _, m := range methods {
		if m.Param(name) != nil || dotted && slices.Contains(m.Wraps, slot) {
			return true
		}
	}
	return false
}

// parseMerge reads the parts to merge from files ("-" is standard input,
// which may hold several parts one after another).
func parseMerge(args []string, stdin io.Reader, stderr io.Writer) (*api.Request, output, error) {
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
	req := &api.Request{Op: api.OpMerge}
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
			var p api.EvalPart
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
	targets, label, err := job.SynthColumns(task)
	if err != nil {
		fmt.Fprintf(stderr, "sparsefs synth: -task %q: use regression, classification or both\n", task)
		return 2
	}
	data, err := s.Generate()
	if err != nil {
		fmt.Fprintf(stderr, "sparsefs synth: %v\n", err)
		return 2
	}
	write := func(w io.Writer) error { return data.WriteCSV(w, targets, label) }
	if out != "" {
		err = saveFile(out, write)
	} else {
		err = write(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sparsefs synth: %v\n", err)
		return 1
	}
	return 0
}
