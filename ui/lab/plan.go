package lab

import (
	"errors"
	"fmt"
	"strings"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// Unit is one job of a ranking ("Rank on all the data", docs/ui.md): a
// selector with one combination of parameter values, fitted to the whole
// data.
type Unit struct {
	// Label says what the unit is: the method and the parameter values
	// set in the configuration ("rfs · gamma 0.1").
	Label   string      `json:"label"`
	Method  string      `json:"method"`
	Request api.Request `json:"request"`
}

// MaxUnits bounds the jobs one run may expand into.
const MaxUnits = 1000

// WeightRows is how many rows of |W| a heat map shows at most.
const WeightRows = 50

// Expand turns a configuration into the run's jobs: for each chosen method,
// one job per combination of the values listed in its parameter fields
// (the Cartesian product, in the parameters' order). data says how to read
// the data; nFeatures bounds TopK.
func Expand(cfg *Config, methods []api.MethodInfo, data api.Data, nFeatures int) ([]Unit, error) {
	if len(cfg.Methods) == 0 {
		return nil, errors.New("choose at least one selector")
	}
	byName := map[string]*api.MethodInfo{}
	for i := range methods {
		byName[methods[i].Name] = &methods[i]
	}
	k := cfg.TopK
	if k < 1 {
		return nil, fmt.Errorf("the number of top features must be at least 1, not %d", k)
	}
	if nFeatures > 0 {
		k = min(k, nFeatures)
	}
	data = cfg.Data(data.Name)
	bias := cfg.Bias
	var units []Unit
	for _, mc := range cfg.Methods {
		info := byName[mc.Name]
		if info == nil {
			return nil, fmt.Errorf("the method %q is not available in this version of sparsefs", mc.Name)
		}
		known := map[string]bool{}
		for _, p := range info.Params {
			known[p.Name] = true
		}
		for name, text := range mc.Values {
			if !known[name] && strings.TrimSpace(text) != "" {
				return nil, fmt.Errorf("%s has no parameter %q", mc.Name, name)
			}
		}
		// The grid: the parameters whose field holds something.
		type axis struct {
			name   string
			values []any
		}
		var grid []axis
		for _, p := range info.Params {
			text := strings.TrimSpace(mc.Values[p.Name])
			if text == "" {
				continue
			}
			vals, err := ParseValues(mc.Name, p, text)
			if err != nil {
				return nil, err
			}
			grid = append(grid, axis{p.Name, vals})
		}
		count := 1
		for _, a := range grid {
			count *= len(a.values)
			if count+len(units) > MaxUnits {
				return nil, fmt.Errorf("this configuration makes more than %d jobs; list fewer parameter values", MaxUnits)
			}
		}
		idx := make([]int, len(grid))
		for n := 0; n < count; n++ {
			params := map[string]any{}
			var parts []string
			for g, a := range grid {
				v := a.values[idx[g]]
				params[a.name] = v
				parts = append(parts, a.name+" "+plan.ValueText(v))
			}
			label := mc.Name
			if len(parts) > 0 {
				label += " · " + strings.Join(parts, ", ")
			}
			req := api.Request{Op: api.OpSelect, Data: data, Method: mc.Name, Preprocess: cfg.Preprocess, Bias: &bias, K: k}
			if len(params) > 0 {
				req.Params = params
			}
			if _, given := params["k"]; given && info.SelectsK {
				// A method that selects exactly k features (l20, topk)
				// takes the request's K as its k; a k the user listed
				// wins over the page's top-K setting.
				req.K = 0
			}
			if info.Kind == api.Embedded {
				req.WeightRows = min(k, WeightRows)
			}
			units = append(units, Unit{Label: label, Method: mc.Name, Request: req})
			// Next combination: the last parameter varies fastest.
			for g := len(idx) - 1; g >= 0; g-- {
				idx[g]++
				if idx[g] < len(grid[g].values) {
					break
				}
				idx[g] = 0
			}
		}
	}
	return units, nil
}
