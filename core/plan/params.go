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
//
// A method that wraps others (api.MethodInfo.Wraps) also takes
// "SLOT.NAME": the parameter NAME of the method chosen in SLOT, looked up
// in the catalogue methods and resolved by it; the set then holds every
// parameter of each chosen method under its slot's prefix, defaults
// included ("base.C").
func Resolve(methods []api.MethodInfo, m *api.MethodInfo, user map[string]any) (map[string]float64, error) {
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
	forwarded := map[string]map[string]any{}
	for _, name := range names {
		p, ok := known[name]
		if !ok {
			if slot, sub, dotted := strings.Cut(name, "."); dotted && contains(m.Wraps, slot) {
				if forwarded[slot] == nil {
					forwarded[slot] = map[string]any{}
				}
				forwarded[slot][sub] = user[name]
				continue
			}
			return nil, unknownParam(m, name)
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
	for _, slot := range m.Wraps {
		inner, err := wrapped(methods, m, slot, out)
		if err != nil {
			return nil, err
		}
		if inner == nil {
			if len(forwarded[slot]) > 0 {
				return nil, fmt.Errorf("%s: %s is %s, so it takes no parameters %s.…", m.Name, slot, api.NoMethod, slot)
			}
			continue
		}
		values, err := Resolve(methods, inner, forwarded[slot])
		if err != nil {
			return nil, fmt.Errorf("%s, %s = %s: %w", m.Name, slot, inner.Name, err)
		}
		for name, v := range values {
			out[slot+"."+name] = v
		}
	}
	return out, nil
}

func unknownParam(m *api.MethodInfo, name string) error {
	if len(m.Params) == 0 {
		return fmt.Errorf("%s takes no parameters (got %q)", m.Name, name)
	}
	list := make([]string, len(m.Params))
	for i := range m.Params {
		list[i] = m.Params[i].Name
	}
	if len(m.Wraps) > 0 {
		list = append(list, "and SLOT.NAME for a parameter of the method in "+strings.Join(m.Wraps, ", "))
	}
	return fmt.Errorf("%s has no parameter %q; its parameters are %s", m.Name, name, strings.Join(list, ", "))
}

// wrapped returns the method chosen in a slot of m (a Wraps parameter)
// by the resolved values, or nil for api.NoMethod.
func wrapped(methods []api.MethodInfo, m *api.MethodInfo, slot string, values map[string]float64) (*api.MethodInfo, error) {
	p := m.Param(slot)
	if p == nil || len(p.Choices) == 0 {
		return nil, fmt.Errorf("%s: its slot %s is not a choice of methods", m.Name, slot)
	}
	choice := p.Choices[int(values[slot])]
	if choice == api.NoMethod {
		return nil, nil
	}
	return Lookup(methods, choice)
}

// Display returns a resolved parameter set as people and JSON see it:
// numbers, and categorical parameters by the name of their choice (those
// of a wrapped method too, under its slot's prefix).
func Display(methods []api.MethodInfo, m *api.MethodInfo, values map[string]float64) map[string]any {
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
	for _, slot := range m.Wraps {
		inner, err := wrapped(methods, m, slot, values)
		if err != nil || inner == nil {
			continue
		}
		prefix := slot + "."
		sub := map[string]float64{}
		for name, v := range values {
			if rest, ok := strings.CutPrefix(name, prefix); ok {
				sub[rest] = v
			}
		}
		for name, v := range Display(methods, inner, sub) {
			out[prefix+name] = v
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
