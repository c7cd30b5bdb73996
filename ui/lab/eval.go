package lab

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"sparsefs/ui/wire"
)

// The page's two ways of running (Config.Mode).
const (
	// ModeEval evaluates the selectors: each is fitted on the training
	// part of every split, and classifiers trained on its top K features
	// are tested on the held-out part (the evaluation of
	// docs/evaluation.md, run unit by unit on the workers).
	ModeEval = "eval"
	// ModeRank fits each selector once on all the data: a ranking, not an
	// estimate of accuracy.
	ModeRank = "rank"
)

// Shape is what the page knows about the data before a run.
type Shape struct {
	Samples, Features int
	// Classes is the number of classes (0 when the data have no label);
	// Targets the number of real-valued target columns.
	Classes, Targets int
}

// EvalSize says how large an evaluation is.
type EvalSize struct {
	// Variants are the method settings (one per combination of listed
	// values), Splits the training/test splits, Units their product.
	Variants, Splits, Units int
	// Dropped lists the values of K above the number of features, left
	// out.
	Dropped []int
}

// MaxEvalUnits bounds the units of one evaluation.
const MaxEvalUnits = 5000

// EvalRequest turns a configuration into the evaluation's request: the
// eval-plan job that the worker normalises (every default written in) and
// splits into units. Values of K above the number of features are left out
// (EvalSize.Dropped says which). The errors name the field to fix.
func EvalRequest(cfg *Config, methods []wire.MethodInfo, data wire.Data, sh Shape) (*wire.Request, EvalSize, error) {
	var size EvalSize
	if len(cfg.Methods) == 0 {
		return nil, size, errors.New("choose at least one selector")
	}
	byName := map[string]*wire.MethodInfo{}
	for i := range methods {
		byName[methods[i].Name] = &methods[i]
	}
	plan := &wire.EvalPlan{Preprocess: cfg.Preprocess, Seed: 0}
	bias := cfg.Bias
	plan.Bias = &bias
	embedded := false
	for _, mc := range cfg.Methods {
		info := byName[mc.Name]
		if info == nil {
			return nil, size, fmt.Errorf("the method %q is not available in this version of sparsefs", mc.Name)
		}
		embedded = embedded || info.Kind == wire.Embedded
		v := wire.EvalVariant{Method: mc.Name}
		count := 1
		for _, p := range info.Params {
			text := strings.TrimSpace(mc.Values[p.Name])
			if text == "" {
				continue
			}
			if info.SelectsK && p.Name == "k" {
				return nil, size, fmt.Errorf("%s: leave k empty — the evaluation sets it to each K of the list (%s selects exactly K features)", mc.Name, mc.Name)
			}
			vals, err := ParseValues(mc.Name, p, text)
			if err != nil {
				return nil, size, err
			}
			if v.Params == nil {
				v.Params = map[string]any{}
			}
			if len(vals) == 1 {
				v.Params[p.Name] = vals[0]
			} else {
				v.Params[p.Name] = vals
			}
			count *= len(vals)
		}
		for name, text := range mc.Values {
			if info.Param(name) == nil && strings.TrimSpace(text) != "" {
				return nil, size, fmt.Errorf("%s has no parameter %q", mc.Name, name)
			}
		}
		size.Variants += count
		plan.Methods = append(plan.Methods, v)
	}
	pr := cfg.Protocol
	ks, err := ParseInts(pr.K)
	if err != nil {
		return nil, size, fmt.Errorf("the list of K: %v", err)
	}
	for _, k := range ks {
		switch {
		case k < 1:
			return nil, size, fmt.Errorf("the list of K holds %d: every K must be at least 1", k)
		case sh.Features > 0 && k > sh.Features:
			size.Dropped = append(size.Dropped, k)
		default:
			plan.K = append(plan.K, k)
		}
	}
	if len(plan.K) == 0 {
		if len(ks) == 0 {
			return nil, size, errors.New("list the numbers of features K to evaluate (e.g. 10, 20, 50 or 1:50)")
		}
		return nil, size, fmt.Errorf("every K of the list exceeds the %d features of the data", sh.Features)
	}
	if sh.Classes > 0 {
		if len(pr.Classifiers) == 0 {
			return nil, size, errors.New("choose a classifier (the linear SVM or k-NN)")
		}
		for _, name := range pr.Classifiers {
			switch name {
			case "svm":
				if pr.C < 0 || math.IsNaN(pr.C) || math.IsInf(pr.C, 0) {
					return nil, size, fmt.Errorf("the SVM's C = %v must be a positive number", pr.C)
				}
				plan.Classifiers = append(plan.Classifiers, wire.Classifier{Name: "svm", C: pr.C})
			case "knn":
				if pr.Neighbors < 0 {
					return nil, size, fmt.Errorf("k-NN's k = %d must be at least 1", pr.Neighbors)
				}
				plan.Classifiers = append(plan.Classifiers, wire.Classifier{Name: "knn", Neighbors: pr.Neighbors})
			default:
				return nil, size, fmt.Errorf("unknown classifier %q: use svm or knn", name)
			}
		}
	}
	switch pr.Scheme {
	case "", "cv":
		folds := pr.Folds
		if folds == 0 {
			folds = 5
		}
		if folds < 2 || (sh.Samples > 0 && folds > sh.Samples) {
			return nil, size, fmt.Errorf("%d-fold cross-validation needs 2 to %d folds (the number of samples)", folds, max(sh.Samples, 2))
		}
		plan.Protocol = wire.EvalProtocol{Kind: "cv", Folds: folds}
		size.Splits = folds
	case "holdout":
		if !(pr.Train > 0 && pr.Train < 1) {
			return nil, size, fmt.Errorf("the training fraction %v of a holdout must be between 0 and 1 (e.g. 0.7)", pr.Train)
		}
		reps := pr.Repeats
		if reps == 0 {
			reps = 10
		}
		if reps < 1 || reps > 10000 {
			return nil, size, fmt.Errorf("%d holdout repeats: use 1 to 10000", reps)
		}
		plan.Protocol = wire.EvalProtocol{Kind: "holdout", Train: pr.Train, Repeats: reps}
		size.Splits = reps
	default:
		return nil, size, fmt.Errorf("unknown protocol %q: use cv or holdout", pr.Scheme)
	}
	if pr.Seed < 0 || pr.Seed >= 1<<53 {
		return nil, size, fmt.Errorf("the seed %d must be a whole number from 0 to 2^53 − 1", pr.Seed)
	}
	plan.Seed = uint64(pr.Seed)
	if plan.Tune, err = ParseTune(pr.Tune); err != nil {
		return nil, size, err
	}
	if pr.Inner != 0 {
		if pr.Inner < 2 {
			return nil, size, fmt.Errorf("%d inner folds: use at least 2 (or leave it empty for 3 or 8)", pr.Inner)
		}
		plan.InnerFolds = pr.Inner
	}
	if embedded {
		plan.WeightRows = min(WeightRows, plan.K[len(plan.K)-1])
	}
	size.Units = size.Variants * size.Splits
	if size.Units > MaxEvalUnits {
		return nil, size, fmt.Errorf("this evaluation has %d units (%d settings × %d splits); at most %d are allowed: list fewer values", size.Units, size.Variants, size.Splits, MaxEvalUnits)
	}
	data.Label, data.Missing, data.Targets = cfg.Label, cfg.Missing, cfg.Targets
	return &wire.Request{Op: wire.OpEvalPlan, Data: data, Eval: plan}, size, nil
}

