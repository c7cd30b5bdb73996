package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"sparsefs/api"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// protocolForm holds the text of the evaluation's fields as typed (a field
// being typed may not be a number yet).
type protocolForm struct {
	Scheme                                              string
	Folds, Train, Repeats, K, C, Neighbors, Seed, Inner string
	Tune                                                string
	SVM, KNN                                            bool
}

// formOf writes a protocol into the form.
func formOf(p lab.Protocol) protocolForm {
	f := protocolForm{Scheme: p.Scheme, K: p.K, Tune: p.Tune}
	if f.Scheme == "" {
		f.Scheme = "cv"
	}
	num := func(v int, def int) string {
		if v == 0 {
			v = def
		}
		return strconv.Itoa(v)
	}
	f.Folds, f.Repeats, f.Neighbors = num(p.Folds, 5), num(p.Repeats, 10), num(p.Neighbors, 1)
	f.Train = "0.7"
	if p.Train > 0 {
		f.Train = strconv.FormatFloat(p.Train, 'g', -1, 64)
	}
	f.C = "1"
	if p.C > 0 {
		f.C = strconv.FormatFloat(p.C, 'g', -1, 64)
	}
	f.Seed = strconv.FormatInt(p.Seed, 10)
	if p.Inner > 0 {
		f.Inner = strconv.Itoa(p.Inner)
	}
	for _, c := range p.Classifiers {
		f.SVM = f.SVM || c == "svm"
		f.KNN = f.KNN || c == "knn"
	}
	return f
}

// protocol reads the form, naming the field that is not right.
func (f protocolForm) protocol() (lab.Protocol, error) {
	p := lab.Protocol{Scheme: f.Scheme, K: f.K, Tune: strings.TrimSpace(f.Tune)}
	whole := func(name, text string, lo int) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil || v < lo {
			return 0, fmt.Errorf("%s must be a whole number of at least %d, not %q", name, lo, text)
		}
		return v, nil
	}
	var err error
	switch f.Scheme {
	case "holdout":
		if p.Repeats, err = whole("the number of repeats", f.Repeats, 1); err != nil {
			return p, err
		}
		if p.Train, err = strconv.ParseFloat(strings.TrimSpace(f.Train), 64); err != nil || !(p.Train > 0 && p.Train < 1) {
			return p, fmt.Errorf("the training fraction must be between 0 and 1 (e.g. 0.7), not %q", f.Train)
		}
	default:
		if p.Folds, err = whole("the number of folds", f.Folds, 2); err != nil {
			return p, err
		}
	}
	if f.SVM {
		p.Classifiers = append(p.Classifiers, "svm")
		if p.C, err = strconv.ParseFloat(strings.TrimSpace(f.C), 64); err != nil || !(p.C > 0) {
			return p, fmt.Errorf("the SVM's C must be a positive number, not %q", f.C)
		}
	}
	if f.KNN {
		p.Classifiers = append(p.Classifiers, "knn")
		if p.Neighbors, err = whole("k of k-NN", f.Neighbors, 1); err != nil {
			return p, err
		}
	}
	seed, err := strconv.ParseInt(strings.TrimSpace(f.Seed), 10, 64)
	if err != nil || seed < 0 {
		return p, fmt.Errorf("the seed must be a whole number of at least 0, not %q", f.Seed)
	}
	p.Seed = seed
	if strings.TrimSpace(f.Inner) != "" {
		if p.Inner, err = whole("the number of inner folds", f.Inner, 2); err != nil {
			return p, err
		}
	}
	return p, nil
}

// HandleProto records the text of a field of the evaluation protocol.
func (c *Root) HandleProto(field string, ev vugu.DOMEvent) {
	v := ev.PropString("target", "value")
	switch field {
	case "scheme":
		c.pf.Scheme = v
	case "folds":
		c.pf.Folds = v
	case "train":
		c.pf.Train = v
	case "repeats":
		c.pf.Repeats = v
	case "k":
		c.pf.K = v
	case "C":
		c.pf.C = v
	case "neighbors":
		c.pf.Neighbors = v
	case "seed":
		c.pf.Seed = v
	case "tune":
		c.pf.Tune = v
	case "inner":
		c.pf.Inner = v
	}
}

// HandleClassifier ticks or unticks a classifier.
func (c *Root) HandleClassifier(name string, ev vugu.DOMEvent) {
	on := ev.PropBool("target", "checked")
	if name == "svm" {
		c.pf.SVM = on
	} else {
		c.pf.KNN = on
	}
	c.warm()
}

// synthForm holds the text of the generator's fields.
type synthForm struct {
	M, D1, D2, C, Outliers, Seed, Task string
}

func synthFormOf(s lab.SynthSpec) synthForm {
	return synthForm{M: strconv.Itoa(s.M), D1: strconv.Itoa(s.D1), D2: strconv.Itoa(s.D2), C: strconv.Itoa(s.C),
		Outliers: strconv.FormatFloat(s.Outliers, 'g', -1, 64), Seed: strconv.FormatUint(s.Seed, 10), Task: s.Task}
}

// spec reads the generator's form.
func (f synthForm) spec() (lab.SynthSpec, error) {
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

// HandleSynth records the text of a field of the generator.
func (c *Root) HandleSynth(field string, ev vugu.DOMEvent) {
	v := ev.PropString("target", "value")
	switch field {
	case "m":
		c.synth.M = v
	case "d1":
		c.synth.D1 = v
	case "d2":
		c.synth.D2 = v
	case "c":
		c.synth.C = v
	case "outliers":
		c.synth.Outliers = v
	case "seed":
		c.synth.Seed = v
	case "task":
		c.synth.Task = v
	}
}

// synthLine describes what Generate will make, or what is wrong.
func (c *Root) synthLine() (string, bool) {
	s, err := c.synth.spec()
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

func (c *Root) synthOK() bool     { _, ok := c.synthLine(); return ok }
func (c *Root) synthText() string { s, _ := c.synthLine(); return s }

// HandleGenerate makes synthetic data in a worker and opens them.
func (c *Root) HandleGenerate(ev vugu.DOMEvent) {
	s, err := c.synth.spec()
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	c.notice = ""
	c.generate(s)
}

// generate asks a worker for synthetic data and opens them.
func (c *Root) generate(s lab.SynthSpec) {
	c.loading, c.errMsg = true, ""
	req := s.Request()
	c.pool.Submit("generate data", api.Task{Run: &req}, 0, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			c.loading = false
			c.errMsg = "Cannot generate the data: " + j.Err
			return
		}
		var out api.Reduced
		if err := json.Unmarshal(j.Response, &out); err != nil {
			c.loading = false
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		label := ""
		if s.Task == lab.Regression {
			label = "none"
		}
		c.openedAs(c.Backend.KeepText(out.Name, out.CSV), label, s.Targets())
		c.generated = out.CSV
	})
}

// HandleSaveData saves generated data as CSV.
func (c *Root) HandleSaveData(ev vugu.DOMEvent) {
	if c.generated != "" {
		c.Backend.Download(c.fileName, "text/csv", c.generated)
	}
}
