package main

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"

	"sparsefs/core/job"
)

// Backend is what the page needs from the browser: reading the user's file
// and running jobs in a Web Worker. browser_js.go implements it; tests use a
// fake. Callbacks run with the event environment locked, so they may change
// the Root's state directly.
type Backend interface {
	// OpenInput reads the file chosen in a file input (the event's target).
	OpenInput(ev vugu.DOMEvent, done func(name string, size int, err error))
	// OpenDrop reads the first file of a drop event.
	OpenDrop(ev vugu.DOMEvent, done func(name string, size int, err error))
	// OpenURL fetches a file bundled with the app (the demo).
	OpenURL(url, name string, done func(name string, size int, err error))
	// Submit runs a request on the current file's bytes. progress may be
	// called several times, then done exactly once with the response's
	// JSON or an error. It returns the job's id.
	Submit(req *job.Request, progress func(job.Progress), done func(response []byte, err error, cancelled bool)) int
	// Cancel stops a job at once (the worker is replaced).
	Cancel(id int)
}

// demoURL is the bundled demo dataset (relative: the app works from any
// sub-path of a static host).
const (
	demoURL  = "demo/breast-cancer-wisconsin.csv"
	demoName = "breast-cancer-wisconsin.csv (demo)"
)

// Root is the whole page. Its fields are the page's state; the .vugu file
// renders them.
type Root struct {
	Backend Backend `vugu:"data"`

	// The data.
	fileName   string
	fileSize   int
	loading    bool
	inspecting bool
	inspection *job.Inspection
	label      string // the label column asked for ("" = last)
	impute     bool   // fill missing cells with the training mean
	dragOver   bool

	// The method and its settings.
	methods    []job.MethodInfo
	method     string
	paramText  map[string]string // the text of each parameter's field
	preprocess string
	bias       bool

	// The run.
	running  bool
	jobID    int
	progress job.Progress
	started  time.Time
	result   *job.Selection
	shown    int // how many ranked features the table shows

	errMsg string
}

