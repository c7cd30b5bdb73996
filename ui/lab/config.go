// Package lab is the page's logic, in plain Go and tested natively: what the
// user configured (selectors, a grid of parameter values for each, presets
// from the papers), the jobs a run expands into, what the results add up to
// (frequencies, overlaps, the charts' data) and the files the page exports
// (the ranking as CSV, the full report as JSON, which loads back).
package lab

import (
	"fmt"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// Config is everything the user chose for a run.
type Config struct {
	// Mode is ModeEval (the default) or ModeRank.
	Mode string `json:"mode,omitempty"`
	// Methods are the chosen selectors, in the order chosen.
	Methods []MethodConfig `json:"methods"`
	// Preprocess is zscore, minmax or none; Bias appends a constant-1
	// column for the embedded models.
	Preprocess string `json:"preprocess"`
	Bias       bool   `json:"bias"`
	// Label, Sheet, Missing, ID, Ignore and Transpose say how to read the
	// data (the label column, a workbook's worksheet, what to do with
	// missing cells — api.Missing* —, the sample-ID column, the columns
	// left out, features in rows).
	Label     string   `json:"label,omitempty"`
	Sheet     string   `json:"sheet,omitempty"`
	Missing   string   `json:"missing,omitempty"`
	ID        string   `json:"id,omitempty"`
	Ignore    []string `json:"ignore,omitempty"`
	Transpose string   `json:"transpose,omitempty"`
	// Targets name real-valued target columns (regression data: the
	// evaluation measures the RMSE of least squares).
	Targets []string `json:"targets,omitempty"`
	// TopK is how many top features the frequency, the overlap, the
	// charts and the reduced data of a ranking (ModeRank) use.
	TopK int `json:"top_k"`
	// Protocol is the evaluation's (ModeEval).
	Protocol Protocol `json:"protocol"`
	// Preset names the preset the configuration came from, if any.
	Preset string `json:"preset,omitempty"`
}

// Data says how to read the data file called name with the
// configuration's settings: the label column, the sheet, missing values,
// targets, sample IDs, columns left out, features in rows.
func (c *Config) Data(name string) api.Data {
	return api.Data{Name: name, Label: c.Label, Sheet: c.Sheet, Missing: c.Missing, Targets: c.Targets,
		ID: c.ID, Ignore: c.Ignore, Transpose: c.Transpose}
}

// MethodConfig is one chosen selector and the text of its parameter
// fields: a value, or a list of values (a grid: one job per combination).
type MethodConfig struct {
	Name   string            `json:"name"`
	Values map[string]string `json:"params,omitempty"`
}

// Protocol describes an evaluation as the papers run it.
type Protocol struct {
	// Scheme is "cv" (stratified k-fold) or "holdout" (repeated
	// stratified splits).
	Scheme  string  `json:"scheme,omitempty"`
	Folds   int     `json:"folds,omitempty"`
	Train   float64 `json:"train,omitempty"`
	Repeats int     `json:"repeats,omitempty"`
	// K is the list of feature counts, as text ("1:80", "10,20,50").
	K string `json:"k,omitempty"`
	// Classifiers are "svm" (with cost C) and "knn" (with Neighbors),
	// and their per-class votes "svm-vote" and "knn-vote"
	// (plan.ClassifierNames).
	Classifiers []string `json:"classifiers,omitempty"`
	C           float64  `json:"c,omitempty"`
	Neighbors   int      `json:"neighbors,omitempty"`
	// Tune lists grids chosen by inner cross-validation, as text
	// ("svm.C=0.1,1,10; gamma=0.1,1"); Inner is the number of inner folds
	// (0: automatic).
	Tune  string `json:"tune,omitempty"`
	Inner int    `json:"inner,omitempty"`
	Seed  int64  `json:"seed,omitempty"`
}

// DefaultConfig is the page's starting point.
func DefaultConfig() Config {
	return Config{Mode: ModeEval, Preprocess: "zscore", Bias: true, TopK: 20,
		Protocol: Protocol{Scheme: "cv", Folds: 5, K: "5:50:5", Classifiers: []string{"svm"}, C: 1, Neighbors: 1, Seed: 1}}
}

// Has reports whether method name is chosen.
func (c *Config) Has(name string) bool { return c.index(name) >= 0 }

func (c *Config) index(name string) int {
	for i, m := range c.Methods {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// Toggle adds or removes a method.
func (c *Config) Toggle(name string, on bool) {
	i := c.index(name)
	switch {
	case on && i < 0:
		c.Methods = append(c.Methods, MethodConfig{Name: name})
	case !on && i >= 0:
		c.Methods = append(c.Methods[:i], c.Methods[i+1:]...)
	}
}

// SetValue records the text of a parameter field.
func (c *Config) SetValue(method, param, text string) {
	i := c.index(method)
	if i < 0 {
		return
	}
	if c.Methods[i].Values == nil {
		c.Methods[i].Values = map[string]string{}
	}
	c.Methods[i].Values[param] = text
}

// Value returns the text of a parameter field ("" when untouched).
func (c *Config) Value(method, param string) (string, bool) {
	if i := c.index(method); i >= 0 {
		v, ok := c.Methods[i].Values[param]
		return v, ok
	}
	return "", false
}

// DefaultText writes a parameter's default as its field shows it.
func DefaultText(p api.Param) string {
	if len(p.Choices) > 0 {
		if i := int(p.Default); i >= 0 && i < len(p.Choices) {
			return p.Choices[i]
		}
	}
	return strconv.FormatFloat(p.Default, 'g', -1, 64)
}

// ParseValues reads the values of one parameter's field: numbers checked
// against the parameter's range, or choices by name. An empty field means
// the default.
func ParseValues(method string, p api.Param, text string) ([]any, error) {
	tokens, err := plan.Values(text)
	if err != nil {
		return nil, fmt.Errorf("%s: parameter %s: %v", method, p.Name, err)
	}
	if len(tokens) == 0 {
		if len(p.Choices) > 0 {
			return []any{DefaultText(p)}, nil
		}
		return []any{p.Default}, nil
	}
	var out []any
	seen := map[string]bool{}
	for _, tok := range tokens {
		v, err := parseValue(method, p, tok)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(v)
		if !seen[key] {
			seen[key] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// parseValue reads and checks one value as the worker will (package
// param): a number in the parameter's range, or a choice, returned by its
// name.
func parseValue(method string, p api.Param, tok any) (any, error) {
	v, err := p.Parse(method, tok)
	if err == nil {
		err = p.Check(method, v)
	}
	switch {
	case err != nil:
		return nil, err
	case len(p.Choices) > 0:
		return p.Choices[int(v)], nil
	}
	return v, nil
}

// Chosen returns the choices of a categorical parameter that its field's
// text lists (the default when the text lists none or cannot be read).
func Chosen(p api.Param, text string) map[string]bool {
	out := map[string]bool{}
	vals, err := ParseValues("", p, text)
	if err != nil {
		vals = []any{DefaultText(p)}
	}
	for _, v := range vals {
		out[fmt.Sprint(v)] = true
	}
	return out
}

// ToggleChoice adds a choice to a categorical parameter's list, or removes
// it, and returns the new text (choices in their declared order; empty,
// meaning the default, when none is left).
func ToggleChoice(p api.Param, text, choice string, on bool) string {
	set := Chosen(p, text)
	set[choice] = on
	var parts []string
	for _, c := range p.Choices {
		if set[c] {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, ", ")
}
