package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// Data is the data section's state: the file open, how a worker described
// it, how it is read (the label column, the imputation: lab.Config's
// Label, Missing and Targets), the demo chosen, and generated data.
type Data struct {
	a *App

	demo       string // the chosen demo's ID
	name       string // the file's name
	size       int
	num        int // the data number in the workers (0: none)
	sha256     string
	loading    bool
	inspecting bool
	inspection *api.Inspection
	warmKey    string // what the workers last warmed up for (warmPlan)
	// labels are labelChoices of labelsOf (every render asks for them).
	labelsOf  *api.Inspection
	labels    []string
	generated string // the CSV of generated data now open
	labelText string // typed for a label column the menu does not list
	// ignoreText is typed in the box of columns left out.
	ignoreText string
	// pending is the data number of a file being described before it
	// replaces the one open (0: none), pendingSHA its SHA-256.
	pending    int
	pendingSHA string
	// fit is how many workers compute on the data when their size limits
	// them, and workersNote says so (fitWorkers; 0 and empty: all do).
	fit         int
	workersNote string
}

// OpenFile starts opening a file the user chose, and returns what to call
// with it once read.
func (d *Data) OpenFile() func(Opened) {
	d.loading, d.a.errMsg, d.a.notice = true, "", ""
	return d.opened
}

// DropFile is OpenFile for a file dropped on the page: nil, and an error
// shown, while a run goes on.
func (d *Data) DropFile() func(Opened) {
	if d.a.Running() {
		d.a.fail(AtData, "A run is going on: cancel it before opening another file.")
		return nil
	}
	return d.OpenFile()
}

// Demo is the ID of the demo chosen in the list.
func (d *Data) Demo() string { return d.demo }

// SetDemo chooses a demo (by ID) in the list.
func (d *Data) SetDemo(id string) { d.demo = id }

// LoadDemo opens the chosen demo.
func (d *Data) LoadDemo() {
	d.a.notice = ""
	d.loadDemo(d.demo)
}

func (d *Data) loadDemo(id string) {
	for _, dm := range Demos {
		if dm.ID == id {
			d.loading, d.a.errMsg = true, ""
			d.a.b.OpenURL(dm.URL, dm.Name, d.opened)
			return
		}
	}
}

// opened is called when a file has been read into memory.
func (d *Data) opened(f Opened) { d.openedAs(f, "", nil, "") }

// openedAs takes a file read into memory, with the label column and the
// target columns to read it with (and its CSV when the page generated
// it). The file open until now stays open until a worker has described
// the new one, and stays open if it cannot: a file that does not read
// loses nothing.
func (d *Data) openedAs(f Opened, label string, targets []string, generated string) {
	d.loading = false
	if f.Err != nil {
		d.a.fail(AtData, f.Err.Error())
		return
	}
	if d.pending != 0 {
		d.discard(d.pending)
	}
	d.a.errMsg, d.inspecting, d.pending, d.pendingSHA = "", true, f.Data, ""
	req := api.Request{Op: api.OpInspect, Data: api.Data{Name: f.Name, Label: label, Targets: targets}, PreviewRows: 5}
	d.a.pool.Submit("read the data", api.Task{Run: &req}, f.Data, true, nil, func(j *pool.Job) {
		if d.pending != f.Data {
			return // another file was opened meanwhile
		}
		d.pending, d.inspecting = 0, false
		in, err := inspection(j)
		if err != nil {
			d.discard(f.Data)
			if j.State != pool.Cancelled {
				d.a.fail(AtData, err.Error())
			}
			return
		}
		if d.num != 0 {
			d.discard(d.num)
		}
		d.name, d.size, d.num, d.sha256, d.generated = f.Name, f.Size, f.Data, d.pendingSHA, generated
		cfg := &d.a.Config.cfg
		fresh(cfg)
		cfg.Label, cfg.Sheet, cfg.Missing, cfg.Targets = label, "", "", targets
		d.adopt(in)
	})
}

// discard makes the workers and the page forget data number num.
func (d *Data) discard(num int) {
	d.a.pool.Forget(num)
	d.a.b.Drop(num)
}