// ParseTune reads a tuning grid as typed: "svm.C=0.1,1,10; gamma=0.1,1"
// (parameters separated by semicolons or new lines, each NAME=VALUES; the
// values as a parameter field takes them, ranges included).
func ParseTune(text string) ([]wire.EvalGrid, error) {
	var out []wire.EvalGrid
	for _, item := range strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' }) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, values, ok := strings.Cut(item, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("tuning: %q is not NAME=VALUES (e.g. svm.C=0.1,1,10)", item)
		}
		vals, err := SplitList(values)
		if err != nil {
			return nil, fmt.Errorf("tuning %s: %v", name, err)
		}
		if len(vals) == 0 {
			return nil, fmt.Errorf("tuning %s: no values listed", name)
		}
		g := wire.EvalGrid{Param: name}
		for _, v := range vals {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				g.Values = append(g.Values, f)
			} else {
				g.Values = append(g.Values, v)
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// TuneText writes grids as ParseTune reads them.
func TuneText(grids []wire.EvalGrid) string {
	parts := make([]string, len(grids))
	for i, g := range grids {
		vals := make([]string, len(g.Values))
		for j, v := range g.Values {
			vals[j] = valueText(v)
		}
		parts[i] = g.Param + "=" + strings.Join(vals, ",")
	}
	return strings.Join(parts, "; ")
}

// IntsText writes a sorted list of whole numbers compactly, as ParseInts
// reads it: runs of consecutive numbers as a:b, longer arithmetic runs as
// a:step:b.
func IntsText(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i + 1
		if j < len(ks) {
			step := ks[j] - ks[i]
			for j+1 < len(ks) && ks[j+1]-ks[j] == step {
				j++
			}
			switch {
			case step == 1 && j-i >= 2:
				parts = append(parts, fmt.Sprintf("%d:%d", ks[i], ks[j]))
				i = j + 1
				continue
			case step > 1 && j-i >= 3:
				parts = append(parts, fmt.Sprintf("%d:%d:%d", ks[i], step, ks[j]))
				i = j + 1
				continue
			}
		}
		parts = append(parts, strconv.Itoa(ks[i]))
		i++
	}
	return strings.Join(parts, ", ")
}

