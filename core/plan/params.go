package plan

import (
	"fmt"
	"sort"
	"strings"

	"sparsefs/api"
)

// Lookup returns the method of a catalogue by name (case-insensitive).
func Lookup(methods []api.MethodInfo, name string) (*api.MethodInfo, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for i := range methods {
		if methods[i].Name == key {
			return &methods[i], nil
		}
	}
	return nil, fmt.Errorf("unknown method %q; the methods are %s", name, strings.Join(Names(methods), ", "))
}

// Names returns the names of a catalogue's methods, sorted.
func Names(methods []api.MethodInfo) []string {
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = m.Name
	}
	sort.Strings(names)
	return names
}

// Resolve returns a method's full parameter set: the user's values, read
// and checked (api.Param.Parse and Check), and the defaults for the rest.
// A value may be a float64, an int or text (a number, or a choice's
// name); a categorical parameter's value is the index of its choice. An
// unknown name is an error that lists the known ones.
func Resolve(m *api.MethodInfo, user map[string]any) (map[string]float64, error) {
	known := map[string]*api.Param{}
	out := map[string]float64{}
	for i := range m.Params {
		known[m.Params[i].Name] = &m.Params[i]
		out[m.Params[i].Name] = m.Params[i].Default
	}
	names := make([]string, 0, len(user))
	for name := range user {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p, ok := known[name]
		if !ok {
			if len(m.Params) == 0 {
				return nil, fmt.Errorf("%s takes no parameters (got %q)", m.Name, name)
			}
			list := make([]string, len(m.Params))
			for i := range m.Params {
				list[i] = m.Params[i].Name
			}
			return nil, fmt.Errorf("%s has no parameter %q; its parameters are %s", m.Name, name, strings.Join(list, ", "))
		}
		v, err := p.Parse(m.Name, user[name])
		if err != nil {
			return nil, err
		}
		if err := p.Check(m.Name, v); err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

// Display returns a resolved parameter set as people and JSON see it:
// numbers, and categorical parameters by the name of their choice.
func Display(m *api.MethodInfo, values map[string]float64) map[string]any {
	out := make(map[string]any, len(values))
	for _, p := range m.Params {
		v, ok := values[p.Name]
		if !ok {
			continue
		}
		if len(p.Choices) > 0 && v >= 0 && int(v) < len(p.Choices) {
			out[p.Name] = p.Choices[int(v)]
		} else {
			out[p.Name] = v
		}
	}
	return out
}

// DefaultValue is a parameter's default as a normalised plan writes it (a
// choice by its name).
func DefaultValue(p *api.Param) any {
	if len(p.Choices) > 0 && p.Default >= 0 && int(p.Default) < len(p.Choices) {
		return p.Choices[int(p.Default)]
	}
	return p.Default
}