// inspection reads a worker's answer to an inspection job.
func inspection(j *pool.Job) (*api.Inspection, error) {
	if j.State != pool.Done {
		return nil, errors.New(j.Err)
	}
	var in api.Inspection
	if err := json.Unmarshal(j.Response, &in); err != nil {
		return nil, errors.New("Unexpected answer from the worker: " + err.Error())
	}
	return &in, nil
}

// reread asks a worker to describe the file open again, read as change
// makes the configuration say (another label column, sheet, sample-ID
// column, …). If it cannot be read so, the error says why and the data
// stay open as they were read before, with the settings they were read
// with.
func (d *Data) reread(change func(c *lab.Config)) {
	cfg := &d.a.Config.cfg
	was := *cfg
	change(cfg)
	d.a.errMsg, d.inspecting = "", true
	req := api.Request{Op: api.OpInspect, Data: cfg.Data(d.name), PreviewRows: 5}
	num := d.num
	d.a.pool.Submit("read the data", api.Task{Run: &req}, num, true, nil, func(j *pool.Job) {
		if num != d.num {
			return // another file was opened meanwhile
		}
		d.inspecting = false
		in, err := inspection(j)
		if err != nil {
			cfg.Label, cfg.Sheet, cfg.Targets, cfg.ID, cfg.Ignore, cfg.Transpose, cfg.Missing =
				was.Label, was.Sheet, was.Targets, was.ID, was.Ignore, was.Transpose, was.Missing
			if j.State != pool.Cancelled {
				d.a.fail(AtData, err.Error())
			}
			return
		}
		d.adopt(in)
	})
}

// adopt takes a worker's description of the file open, and how it chose
// to read it where the request left that open (a label, sample IDs,
// columns left out, targets, features in rows), and has the workers
// prepare the data.
func (d *Data) adopt(in *api.Inspection) {
	cfg := &d.a.Config.cfg
	if in.Label != "" {
		cfg.Label = in.Label
	}
	if in.ID != "" {
		cfg.ID = in.ID
	}
	if len(in.Ignore) > 0 {
		cfg.Ignore = in.Ignore
	}
	if len(in.Targets) > 0 {
		cfg.Targets = in.Targets
	}
	if in.Transpose {
		cfg.Transpose = "yes"
	}
	d.inspection = in
	d.ignoreText = strings.Join(cfg.Ignore, ", ")
	d.prepare()
}

// prepare has every worker read the data as a run will, and warm its code
// up on them while the user configures — with the configuration's plan
// when there is one (see warm) — so that a run's first units need
// neither.
func (d *Data) prepare() {
	plan, key := d.warmPlan()
	d.warmKey = key
	cfg := &d.a.Config.cfg
	task := api.Task{Prepare: &api.Prepare{Data: cfg.Data(d.name), Eval: plan}}
	live := d.a.pool.Live()
	for _, slot := range live[:min(len(live), d.fitWorkers())] {
		d.a.pool.SubmitTo(slot, "prepare the data", task, d.num, false, nil, nil)
	}
}

// warmPlan is the configuration's evaluation plan, which the workers'
// warm-up runs on a slice of the data (nil when the configuration cannot
// run yet), and what of it the warm-up depends on: the methods, the
// classifiers and the preprocessing.
func (d *Data) warmPlan() (*api.Plan, string) {
	if d.inspection == nil {
		return nil, ""
	}
	req, _, err := d.a.evalRequest()
	if err != nil || req.Eval == nil {
		return nil, ""
	}
	names := []string{}
	for _, m := range req.Eval.Methods {
		names = append(names, m.Method)
	}
	return req.Eval, string(mustJSON([]any{names, req.Eval.Classifiers, req.Eval.Preprocess}))
}

// warm has the workers warm up again when the configuration has changed
// what the warm-up runs (a preset applied, a method or classifier chosen,
// the preprocessing), not during a run. Each worker warms up a method
// once; any job a worker receives stops its warm-up at once.
func (d *Data) warm() {
	if d.num == 0 || d.inspection == nil || d.a.Running() {
		return
	}
	if _, key := d.warmPlan(); key != "" && key != d.warmKey {
		d.prepare()
	}
}

