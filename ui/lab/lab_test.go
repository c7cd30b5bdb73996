package lab

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"math"
	"reflect"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/plan"
)

// methods is a registry as the worker lists it: a filter without
// parameters and an embedded method with a numeric, an integer and a
// categorical parameter.
var methods = []api.MethodInfo{
	{Name: "fisher", Kind: api.Filter, Params: []api.Param{}},
	{Name: "rfs", Kind: api.Embedded, Params: []api.Param{
		{Name: "gamma", Default: 1, Min: 0, Max: math.Inf(1), MinOpen: true, Doc: "regularisation"},
		{Name: "loss", Default: 0, Choices: []string{"l21", "frobenius"}, Doc: "loss"},
		{Name: "max_iter", Default: 1000, Min: 1, Max: 1e7, Integer: true, Doc: "iteration limit"},
	}},
}

func TestParseValues(t *testing.T) {
	rfs := methods[1]
	vals, err := ParseValues("rfs", rfs.Params[0], "0.1, 1, 0.1")
	if err != nil || !reflect.DeepEqual(vals, []any{0.1, 1.0}) {
		t.Errorf("gamma: %v %v", vals, err)
	}
	vals, err = ParseValues("rfs", rfs.Params[1], "FROBENIUS l21")
	if err != nil || !reflect.DeepEqual(vals, []any{"frobenius", "l21"}) {
		t.Errorf("loss: %v %v", vals, err)
	}
	vals, _ = ParseValues("rfs", rfs.Params[1], "")
	if !reflect.DeepEqual(vals, []any{"l21"}) {
		t.Errorf("default choice %v", vals)
	}
	for _, c := range []struct {
		p        int
		text     string
		fragment string
	}{
		{0, "0", "rfs: parameter gamma = 0 is invalid: it must be a number in (0, ∞] (regularisation)"},
		{0, "abc", `rfs: parameter gamma: "abc" is not a number`},
		{1, "l1", `rfs: parameter loss must be one of l21, frobenius, not "l1"`},
		{2, "2.5", "a whole number in [1, 10000000]"},
	} {
		if _, err := ParseValues("rfs", rfs.Params[c.p], c.text); err == nil || !strings.Contains(err.Error(), c.fragment) {
			t.Errorf("%q: %v, want %q", c.text, err, c.fragment)
		}
	}
}

// The grid is the Cartesian product of the listed values, the last
// parameter varying fastest; unset parameters keep their defaults (they
// are not sent).
func TestExpand(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TopK = 80
	cfg.Toggle("fisher", true)
	cfg.Toggle("rfs", true)
	cfg.SetValue("rfs", "gamma", "0.1, 1")
	cfg.SetValue("rfs", "loss", "l21 frobenius")
	cfg.Label = "diagnosis"
	units, err := Expand(&cfg, methods, api.Data{Name: "d.csv"}, 30)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, u := range units {
		labels = append(labels, u.Label)
	}
	want := []string{"fisher", "rfs · gamma 0.1, loss l21", "rfs · gamma 0.1, loss frobenius", "rfs · gamma 1, loss l21", "rfs · gamma 1, loss frobenius"}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %q", labels)
	}
	r := units[2].Request
	if r.Method != "rfs" || !reflect.DeepEqual(r.Params, map[string]any{"gamma": 0.1, "loss": "frobenius"}) ||
		r.K != 30 || r.WeightRows != 30 || r.Data.Name != "d.csv" || r.Data.Label != "diagnosis" || !*r.Bias || r.Preprocess != "zscore" {
		t.Errorf("request %+v", r)
	}
	if units[0].Request.Params != nil || units[0].Request.WeightRows != 0 {
		t.Errorf("filter request %+v", units[0].Request)
	}
	// Errors name what to fix.
	cfg.SetValue("rfs", "max_iter", "1:1000")
	if _, err := Expand(&cfg, methods, api.Data{}, 30); err == nil || !strings.Contains(err.Error(), "more than 1000 jobs") {
		t.Errorf("too many jobs: %v", err)
	}
	cfg.SetValue("rfs", "max_iter", "")
	cfg.SetValue("rfs", "gamma", "-1")
	if _, err := Expand(&cfg, methods, api.Data{}, 30); err == nil || !strings.Contains(err.Error(), "gamma = -1 is invalid") {
		t.Errorf("bad value: %v", err)
	}
	cfg.Toggle("rfs", false)
	cfg.Toggle("mrmr", true)
	if _, err := Expand(&cfg, methods, api.Data{}, 30); err == nil || !strings.Contains(err.Error(), `"mrmr" is not available`) {
		t.Errorf("unknown method: %v", err)
	}
	empty := DefaultConfig()
	if _, err := Expand(&empty, methods, api.Data{}, 30); err == nil {
		t.Error("no method chosen")
	}
}