// Init is called once by Vugu before the first render.
func (c *Root) Init(ctx vugu.InitCtx) {
	c.preprocess, c.bias, c.shown, c.method = "zscore", true, 20, "fisher"
	c.paramText = map[string]string{}
	c.Backend.Submit(&job.Request{Op: job.OpMethods}, nil, func(resp []byte, err error, _ bool) {
		if err != nil {
			c.errMsg = "The computing worker did not start: " + err.Error()
			return
		}
		var list job.MethodList
		if err := json.Unmarshal(resp, &list); err != nil {
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		c.methods = list.Methods
	})
}

// opened is called when a file has been read into memory.
func (c *Root) opened(name string, size int, err error) {
	c.loading = false
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	c.fileName, c.fileSize, c.label, c.impute = name, size, "", false
	c.inspection, c.result = nil, nil
	c.inspect()
}

// inspect asks the worker to describe the current file.
func (c *Root) inspect() {
	c.errMsg, c.inspecting = "", true
	req := &job.Request{Op: job.OpInspect, Data: job.Data{Name: c.fileName, Label: c.label}, PreviewRows: 5}
	c.Backend.Submit(req, nil, func(resp []byte, err error, _ bool) {
		c.inspecting = false
		if err != nil {
			c.inspection = nil
			c.errMsg = err.Error()
			return
		}
		var in job.Inspection
		if err := json.Unmarshal(resp, &in); err != nil {
			c.errMsg = "Unexpected answer from the worker: " + err.Error()
			return
		}
		c.inspection = &in
	})
}

// HandleFile handles the file input's change event.
func (c *Root) HandleFile(ev vugu.DOMEvent) {
	c.loading, c.errMsg = true, ""
	c.Backend.OpenInput(ev, c.opened)
}

// HandleDragOver lets the drop zone accept files.
func (c *Root) HandleDragOver(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.dragOver = true
}

// HandleDragLeave resets the drop zone's highlight.
func (c *Root) HandleDragLeave(ev vugu.DOMEvent) { c.dragOver = false }

// HandleDrop reads a dropped file.
func (c *Root) HandleDrop(ev vugu.DOMEvent) {
	ev.PreventDefault()
	c.dragOver, c.loading, c.errMsg = false, true, ""
	c.Backend.OpenDrop(ev, c.opened)
}

// HandleDemo loads the bundled demo dataset.
func (c *Root) HandleDemo(ev vugu.DOMEvent) {
	c.loading, c.errMsg = true, ""
	c.Backend.OpenURL(demoURL, demoName, c.opened)
}

// HandleLabel changes the label column and describes the file again.
func (c *Root) HandleLabel(ev vugu.DOMEvent) {
	c.label = ev.PropString("target", "value")
	c.result = nil
	c.inspect()
}

// HandleImpute toggles the imputation of missing values.
func (c *Root) HandleImpute(ev vugu.DOMEvent) {
	c.impute = ev.PropBool("target", "checked")
}

// HandleMethod changes the method.
func (c *Root) HandleMethod(ev vugu.DOMEvent) {
	c.method = ev.PropString("target", "value")
	c.result = nil
	c.paramText = map[string]string{}
}

// HandleParam records the text of a parameter field.
func (c *Root) HandleParam(name string, ev vugu.DOMEvent) {
	c.paramText[name] = ev.PropString("target", "value")
}

// HandlePreprocess changes the preprocessing.
func (c *Root) HandlePreprocess(ev vugu.DOMEvent) {
	c.preprocess = ev.PropString("target", "value")
}

// HandleBias toggles the bias column.
func (c *Root) HandleBias(ev vugu.DOMEvent) {
	c.bias = ev.PropBool("target", "checked")
}

// HandleShown changes how many ranked features are listed.
func (c *Root) HandleShown(ev vugu.DOMEvent) {
	if k, err := strconv.Atoi(ev.PropString("target", "value")); err == nil && k > 0 {
		c.shown = k
	}
}

// request builds the selection request from the page's settings.
func (c *Root) request() (*job.Request, error) {
	// Parameters travel as text; the worker checks them against the
	// method's registry entry and answers with a readable error.
	params := map[string]any{}
	if m := c.methodInfo(); m != nil {
		for _, p := range m.Params {
			if text := strings.TrimSpace(c.paramText[p.Name]); text != "" {
				params[p.Name] = text
			}
		}
	}
	bias := c.bias
	missing := ""
	if c.impute {
		missing = "mean"
	}
	return &job.Request{
		Op: job.OpSelect, Data: job.Data{Name: c.fileName, Label: c.label, Missing: missing},
		Method: c.method, Params: params, Preprocess: c.preprocess, Bias: &bias,
	}, nil
}

// HandleRun starts the selection.
func (c *Root) HandleRun(ev vugu.DOMEvent) {
	if c.running || c.inspection == nil {
		return
	}
	req, err := c.request()
	if err != nil {
		c.errMsg = err.Error()
		return
	}
	c.errMsg, c.result, c.running = "", nil, true
	c.progress, c.started = job.Progress{Objective: math.NaN()}, time.Now()
	c.jobID = c.Backend.Submit(req, func(p job.Progress) { c.progress = p }, func(resp []byte, err error, cancelled bool) {
		c.running = false
		switch {
		case cancelled:
			c.errMsg = ""
		case err != nil:
			c.errMsg = err.Error()
		default:
			var sel job.Selection
			if err := json.Unmarshal(resp, &sel); err != nil {
				c.errMsg = "Unexpected answer from the worker: " + err.Error()
				return
			}
			c.result = &sel
		}
	})
}

// HandleCancel stops the running selection.
func (c *Root) HandleCancel(ev vugu.DOMEvent) {
	if c.running {
		c.Backend.Cancel(c.jobID)
	}
}

// --- helpers for the template ---

func (c *Root) methodInfo() *job.MethodInfo {
	for i := range c.methods {
		if c.methods[i].Name == c.method {
			return &c.methods[i]
		}
	}
	return nil
}

func (c *Root) busy() bool { return c.loading || c.inspecting }

func (c *Root) canRun() bool { return c.inspection != nil && !c.running && !c.busy() }

// dataSummary is the line under the file name.
func (c *Root) dataSummary() string {
	d := c.inspection.Dataset
	delim := map[string]string{",": "comma", ";": "semicolon", "\t": "tab"}[d.Delimiter]
	header := "no header row"
	if d.Header {
		header = "header row"
	}
	return fmt.Sprintf("%d samples × %d features · %s-separated · %s · %s", d.Samples, d.Features, delim, header, sizeText(c.fileSize))
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// previewCols are the column indices the preview table shows: the first
// few features and the label.
func (c *Root) previewCols() []int {
	in := c.inspection
	var cols []int
	for j := range in.Columns {
		if j != in.LabelColumn && len(cols) < 8 {
			cols = append(cols, j)
		}
	}
	return append(cols, in.LabelColumn)
}

func (c *Root) moreColumns() int { return len(c.inspection.Columns) - len(c.previewCols()) }

// labelChoices are the columns offered as the label: the current one,
// columns whose preview holds text, and the first and last few. A file with
// thousands of columns would make a select unusable; any column can still
// be typed by name or number.
func (c *Root) labelChoices() []string {
	in := c.inspection
	n := len(in.Columns)
	pick := map[int]bool{in.LabelColumn: true}
	for j := 0; j < n; j++ {
		if j < 5 || j >= n-5 {
			pick[j] = true
			continue
		}
		for _, row := range in.Preview {
			if j < len(row) {
				if _, err := strconv.ParseFloat(row[j], 64); err != nil && row[j] != "" {
					pick[j] = true
				}
			}
		}
		if len(pick) > 60 {
			break
		}
	}
	idx := make([]int, 0, len(pick))
	for j := range pick {
		idx = append(idx, j)
	}
	sort.Ints(idx)
	names := make([]string, len(idx))
	for i, j := range idx {
		names[i] = in.Columns[j]
	}
	return names
}

func (c *Root) labelName() string { return c.inspection.Columns[c.inspection.LabelColumn] }

func (c *Root) paramValue(p job.MethodInfo, i int) string {
	par := p.Params[i]
	if t, ok := c.paramText[par.Name]; ok {
		return t
	}
	if len(par.Choices) > 0 {
		return par.Choices[int(par.Default)]
	}
	return strconv.FormatFloat(par.Default, 'g', -1, 64)
}

// progressText describes a running job.
func (c *Root) progressText() string {
	el := time.Since(c.started).Seconds()
	if c.progress.MaxIterations > 0 && c.progress.Iteration > 0 {
		return fmt.Sprintf("iteration %d · objective %s · %.1f s", c.progress.Iteration, num(c.progress.Objective), el)
	}
	return fmt.Sprintf("computing… %.1f s", el)
}

func (c *Root) progressValue() string {
	return strconv.FormatFloat(math.Max(0, math.Min(1, c.progress.Fraction)), 'f', 3, 64)
}

// resultSummary is the line above the ranking table.
func (c *Root) resultSummary() string {
	r := c.result
	s := fmt.Sprintf("%s on %d samples × %d features in %s", r.Method, r.Dataset.Samples, r.Dataset.Features, seconds(r.Seconds))
	if r.Objective != nil {
		s += fmt.Sprintf(" · objective %s after %d iterations (%s)", num(float64(*r.Objective)), r.Iterations, strings.ReplaceAll(r.Stop, "_", " "))
	}
	if r.NonzeroRows != nil {
		s += fmt.Sprintf(" · %d nonzero rows", *r.NonzeroRows)
	}
	return s
}

func seconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.0f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}

// rankedRow is one line of the ranking table.
type rankedRow struct {
	Rank   int
	Column int
	Name   string
	Score  string
}

func (c *Root) rankedRows() []rankedRow {
	r := c.result
	n := min(c.shown, len(r.Ranking))
	rows := make([]rankedRow, n)
	for i := range rows {
		j := r.Ranking[i]
		rows[i] = rankedRow{Rank: i + 1, Column: j, Name: r.Features[j], Score: num(r.Scores[j])}
	}
	return rows
}

// num formats a score for people: four significant digits, ∞ for the
// largest double (how +Inf travels in JSON).
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v >= math.MaxFloat64 || math.IsInf(v, 1):
		return "∞"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func (c *Root) dropClass() string {
	if c.dragOver {
		return "dropzone over"
	}
	return "dropzone"
}

func (c *Root) colClass(j int) string {
	if j == c.inspection.LabelColumn {
		return "label-col"
	}
	return ""
}

// dataWarnings are the things about the data the user should know before
// running: constant features, missing cells, odd headers.
func (c *Root) dataWarnings() []string {
	d := c.inspection.Dataset
	var w []string
	if n := len(d.Constant); n > 0 {
		w = append(w, fmt.Sprintf("%d constant feature(s), e.g. %q: they carry no information and score 0.", n, c.featureName(d.Constant[0])))
	}
	if d.Missing > 0 {
		w = append(w, fmt.Sprintf("%d missing value(s) in %d column(s): fill them with the column mean (below), or fix the file.", d.Missing, len(d.MissingColumns)))
	}
	for i, k := range d.Counts {
		if k == 1 {
			w = append(w, fmt.Sprintf("class %q has a single sample.", d.Classes[i]))
		}
	}
	return append(w, c.inspection.Warnings...)
}

// featureName maps a 0-based feature index (label excluded) to its name.
func (c *Root) featureName(k int) string {
	if k >= c.inspection.LabelColumn {
		k++
	}
	return c.inspection.Columns[k]
}
