package lab

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"sparsefs/api"
	"sparsefs/core/plan"
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

// EvalSize says how large an evaluation is.
type EvalSize struct {
	// Variants are the method settings (one per combination of listed
	// values), Splits the training/test splits, Units their product.
	Variants, Splits, Units int
	// Notes are what checking the plan had to say (values of K above the
	// number of features, left out).
	Notes []string
}

// MaxEvalUnits bounds the units of one evaluation in the page (each is a
// job whose answer the page keeps).
const MaxEvalUnits = 5000

// EvalRequest turns a configuration into the evaluation's request: the
// eval-plan job that a worker answers with the evaluation's units. The plan
// is checked and completed by plan.Normalize against the data's shape and
// the methods the workers listed — the check `sparsefs eval` makes, with
// the same messages; what is typed in a field is read first, and an error
// names the field to fix.
func EvalRequest(cfg *Config, methods []api.MethodInfo, data api.Data, sh api.Shape) (*api.Request, EvalSize, error) {
	var size EvalSize
	if len(cfg.Methods) == 0 {
		return nil, size, errors.New("choose at least one selector")
	}
	bias := cfg.Bias
	pl := &api.Plan{Preprocess: cfg.Preprocess, Bias: &bias}
	embedded := false
	for _, mc := range cfg.Methods {
		info, err := plan.Lookup(methods, mc.Name)
		if err != nil {
			return nil, size, err
		}
		embedded = embedded || info.Kind == api.Embedded
		v := api.Variant{Method: mc.Name}
		for _, p := range info.Params {
			text := strings.TrimSpace(mc.Values[p.Name])
			if text == "" {
				continue
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
		}
		for name, text := range mc.Values {
			if info.Param(name) == nil && strings.TrimSpace(text) != "" {
				return nil, size, fmt.Errorf("%s has no parameter %q", mc.Name, name)
			}
		}
		pl.Methods = append(pl.Methods, v)
	}
	pr := cfg.Protocol
	if strings.TrimSpace(pr.K) == "" {
		return nil, size, errors.New("list the numbers of features K to evaluate (e.g. 10, 20, 50 or 1:50)")
	}
	ks, err := plan.Ints(pr.K)
	if err != nil {
		return nil, size, fmt.Errorf("the list of K: %v", err)
	}
	pl.K = ks
	if sh.Classes > 0 {
		if len(pr.Classifiers) == 0 {
			return nil, size, errors.New("choose a classifier (the linear SVM or k-NN)")
		}
		for _, name := range pr.Classifiers {
			if _, err := plan.ClassifierNamed(name); err != nil {
				return nil, size, err
			}
		}
		// In the form's order (SVM, its vote, k-NN, its vote), whatever
		// the order of the list: a preset's report then reads as the
		// page's.
		for _, name := range plan.ClassifierNames {
			if !slices.Contains(pr.Classifiers, name) {
				continue
			}
			c, _ := plan.ClassifierNamed(name)
			if c.Name == api.SVM {
				c.C = pr.C
			} else {
				c.Neighbors = pr.Neighbors
			}
			pl.Classifiers = append(pl.Classifiers, c)
		}
	}
	switch pr.Scheme {
	case "", api.CV:
		pl.Protocol = api.Protocol{Kind: api.CV, Folds: pr.Folds}
	case api.Holdout:
		pl.Protocol = api.Protocol{Kind: api.Holdout, Train: pr.Train, Repeats: pr.Repeats}
	default:
		return nil, size, fmt.Errorf("unknown protocol %q: use cv or holdout", pr.Scheme)
	}
	if pr.Seed < 0 {
		return nil, size, fmt.Errorf("the seed %d must be a whole number from 0 to 2^53 − 1", pr.Seed)
	}
	pl.Seed = uint64(pr.Seed)
	grids, err := plan.Grids(pr.Tune)
	if err != nil {
		return nil, size, err
	}
	for _, g := range grids {
		// Without classes the form's classifiers, and their grids, do
		// not apply.
		if cls, _ := plan.SplitGridParam(g.Param); cls == "" || sh.Classes > 0 {
			pl.Tune = append(pl.Tune, g)
		}
	}
	pl.InnerFolds = pr.Inner
	if size.Notes, err = plan.Normalize(pl, sh, methods); err != nil {
		return nil, size, err
	}
	if embedded {
		pl.WeightRows = min(WeightRows, pl.K[len(pl.K)-1])
	}
	size.Variants, size.Splits = len(pl.Methods), plan.Splits(pl.Protocol)
	size.Units = plan.Units(pl)
	if size.Units > MaxEvalUnits {
		return nil, size, fmt.Errorf("this evaluation has %d units (%d settings × %d splits); at most %d fit in a page: list fewer values (the command line, sparsefs eval, runs more)", size.Units, size.Variants, size.Splits, MaxEvalUnits)
	}
	data = cfg.Data(data.Name)
	return &api.Request{Op: api.OpEvalPlan, Data: data, Eval: pl}, size, nil
}

// ConfigFromRequest rebuilds the page's configuration from an evaluation's
// normalised request (the "request" of a saved report): the methods with
// the values each parameter took (a field is left empty where only the
// default was used), the protocol, the classifiers and the data settings.
// Running the configuration again gives the same request.
func ConfigFromRequest(req *api.Request, methods []api.MethodInfo) (Config, error) {
	cfg := DefaultConfig()
	cfg.Mode = ModeEval
	if req == nil || req.Eval == nil {
		return cfg, errors.New("the report holds no evaluation request")
	}
	p := req.Eval
	cfg.Label, cfg.Sheet, cfg.Missing, cfg.Targets = req.Data.Label, req.Data.Sheet, req.Data.Missing, req.Data.Targets
	cfg.Preprocess = p.Preprocess
	cfg.Bias = p.Bias == nil || *p.Bias
	byName := map[string]*api.MethodInfo{}
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
				dup = dup || plan.ValueText(x) == plan.ValueText(val)
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
				if pi := info.Param(name); pi != nil && len(list) == 1 && plan.ValueText(list[0]) == plan.ValueText(plan.DefaultValue(pi)) {
					continue
				}
			}
			texts := make([]string, len(list))
			for j, x := range list {
				texts[j] = plan.ValueText(x)
			}
			if mc.Values == nil {
				mc.Values = map[string]string{}
			}
			mc.Values[name] = strings.Join(texts, ", ")
		}
	}
	pr := Protocol{K: plan.Text(p.K), Seed: int64(p.Seed), Tune: plan.GridsText(p.Tune), Inner: p.InnerFolds}
	switch p.Protocol.Kind {
	case "cv":
		pr.Scheme, pr.Folds = "cv", p.Protocol.Folds
	case "holdout":
		pr.Scheme, pr.Train, pr.Repeats = "holdout", p.Protocol.Train, p.Protocol.Repeats
	default:
		return cfg, fmt.Errorf("the report's protocol %q (an explicit fold assignment) cannot be set up on this page; run it with sparsefs eval -request", p.Protocol.Kind)
	}
	for _, c := range p.Classifiers {
		pr.Classifiers = append(pr.Classifiers, plan.ClassifierName(c))
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

// VariantLabels names the rows of an evaluation: the method, and the
// parameters whose values differ between that method's rows ("rfs · gamma
// 0.1"); tuned parameters are marked as such.
func VariantLabels(vs []api.VariantInfo) []string {
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
				differs = differs || plan.ValueText(vs[o].Params[name]) != plan.ValueText(v.Params[name])
			}
			if differs {
				parts = append(parts, name+" "+plan.ValueText(v.Params[name]))
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
