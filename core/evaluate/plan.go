package evaluate

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"sparsefs/core/classify"
	"sparsefs/core/dataset"
	selection "sparsefs/core/select"
	"sparsefs/core/select/param"
)

// Plan is everything that defines an evaluation besides the data. It is
// JSON-serialisable; Normalize fills in every default, so that a normalised
// plan written into a report re-creates the run exactly.
type Plan struct {
	// Methods are the selectors to evaluate, each with parameters. A
	// parameter given as a list of values is a sweep: the method is
	// evaluated once per value (per combination, when several are
	// lists).
	Methods []Variant `json:"methods"`
	// Features, if set, is a fixed subset (0-based column indices, in the
	// order they are to be taken) evaluated without selection, as one
	// more row of results named "features": its top K are its first K.
	Features []int `json:"features,omitempty"`
	// K is the list of subset sizes (default: 10, 20, …, 100 up to the
	// number of features; the subset's size with Features alone).
	K []int `json:"k"`
	// Classifiers evaluate each top-K subset (default: svm with C = 1;
	// none when the data have no class label).
	Classifiers []classify.Config `json:"classifiers"`
	// Protocol says how the samples are split (default: stratified 5-fold
	// cross-validation).
	Protocol Protocol `json:"protocol"`
	// Seed fixes every random choice of the evaluation (0 ≤ Seed < 2⁵³,
	// so that JavaScript reads it exactly).
	Seed uint64 `json:"seed"`
	// Preprocess is "zscore" (default), "minmax" or "none", fitted on each
	// training part.
	Preprocess string `json:"preprocess"`
	// Bias appends a constant-1 column for the embedded models (default
	// true).
	Bias *bool `json:"bias"`
	// Coding overrides the methods' label coding ("y01" or "ypm").
	Coding string `json:"coding,omitempty"`
	// Tune lists parameter grids chosen by an inner cross-validation
	// inside each training part: a selector parameter ("gamma") applies to
	// every method that has it; a classifier parameter is named
	// "svm.C" or "knn.neighbors".
	Tune []Grid `json:"tune,omitempty"`
	// InnerFolds is the number of folds of the inner cross-validation
	// (0: 3 when the training part has fewer than 200 samples, else 8, as
	// dso-fs-peng-fan-2016 §5.1).
	InnerFolds int `json:"inner_folds,omitempty"`
	// WeightRows, if positive, records in every fit of an embedded method
	// |W| of its top WeightRows ranked features (Fit.Weights, for a heat
	// map); 0 records none.
	WeightRows int `json:"weight_rows,omitempty"`
}

// maxWeightRows bounds Plan.WeightRows (a heat map, not a copy of W).
const maxWeightRows = 1000

// Variant is one method with its parameters (numbers, or text: a number or
// a categorical parameter's choice; a list of such values is a sweep).
type Variant struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params,omitempty"`
}

// Grid is a parameter and the values tuning chooses among.
type Grid struct {
	Param  string `json:"param"`
	Values []any  `json:"values"`
}

// Protocols.
const (
	// CV is stratified k-fold cross-validation.
	CV = "cv"
	// Holdout is repeated stratified holdout.
	Holdout = "holdout"
	// Folds is an explicit assignment of samples to test folds.
	Folds = "folds"
)

// Protocol says how the samples are split into training and test parts.
type Protocol struct {
	// Kind is CV (default), Holdout or Folds.
	Kind string `json:"kind"`
	// Folds is k of k-fold cross-validation (default 5).
	Folds int `json:"folds,omitempty"`
	// Train is the training fraction of a holdout (0 < Train < 1) and
	// Repeats the number of holdouts (default 10).
	Train   float64 `json:"train,omitempty"`
	Repeats int     `json:"repeats,omitempty"`
	// Assignment gives each sample's fold (any integers); split i tests
	// the samples of the i-th smallest fold id and trains on the rest.
	Assignment []int `json:"assignment,omitempty"`
}

// Shape describes the data a plan is normalised against.
type Shape struct {
	Samples, Features int
	// Classes is the number of classes (0 when there is no label);
	// Targets the number of real-valued target columns.
	Classes, Targets int
}