// Every preset parses, names only docs/methods.md's method ids and parameter
// names, and has a protocol whose K list parses.
func TestPresets(t *testing.T) {
	ps, err := Presets()
	if err != nil || len(ps) < 5 {
		t.Fatalf("%d presets, %v", len(ps), err)
	}
	// The ids and parameter names of docs/methods.md's tables.
	ids := "rfs gsr dso exl21 l20 mtfs erfs rk1u elasso topk l1svm fisher fstat ttest relieff infogain mrmr"
	params := "gamma lambda p r alpha beta k"
	for _, p := range ps {
		if p.ID == "" || p.Title == "" || p.Paper == "" || len(p.Methods) == 0 {
			t.Errorf("preset %+v incomplete", p)
		}
		for _, m := range p.Methods {
			if !strings.Contains(" "+ids+" ", " "+m.Name+" ") {
				t.Errorf("%s: method %q is not in docs/methods.md", p.ID, m.Name)
			}
			for name, text := range m.Params {
				if !strings.Contains(" "+params+" ", " "+name+" ") {
					t.Errorf("%s: %s: parameter %q", p.ID, m.Name, name)
				}
				if _, err := plan.Values(text); err != nil {
					t.Errorf("%s: %s: %v", p.ID, m.Name, err)
				}
			}
		}
		if ks, err := plan.Ints(p.Protocol.K); err != nil || len(ks) == 0 {
			t.Errorf("%s: K %q: %v", p.ID, p.Protocol.K, err)
		}
		if p.Protocol.Scheme != "cv" && p.Protocol.Scheme != "holdout" {
			t.Errorf("%s: scheme %q", p.ID, p.Protocol.Scheme)
		}
	}
	// Applying a preset keeps what this version has and says what it
	// left out.
	cfg := DefaultConfig()
	notes := FindPreset("l20-nmapg-an-dong-qin-2021").Apply(&cfg, methods)
	if len(cfg.Methods) != 2 || cfg.Methods[0].Name != "rfs" || cfg.Methods[1].Name != "fisher" {
		t.Fatalf("methods %+v", cfg.Methods)
	}
	if v, _ := cfg.Value("rfs", "gamma"); v != "0.001, 0.01, 0.1, 0.2, 0.8, 1" {
		t.Errorf("rfs gamma %q", v)
	}
	if cfg.TopK != 50 || cfg.Protocol.Folds != 5 || cfg.Preset != "l20-nmapg-an-dong-qin-2021" {
		t.Errorf("config %+v", cfg)
	}
	if len(notes) != 1 || notes[0] != "Not in this version yet, left out: l20, topk, relieff, infogain, ttest." {
		t.Errorf("notes %q", notes)
	}
	units, err := Expand(&cfg, methods, api.Data{}, 100)
	if err != nil || len(units) != 7 {
		t.Errorf("%d units, %v", len(units), err)
	}
	if got := ProtocolText(cfg.Protocol); got != "5-fold cross-validation · knn and svm (C = 1) · K = 1:50" {
		t.Errorf("protocol %q", got)
	}
	if got := ProtocolText(FindPreset("gsr-fs-peng-fan").Protocol); !strings.HasPrefix(got, "10 random 60/40 splits · svm · K = 10:100:10 · tuned: lambda=") {
		t.Errorf("protocol %q", got)
	}
}

func sel(method string, features []string, ranking []int, scores []float64) *api.Selection {
	return &api.Selection{Method: method, Features: features, Ranking: ranking, Scores: scores}
}

var feats = []string{"a", "b", "c", "d"}

