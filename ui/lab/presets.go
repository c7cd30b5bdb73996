package lab

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// presetsJSON lists the papers' experiments (presets.json; the methods and
// parameter names are docs/methods.md's, the protocols each paper's own).
//
//go:embed presets.json
var presetsJSON []byte

// Preset is a configuration that reproduces a paper's experiment.
type Preset struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Paper string `json:"paper"`
	Note  string `json:"note"`
	// Datasets are the paper's datasets found in the shared benchmark
	// collection (the user opens one; nothing is bundled).
	Datasets []string       `json:"datasets"`
	Methods  []PresetMethod `json:"methods"`
	Protocol Protocol       `json:"protocol"`
}

// PresetMethod is a method of a preset with the text of its parameter
// fields.
type PresetMethod struct {
	Name   string            `json:"name"`
	Params map[string]string `json:"params,omitempty"`
}

var (
	presetsOnce sync.Once
	presets     []Preset
	presetsErr  error
)

// Presets returns the bundled presets.
func Presets() ([]Preset, error) {
	presetsOnce.Do(func() {
		var doc struct {
			Presets []Preset `json:"presets"`
		}
		presetsErr = json.Unmarshal(presetsJSON, &doc)
		presets = doc.Presets
	})
	return presets, presetsErr
}

// FindPreset returns the preset with an id, or nil.
func FindPreset(id string) *Preset {
	ps, _ := Presets()
	for i := range ps {
		if ps[i].ID == id {
			return &ps[i]
		}
	}
	return nil
}

// Apply replaces the chosen methods and the protocol of cfg with the
// preset's. Methods this version does not have are left out, and so are
// parameters a method does not take; the notes say which.
func (p *Preset) Apply(cfg *Config, methods []api.MethodInfo) (notes []string) {
	byName := map[string]*api.MethodInfo{}
	for i := range methods {
		byName[methods[i].Name] = &methods[i]
	}
	cfg.Methods = nil
	var missing []string
	for _, pm := range p.Methods {
		info := byName[pm.Name]
		if info == nil {
			missing = append(missing, pm.Name)
			continue
		}
		mc := MethodConfig{Name: pm.Name, Values: map[string]string{}}
		var unknown []string
		for name, text := range pm.Params {
			if info.Param(name) != nil {
				mc.Values[name] = text
			} else {
				unknown = append(unknown, name)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			notes = append(notes, fmt.Sprintf("%s takes no parameter %s here; its default is used.", pm.Name, strings.Join(unknown, ", ")))
		}
		cfg.Methods = append(cfg.Methods, mc)
	}
	if len(missing) > 0 {
		notes = append([]string{fmt.Sprintf("Not in this version yet, left out: %s.", strings.Join(missing, ", "))}, notes...)
	}
	cfg.Protocol = p.Protocol
	cfg.Preset = p.ID
	if ks, err := plan.Ints(p.Protocol.K); err == nil && len(ks) > 0 {
		cfg.TopK = min(ks[len(ks)-1], 100)
	}
	return notes
}

// ProtocolText describes an evaluation protocol in a line.
func ProtocolText(pr Protocol) string {
	var parts []string
	switch pr.Scheme {
	case "cv":
		s := fmt.Sprintf("%d-fold cross-validation", pr.Folds)
		if pr.Repeats > 1 {
			s += fmt.Sprintf(" × %d", pr.Repeats)
		}
		parts = append(parts, s)
	case "holdout":
		parts = append(parts, fmt.Sprintf("%d random %.0f/%.0f splits", pr.Repeats, 100*pr.Train, 100*(1-pr.Train)))
	}
	if len(pr.Classifiers) > 0 {
		c := strings.Join(pr.Classifiers, " and ")
		if pr.C > 0 && !strings.Contains(pr.Tune, "svm.C") && strings.Contains(c, "svm") {
			c += fmt.Sprintf(" (C = %g)", pr.C)
		}
		parts = append(parts, c)
	}
	if pr.K != "" {
		parts = append(parts, "K = "+pr.K)
	}
	if pr.Tune != "" {
		parts = append(parts, "tuned: "+pr.Tune)
	}
	return strings.Join(parts, " · ")
}

// EvalPlan is the evaluation plan the preset gives on data of shape sh:
// the plan the page builds once the preset is applied to a fresh
// configuration (`sparsefs eval -preset` runs it), with the protocol's
// seed replaced by seed when seed is not nil; notes say what checking it
// against the data left out (values of K above the number of features).
func (p *Preset) EvalPlan(methods []api.MethodInfo, sh api.Shape, seed *int64) (plan *api.Plan, notes []string, err error) {
	cfg := DefaultConfig()
	cfg.Mode = ModeEval
	if left := p.Apply(&cfg, methods); len(left) > 0 {
		return nil, nil, fmt.Errorf("preset %s: %s", p.ID, strings.Join(left, " "))
	}
	if seed != nil {
		cfg.Protocol.Seed = *seed
	}
	req, size, err := EvalRequest(&cfg, methods, api.Data{}, sh)
	if err != nil {
		return nil, nil, fmt.Errorf("preset %s: %w", p.ID, err)
	}
	return req.Eval, size.Notes, nil
}