// maxSeed keeps seeds exactly representable in JavaScript.
const maxSeed = 1 << 53

// kParamOf returns the name of spec's subset-size parameter, or "" when it
// has none (Spec.SelectsK). Such a method is refitted for every K of the
// list with this parameter set to K; any other method's ranking is cut at
// each K.
func kParamOf(spec *selection.Spec) string {
	if spec.SelectsK {
		return selection.KParam
	}
	return ""
}

// classifierParams are the tunable parameters of each classifier.
var classifierParams = map[string][]string{classify.NameSVM: {"C"}, classify.NameKNN: {"neighbors"}}

// Normalize checks p against the data and fills in every default; on
// success the plan is complete (normalising it again changes nothing).
func (p *Plan) Normalize(sh Shape) error {
	if sh.Samples < 2 || sh.Features < 1 {
		return errors.New("the data need at least two samples and one feature")
	}
	if sh.Classes == 0 && sh.Targets == 0 {
		return errors.New("the data have neither a class label nor regression targets")
	}
	if p.Seed >= maxSeed {
		return fmt.Errorf("seed %d is too large: use a whole number below 2^53", p.Seed)
	}
	scaling, err := dataset.ParseScaling(p.Preprocess)
	if err != nil {
		return err
	}
	p.Preprocess = string(scaling)
	if p.Bias == nil {
		t := true
		p.Bias = &t
	}
	coding, err := selection.ParseCoding(p.Coding)
	if err != nil {
		return err
	}
	p.Coding = string(coding)
	for _, f := range p.Features {
		if f < 0 || f >= sh.Features {
			return fmt.Errorf("feature %d is out of range: the features are numbered 0 to %d", f, sh.Features-1)
		}
	}
	if dup := firstDuplicate(p.Features); dup >= 0 {
		return fmt.Errorf("feature %d is listed twice", dup)
	}
	if len(p.Methods) == 0 && len(p.Features) == 0 {
		return fmt.Errorf("no methods to evaluate (and no fixed feature subset); the methods are %s", strings.Join(selection.Names(), ", "))
	}
	if err := p.normalizeK(sh); err != nil {
		return err
	}
	if err := p.normalizeClassifiers(sh); err != nil {
		return err
	}
	if err := p.Protocol.normalize(sh); err != nil {
		return err
	}
	if p.WeightRows < 0 || p.WeightRows > maxWeightRows {
		return fmt.Errorf("weight_rows = %d: use 0 (none) to %d", p.WeightRows, maxWeightRows)
	}
	if p.InnerFolds < 0 || p.InnerFolds == 1 {
		return fmt.Errorf("inner_folds = %d: use 0 (automatic) or at least 2", p.InnerFolds)
	}
	if err := p.normalizeTune(); err != nil {
		return err
	}
	variants, err := p.expandMethods()
	if err != nil {
		return err
	}
	p.Methods = variants
	return nil
}

func firstDuplicate(v []int) int {
	seen := map[int]bool{}
	for _, x := range v {
		if seen[x] {
			return x
		}
		seen[x] = true
	}
	return -1
}

func (p *Plan) normalizeK(sh Shape) error {
	if len(p.K) == 0 {
		switch {
		case len(p.Features) > 0 && len(p.Methods) == 0:
			p.K = []int{len(p.Features)}
		case sh.Features < 10:
			for k := 1; k <= sh.Features; k++ {
				p.K = append(p.K, k)
			}
		default:
			for k := 10; k <= min(100, sh.Features); k += 10 {
				p.K = append(p.K, k)
			}
		}
	}
	for _, k := range p.K {
		if k < 1 || k > sh.Features {
			return fmt.Errorf("k = %d is out of range: the data have %d features", k, sh.Features)
		}
	}
	ks := append([]int(nil), p.K...)
	sort.Ints(ks)
	out := ks[:0]
	for i, k := range ks {
		if i == 0 || k != ks[i-1] {
			out = append(out, k)
		}
	}
	p.K = out
	return nil
}

