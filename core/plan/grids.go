package plan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sparsefs/api"
)

// Assignment reads one NAME=VALUES as typed (a method's parameter, a
// tuning grid): the name and the values of the list (Values).
func Assignment(text string) (name string, values []any, err error) {
	name, list, ok := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", nil, fmt.Errorf("%q is not NAME=VALUES (e.g. gamma=0.1,1,10)", strings.TrimSpace(text))
	}
	if values, err = Values(list); err != nil {
		return "", nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(values) == 0 {
		return "", nil, fmt.Errorf("%s: no values listed", name)
	}
	return name, values, nil
}

// Grids reads tuning grids as typed: NAME=VALUES one after another
// ("svm.C=0.1,1,10; gamma=0.1:1:0.1"); a name is a selector parameter
// (gamma) or a classifier's (svm.C, knn.neighbors).
func Grids(text string) ([]api.Grid, error) {
	var out []api.Grid
	rest := strings.TrimSpace(text)
	for rest != "" {
		eq := strings.Index(rest, "=")
		if eq < 0 {
			return nil, fmt.Errorf("tuning: %q is not NAME=VALUES (e.g. svm.C=0.1,1,10)", rest)
		}
		// The values run up to the next NAME=.
		end := len(rest)
		if next := strings.Index(rest[eq+1:], "="); next >= 0 {
			j := eq + 1 + next
			k := j
			for k > eq+1 && isNameByte(rest[k-1]) {
				k--
			}
			end = k
		}
		name, values, err := Assignment(rest[:end])
		if err != nil {
			return nil, fmt.Errorf("tuning %v", err)
		}
		out = append(out, api.Grid{Param: name, Values: values})
		rest = strings.TrimLeft(rest[end:], " \t\n\r;,")
	}
	return out, nil
}

func isNameByte(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// GridsText writes grids as Grids reads them.
func GridsText(grids []api.Grid) string {
	parts := make([]string, len(grids))
	for i, g := range grids {
		vals := make([]string, len(g.Values))
		for j, v := range g.Values {
			vals[j] = ValueText(v)
		}
		parts[i] = g.Param + "=" + strings.Join(vals, ",")
	}
	return strings.Join(parts, "; ")
}

// ValueText writes a parameter's value as a person types it.
func ValueText(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// Holdout reads a repeated holdout as typed, TRAINxREPEATS ("0.7x10": 70%
// of each class to training, ten times), and checks it.
func Holdout(text string) (api.Protocol, error) {
	train, reps, ok := strings.Cut(strings.ToLower(strings.TrimSpace(text)), "x")
	f, err1 := api.Number(strings.TrimSpace(train))
	r, err2 := strconv.Atoi(strings.TrimSpace(reps))
	if !ok || err1 != nil || err2 != nil {
		return api.Protocol{}, fmt.Errorf("%q is not TRAINxREPEATS (e.g. 0.7x10)", text)
	}
	if err := CheckRepeats(r); err != nil {
		return api.Protocol{}, err
	}
	if err := CheckTrain(f); err != nil {
		return api.Protocol{}, err
	}
	return api.Protocol{Kind: api.Holdout, Train: f, Repeats: r}, nil
}

// FoldFile reads a fold assignment: one integer per sample, separated by
// new lines, commas, semicolons, tabs or spaces (a first entry that is not
// a number, a header, is skipped).
func FoldFile(raw []byte) ([]int, error) {
	fields := strings.FieldsFunc(string(raw), func(r rune) bool {
		return r == '\n' || r == '\r' || r == ',' || r == ';' || r == '\t' || r == ' '
	})
	out := make([]int, 0, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(strings.TrimPrefix(f, "+"))
		if err != nil {
			if i == 0 {
				continue // a header
			}
			return nil, fmt.Errorf("fold file: entry %d (%q) is not a whole number", i+1, f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errors.New("fold file: no fold numbers found")
	}
	return out, nil
}
