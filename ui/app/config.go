package app

import (
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/ui/lab"
)

// Config is the configuration section's state: the methods the workers
// listed, what the user chose (lab.Config), the evaluation's form
// (Protocol), the preset chosen, the ranking's K and the number of
// workers.
type Config struct {
	a *App

	methods []api.MethodInfo
	cfg     lab.Config
	// Protocol is the evaluation's form (lab.Config.Protocol as typed).
	Protocol    ProtocolForm
	topKText    string
	preset      string   // the preset chosen in the list
	presetNotes []string // what applying it left out
	workText    string   // the text of the workers field
	cores       int      // the browser's default number of workers
	// paramsOpen are the methods whose parameter forms the user opened
	// (true) or closed (false); lastTicked is the method ticked last.
	paramsOpen map[string]bool
	lastTicked string
}

func newConfig(a *App) *Config {
	c := &Config{a: a, cfg: lab.DefaultConfig()}
	c.cfg.Toggle("fisher", true)
	c.topKText = strconv.Itoa(c.cfg.TopK)
	c.Protocol = ProtocolFormOf(c.cfg.Protocol)
	return c
}

// setWorkers records the pool's first size.
func (c *Config) setWorkers(n int) {
	c.cores = n
	c.workText = strconv.Itoa(n)
}

// restore replaces the configuration (a report loaded back).
func (c *Config) restore(cfg lab.Config) {
	c.cfg = cfg
	c.Protocol = ProtocolFormOf(cfg.Protocol)
	c.topKText = strconv.Itoa(cfg.TopK)
}

// Current is the configuration as chosen (the protocol as last read from
// the form by a run, a preset or a report).
func (c *Config) Current() lab.Config { return c.cfg }

// Methods are the methods the workers listed (none until they have).
func (c *Config) Methods() []api.MethodInfo { return c.methods }

// MethodsOf returns the registry's methods of a kind.
func (c *Config) MethodsOf(kind string) []api.MethodInfo {
	var out []api.MethodInfo
	for _, m := range c.methods {
		if m.Kind == kind {
			out = append(out, m)
		}
	}
	return out
}

// Chosen returns the chosen methods' descriptions, in the order chosen.
func (c *Config) Chosen() []api.MethodInfo {
	var out []api.MethodInfo
	for _, mc := range c.cfg.Methods {
		for _, m := range c.methods {
			if m.Name == mc.Name {
				out = append(out, m)
			}
		}
	}
	return out
}

// Has reports whether a method is chosen.
func (c *Config) Has(method string) bool { return c.cfg.Has(method) }

// ToggleMethod chooses or drops a method.
func (c *Config) ToggleMethod(method string, on bool) {
	c.cfg.Toggle(method, on)
	if on {
		c.lastTicked = method
	}
	c.cfg.Preset = ""
	c.a.Data.warm()
}

// ParamsOpen reports whether a method's parameter form is open: when the
// user opened it, or else when the method was the last ticked or has a
// value typed. Closed forms keep the page short (and its renders quick)
// with many methods chosen.
func (c *Config) ParamsOpen(method string) bool {
	if open, ok := c.paramsOpen[method]; ok {
		return open
	}
	if method == c.lastTicked {
		return true
	}
	for _, m := range c.cfg.Methods {
		if m.Name == method {
			for _, v := range m.Values {
				if strings.TrimSpace(v) != "" {
					return true
				}
			}
		}
	}
	return false
}

// ToggleParams opens or closes a method's parameter form.
func (c *Config) ToggleParams(method string) {
	if c.paramsOpen == nil {
		c.paramsOpen = map[string]bool{}
	}
	c.paramsOpen[method] = !c.ParamsOpen(method)
}

// Recommend chooses the recommended start (lab.Recommended) instead of
// the methods chosen.
func (c *Config) Recommend() {
	for _, m := range append([]lab.MethodConfig(nil), c.cfg.Methods...) {
		c.cfg.Toggle(m.Name, false)
	}
	for _, name := range lab.Recommended {
		c.cfg.Toggle(name, true)
	}
	c.cfg.Preset = ""
	c.a.Data.warm()
}

// ParamText is the text of a parameter's field.
func (c *Config) ParamText(method, param string) string {
	v, _ := c.cfg.Value(method, param)
	return v
}

// SetParam records the text of a parameter's field.
func (c *Config) SetParam(method, param, text string) { c.cfg.SetValue(method, param, text) }