func (p *Plan) normalizeClassifiers(sh Shape) error {
	if sh.Classes == 0 {
		if len(p.Classifiers) > 0 {
			return errors.New("the data have no class label, so no classifier can be evaluated (the targets are evaluated by least squares)")
		}
		p.Classifiers = []classify.Config{}
		return nil
	}
	if len(p.Classifiers) == 0 {
		p.Classifiers = []classify.Config{{Name: classify.NameSVM}}
	}
	seen := map[string]bool{}
	for i := range p.Classifiers {
		if err := p.Classifiers[i].Normalize(); err != nil {
			return err
		}
		if seen[p.Classifiers[i].Name] {
			return fmt.Errorf("classifier %s is listed twice", p.Classifiers[i].Name)
		}
		seen[p.Classifiers[i].Name] = true
	}
	return nil
}

func (pr *Protocol) normalize(sh Shape) error {
	pr.Kind = strings.ToLower(strings.TrimSpace(pr.Kind))
	if pr.Kind == "" {
		pr.Kind = CV
	}
	switch pr.Kind {
	case CV:
		if pr.Folds == 0 {
			pr.Folds = 5
		}
		if pr.Folds < 2 || pr.Folds > sh.Samples {
			return fmt.Errorf("%d-fold cross-validation is impossible with %d samples: use 2 to %d folds", pr.Folds, sh.Samples, sh.Samples)
		}
		if pr.Train != 0 || pr.Repeats != 0 || pr.Assignment != nil {
			return errors.New("cross-validation takes only folds (train and repeats belong to holdout, assignment to folds)")
		}
	case Holdout:
		if pr.Repeats == 0 {
			pr.Repeats = 10
		}
		if !(pr.Train > 0 && pr.Train < 1) {
			return fmt.Errorf("holdout training fraction %v must be strictly between 0 and 1 (e.g. 0.7)", pr.Train)
		}
		if pr.Repeats < 1 || pr.Repeats > 10000 {
			return fmt.Errorf("holdout repeats = %d: use 1 to 10000", pr.Repeats)
		}
		if pr.Folds != 0 || pr.Assignment != nil {
			return errors.New("holdout takes only train and repeats")
		}
	case Folds:
		if len(pr.Assignment) != sh.Samples {
			return fmt.Errorf("the fold assignment has %d entries for %d samples", len(pr.Assignment), sh.Samples)
		}
		distinct := map[int]bool{}
		for _, f := range pr.Assignment {
			distinct[f] = true
		}
		if len(distinct) < 2 {
			return errors.New("the fold assignment needs at least two distinct folds")
		}
		if pr.Folds != 0 || pr.Train != 0 || pr.Repeats != 0 {
			return errors.New("an explicit fold assignment takes no folds, train or repeats")
		}
	default:
		return fmt.Errorf("unknown protocol %q: use cv, holdout or folds", pr.Kind)
	}
	return nil
}

// splitGridParam splits "svm.C" into ("svm", "C"); a selector parameter has
// no classifier.
func splitGridParam(name string) (classifier, param string) {
	if c, p, ok := strings.Cut(name, "."); ok {
		return strings.ToLower(c), p
	}
	return "", name
}

