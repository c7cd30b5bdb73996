package main

import (
	"bytes"
	"html"
	"os"
	"strings"
	"testing"

	"github.com/vugu/vugu"
	vjs "github.com/vugu/vugu/js"
	"github.com/vugu/vugu/staticrender"

	"sparsefs/ui/app"
	"sparsefs/ui/app/apptest"
)

// pageBackend is the page's Backend in a native test: the App's fake
// (apptest), and the user's files set by the test.
type pageBackend struct {
	*apptest.Backend
	file   app.Opened // what the next file input or drop gives
	report [2]string  // what the next report input gives: name, text
}

func (b *pageBackend) OpenInput(ev vugu.DOMEvent, done func(app.Opened)) {
	f := b.file
	b.Later(func() { done(f) })
}

func (b *pageBackend) OpenDrop(ev vugu.DOMEvent, done func(app.Opened)) { b.OpenInput(ev, done) }

func (b *pageBackend) ReadText(ev vugu.DOMEvent, done func(name, text string, err error)) {
	r := b.report
	b.Later(func() { done(r[0], r[1], nil) })
}

func (b *pageBackend) Paint(el vjs.Value, key, markup string) {}

// event is a DOM event whose target has a value and a checked state.
type event struct {
	vugu.DOMEvent
	value   string
	checked bool
}

func (e event) PropString(keys ...string) string { return e.value }
func (e event) PropBool(keys ...string) bool     { return e.checked }
func (e event) PreventDefault()                  {}

// page is the page built natively: the components' tree as the DOM
// renderer receives it.
type page struct {
	t    *testing.T
	b    *pageBackend
	root *Root
	env  *vugu.BuildEnv
	br   *vugu.BuildResults
}

func newPage(t *testing.T) *page {
	env, err := vugu.NewBuildEnv()
	if err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, b: &pageBackend{Backend: apptest.New(t, 2)}, env: env}
	p.root = &Root{Backend: p.b}
	p.build()
	p.b.Pump(-1)
	return p
}

// build builds the page (Vugu builds it before every render).
func (p *page) build() { p.br = p.env.RunBuild(p.root) }

// walk visits the elements of the page, components expanded.
func (p *page) walk(n *vugu.VGNode, visit func(*vugu.VGNode) bool) bool {
	if n.Component != nil {
		for _, o := range p.br.ResultFor(n.Component).Out {
			if !p.walk(o, visit) {
				return false
			}
		}
		return true
	}
	if n.Type == vugu.ElementNode && n.Data != "" && !visit(n) {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if !p.walk(c, visit) {
			return false
		}
	}
	return true
}

