package lab

import (
	"fmt"
	"strconv"
	"strings"

	"sparsefs/api"
)

// SynthSpec is the synthetic data of gsr-fs-peng-fan §5.1 as the page
// generates them (in a worker, the generator of `sparsefs synth`): m
// samples of d = 3·d1 + d2 features — f1…f(2·d1) informative (they make
// the targets Y = X·[W1; W2; 0] + noise), f(2·d1+1)…f(3·d1) redundant
// (noisy averages of pairs of informative ones), the last d2 irrelevant
// (uniform noise) — and c classes (the argmax of the targets) or c
// real-valued targets of which a fraction (outliers) change sign.
type SynthSpec struct {
	M, D1, D2, C int
	Outliers     float64
	Seed         uint64
	// Task is Classification or Regression.
	Task string
}

// Tasks of synthetic data.
const (
	Classification = api.TaskClassification
	Regression     = api.TaskRegression
)

// MaxSynthCells bounds the table the page generates (samples × features):
// the CSV text of a million numbers is about 20 MB, and every worker keeps
// a copy.
const MaxSynthCells = 1_000_000

// Roles of a synthetic feature.
const (
	Informative = "informative"
	Redundant   = "redundant"
	Irrelevant  = "irrelevant"
)

// DefaultSynth is the classroom's starting point: small enough to run in
// seconds, with the paper's structure.
var DefaultSynth = SynthSpec{M: 200, D1: 5, D2: 40, C: 3, Outliers: 0, Seed: 1, Task: Classification}

// Features is the number of features d = 3·d1 + d2.
func (s SynthSpec) Features() int { return 3*s.D1 + s.D2 }

// Validate checks the settings, naming the one to fix.
func (s SynthSpec) Validate() error {
	switch {
	case s.M < 10 || s.M > 100000:
		return fmt.Errorf("samples m = %d: use 10 to 100000", s.M)
	case s.D1 < 1:
		return fmt.Errorf("informative d1 = %d: at least 1", s.D1)
	case s.D2 < 0:
		return fmt.Errorf("irrelevant d2 = %d cannot be negative", s.D2)
	case s.C < 2 || s.C > 50:
		return fmt.Errorf("classes c = %d: use 2 to 50", s.C)
	case !(s.Outliers >= 0 && s.Outliers <= 1):
		return fmt.Errorf("the outlier fraction %v must be between 0 and 1", s.Outliers)
	case s.Seed >= 1<<53:
		return fmt.Errorf("the seed %d must be below 2^53", s.Seed)
	case s.Task != Classification && s.Task != Regression:
		return fmt.Errorf("task %q: classification or regression", s.Task)
	case float64(s.M)*float64(s.Features()) > MaxSynthCells:
		return fmt.Errorf("%d samples × %d features is too large for the page (at most %d values; the command line, sparsefs synth, makes larger data)", s.M, s.Features(), MaxSynthCells)
	}
	return nil
}

// Name is the file name of the data: it holds every setting, so that a
// saved report names the data it ran on and the page can make them again.
func (s SynthSpec) Name() string {
	task := ""
	if s.Task == Regression {
		task = "regression-"
	}
	return fmt.Sprintf("synthetic-%sm%d-d1_%d-d2_%d-c%d-out%s-seed%d.csv", task, s.M, s.D1, s.D2, s.C,
		strconv.FormatFloat(s.Outliers, 'g', -1, 64), s.Seed)
}

// ParseSynthName reads the settings back from a Name.
func ParseSynthName(name string) (SynthSpec, bool) {
	rest, ok := strings.CutPrefix(name, "synthetic-")
	if !ok {
		return SynthSpec{}, false
	}
	rest, ok = strings.CutSuffix(rest, ".csv")
	if !ok {
		return SynthSpec{}, false
	}
	s := SynthSpec{Task: Classification}
	if r, regression := strings.CutPrefix(rest, "regression-"); regression {
		s.Task, rest = Regression, r
	}
	i, j := strings.LastIndex(rest, "-seed"), strings.Index(rest, "-out")
	if i < 0 || j < 0 || j > i {
		return SynthSpec{}, false
	}
	seed, out := rest[i+len("-seed"):], rest[j+len("-out"):i]
	fields := strings.Split(rest[:j], "-")
	if len(fields) != 4 {
		return SynthSpec{}, false
	}
	whole := func(field, prefix string, v *int) bool {
		t, ok := strings.CutPrefix(field, prefix)
		n, err := strconv.Atoi(t)
		*v = n
		return ok && err == nil && n >= 0 && strconv.Itoa(n) == t
	}
	var err1, err2 error
	s.Outliers, err1 = strconv.ParseFloat(out, 64)
	s.Seed, err2 = strconv.ParseUint(seed, 10, 64)
	if !whole(fields[0], "m", &s.M) || !whole(fields[1], "d1_", &s.D1) || !whole(fields[2], "d2_", &s.D2) || !whole(fields[3], "c", &s.C) ||
		err1 != nil || err2 != nil || s.Validate() != nil || s.Name() != name {
		return SynthSpec{}, false
	}
	return s, true
}

// Request is the worker job that generates the data.
func (s SynthSpec) Request() api.Request {
	return api.Request{Op: api.OpSynth, Synth: &api.Synth{M: s.M, D1: s.D1, D2: s.D2, C: s.C, Outliers: s.Outliers, Seed: s.Seed, Task: s.Task,
		Name: s.Name(), MaxCells: MaxSynthCells}}
}

// Targets are the target columns of regression data (y1…yc), nil for
// classification.
func (s SynthSpec) Targets() []string {
	if s.Task != Regression {
		return nil
	}
	out := make([]string, s.C)
	for k := range out {
		out[k] = "y" + strconv.Itoa(k+1)
	}
	return out
}

// Kind is the role of a feature by its name (f1…fd), "" for another name.
func (s SynthSpec) Kind(feature string) string {
	if !strings.HasPrefix(feature, "f") {
		return ""
	}
	j, err := strconv.Atoi(feature[1:])
	switch {
	case err != nil || j < 1 || j > s.Features():
		return ""
	case j <= 2*s.D1:
		return Informative
	case j <= 3*s.D1:
		return Redundant
	}
	return Irrelevant
}

// CLI is the command that writes the same file.
func (s SynthSpec) CLI() string {
	return fmt.Sprintf("sparsefs synth -m %d -d1 %d -d2 %d -c %d -outliers %s -seed %d -task %s -o %s",
		s.M, s.D1, s.D2, s.C, strconv.FormatFloat(s.Outliers, 'g', -1, 64), s.Seed, s.Task, s.Name())
}