func (p *Plan) normalizeTune() error {
	seen := map[string]bool{}
	for i := range p.Tune {
		g := &p.Tune[i]
		g.Param = strings.TrimSpace(g.Param)
		if g.Param == "" || len(g.Values) == 0 {
			return errors.New("a tuning grid needs a parameter and at least one value")
		}
		if seen[g.Param] {
			return fmt.Errorf("parameter %s is tuned twice", g.Param)
		}
		seen[g.Param] = true
		cls, par := splitGridParam(g.Param)
		if cls == "" {
			// Checked against the methods in expandMethods; numbers
			// written as text become numbers.
			for j, v := range g.Values {
				if _, ok := v.(string); ok {
					if f, err := param.Number(v); err == nil {
						g.Values[j] = f
					}
				}
			}
			continue
		}
		names, ok := classifierParams[cls]
		if !ok || !contains(names, par) {
			return fmt.Errorf("cannot tune %s: the classifier parameters are svm.C and knn.neighbors", g.Param)
		}
		used := false
		for _, c := range p.Classifiers {
			used = used || c.Name == cls
		}
		if !used {
			return fmt.Errorf("cannot tune %s: classifier %s is not evaluated", g.Param, cls)
		}
		for j, v := range g.Values {
			f, err := param.Number(v)
			if err != nil {
				return fmt.Errorf("tuning %s: %v", g.Param, err)
			}
			c := classify.Config{Name: cls}
			if par == "C" {
				c.C = f
			} else {
				if f != math.Trunc(f) || math.Abs(f) > 1e9 {
					return fmt.Errorf("tuning %s: %v is not a whole number", g.Param, f)
				}
				c.Neighbors = int(f)
			}
			if f == 0 {
				return fmt.Errorf("tuning %s: 0 is not allowed", g.Param)
			}
			if err := c.Normalize(); err != nil {
				return fmt.Errorf("tuning %s: %v", g.Param, err)
			}
			g.Values[j] = f
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// expandMethods resolves every method's parameters, expands sweeps into one
// variant per combination, and checks the tuning grids against them. The
// variants' parameters come out complete (defaults included), except the
// tuned ones and a K parameter, which the evaluation sets.
func (p *Plan) expandMethods() ([]Variant, error) {
	tunedBy := map[string]bool{} // selector grids that some method takes
	var out []Variant
	for _, v := range p.Methods {
		spec, err := selection.Lookup(v.Method)
		if err != nil {
			return nil, err
		}
		kp := kParamOf(spec)
		tuned := map[string]bool{}
		for _, g := range p.Tune {
			if cls, _ := splitGridParam(g.Param); cls == "" && HasParam(spec, g.Param) {
				tuned[g.Param] = true
				tunedBy[g.Param] = true
			}
		}
		names := make([]string, 0, len(v.Params))
		for name := range v.Params {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if kp != "" && strings.EqualFold(name, kp) {
				return nil, fmt.Errorf("%s: parameter %s is set by the evaluation to each K of the list; do not give it", spec.Name, name)
			}
			if tuned[name] {
				return nil, fmt.Errorf("%s: parameter %s is both given and tuned; give it one way", spec.Name, name)
			}
		}
		// The combinations of the swept (list-valued) parameters, the
		// first name varying slowest.
		combos := []map[string]any{{}}
		for _, name := range names {
			vals, isList := v.Params[name].([]any)
			if !isList {
				vals = []any{v.Params[name]}
			}
			if len(vals) == 0 {
				return nil, fmt.Errorf("%s: parameter %s has an empty list of values", spec.Name, name)
			}
			var next []map[string]any
			for _, c := range combos {
				for _, val := range vals {
					d := make(map[string]any, len(c)+1)
					for k, x := range c {
						d[k] = x
					}
					d[name] = val
					next = append(next, d)
				}
			}
			combos = next
		}
		for _, c := range combos {
			params, err := spec.Resolve(c)
			if err != nil {
				return nil, err
			}
			for _, g := range p.Tune {
				if !tuned[g.Param] {
					continue
				}
				for _, val := range g.Values {
					c[g.Param] = val
					if _, err := spec.Resolve(c); err != nil {
						return nil, fmt.Errorf("tuning: %v", err)
					}
				}
				delete(c, g.Param)
			}
			display := spec.Display(params)
			for name := range tuned {
				delete(display, name)
			}
			if kp != "" {
				delete(display, kp)
			}
			out = append(out, Variant{Method: spec.Name, Params: display})
		}
	}
	for _, g := range p.Tune {
		if cls, _ := splitGridParam(g.Param); cls == "" && !tunedBy[g.Param] {
			return nil, fmt.Errorf("cannot tune %s: none of the methods has that parameter (classifier parameters are named svm.C, knn.neighbors)", g.Param)
		}
	}
	return out, nil
}

// HasParam reports whether a method takes a parameter of that name (its
// loop parameters included).
func HasParam(spec *selection.Spec, name string) bool {
	for _, p := range spec.AllParams() {
		if p.Name == name {
			return true
		}
	}
	return false
}
