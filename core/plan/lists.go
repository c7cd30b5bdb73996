package plan

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"sparsefs/api"
)

// MaxListItems bounds the values one typed list may stand for.
const MaxListItems = 1_000_000

// Split reads a typed list (see the package documentation) and returns its
// items as text, ranges and ellipses expanded: the numbers of a range in
// their shortest form (rounded to 12 significant digits, so that
// 0.1:0.5:0.1 gives 0.1, 0.2, 0.3, 0.4, 0.5), any other item as written.
func Split(text string) ([]string, error) {
	text = tightColons(text)
	fields := strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	var out []string
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "..." || f == "…":
			if i+1 >= len(fields) {
				return nil, errors.New("an ellipsis needs a value after it, as in 10, 20, ..., 100")
			}
			more, err := continueSteps(out, fields[i+1])
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
			i++
		case strings.Contains(f, ":"):
			vals, err := expandRange(f)
			if err != nil {
				return nil, err
			}
			out = append(out, vals...)
		default:
			out = append(out, f)
		}
		if len(out) > MaxListItems {
			return nil, fmt.Errorf("the list holds more than %d values", MaxListItems)
		}
	}
	return out, nil
}

// tightColons drops the spaces around a range's colons ("2 : 4" is 2:4).
func tightColons(text string) string {
	if !strings.Contains(text, ":") {
		return text
	}
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == ' ' || c == '\t' {
			j := i
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if (j < len(text) && text[j] == ':') || (len(out) > 0 && out[len(out)-1] == ':') {
				i = j - 1
				continue
			}
		}
		out = append(out, c)
	}
	return string(out)
}

// Ints reads a typed list of whole numbers, in the order written.
func Ints(text string) ([]int, error) {
	items, err := Split(text)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, errors.New("the list is empty")
	}
	out := make([]int, len(items))
	for i, s := range items {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", s)
		}
		out[i] = v
	}
	return out, nil
}

// Values reads a typed list of parameter values: numbers become float64,
// anything else stays text (a categorical parameter's choice, checked
// later against the method).
func Values(text string) ([]any, error) {
	items, err := Split(text)
	if err != nil {
		return nil, err
	}
	out := make([]any, len(items))
	for i, s := range items {
		if v, ok := number(s); ok {
			out[i] = v
		} else {
			out[i] = s
		}
	}
	return out, nil
}

// number reads a finite decimal number (api.Number).
func number(s string) (float64, bool) {
	v, err := api.Number(s)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// expandRange expands a:b or a:b:step.
func expandRange(f string) ([]string, error) {
	parts := strings.Split(f, ":")
	if len(parts) != 2 && len(parts) != 3 {
		return nil, fmt.Errorf("%q is not a range: write a:b or a:b:step", f)
	}
	nums := make([]float64, len(parts))
	whole := true
	for i, p := range parts {
		v, ok := number(p)
		if !ok {
			return nil, fmt.Errorf("%q is not a range: %q is not a number", f, p)
		}
		nums[i] = v
		whole = whole && v == math.Trunc(v) && math.Abs(v) < 1<<53
	}
	a, b, step := nums[0], nums[1], 1.0
	if len(nums) == 3 {
		step = nums[2]
	}
	switch {
	case !(step > 0):
		return nil, fmt.Errorf("the range %q needs a positive step", f)
	case b < a:
		return nil, fmt.Errorf("the range %q goes down: write it from the smaller value to the larger (a:b or a:b:step)", f)
	case len(nums) == 3 && step > b-a:
		return nil, fmt.Errorf("the range %q holds only %s: a range is a:b:step, from a to b in steps of step — did you mean %s:%s:%s?",
			f, parts[0], parts[0], parts[2], parts[1])
	}
	n := math.Floor((b-a)/step+1e-9) + 1
	if n > MaxListItems {
		return nil, fmt.Errorf("the range %q has %.0f values; at most %d are allowed", f, n, MaxListItems)
	}
	out := make([]string, int(n))
	for i := range out {
		v := a + float64(i)*step
		if whole {
			out[i] = strconv.FormatInt(int64(v), 10)
		} else {
			out[i] = strconv.FormatFloat(round12(v), 'g', -1, 64)
		}
	}
	return out, nil
}

// continueSteps continues the step of the last two values of done up to
// the value end (an ellipsis).
func continueSteps(done []string, end string) ([]string, error) {
	if len(done) < 2 {
		return nil, errors.New("an ellipsis needs two values before it, as in 10, 20, ..., 100")
	}
	a, okA := number(done[len(done)-2])
	b, okB := number(done[len(done)-1])
	z, okZ := number(end)
	if !okA || !okB || !okZ {
		return nil, fmt.Errorf("an ellipsis continues numbers: %s, %s, ..., %s", done[len(done)-2], done[len(done)-1], end)
	}
	step := b - a
	if !(step > 0) || z < b {
		return nil, fmt.Errorf("the ellipsis after %s, %s does not reach %s going up", done[len(done)-2], done[len(done)-1], end)
	}
	n := (z - b) / step
	if math.Abs(n-math.Round(n)) > 1e-9*math.Max(1, n) {
		return nil, fmt.Errorf("the ellipsis after %s, %s does not reach %s in steps of %s", done[len(done)-2], done[len(done)-1], end, strconv.FormatFloat(round12(step), 'g', -1, 64))
	}
	if n > MaxListItems {
		return nil, fmt.Errorf("the ellipsis up to %s stands for more than %d values", end, MaxListItems)
	}
	whole := a == math.Trunc(a) && b == math.Trunc(b)
	out := make([]string, 0, int(math.Round(n)))
	for i := 1; i <= int(math.Round(n)); i++ {
		v := b + float64(i)*step
		if whole {
			out = append(out, strconv.FormatInt(int64(math.Round(v)), 10))
		} else {
			out = append(out, strconv.FormatFloat(round12(v), 'g', -1, 64))
		}
	}
	return out, nil
}

// round12 rounds to 12 significant digits (what a range's steps accumulate
// of rounding error away).
func round12(v float64) float64 {
	if v == 0 {
		return 0
	}
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return f
}

// Text writes a list of whole numbers compactly, as Ints reads it: runs of
// three or more consecutive numbers as a:b, runs of four or more in a
// larger step as a:b:step.
func Text(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i + 1
		if j < len(ks) {
			step := ks[j] - ks[i]
			for j+1 < len(ks) && ks[j+1]-ks[j] == step {
				j++
			}
			switch {
			case step == 1 && j-i >= 2:
				parts = append(parts, fmt.Sprintf("%d:%d", ks[i], ks[j]))
				i = j + 1
				continue
			case step > 1 && j-i >= 3:
				parts = append(parts, fmt.Sprintf("%d:%d:%d", ks[i], ks[j], step))
				i = j + 1
				continue
			}
		}
		parts = append(parts, strconv.Itoa(ks[i]))
		i++
	}
	return strings.Join(parts, ", ")
}