// SetLabel reads the data again with another label column: its name, or
// its number counted from 1 (any column, not only LabelChoices'); it holds
// classes.
func (d *Data) SetLabel(name string) {
	d.reread(func(c *lab.Config) { c.Label, c.Targets, c.ID, c.Ignore = name, nil, "", nil })
}

// LabelText is what is typed in the box for a label column the menu does
// not list. The box is read by a button, never on "change": a text box's
// change event also fires when the box loses the focus, which a render
// can cause, and a DOM event during a render waits for the render's lock
// forever (docs/wasm.md#eventenv-locking).
func (d *Data) LabelText() string { return d.labelText }

// SetLabelText keeps what is typed in the label column's box.
func (d *Data) SetLabelText(s string) { d.labelText = s }

// Sheets are the worksheets of the workbook open (nil for other files).
func (d *Data) Sheets() []string { return d.inspection.Sheets }

// SheetName is the worksheet read.
func (d *Data) SheetName() string { return d.inspection.Dataset.Sheet }

// SetSheet reads another worksheet of the workbook open, as the worker
// proposes to read it.
func (d *Data) SetSheet(name string) {
	d.reread(func(c *lab.Config) { c.Sheet = name; fresh(c) })
}

// fresh leaves the columns' roles to the next inspection.
func fresh(c *lab.Config) {
	c.Label, c.Targets, c.ID, c.Ignore, c.Transpose = "", nil, "", nil, ""
}

// CanMeasure reports whether the label column may be read as a
// measurement: it holds numbers (or is read so already).
func (d *Data) CanMeasure() bool {
	if d.Measured() {
		return true
	}
	if !d.HasLabel() || d.Generated() {
		return false
	}
	for _, c := range d.inspection.Dataset.Classes {
		if _, err := strconv.ParseFloat(strings.TrimSpace(c), 64); err != nil {
			return false
		}
	}
	return true
}

// Measured reports whether the label column is read as a measurement (a
// regression target) of a file (not of generated data).
func (d *Data) Measured() bool { return !d.Generated() && len(d.a.Config.cfg.Targets) == 1 }

// SetMeasured reads the label column as a measurement to predict (a
// regression target, evaluated by RMSE), or back as classes.
func (d *Data) SetMeasured(on bool) {
	if on == d.Measured() {
		return
	}
	if on {
		col := d.LabelName()
		d.reread(func(c *lab.Config) { c.Label, c.Targets, c.ID, c.Ignore = "none", []string{col}, "", nil })
		return
	}
	col := d.a.Config.cfg.Targets[0]
	d.reread(func(c *lab.Config) { c.Label, c.Targets, c.ID, c.Ignore = col, nil, "", nil })
}

// Continuous reports whether the label column holds many different
// numbers, like a measurement rather than classes.
func (d *Data) Continuous() bool { return d.inspection.Continuous && !d.Measured() }

// IDName is the sample-ID column's name ("" for none).
func (d *Data) IDName() string { return d.inspection.Dataset.ID }

// SetID reads the data again with another sample-ID column (its name or
// number; "" for none).
func (d *Data) SetID(col string) {
	if col == "" {
		col = "none"
	}
	d.reread(func(c *lab.Config) {
		c.ID = col
		// A column left out becomes the IDs when chosen so.
		for i, name := range c.Ignore {
			if name == col {
				c.Ignore = append(c.Ignore[:i:i], c.Ignore[i+1:]...)
				break
			}
		}
	})
}

// IgnoreText is what the box of columns left out holds (names or numbers,
// comma-separated); read by a button, as LabelText.
func (d *Data) IgnoreText() string { return d.ignoreText }

// SetIgnoreText keeps what is typed in the box of columns left out.
func (d *Data) SetIgnoreText(s string) { d.ignoreText = s }

