package selection

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// Kind separates filters (a score per feature, no model) from embedded
// methods (a sparse weight matrix fitted by an iterative solver).
type Kind = api.Kind

const (
	Filter   = api.Filter
	Embedded = api.Embedded
	Ensemble = api.Ensemble
)

// Param describes one parameter of a method (its range, choices and
// documentation, and how values are read and checked).
type Param = api.Param

// Params maps parameter names to values (a categorical parameter's value is
// the index of its choice).
type Params map[string]float64

// Spec describes a selection method.
type Spec struct {
	// Name is the identifier used by the CLI, the worker and the UI.
	Name string
	// Title is a short human name; Doc one line on what it does; Paper
	// the source it follows.
	Title string
	Doc   string
	Paper string
	Kind  Kind
	// Params are the method's own parameters. Embedded methods also take
	// the loop parameters max_iter and tol (see LoopParams).
	Params []Param
	// SelectsK marks a method that selects exactly K features: its
	// integer parameter KParam is the K a request or an evaluation asks
	// for (other methods may use the name k for something else, as
	// ReliefF's neighbours).
	SelectsK bool
	// KDepth marks a method whose integer parameter KParam, when 0,
	// means "all": a smaller value bounds its work to what the top k
	// features need (mRMR's greedy search).
	KDepth bool
	// PValues marks a method whose Result holds a p-value per feature
	// when Settings.PValues asks (docs/methods.md#pvalues).
	PValues bool
	// Wraps names the method's categorical parameters whose choices are
	// other methods (api.MethodInfo.Wraps); Params.Sub gives the chosen
	// method's parameters.
	Wraps []string
	// New builds the selector from a complete, checked set of parameters.
	New func(p Params) (Selector, error)
}

// KParam is the name of the parameter of a method that selects a given
// number K of features (Spec.SelectsK: l20, topk). The job layer fills it
// from the request's k; the evaluation refits such a method for every K.
const KParam = api.KParam

// LoopParams are the parameters every embedded method takes for the shared
// iteration loop.
var LoopParams = []Param{
	{Name: "max_iter", Default: DefaultMaxIterations, Min: 1, Max: 1e7, Integer: true, Doc: "iteration limit"},
	{Name: "tol", Default: DefaultTolerance, Min: 0, Max: 1, MinOpen: true, Doc: "stop when the relative change of the objective is at most this"},
}

// AllParams returns the method's parameters followed by the loop parameters
// when the method is embedded. A method may declare a loop parameter itself
// (to give it another default or meaning, documented in its Doc); its own
// declaration then replaces the shared one.
func (s *Spec) AllParams() []Param {
	ps := append([]Param(nil), s.Params...)
	if s.Kind == Embedded {
		for _, lp := range LoopParams {
			if !s.Declares(lp.Name) {
				ps = append(ps, lp)
			}
		}
	}
	return ps
}

// Declares reports whether the method declares a parameter of this name
// among its own Params.
func (s *Spec) Declares(name string) bool { return s.param(name) != nil }

func (s *Spec) param(name string) *Param {
	for i := range s.Params {
		if s.Params[i].Name == name {
			return &s.Params[i]
		}
	}
	return nil
}

// Info describes the method in the job format: its names, documentation
// and every parameter it takes (AllParams).
func (s *Spec) Info() api.MethodInfo {
	ps := s.AllParams()
	if ps == nil {
		ps = []Param{}
	}
	return api.MethodInfo{Name: s.Name, Title: s.Title, Doc: s.Doc, Paper: s.Paper, Kind: s.Kind, Params: ps, SelectsK: s.SelectsK, KDepth: s.KDepth, PValues: s.PValues, Wraps: s.Wraps}
}

// Resolve returns the full parameter set: the user's values, checked, and
// the defaults for the rest (plan.Resolve).
func (s *Spec) Resolve(user map[string]any) (Params, error) {
	info := s.Info()
	return plan.Resolve(Catalog(), &info, user)
}

// Display returns a resolved parameter set as people and JSON see it:
// numbers, and categorical parameters by the name of their choice.
func (s *Spec) Display(p Params) map[string]any {
	info := s.Info()
	return plan.Display(Catalog(), &info, p)
}

// Sub returns the parameters of the method chosen in a slot of a method
// that wraps others (those named "SLOT.NAME", without the prefix).
func (p Params) Sub(slot string) Params {
	out := Params{}
	for name, v := range p {
		if rest, ok := strings.CutPrefix(name, slot+"."); ok {
			out[rest] = v
		}
	}
	return out
}

// Settings returns the loop settings held in a resolved parameter set.
func (p Params) Settings() Settings {
	return Settings{MaxIterations: int(p["max_iter"]), Tolerance: p["tol"]}
}

var (
	registry = map[string]*Spec{}
	// ensembles build the Specs of the methods made of other methods,
	// registered once every other method is (their choices list them).
	ensembles    []func() *Spec
	ensemblesSet sync.Once
)

// complete registers the ensemble methods, once, at the registry's first
// use (after every package-level init has registered its method).
func complete() {
	ensemblesSet.Do(func() {
		for _, build := range ensembles {
			Register(build())
		}
	})
}

// registerEnsemble adds a method made of other methods, built when the
// registry is first used.
func registerEnsemble(build func() *Spec) { ensembles = append(ensembles, build) }

// memberNames returns the names of the registered methods that are not
// ensembles, sorted: the methods an ensemble can be made of.
func memberNames() []string {
	var names []string
	for n, s := range registry {
		if s.Kind != Ensemble {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Register adds a method to the registry. It panics on a duplicate name or
// an incomplete Spec (a programming mistake).
func Register(s *Spec) {
	if s.Name == "" || s.New == nil || (s.Kind != Filter && s.Kind != Embedded && s.Kind != Ensemble) {
		panic("selection: incomplete Spec " + s.Name)
	}
	if s.SelectsK {
		if p := s.param(KParam); p == nil || !p.Integer || len(p.Choices) > 0 {
			panic("selection: " + s.Name + " selects K but has no integer parameter " + KParam)
		}
	}
	if _, dup := registry[s.Name]; dup {
		panic("selection: duplicate method " + s.Name)
	}
	for i := range s.Params {
		if err := s.Params[i].Check(s.Name, s.Params[i].Default); err != nil {
			panic("selection: default outside range: " + err.Error())
		}
	}
	registry[s.Name] = s
}

// Lookup returns the Spec of a method by name (case-insensitive).
func Lookup(name string) (*Spec, error) {
	complete()
	if s, ok := registry[strings.ToLower(strings.TrimSpace(name))]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("unknown method %q; the methods are %s", name, strings.Join(Names(), ", "))
}

// Names returns the registered method names, sorted.
func Names() []string {
	complete()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PValueMethods names the methods that give p-values, as a list for
// people.
func PValueMethods() string {
	var names []string
	for _, s := range Specs() {
		if s.PValues {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
}

// Catalog describes the registered methods in the job format, sorted by
// name: what plan.Normalize checks plans against, and what the worker
// sends the page (api.OpMethods).
func Catalog() []api.MethodInfo {
	specs := Specs()
	out := make([]api.MethodInfo, len(specs))
	for i, s := range specs {
		out[i] = s.Info()
	}
	return out
}

// Specs returns the registered methods sorted by name.
func Specs() []*Spec {
	specs := make([]*Spec, 0, len(registry))
	for _, n := range Names() {
		specs = append(specs, registry[n])
	}
	return specs
}