// ToggleChoice ticks or unticks a choice of a categorical parameter.
func (c *Config) ToggleChoice(method string, p api.Param, choice string, on bool) {
	c.cfg.SetValue(method, p.Name, lab.ToggleChoice(p, c.ParamText(method, p.Name), choice, on))
}

// ParamHidden hides the parameter k of a method that selects exactly K
// features when evaluating: the evaluation sets it to each K of the list.
func (c *Config) ParamHidden(m api.MethodInfo, p api.Param) bool {
	return c.EvalMode() && m.SelectsK && p.Name == "k"
}

// Presets are the papers' experiments the configuration can reproduce.
func (c *Config) Presets() []lab.Preset {
	ps, _ := lab.Presets()
	return ps
}

// PresetChoice is the ID of the preset chosen in the list ("" for none).
func (c *Config) PresetChoice() string { return c.preset }

// ChoosePreset chooses a preset in the list (by ID).
func (c *Config) ChoosePreset(id string) { c.preset = id }

// CanApplyPreset reports whether the preset chosen can be applied now.
func (c *Config) CanApplyPreset() bool {
	return c.preset != "" && len(c.methods) > 0 && !c.a.Running()
}

// ApplyPreset fills the configuration from the chosen preset.
func (c *Config) ApplyPreset() {
	p := lab.FindPreset(c.preset)
	if p == nil {
		return
	}
	c.presetNotes = p.Apply(&c.cfg, c.methods)
	c.cfg.Mode = lab.ModeEval
	c.topKText = strconv.Itoa(c.cfg.TopK)
	c.Protocol = ProtocolFormOf(c.cfg.Protocol)
	c.a.Data.warm()
}

// PresetInfo is the preset the configuration came from (nil: none).
func (c *Config) PresetInfo() *lab.Preset {
	if c.cfg.Preset != "" {
		return lab.FindPreset(c.cfg.Preset)
	}
	return nil
}

// PresetNotes say what applying the preset left out.
func (c *Config) PresetNotes() []string { return c.presetNotes }

// Preprocess is the preprocessing (zscore, minmax or none).
func (c *Config) Preprocess() string { return c.cfg.Preprocess }

// SetPreprocess changes the preprocessing.
func (c *Config) SetPreprocess(p string) {
	c.cfg.Preprocess = p
	c.a.Data.warm()
}

// Bias reports whether the embedded models get a bias column.
func (c *Config) Bias() bool { return c.cfg.Bias }

// SetBias adds the bias column, or not.
func (c *Config) SetBias(on bool) { c.cfg.Bias = on }

// SetSVM and SetKNN tick or untick a classifier of the evaluation, and
// SetVote their per-class votes.
func (c *Config) SetSVM(on bool) {
	c.Protocol.SVM = on
	c.a.Data.warm()
}

func (c *Config) SetKNN(on bool) {
	c.Protocol.KNN = on
	c.a.Data.warm()
}

func (c *Config) SetVote(on bool) {
	c.Protocol.Vote = on
	c.a.Data.warm()
}

// EvalMode reports whether Run evaluates (rather than ranks on all the
// data).
func (c *Config) EvalMode() bool { return c.cfg.Mode != lab.ModeRank }

// SetMode chooses lab.ModeEval or lab.ModeRank.
func (c *Config) SetMode(mode string) { c.cfg.Mode = mode }

// TopKText is the text of the ranking's K field.
func (c *Config) TopKText() string { return c.topKText }

// SetTopK records the number of top features of a ranking (the field's
// text; the number is taken when it is a whole number of at least 1).
func (c *Config) SetTopK(text string) {
	c.topKText = text
	if k, err := strconv.Atoi(strings.TrimSpace(text)); err == nil && k > 0 {
		c.cfg.TopK = k
	}
}

// WorkersText is the text of the workers field.
func (c *Config) WorkersText() string { return c.workText }

// SetWorkers resizes the pool (from 1 to 2·MaxWorkers workers; other text
// is kept in the field but changes nothing).
func (c *Config) SetWorkers(text string) {
	c.workText = text
	if n, err := strconv.Atoi(strings.TrimSpace(text)); err == nil && n >= 1 && n <= 2*MaxWorkers {
		c.a.pool.Resize(n)
	}
}

// Cores is the number of workers the browser suggests (its
// hardwareConcurrency, at most MaxWorkers).
func (c *Config) Cores() int { return c.cores }