// ApplyIgnore reads the data again leaving out the columns of the box.
func (d *Data) ApplyIgnore() {
	var cols []string
	for _, f := range strings.Split(d.ignoreText, ",") {
		if f = strings.TrimSpace(f); f != "" {
			cols = append(cols, f)
		}
	}
	d.reread(func(c *lab.Config) { c.Ignore = cols })
}

// Transposed reports whether the file is read with its features in rows.
func (d *Data) Transposed() bool { return d.a.Config.cfg.Transpose == "yes" }

// SetTransposed reads the file with its features in rows (genes ×
// samples), or not, as the worker then proposes to read it.
func (d *Data) SetTransposed(on bool) {
	d.reread(func(c *lab.Config) { fresh(c); c.Transpose = map[bool]string{true: "yes", false: "no"}[on] })
}

// Missing is what is done with missing cells: "" (nothing chosen: Run
// refuses the data), api.MissingMean, MissingDropFeatures or
// MissingDropSamples.
func (d *Data) Missing() string {
	if m := d.a.Config.cfg.Missing; m != api.MissingReject {
		return m
	}
	return ""
}

// MissingChoice reports whether the data have missing cells to decide
// about (or had, before a drop).
func (d *Data) MissingChoice() bool {
	return d.inspection.Dataset.Missing > 0 || dropping(d.a.Config.cfg.Missing)
}

func dropping(policy string) bool {
	return policy == api.MissingDropFeatures || policy == api.MissingDropSamples
}

// SetMissing chooses what to do with missing cells. Leaving out features
// or samples changes the data: they are read again.
func (d *Data) SetMissing(policy string) {
	if dropping(policy) || dropping(d.a.Config.cfg.Missing) {
		d.reread(func(c *lab.Config) { c.Missing = policy })
		return
	}
	d.a.Config.cfg.Missing = policy
	d.prepare()
}

// Busy reports whether a file is being read or described.
func (d *Data) Busy() bool { return d.loading || d.inspecting }

// Open reports whether data are open and described.
func (d *Data) Open() bool { return d.inspection != nil }

// Name is the name of the file open.
func (d *Data) Name() string { return d.name }

// Inspection is how a worker described the file open (nil: none). The
// page reads it; it must not change it.
func (d *Data) Inspection() *api.Inspection { return d.inspection }

// Generated reports whether the data open were generated here.
func (d *Data) Generated() bool { return d.generated != "" }

