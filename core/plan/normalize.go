package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"sparsefs/api"
)

// Defaults and bounds of an evaluation plan.
const (
	// DefaultFolds is k of the default stratified k-fold cross-validation.
	DefaultFolds = 5
	// DefaultRepeats is the number of holdouts when none is given;
	// MaxRepeats bounds it.
	DefaultRepeats = 10
	MaxRepeats     = 10000
	// MaxWeightRows bounds Plan.WeightRows (a heat map, not a copy of W).
	MaxWeightRows = 1000
	// MaxSeed keeps seeds exactly representable in JavaScript.
	MaxSeed = 1 << 53
)

// classifierParams are the tunable parameters of each classifier.
var classifierParams = map[string][]string{api.SVM: {"C"}, api.KNN: {"neighbors"}}

// Normalize checks p against data of shape sh and the methods of a
// catalogue, and fills in every default; on success the plan is complete
// (normalising it again changes nothing). Values of K above the number of
// features are left out, and said so in the notes, when some K remains.
func Normalize(p *api.Plan, sh api.Shape, methods []api.MethodInfo) (notes []string, err error) {
	if sh.Samples < 2 || sh.Features < 1 {
		return nil, errors.New("the data need at least two samples and one feature")
	}
	if sh.Classes == 0 && sh.Targets == 0 {
		return nil, errors.New("the data have neither a class label nor regression targets")
	}
	if p.Seed >= MaxSeed {
		return nil, fmt.Errorf("seed %d is too large: use a whole number below 2^53", p.Seed)
	}
	if p.Preprocess, err = Preprocess(p.Preprocess); err != nil {
		return nil, err
	}
	if p.Bias == nil {
		t := true
		p.Bias = &t
	}
	if p.Coding, err = Coding(p.Coding); err != nil {
		return nil, err
	}
	for _, f := range p.Features {
		if f < 0 || f >= sh.Features {
			return nil, fmt.Errorf("feature %d is out of range: the features are numbered 0 to %d", f, sh.Features-1)
		}
	}
	if dup := firstDuplicate(p.Features); dup >= 0 {
		return nil, fmt.Errorf("feature %d is listed twice", dup)
	}
	if len(p.Methods) == 0 && len(p.Features) == 0 {
		return nil, fmt.Errorf("no methods to evaluate (and no fixed feature subset); the methods are %s", strings.Join(Names(methods), ", "))
	}
	if notes, err = normalizeK(p, sh); err != nil {
		return nil, err
	}
	if err := normalizeClassifiers(p, sh); err != nil {
		return nil, err
	}
	if err := NormalizeProtocol(&p.Protocol, sh); err != nil {
		return nil, err
	}
	if p.WeightRows < 0 || p.WeightRows > MaxWeightRows {
		return nil, fmt.Errorf("weight_rows = %d: use 0 (none) to %d", p.WeightRows, MaxWeightRows)
	}
	if err := CheckInnerFolds(p.InnerFolds); err != nil {
		return nil, err
	}
	if err := normalizeTune(p); err != nil {
		return nil, err
	}
	variants, err := expandMethods(p, methods)
	if err != nil {
		return nil, err
	}
	p.Methods = variants
	if err := checkVote(p, sh, methods); err != nil {
		return nil, err
	}
	return notes, nil
}

// Clone returns a deep copy of a plan (through JSON, which keeps every
// float64 exactly).
func Clone(p *api.Plan) (*api.Plan, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("the evaluation plan cannot be encoded: %w", err)
	}
	var out api.Plan
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return &out, nil
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

// DefaultK is the K list of a plan that gives none: 10, 20, …, 100 up to
// the number of features (every K below 10 features).
func DefaultK(features int) []int {
	var ks []int
	if features < 10 {
		for k := 1; k <= features; k++ {
			ks = append(ks, k)
		}
		return ks
	}
	for k := 10; k <= min(100, features); k += 10 {
		ks = append(ks, k)
	}
	return ks
}