func attr(n *vugu.VGNode, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// all returns the elements under n (n included) that match.
func (p *page) all(n *vugu.VGNode, match func(*vugu.VGNode) bool) []*vugu.VGNode {
	var out []*vugu.VGNode
	p.walk(n, func(e *vugu.VGNode) bool {
		if match(e) {
			out = append(out, e)
		}
		return true
	})
	return out
}

// find returns the element with an id (nil: none).
func (p *page) find(id string) *vugu.VGNode {
	p.build()
	for _, o := range p.br.Out.Out {
		if es := p.all(o, func(e *vugu.VGNode) bool { return attr(e, "id") == id }); len(es) > 0 {
			return es[0]
		}
	}
	return nil
}

func (p *page) must(id string) *vugu.VGNode {
	p.t.Helper()
	n := p.find(id)
	if n == nil {
		p.t.Fatalf("no #%s on the page", id)
	}
	return n
}

// text is an element's text as vg-content wrote it.
func (p *page) text(id string) string {
	p.t.Helper()
	n := p.must(id)
	if n.InnerHTML == nil {
		return ""
	}
	return html.UnescapeString(*n.InnerHTML)
}

// fire calls an element's handler of an event type, as the browser would.
func (p *page) fire(n *vugu.VGNode, typ string, ev event) {
	p.t.Helper()
	for _, h := range n.DOMEventHandlerSpecList {
		if h.EventType == typ {
			h.Func(ev)
			return
		}
	}
	p.t.Fatalf("<%s id=%q> has no %s handler", n.Data, attr(n, "id"), typ)
}

func (p *page) input(id, value string) {
	p.t.Helper()
	p.fire(p.must(id), "input", event{value: value})
}
func (p *page) change(id, value string) {
	p.t.Helper()
	p.fire(p.must(id), "change", event{value: value})
}
func (p *page) tick(id string, on bool) {
	p.t.Helper()
	p.fire(p.must(id), "change", event{checked: on})
}
func (p *page) click(id string) { p.t.Helper(); p.fire(p.must(id), "click", event{}) }

// buttons are the buttons under an element.
func (p *page) buttons(id string) []*vugu.VGNode {
	return p.all(p.must(id), func(e *vugu.VGNode) bool { return e.Data == "button" })
}

// html renders the page as the static renderer writes it.
func (p *page) html() string {
	var buf bytes.Buffer
	if err := staticrender.New(&buf).Render(p.env.RunBuild(p.root)); err != nil {
		p.t.Fatal(err)
	}
	return buf.String()
}

// The page's components, built natively on the App and fake workers:
// each control the browser tests use is there and calls the App — the
// demo, the evaluation's form, Run, the results table's Show buttons (a
// Pick event), the details' selects, a chart's SVG and PNG buttons (a
// Save event), the units' panel, the generator, the ranking mode, a
// file's error, a report loaded back, the drop zone.
func TestPage(t *testing.T) {
	p := newPage(t)
	a := p.root.App
	if got := p.text("plan"); got != "Load data first." {
		t.Errorf("plan %q", got)
	}
	if n := p.must("m-fisher"); len(n.Prop) == 0 || n.Prop[0].Key != "checked" || string(n.Prop[0].JSONVal) != "true" {
		t.Errorf("fisher not ticked: %+v", n.Prop)
	}
	if got := len(p.all(p.must("running"), func(e *vugu.VGNode) bool { return e.Data == "li" })); got != 2 {
		t.Errorf("%d worker lines", got)
	}
	// The combined selectors are offered with the others.
	p.must("m-stabsel")
	p.must("m-consensus")
	// The recommended start replaces the methods chosen.
	a.Config.ToggleMethod("relieff", true)
	p.click("recommended")
	if got := a.Config.Current().Methods; len(got) != 2 || got[0].Name != "fisher" || got[1].Name != "rfs" {
		t.Errorf("recommended start: %+v", got)
	}
	// Their parameter forms are closed, showing the defaults; one opens.
	if txt := p.html(); strings.Contains(txt, `id="p-rfs-gamma"`) || !strings.Contains(txt, "Defaults: gamma 1 · solver accelerated") {
		t.Error("the forms of the recommended methods are open")
	}
	p.click("open-rfs")
	if txt := p.html(); !strings.Contains(txt, "A sparse model robust to outlying samples") || !strings.Contains(txt, "How strongly the model is pushed to use few features") {
		t.Error("rfs is not described in words")
	}
	a.Config.ToggleMethod("rfs", false)

	// The demo.
	csv, err := os.ReadFile("../assets/demo/breast-cancer-wisconsin.csv")
	if err != nil {
		t.Fatal(err)
	}
	p.b.URLs[app.Demos[0].URL] = csv
	p.change("demo-choice", "breast-cancer")
	p.click("demo")
	p.b.Pump(-1)
	if got := p.text("file-name"); got != "breast-cancer-wisconsin.csv (demo)" || !strings.HasPrefix(p.text("data-summary"), "569 samples × 30 features") {
		t.Fatalf("demo: %q %q", got, a.Error())
	}
	p.must("classes")
	p.must("label")
	// A column the menu does not list, typed: a feature as the label
	// leaves the text of the diagnosis out of the features, with a
	// warning, and its many values are offered as a measurement.
	p.input("label-other", "mean texture")
	p.click("label-read")
	p.b.Pump(-1)
	if a.Error() != "" || a.Data.LabelName() != "mean texture" || !strings.Contains(strings.Join(a.Data.Warnings(), "|"), `column 31 ("diagnosis") holds text, not numbers: left out`) {
		t.Errorf("label mean texture: %q, label %q, warnings %q", a.Error(), a.Data.LabelName(), a.Data.Warnings())
	}
	p.must("continuous-hint")
	p.input("label-other", "31")
	p.click("label-read")
	p.b.Pump(-1)
	if a.Error() != "" || a.Data.LabelName() != "diagnosis" {
		t.Errorf("label 31: %q, label %q", a.Error(), a.Data.LabelName())
	}

	// The evaluation's form.
	p.input("folds", "3")
	p.input("klist", "2, 4")
	p.input("seed", "3")
	p.tick("cls-knn", true)
	p.input("knn-k", "3")
	p.tick("m-l1svm", true)
	p.input("p-l1svm-C", "1, 2")
	f := a.Config.Protocol
	if f.Folds != "3" || f.K != "2, 4" || f.Seed != "3" || !f.KNN || f.Neighbors != "3" || a.Config.ParamText("l1svm", "C") != "1, 2" {
		t.Errorf("form %+v", f)
	}
	if got := p.text("plan"); got != "Run will evaluate 3 settings × 3 folds = 9 units on 2 workers." {
		t.Errorf("plan %q", got)
	}
	p.b.Pump(-1)

	// Run.
	p.click("run")
	if busy := attr(p.must("progress-text"), "data-busy"); busy != "yes" || attr(p.must("cancel"), "disabled") != "" {
		t.Errorf("running: data-busy %q", busy)
	}
	p.b.Pump(-1)
	if busy, runs := attr(p.must("progress-text"), "data-busy"), attr(p.must("progress-text"), "data-runs"); busy != "no" || runs != "1" {
		t.Errorf("after the run: data-busy %q, data-runs %q", busy, runs)
	}
	if got := p.text("progress-text"); !strings.HasPrefix(got, "9 of 9 units done · report merged") {
		t.Errorf("progress %q: %q", got, a.Error())
	}
	for _, id := range []string{"eval-results", "eval-summary", "acc-table", "export-report", "chart-accuracy-svm", "chart-accuracy-knn", "detail-later", "units"} {
		p.must(id)
	}
	p.b.Render() // the details come once the results are drawn
	if p.find("detail-later") != nil {
		t.Error("the details did not come")
	}
	p.must("eval-detail")
	// A row's Show button picks it (Pick).
	shows := p.buttons("acc-table")
	if len(shows) != 6 {
		t.Fatalf("%d Show buttons", len(shows))
	}
	p.fire(shows[4], "click", event{})
	if v := a.Eval.Variant(); v != 2 {
		t.Errorf("row 5 picked variant %d", v)
	}
	if bs := p.buttons("acc-table"); attr(bs[4], "aria-pressed") == "" || attr(bs[0], "aria-pressed") != "" {
		t.Error("aria-pressed is not on the row picked")
	}
	p.change("detail-variant", "1")
	p.change("detail-k", "0")
	p.change("detail-split", "2")
	if a.Eval.Variant() != 1 || a.Eval.KIndex() != 0 || a.Eval.Split() != 2 {
		t.Errorf("details: %d %d %d", a.Eval.Variant(), a.Eval.KIndex(), a.Eval.Split())
	}
	p.input("shown", "4")
	if got := len(p.all(p.must("ranking"), func(e *vugu.VGNode) bool { return e.Data == "tr" })); got != 5 {
		t.Errorf("the ranking has %d rows with its head", got)
	}
	// A chart's first button shows its values as a table: a row per K,
	// a column per selector, the hover values (accuracy in %).
	fig := p.must("fig-accuracy-svm")
	saves := p.all(fig, func(e *vugu.VGNode) bool { return e.Data == "button" })
	if p.find("values-accuracy-svm") != nil || attr(saves[0], "aria-expanded") != "false" {
		t.Error("the values' table is open before it was asked for")
	}
	p.fire(saves[0], "click", event{})
	values := p.must("values-accuracy-svm")
	rows := p.all(values, func(e *vugu.VGNode) bool { return e.Data == "tr" })
	if ks := len(a.Eval.KList()); len(rows) != ks+1 {
		t.Errorf("the values' table has %d rows for %d values of K", len(rows), ks)
	}
	cell := func(n *vugu.VGNode) string {
		if n.InnerHTML == nil {
			return ""
		}
		return html.UnescapeString(*n.InnerHTML)
	}
	if cells := p.all(rows[1], func(e *vugu.VGNode) bool { return e.Data == "td" }); len(cells) != 1+len(a.Eval.VariantLabels()) || !strings.Contains(cell(cells[1]), "% (") {
		t.Errorf("first row of values: %d cells, %q", len(cells), cell(cells[1]))
	}
	saves = p.all(p.must("fig-accuracy-svm"), func(e *vugu.VGNode) bool { return e.Data == "button" })
	p.fire(saves[0], "click", event{})
	if p.find("values-accuracy-svm") != nil {
		t.Error("the values' table did not close")
	}
	// Its other buttons save it (Save).
	saves = saves[1:]
	p.fire(saves[0], "click", event{})
	if dl := p.b.LastDownload(); dl.Name != "sparsefs-accuracy-svm.svg" {
		t.Errorf("saved %q", dl.Name)
	}
	p.fire(saves[1], "click", event{})
	if len(p.b.PNGs) != 1 || p.b.PNGs[0] != "sparsefs-accuracy-svm.png" {
		t.Errorf("PNG %v", p.b.PNGs)
	}
	p.click("export-report")
	report := p.b.LastDownload()
	if report.Name != "sparsefs-breast-cancer-wisconsin-report.json" {
		t.Errorf("report saved as %q", report.Name)
	}
	// The units' panel opens on its summary.
	summary := p.all(p.must("units"), func(e *vugu.VGNode) bool { return e.Data == "summary" })[0]
	p.fire(summary, "click", event{})
	if got := len(p.all(p.must("units-table"), func(e *vugu.VGNode) bool { return e.Data == "tr" })); !a.Eval.UnitsOpen() || got != 10 {
		t.Errorf("units: open %v, %d rows", a.Eval.UnitsOpen(), got)
	}

	// The generator.
	summary = p.all(p.must("generate"), func(e *vugu.VGNode) bool { return e.Data == "summary" })[0]
	p.fire(summary, "click", event{})
	p.input("syn-m", "x")
	if !a.Synth.IsOpen() || attr(p.must("synth-line"), "class") != "hint bad" || attr(p.must("generate-data"), "disabled") == "" {
		t.Errorf("generator: open %v, line %q", a.Synth.IsOpen(), p.text("synth-line"))
	}
	p.input("syn-m", "50")

	// The ranking mode.
	p.change("mode-rank", "rank")
	p.must("topk")
	if p.find("protocol-form") != nil {
		t.Error("the protocol's form shows in the ranking mode")
	}
	p.input("topk", "5")
	p.click("run")
	p.b.Pump(-1)
	p.must("rank-results")
	jobs := p.buttons("runs")
	if len(jobs) != 3 {
		t.Fatalf("%d jobs", len(jobs))
	}
	p.fire(jobs[2], "click", event{})
	if got := p.text("result-summary"); !strings.HasPrefix(got, "l1svm · C 2 on 569 samples × 30 features") {
		t.Errorf("job shown: %q", got)
	}
	if got := p.text("export-reduced"); got != "Data with the top 5 features (CSV)" {
		t.Errorf("reduced %q", got)
	}

	// A file that does not read: the error line; the data open until now
	// stay open.
	p.b.file = p.b.Keep("ragged.csv", []byte("a,b,label\n1,2,x\n3,4\n5,6,y\n"))
	p.fire(p.must("file"), "change", event{})
	p.b.Pump(-1)
	if got := p.text("error-text"); !strings.HasPrefix(got, "ragged.csv: line 3: this row has 2 fields but the header has 3") || p.find("preview") == nil {
		t.Errorf("error %q", got)
	}
	if got := p.text("file-name"); !strings.Contains(got, "breast-cancer") {
		t.Errorf("the data open after a file that does not read: %q", got)
	}

	// The evaluation's report loaded back: results, configuration, the
	// demo opened again.
	p.b.report = [2]string{"saved.json", report.Text}
	p.fire(p.must("report-file"), "change", event{})
	p.b.Pump(-1)
	if got := p.text("notice"); !strings.HasPrefix(got, "Evaluation report loaded: 3 settings × 3 splits on breast-cancer-wisconsin.csv (demo).") || p.find("error") != nil {
		t.Errorf("notice %q", got)
	}
	p.must("acc-table")
	if got := p.text("report-note"); !strings.HasSuffix(got, "The data now open are the same file: Run repeats it.") {
		t.Errorf("report note %q", got)
	}
	if a.Config.Protocol.Folds != "3" || a.Config.Protocol.Neighbors != "3" {
		t.Errorf("configuration not restored: %+v", a.Config.Protocol)
	}

	// The drop zone.
	zone := p.must("dropzone")
	p.fire(zone, "dragover", event{})
	if got := attr(p.must("dropzone"), "class"); got != "dropzone over" {
		t.Errorf("drag over: %q", got)
	}
	p.fire(p.must("dropzone"), "dragleave", event{})
	if got := attr(p.must("dropzone"), "class"); got != "dropzone" {
		t.Errorf("drag left: %q", got)
	}
	if out := p.html(); !strings.HasPrefix(out, `<div class="app">`) || !strings.Contains(out, `id="eval-results"`) {
		t.Errorf("the page renders as %.200s", out)
	}
}