// Three rankings of four features, worked by hand: top-2 sets {c,a},
// {c,b}, {a,c}.
func results() []Result {
	return []Result{
		{"fisher", sel("fisher", feats, []int{2, 0, 1, 3}, []float64{3, 1, 4, 0})},
		{"rfs · gamma 1", sel("rfs", feats, []int{2, 1, 0, 3}, []float64{1, 2, 8, 0})},
		{"rfs · gamma 10", sel("rfs", feats, []int{0, 2, 3, 1}, []float64{math.MaxFloat64, 0, 5, 1})},
	}
}

func TestFrequencyAndOverlap(t *testing.T) {
	freq := Frequency(results(), 2)
	// c is in all three top-2 sets (ranks 1, 1, 2: mean 4/3), a in two
	// (ranks 2, 1: 1.5), b in one.
	want := []FeatureCount{{2, "c", 3, 4.0 / 3}, {0, "a", 2, 1.5}, {1, "b", 1, 2}}
	if !reflect.DeepEqual(freq, want) {
		t.Errorf("frequency %+v", freq)
	}
	ov := Overlap(results(), 2)
	// {c,a}∩{c,b} = {c}, union of 3: 1/3; {c,a} = {a,c}: 1; {c,b}∩{a,c}: 1/3.
	wantOv := [][]float64{{1, 1.0 / 3, 1}, {1.0 / 3, 1, 1.0 / 3}, {1, 1.0 / 3, 1}}
	for a := range wantOv {
		for b := range wantOv[a] {
			if math.Abs(ov[a][b]-wantOv[a][b]) > 1e-15 {
				t.Errorf("overlap[%d][%d] = %v, want %v", a, b, ov[a][b], wantOv[a][b])
			}
		}
	}
}

func TestProfile(t *testing.T) {
	rs := results()
	// fisher: scores by rank 4, 3, 1, 0 over a top of 4.
	if p := Profile(rs[0].Sel, 4); !reflect.DeepEqual(p, []float64{1, 0.75, 0.25, 0}) {
		t.Errorf("profile %v", p)
	}
	// +∞ counts as the top finite score (5): 1, 1, 0.2, 0.
	if p := Profile(rs[2].Sel, 3); !reflect.DeepEqual(p, []float64{1, 1, 0.2}) {
		t.Errorf("profile with ∞ %v", p)
	}
	if Profile(sel("x", feats, []int{0, 1, 2, 3}, []float64{0, 0, 0, 0}), 4) != nil {
		t.Error("all-zero scores cannot be normalised")
	}
	mean, std := MeanStd([][]float64{{1, 0.5, 0}, {1, 1}})
	if !reflect.DeepEqual(mean, []float64{1, 0.75, 0}) || !reflect.DeepEqual(std, []float64{0, 0.25, 0}) {
		t.Errorf("mean %v std %v", mean, std)
	}
	c := ProfileChart(rs, 4)
	if len(c.Series) != 2 || c.Series[0].Lo != nil || len(c.Series[1].Lo) != 4 || c.Series[1].Name != "rfs (2 runs)" {
		t.Fatalf("series %+v", c.Series)
	}
	// rfs: (1, 0.25, 0.125, 0) and (1, 1, 0.2, 0): mean at rank 2 is
	// 0.625, std 0.375.
	if s := c.Series[1]; math.Abs(s.Y[1]-0.625) > 1e-15 || math.Abs(s.Hi[1]-1) > 1e-15 || math.Abs(s.Lo[1]-0.25) > 1e-15 {
		t.Errorf("rfs band %v %v %v", s.Y, s.Lo, s.Hi)
	}
}

// Every chart built from results is well-formed SVG.
func TestCharts(t *testing.T) {
	rs := results()
	obj := api.Float(1)
	nz := 2
	rs[1].Sel.Objective, rs[1].Sel.Trace, rs[1].Sel.NonzeroRows = &obj, api.Floats{3, 2, 1.5, 1.4}, &nz
	rs[1].Sel.Weights = &api.Weights{Rows: []int{2, 1}, Columns: []string{"x", "y"}, Abs: []api.Floats{{1, 2}, {0.5, 0}}}
	conv := ConvergenceCharts(rs)
	if len(conv) != 1 || conv[0].ID != "conv-rfs" || len(conv[0].Series) != 1 || conv[0].LogY {
		t.Fatalf("convergence %+v", conv)
	}
	w := WeightsChart(rs[1])
	if w == nil || !reflect.DeepEqual(w.Rows, []string{"c", "b"}) || WeightsChart(rs[0]) != nil {
		t.Fatalf("weights %+v", w)
	}
	sp := SparsityChart(rs)
	if sp == nil || len(sp.Categories) != 1 || sp.Series[0].Values[0] != 2 || SparsityChart(rs[:1]) != nil {
		t.Errorf("sparsity %+v", sp)
	}
	for _, markup := range []string{conv[0].SVG(), w.SVG(), sp.SVG(), TopScoresChart(rs[2], 3).SVG(), OverlapChart(rs, 2).SVG(),
		ProfileChart(rs, 4).SVG(), TimeChart(rs).SVG()} {
		if err := xml.Unmarshal([]byte(markup), new(struct{})); err != nil {
			t.Errorf("%v in %s", err, markup)
		}
	}
	if got := TopScoresChart(rs[2], 3); !reflect.DeepEqual(got.Categories, []string{"a", "c", "d"}) {
		t.Errorf("top scores %v", got.Categories)
	}
}