func normalizeK(p *api.Plan, sh api.Shape) ([]string, error) {
	if len(p.K) == 0 {
		if len(p.Features) > 0 && len(p.Methods) == 0 {
			p.K = []int{len(p.Features)}
		} else {
			p.K = DefaultK(sh.Features)
		}
	}
	var kept, above []int
	for _, k := range p.K {
		switch {
		case k < 1:
			return nil, fmt.Errorf("k = %d is out of range: every K must be at least 1", k)
		case k > sh.Features:
			above = append(above, k)
		default:
			kept = append(kept, k)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("every K of the list (%s) exceeds the %d features of the data", Text(above), sh.Features)
	}
	sort.Ints(kept)
	out := kept[:0]
	for i, k := range kept {
		if i == 0 || k != kept[i-1] {
			out = append(out, k)
		}
	}
	p.K = out
	if len(above) == 0 {
		return nil, nil
	}
	sort.Ints(above)
	return []string{fmt.Sprintf("K = %s left out: the data have %d features", Text(above), sh.Features)}, nil
}

func normalizeClassifiers(p *api.Plan, sh api.Shape) error {
	if sh.Classes == 0 {
		if len(p.Classifiers) > 0 {
			return errors.New("the data have no class label, so no classifier can be evaluated (the targets are evaluated by least squares)")
		}
		p.Classifiers = []api.Classifier{}
		return nil
	}
	if len(p.Classifiers) == 0 {
		p.Classifiers = []api.Classifier{{Name: api.SVM}}
	}
	seen := map[string]bool{}
	for i := range p.Classifiers {
		if err := Classifier(&p.Classifiers[i]); err != nil {
			return err
		}
		name := ClassifierName(p.Classifiers[i])
		if seen[name] {
			return fmt.Errorf("classifier %s is listed twice", name)
		}
		seen[name] = true
	}
	return nil
}

// NormalizeProtocol checks a protocol against the data's shape and fills
// in its defaults.
func NormalizeProtocol(pr *api.Protocol, sh api.Shape) error {
	pr.Kind = strings.ToLower(strings.TrimSpace(pr.Kind))
	if pr.Kind == "" {
		pr.Kind = api.CV
	}
	switch pr.Kind {
	case api.CV:
		if pr.Folds == 0 {
			pr.Folds = DefaultFolds
		}
		if err := CheckFolds(pr.Folds); err != nil {
			return err
		}
		if pr.Folds > sh.Samples {
			return fmt.Errorf("%d-fold cross-validation is impossible with %d samples: use 2 to %d folds", pr.Folds, sh.Samples, sh.Samples)
		}
		if pr.Train != 0 || pr.Repeats != 0 || pr.Assignment != nil {
			return errors.New("cross-validation takes only folds (train and repeats belong to holdout, assignment to folds)")
		}
	case api.Holdout:
		if pr.Repeats == 0 {
			pr.Repeats = DefaultRepeats
		}
		if err := CheckTrain(pr.Train); err != nil {
			return err
		}
		if err := CheckRepeats(pr.Repeats); err != nil {
			return err
		}
		if pr.Folds != 0 || pr.Assignment != nil {
			return errors.New("holdout takes only train and repeats")
		}
	case api.Folds:
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

// Splits is the number of splits of a normalised protocol.
func Splits(pr api.Protocol) int {
	switch pr.Kind {
	case api.Holdout:
		return pr.Repeats
	case api.Folds:
		distinct := map[int]bool{}
		for _, f := range pr.Assignment {
			distinct[f] = true
		}
		return len(distinct)
	}
	return pr.Folds
}

// SplitGridParam splits a tuned parameter's name: "svm.C" into ("svm",
// "C"); a selector parameter ("gamma", or a wrapped method's "base.gamma")
// has no classifier.
func SplitGridParam(name string) (classifier, param string) {
	if c, p, ok := strings.Cut(name, "."); ok {
		if _, isClassifier := classifierParams[strings.ToLower(c)]; isClassifier {
			return strings.ToLower(c), p
		}
	}
	return "", name
}

// Tunable reports whether method m takes the selector parameter name: one
// of its own, or SLOT.NAME of a method it wraps (stabsel's base.gamma,
// consensus's m1.C), which Resolve checks against the wrapped method
// chosen.
func Tunable(m *api.MethodInfo, name string) bool {
	if m.Param(name) != nil {
		return true
	}
	slot, _, ok := strings.Cut(name, ".")
	return ok && contains(m.Wraps, slot)
}

func normalizeTune(p *api.Plan) error {
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
		cls, par := SplitGridParam(g.Param)
		if cls == "" {
			// Checked against the methods in expandMethods; numbers
			// written as text become numbers.
			for j, v := range g.Values {
				if _, ok := v.(string); ok {
					if f, err := api.Number(v); err == nil {
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
			f, err := api.Number(v)
			if err != nil {
				return fmt.Errorf("tuning %s: %v", g.Param, err)
			}
			c := api.Classifier{Name: cls}
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
			if err := Classifier(&c); err != nil {
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
func expandMethods(p *api.Plan, methods []api.MethodInfo) ([]api.Variant, error) {
	tunedBy := map[string]bool{} // selector grids that some method takes
	var out []api.Variant
	for _, v := range p.Methods {
		m, err := Lookup(methods, v.Method)
		if err != nil {
			return nil, err
		}
		tuned := map[string]bool{}
		for _, g := range p.Tune {
			if cls, _ := SplitGridParam(g.Param); cls == "" && Tunable(m, g.Param) {
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
			if m.SelectsK && strings.EqualFold(name, api.KParam) {
				return nil, fmt.Errorf("%s: leave k out — the evaluation sets it to each K of the list (%s selects exactly K features)", m.Name, m.Name)
			}
			if tuned[name] {
				return nil, fmt.Errorf("%s: parameter %s is both given and tuned; give it one way", m.Name, name)
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
				return nil, fmt.Errorf("%s: parameter %s has an empty list of values", m.Name, name)
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
			params, err := Resolve(methods, m, c)
			if err != nil {
				return nil, err
			}
			for _, g := range p.Tune {
				if !tuned[g.Param] {
					continue
				}
				for _, val := range g.Values {
					c[g.Param] = val
					if _, err := Resolve(methods, m, c); err != nil {
						return nil, fmt.Errorf("tuning: %v", err)
					}
				}
				delete(c, g.Param)
			}
			display := Display(methods, m, params)
			for name := range tuned {
				delete(display, name)
			}
			if m.SelectsK {
				delete(display, api.KParam)
			}
			out = append(out, api.Variant{Method: m.Name, Params: display})
		}
	}
	for _, g := range p.Tune {
		if cls, _ := SplitGridParam(g.Param); cls == "" && !tunedBy[g.Param] {
			return nil, fmt.Errorf("cannot tune %s: none of the methods has that parameter (classifier parameters are named svm.C, knn.neighbors)", g.Param)
		}
	}
	return out, nil
}

// Units is the number of units of a normalised plan: its variants (one per
// method setting, and the fixed subset) times its splits.
func Units(p *api.Plan) int {
	v := len(p.Methods)
	if len(p.Features) > 0 {
		v++
	}
	return v * Splits(p.Protocol)
}