// Summary is the line under the file name.
func (d *Data) Summary() string {
	ds := d.inspection.Dataset
	var layout string
	switch ds.Format {
	case "":
		delim := map[string]string{",": "comma", ";": "semicolon", "\t": "tab"}[ds.Delimiter]
		header := "no header row"
		if ds.Header {
			header = "header row"
		}
		layout = delim + "-separated · " + header
	case "xlsx":
		layout = "Excel workbook, sheet " + strconv.Quote(ds.Sheet)
	case "arff":
		layout = "ARFF"
	case "libsvm":
		layout = "LIBSVM"
	case "mat":
		layout = "MATLAB .mat"
	default:
		layout = ds.Format
	}
	s := fmt.Sprintf("%d samples × %d features · %s · %s", ds.Samples, ds.Features, layout, sizeText(d.size))
	if len(ds.Targets) > 0 {
		s += " · regression targets " + strings.Join(ds.Targets, ", ")
	}
	if d.workersNote != "" {
		s += " · " + d.workersNote
	}
	return s
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

// PreviewCols are the column indices the preview table shows: the sample
// IDs, the first few features and the label (or the measurement).
func (d *Data) PreviewCols() []int {
	in := d.inspection
	var cols []int
	id, label := d.column(in.Dataset.ID), d.labelColumn()
	if id >= 0 {
		cols = append(cols, id)
	}
	for j := range in.Columns {
		if j != label && j != id && len(cols) < 8 {
			cols = append(cols, j)
		}
	}
	if label >= 0 {
		cols = append(cols, label)
	}
	return cols
}

// column returns the 0-based column named name (−1: none).
func (d *Data) column(name string) int {
	if name == "" {
		return -1
	}
	for j, c := range d.inspection.Columns {
		if c == name {
			return j
		}
	}
	return -1
}

// labelColumn is the label's column, or the measurement's (−1: none).
func (d *Data) labelColumn() int {
	if d.Measured() {
		return d.column(d.inspection.Dataset.Targets[0])
	}
	if d.HasLabel() {
		return d.inspection.LabelColumn
	}
	return -1
}

// IsAside reports whether column j is neither a feature nor the label:
// the sample IDs, or a column left out.
func (d *Data) IsAside(j int) bool {
	for _, k := range d.inspection.Aside {
		if k == j {
			return j != d.labelColumn()
		}
	}
	return false
}

// MoreColumns counts the columns the preview leaves out.
func (d *Data) MoreColumns() int { return len(d.inspection.Columns) - len(d.PreviewCols()) }

// HasLabel reports whether the data have a class column.
func (d *Data) HasLabel() bool {
	in := d.inspection
	return in != nil && in.LabelColumn >= 0 && in.LabelColumn < len(in.Columns)
}

// IsLabel reports whether column j is the label (or the measurement).
func (d *Data) IsLabel(j int) bool { return d.inspection != nil && j == d.labelColumn() }

// LabelChoices are the columns offered as the label: the current one,
// columns whose preview holds text, and the first and last few. A file with
// thousands of columns would make a select unusable. They are worked out
// once per inspection: for thousands of numeric columns that takes tens of
// milliseconds, and every render asks.
func (d *Data) LabelChoices() []string {
	in := d.inspection
	if d.labelsOf == in {
		return d.labels
	}
	n := len(in.Columns)
	pick := map[int]bool{}
	for _, j := range in.Aside {
		pick[j] = true
	}
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
	d.labelsOf, d.labels = in, names
	return names
}

// LabelName is the label column's name, or the measurement's ("" when
// there is none).
func (d *Data) LabelName() string {
	if j := d.labelColumn(); j >= 0 {
		return d.inspection.Columns[j]
	}
	return ""
}

// Warnings are the things about the data the user should know before
// running: constant features, missing cells, odd headers.
func (d *Data) Warnings() []string {
	ds := d.inspection.Dataset
	var w []string
	if n := len(ds.Constant); n > 0 {
		w = append(w, fmt.Sprintf("%d constant feature(s), e.g. %q: they carry no information and score 0.", n, d.featureName(ds.Constant[0])))
	}
	if ds.Missing > 0 {
		w = append(w, fmt.Sprintf("%d missing value(s) in %d column(s): choose under “Missing cells” what to do with them, or fix the file.", ds.Missing, len(ds.MissingColumns)))
	}
	for i, k := range ds.Counts {
		if k == 1 {
			w = append(w, fmt.Sprintf("class %q has a single sample.", ds.Classes[i]))
		}
	}
	return append(w, d.inspection.Warnings...)
}

// featureName maps a 0-based feature index to its name: the features are
// the columns but those set aside (the label, targets, sample IDs,
// columns left out).
func (d *Data) featureName(k int) string {
	in := d.inspection
	for _, j := range in.Aside {
		if j <= k {
			k++
		}
	}
	if k < len(in.Columns) {
		return in.Columns[k]
	}
	return strconv.Itoa(k)
}

// truth is the ground truth of the data now open, when they are
// generated.
func (d *Data) truth() *lab.SynthSpec {
	if s, ok := lab.ParseSynthName(d.name); ok {
		return &s
	}
	return nil
}

// reload opens the data a report was computed on again when the page can
// make them itself: a bundled demo or generated data.
func (d *Data) reload(name string) {
	for _, dm := range Demos {
		if dm.Name == name {
			d.a.notice += " The demo data are being loaded."
			d.loadDemo(dm.ID)
			return
		}
	}
	if s, ok := lab.ParseSynthName(name); ok {
		d.a.notice += " The synthetic data are being generated again."
		d.a.Synth.Form = SynthFormOf(s)
		d.a.Synth.generate(s)
	}
}