// ConfigFromRequest rebuilds the page's configuration from an evaluation's
// normalised request (the "request" of a saved report): the methods with
// the values each parameter took (a field is left empty where only the
// default was used), the protocol, the classifiers and the data settings.
// Running the configuration again gives the same request.
func ConfigFromRequest(req *wire.Request, methods []wire.MethodInfo) (Config, error) {
	cfg := DefaultConfig()
	cfg.Mode = ModeEval
	if req == nil || req.Eval == nil {
		return cfg, errors.New("the report holds no evaluation request")
	}
	p := req.Eval
	cfg.Label, cfg.Missing, cfg.Targets = req.Data.Label, req.Data.Missing, req.Data.Targets
	cfg.Preprocess = p.Preprocess
	cfg.Bias = p.Bias == nil || *p.Bias
	byName := map[string]*wire.MethodInfo{}
	for i := range methods {
		byName[methods[i].Name] = &methods[i]
	}
	cfg.Methods = nil
	seen := map[string]int{}
	values := map[string]map[string][]any{}
	for _, v := range p.Methods {
		if _, ok := seen[v.Method]; !ok {
			seen[v.Method] = len(cfg.Methods)
			cfg.Methods = append(cfg.Methods, MethodConfig{Name: v.Method})
			values[v.Method] = map[string][]any{}
		}
		for name, val := range v.Params {
			list := values[v.Method][name]
			dup := false
			for _, x := range list {
				dup = dup || valueText(x) == valueText(val)
			}
			if !dup {
				values[v.Method][name] = append(list, val)
			}
		}
	}
	for i := range cfg.Methods {
		mc := &cfg.Methods[i]
		info := byName[mc.Name]
		for name, list := range values[mc.Name] {
			if info != nil {
				if pi := info.Param(name); pi != nil && len(list) == 1 && valueText(list[0]) == valueText(defaultValue(*pi)) {
					continue
				}
			}
			texts := make([]string, len(list))
			for j, x := range list {
				texts[j] = valueText(x)
			}
			if mc.Values == nil {
				mc.Values = map[string]string{}
			}
			mc.Values[name] = strings.Join(texts, ", ")
		}
	}
	pr := Protocol{K: IntsText(p.K), Seed: int64(p.Seed), Tune: TuneText(p.Tune), Inner: p.InnerFolds}
	switch p.Protocol.Kind {
	case "cv":
		pr.Scheme, pr.Folds = "cv", p.Protocol.Folds
	case "holdout":
		pr.Scheme, pr.Train, pr.Repeats = "holdout", p.Protocol.Train, p.Protocol.Repeats
	default:
		return cfg, fmt.Errorf("the report's protocol %q (an explicit fold assignment) cannot be set up on this page; run it with sparsefs eval -request", p.Protocol.Kind)
	}
	for _, c := range p.Classifiers {
		pr.Classifiers = append(pr.Classifiers, c.Name)
		switch c.Name {
		case "svm":
			pr.C = c.C
		case "knn":
			pr.Neighbors = c.Neighbors
		}
	}
	if pr.C == 0 {
		pr.C = 1
	}
	if pr.Neighbors == 0 {
		pr.Neighbors = 1
	}
	cfg.Protocol = pr
	if len(p.K) > 0 {
		cfg.TopK = min(p.K[len(p.K)-1], 100)
	}
	return cfg, nil
}

// defaultValue is a parameter's default as the normalised request writes
// it (a choice by its name).
func defaultValue(p wire.Param) any {
	if len(p.Choices) > 0 {
		return DefaultText(p)
	}
	return p.Default
}

// VariantLabels names the rows of an evaluation: the method, and the
// parameters whose values differ between that method's rows ("rfs · gamma
// 0.1"); tuned parameters are marked as such.
func VariantLabels(vs []wire.VariantInfo) []string {
	byMethod := map[string][]int{}
	for i, v := range vs {
		byMethod[v.Method] = append(byMethod[v.Method], i)
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		var parts []string
		names := make([]string, 0, len(v.Params))
		for name := range v.Params {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			differs := false
			for _, o := range byMethod[v.Method] {
				differs = differs || valueText(vs[o].Params[name]) != valueText(v.Params[name])
			}
			if differs {
				parts = append(parts, name+" "+valueText(v.Params[name]))
			}
		}
		label := v.Method
		if v.Method == "features" {
			label = "fixed features"
		} else if len(parts) > 0 {
			label += " · " + strings.Join(parts, ", ")
		}
		if len(v.Tuned) > 0 {
			label += " (tuned: " + strings.Join(v.Tuned, ", ") + ")"
		}
		out[i] = label
	}
	return out
}
