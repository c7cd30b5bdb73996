package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// SynthForm holds the text of the generator's fields as typed (a field
// being typed may not be a number yet). The page reads the fields and
// changes them with the setters.
type SynthForm struct {
	M, D1, D2, C, Outliers, Seed, Task string
}

// SynthFormOf writes generator settings into the form.
func SynthFormOf(s lab.SynthSpec) SynthForm {
	return SynthForm{M: strconv.Itoa(s.M), D1: strconv.Itoa(s.D1), D2: strconv.Itoa(s.D2), C: strconv.Itoa(s.C),
		Outliers: strconv.FormatFloat(s.Outliers, 'g', -1, 64), Seed: strconv.FormatUint(s.Seed, 10), Task: s.Task}
}

// SetM sets the number of samples; SetD1 the informative features per
// block; SetD2 the irrelevant ones; SetC the classes (or targets);
// SetOutliers the outlier fraction; SetSeed the seed; SetTask
// lab.Classification or lab.Regression.
func (f *SynthForm) SetM(text string)        { f.M = text }
func (f *SynthForm) SetD1(text string)       { f.D1 = text }
func (f *SynthForm) SetD2(text string)       { f.D2 = text }
func (f *SynthForm) SetC(text string)        { f.C = text }
func (f *SynthForm) SetOutliers(text string) { f.Outliers = text }
func (f *SynthForm) SetSeed(text string)     { f.Seed = text }
func (f *SynthForm) SetTask(task string)     { f.Task = task }

// Spec reads the form, naming the field that is not right.
func (f SynthForm) Spec() (lab.SynthSpec, error) {
	s := lab.SynthSpec{Task: f.Task}
	for _, x := range []struct {
		name, text string
		dst        *int
	}{{"samples m", f.M, &s.M}, {"informative d1", f.D1, &s.D1}, {"irrelevant d2", f.D2, &s.D2}, {"classes c", f.C, &s.C}} {
		v, err := strconv.Atoi(strings.TrimSpace(x.text))
		if err != nil {
			return s, fmt.Errorf("%s must be a whole number, not %q", x.name, x.text)
		}
		*x.dst = v
	}
	var err error
	if s.Outliers, err = strconv.ParseFloat(strings.TrimSpace(f.Outliers), 64); err != nil {
		return s, fmt.Errorf("the outlier fraction must be a number from 0 to 1, not %q", f.Outliers)
	}
	if s.Seed, err = strconv.ParseUint(strings.TrimSpace(f.Seed), 10, 64); err != nil {
		return s, fmt.Errorf("the seed must be a whole number of at least 0, not %q", f.Seed)
	}
	return s, s.Validate()
}

// Line describes what Generate will make, or what is wrong (ok false).
func (f SynthForm) Line() (text string, ok bool) {
	s, err := f.Spec()
	if err != nil {
		return err.Error(), false
	}
	kind := fmt.Sprintf("%d classes", s.C)
	if s.Task == lab.Regression {
		kind = fmt.Sprintf("%d targets, %.0f%% of the rows flipped", s.C, 100*s.Outliers)
	}
	return fmt.Sprintf("%d samples × %d features (%d informative, %d redundant, %d irrelevant), %s. The same file: %s",
		s.M, s.Features(), 2*s.D1, s.D1, s.D2, kind, s.CLI()), true
}

// Synth is the generator of synthetic data: its form, and whether its
// panel is open.
type Synth struct {
	a *App
	// Form is the generator's fields.
	Form SynthForm
	open bool
}

// IsOpen reports whether the generator's panel is open; Toggle opens or
// closes it (the page keeps the state: a render would otherwise undo the
// browser's own toggling of a <details>).
func (s *Synth) IsOpen() bool { return s.open }
func (s *Synth) Toggle()      { s.open = !s.open }

// Generate makes the form's data in a worker and opens them.
func (s *Synth) Generate() {
	spec, err := s.Form.Spec()
	if err != nil {
		s.a.fail(AtData, err.Error())
		return
	}
	s.a.notice = ""
	s.generate(spec)
}

// generate asks a worker for synthetic data and opens them.
func (s *Synth) generate(spec lab.SynthSpec) {
	d := s.a.Data
	d.loading, s.a.errMsg = true, ""
	req := spec.Request()
	s.a.pool.Submit("generate data", api.Task{Run: &req}, 0, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			d.loading = false
			s.a.fail(AtData, "Cannot generate the data: "+j.Err)
			return
		}
		var out api.Reduced
		if err := json.Unmarshal(j.Response, &out); err != nil {
			d.loading = false
			s.a.fail(AtData, "Unexpected answer from the worker: "+err.Error())
			return
		}
		label := ""
		if spec.Task == lab.Regression {
			label = "none"
		}
		d.openedAs(s.a.b.KeepText(out.Name, out.CSV), label, spec.Targets(), out.CSV)
	})
}

// Save saves the generated data open as CSV.
func (s *Synth) Save() {
	if d := s.a.Data; d.generated != "" {
		s.a.b.Download(d.name, "text/csv", d.generated)
	}
}