func TestRankingCSV(t *testing.T) {
	rs := results()
	text := RankingCSV(rs[2], Frequency(rs, 2), 3, 2)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"rank", "feature", "index", "score", "in_top_2_of_3_runs"},
		{"1", "a", "0", "Inf", "2"}, {"2", "c", "2", "5", "3"}, {"3", "d", "3", "1", "0"}, {"4", "b", "1", "0", "1"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("csv %q", rows)
	}
	if FileName("rfs · gamma 0.1", "ranking.csv") != "rfs-gamma-0.1-ranking.csv" {
		t.Errorf("file name %q", FileName("rfs · gamma 0.1", "ranking.csv"))
	}
}

// A report survives the trip through JSON; what is not a report, or is
// damaged, says so.
func TestReportRoundTrip(t *testing.T) {
	rs := results()
	cfg := DefaultConfig()
	cfg.Toggle("fisher", true)
	resp, _ := json.Marshal(rs[0].Sel)
	r := &Report{Created: "2024-01-01T00:00:00Z", Data: DataRef{Name: "d.csv", SHA256: "ab", Size: 10, Samples: 4, Features: 4, Label: "y", Classes: []string{"p", "q"}},
		Config: cfg, Jobs: []JobRecord{
			{Label: "fisher", Request: api.Request{Method: "fisher"}, State: "done", Seconds: 0.5, Response: resp},
			{Label: "rfs", Request: api.Request{Method: "rfs"}, State: "cancelled", Error: "cancelled"},
		}}
	b, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeReport(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Config, cfg) || back.Data.SHA256 != "ab" || len(back.Jobs) != 2 || back.Format != ReportFormat {
		t.Errorf("report %+v", back)
	}
	res := back.Results()
	if len(res) != 1 || res[0].Label != "fisher" || !reflect.DeepEqual(res[0].Sel.Ranking, rs[0].Sel.Ranking) {
		t.Errorf("results %+v", res)
	}
	for text, fragment := range map[string]string{
		`{"a":1}`: "not a sparsefs report",
		`[1,2]`:   "not a sparsefs report",
		`{"format":"sparsefs-lab-report","version":9}`: "version 9",
		`{"format":"sparsefs-lab-report","version":1,"jobs":[{"label":"x","state":"done","response":{"features":["a"],"ranking":[3],"scores":[1]}}]}`: "job 1 (x): ranking names feature 3 of 1",
	} {
		if _, err := DecodeReport([]byte(text)); err == nil || !strings.Contains(err.Error(), fragment) {
			t.Errorf("%s: %v, want %q", text, err, fragment)
		}
	}
}

func TestChoices(t *testing.T) {
	loss := methods[1].Params[1] // l21 (default), frobenius
	if got := Chosen(loss, ""); !reflect.DeepEqual(got, map[string]bool{"l21": true}) {
		t.Errorf("empty field: %v", got)
	}
	text := ToggleChoice(loss, "", "frobenius", true)
	if text != "l21, frobenius" {
		t.Errorf("adding frobenius to the default: %q", text)
	}
	text = ToggleChoice(loss, text, "l21", false)
	if text != "frobenius" || !Chosen(loss, text)["frobenius"] || Chosen(loss, text)["l21"] {
		t.Errorf("dropping l21: %q", text)
	}
	if text = ToggleChoice(loss, text, "frobenius", false); text != "" {
		t.Errorf("none left: %q (the default)", text)
	}
}
