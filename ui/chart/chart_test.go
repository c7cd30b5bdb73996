package chart

import (
	"encoding/xml"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// node is a parsed SVG element.
type node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []node     `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n *node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *node) hasClass(c string) bool {
	for _, k := range strings.Fields(n.attr("class")) {
		if k == c {
			return true
		}
	}
	return false
}

// find returns every element named tag ("" for any) with class cls (""
// for any) in document order.
func (n *node) find(tag, cls string) []*node {
	var out []*node
	var walk func(*node)
	walk = func(m *node) {
		if (tag == "" || m.XMLName.Local == tag) && (cls == "" || m.hasClass(cls)) {
			out = append(out, m)
		}
		for i := range m.Children {
			walk(&m.Children[i])
		}
	}
	walk(n)
	return out
}

// title is the text of an element's <title> child.
func (n *node) title() string {
	for _, c := range n.Children {
		if c.XMLName.Local == "title" {
			return c.Text
		}
	}
	return ""
}

// parse checks that markup is well-formed SVG that the page's policy
// allows (no style attributes, no <style>, no script) and returns it.
func parse(t *testing.T, markup string) *node {
	t.Helper()
	for _, bad := range []string{"style=", "<style", "<script", "javascript:", " onclick=", " onload=", " onmouseover="} {
		if strings.Contains(strings.ToLower(markup), bad) {
			t.Fatalf("markup contains %q", bad)
		}
	}
	var root node
	if err := xml.Unmarshal([]byte(markup), &root); err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, markup)
	}
	if root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" || root.attr("role") != "img" {
		t.Fatalf("root %v role %q", root.XMLName, root.attr("role"))
	}
	return &root
}

// ticks lists the tick labels of an axis group (with their y positions
// when at is set), separated by spaces.
func ticks(root *node, group string, at bool) string {
	var out []string
	for _, g := range root.find("g", group) {
		for _, tx := range g.find("text", "tick") {
			if at {
				out = append(out, tx.Text+"@"+tx.attr("y"))
			} else {
				out = append(out, tx.Text)
			}
		}
	}
	return strings.Join(out, " ")
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestNiceStep(t *testing.T) {
	for _, c := range []struct {
		span float64
		n    int
		want float64
	}{
		{1, 5, 0.2}, {97, 5, 20}, {0.0037, 4, 0.001}, {1000, 8, 200}, {3, 10, 0.5}, {10, 10, 1}, {7e6, 5, 2e6},
	} {
		if got := NiceStep(c.span, c.n); !near(got, c.want) {
			t.Errorf("NiceStep(%v, %d) = %v, want %v", c.span, c.n, got, c.want)
		}
	}
	// The step is 1, 2 or 5 times a power of ten and cuts the span into
	// at most n but more than n/2.5 intervals.
	rng := rand.New(rand.NewSource(1))
	for k := 0; k < 2000; k++ {
		span := math.Pow(10, rng.Float64()*20-10)
		n := 2 + rng.Intn(10)
		step := NiceStep(span, n)
		mant := step / math.Pow(10, math.Floor(math.Log10(step)+1e-12))
		if !near(mant, 1) && !near(mant, 2) && !near(mant, 5) {
			t.Fatalf("NiceStep(%v, %d) = %v: mantissa %v", span, n, step, mant)
		}
		if in := span / step; in > float64(n)*(1+1e-9) || in <= float64(n)/2.5 {
			t.Fatalf("NiceStep(%v, %d) = %v: %v intervals", span, n, step, in)
		}
	}
}

func tickLabels(s Scale) []string {
	var out []string
	for _, t := range s.Ticks() {
		out = append(out, t.Label)
	}
	return out
}

func TestLinear(t *testing.T) {
	s := NewLinear(0.13, 0.87, 300, 0, 5, false)
	if s.D0 != 0 || !near(s.D1, 1) || !near(s.Step, 0.2) {
		t.Fatalf("domain [%v, %v] step %v, want [0, 1] step 0.2", s.D0, s.D1, s.Step)
	}
	if got := strings.Join(tickLabels(s), " "); got != "0.0 0.2 0.4 0.6 0.8 1.0" {
		t.Errorf("ticks %q", got)
	}
	if !near(s.Map(0.25), 225) || !near(s.Map(0), 300) || !near(s.Map(1), 0) {
		t.Errorf("Map: %v %v %v", s.Map(0.25), s.Map(0), s.Map(1))
	}
	// Whole numbers: a step of 1 at least, from 1 to 7.
	k := NewLinear(1, 7, 0, 600, 8, true)
	if k.Step != 1 || k.D0 != 1 || k.D1 != 7 || strings.Join(tickLabels(k), " ") != "1 2 3 4 5 6 7" {
		t.Errorf("integer scale %+v ticks %v", k, tickLabels(k))
	}
	// One value is widened around it; negative domains tick through zero.
	one := NewLinear(5, 5, 0, 1, 4, false)
	if !(one.D0 < 5 && one.D1 > 5) {
		t.Errorf("one-point domain %+v", one)
	}
	neg := NewLinear(-0.3, 0.45, 0, 1, 3, false)
	if got := strings.Join(tickLabels(neg), " "); got != "-0.5 0.0 0.5" {
		t.Errorf("ticks %q", got)
	}
	for _, bad := range [][2]float64{{math.NaN(), 1}, {0, math.Inf(1)}} {
		if s := NewLinear(bad[0], bad[1], 0, 1, 5, false); s.D0 != 0 || s.D1 != 1 {
			t.Errorf("NewLinear(%v) = %+v", bad, s)
		}
	}
}

func TestLog(t *testing.T) {
	s := NewLog(0.003, 42, 500, 0)
	if !near(s.D0, 1e-3) || !near(s.D1, 100) {
		t.Fatalf("domain %+v", s)
	}
	if !near(s.Map(1e-3), 500) || !near(s.Map(100), 0) || !near(s.Map(0.1), 300) {
		t.Errorf("Map %v %v %v", s.Map(1e-3), s.Map(100), s.Map(0.1))
	}
	if !math.IsNaN(s.Map(0)) || !math.IsNaN(s.Map(-1)) {
		t.Error("non-positive values must not be placed")
	}
	if got := strings.Join(tickLabels(s), " "); got != "0.001 0.01 0.1 1 10 100" {
		t.Errorf("ticks %q", got)
	}
	wide := NewLog(1e-12, 1e12, 0, 1)
	if n := len(wide.Ticks()); n > 9 || wide.Ticks()[0].Label != "1e-12" {
		t.Errorf("%d ticks: %v", n, tickLabels(wide))
	}
}

func TestFormatTick(t *testing.T) {
	for _, c := range []struct {
		v, step float64
		want    string
	}{
		{0.25, 0.25, "0.25"}, {0.5, 0.25, "0.50"}, {1500000, 500000, "1.5e6"}, {-1e-17, 0.1, "0.0"},
		{2.5e-5, 5e-6, "2.5e-5"}, {40, 20, "40"}, {0.003, 0.001, "0.003"}, {-2, 1, "-2"},
	} {
		if got := FormatTick(c.v, c.step); got != c.want {
			t.Errorf("FormatTick(%v, %v) = %q, want %q", c.v, c.step, got, c.want)
		}
	}
	if Num(math.MaxFloat64) != "∞" || Num(math.NaN()) != "—" || Num(0.123456) != "0.1235" {
		t.Error("Num")
	}
}

// The plot area of a 640×360 chart is x ∈ [64, 624], y ∈ [32, 312]; with x
// from 1 to 3 (whole numbers) and y fixed to [0, 1] the pixel of (x, y) is
// (64 + 280(x−1), 312 − 280y), worked out by hand.
func TestLineChartGeometry(t *testing.T) {
	c := NewLineChart(Frame{ID: "acc", Title: "Accuracy", XLabel: "K", YLabel: "accuracy"})
	c.IntegerX, c.YMin, c.YMax = true, 0, 1
	c.Series = []Series{
		{Name: "rfs", X: []float64{1, 2, 3}, Y: []float64{0, 0.5, 1}, Lo: []float64{0, 0.4, 0.9}, Hi: []float64{0.1, 0.6, 1}},
		{Name: `<b>&"x"`, X: []float64{1, 2, 3}, Y: []float64{0.5, math.NaN(), 0.25}},
	}
	root := parse(t, c.SVG())
	lines := root.find("path", "line")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	if d := lines[0].attr("d"); d != "M64 312L344 172L624 32" {
		t.Errorf("line 0: %q", d)
	}
	// The gap splits the second line into two subpaths.
	if d := lines[1].attr("d"); d != "M64 172 M624 242" {
		t.Errorf("line 1: %q", d)
	}
	bands := root.find("path", "band")
	if len(bands) != 1 || bands[0].attr("d") != "M64 284L344 144L624 32L624 60L344 200L64 312Z" {
		t.Errorf("bands %v", bands)
	}
	marks := root.find("", "mark")
	if len(marks) != 5 {
		t.Fatalf("%d marks, want 5 (no mark at the gap)", len(marks))
	}
	if got := marks[1].title(); got != "rfs: K 2, accuracy 0.5 (band 0.4 to 0.6)" {
		t.Errorf("hover %q", got)
	}
	if got := marks[3].title(); got != `<b>&"x": K 1, accuracy 0.5` {
		t.Errorf("hover %q (escaped in the markup, plain in the DOM)", got)
	}
	if got := ticks(root, "y-axis", true); got != "0.0@316 0.2@260 0.4@204 0.6@148 0.8@92 1.0@36" {
		t.Errorf("y ticks %q", got)
	}
	var legend []string
	for _, tx := range root.find("text", "legend-text") {
		legend = append(legend, tx.title())
	}
	if strings.Join(legend, "|") != `rfs|<b>&"x"` {
		t.Errorf("legend %q", legend)
	}
	if root.find("title", "")[0].Text != "Accuracy" || root.attr("aria-labelledby") != "acc-title" {
		t.Error("chart title")
	}
}

// A long trace gets a bounded number of hover marks, its last point
// included; a log axis leaves out non-positive values.
func TestLineChartLongLog(t *testing.T) {
	c := NewLineChart(Frame{Title: "Objective"})
	c.LogY, c.IntegerX = true, true
	var x, y []float64
	for k := 1; k <= 1000; k++ {
		x = append(x, float64(k))
		y = append(y, 100/float64(k))
	}
	y[0] = 0
	c.Series = []Series{{Name: "rfs", X: x, Y: y}}
	root := parse(t, c.SVG())
	marks := root.find("circle", "mark")
	if len(marks) > maxMarks+1 || len(marks) < maxMarks/2 {
		t.Errorf("%d marks", len(marks))
	}
	if last := marks[len(marks)-1].title(); last != "rfs: x 1000, y 0.1" {
		t.Errorf("last mark %q", last)
	}
	d := root.find("path", "line")[0].attr("d")
	if strings.Count(d, "M") != 1 || strings.Count(d, "L") != 998 {
		t.Errorf("path has %d moves and %d segments", strings.Count(d, "M"), strings.Count(d, "L"))
	}
	// y from 0.1 to 50 on a log axis: 0.1 … 100, four decades.
	if got := ticks(root, "y-axis", false); got != "0.1 1 10 100" {
		t.Errorf("log ticks %v", got)
	}
}

func TestEmptyCharts(t *testing.T) {
	for _, markup := range []string{
		NewLineChart(Frame{Title: "e"}).SVG(),
		(&BarChart{Frame: Frame{Title: "e"}}).SVG(),
		NewHeatMap(Frame{Title: "e"}).SVG(),
		(&LineChart{Series: []Series{{X: []float64{1}, Y: []float64{math.NaN()}}}}).SVG(),
	} {
		root := parse(t, markup)
		if len(root.find("text", "empty")) != 1 {
			t.Errorf("no 'no data' in %s", markup)
		}
	}
}

// barRects returns each bar's x, y, width, height.
func barRects(t *testing.T, root *node) [][4]float64 {
	var out [][4]float64
	for _, r := range root.find("rect", "bar") {
		var v [4]float64
		for i, k := range []string{"x", "y", "width", "height"} {
			x, err := strconv.ParseFloat(r.attr(k), 64)
			if err != nil {
				t.Fatal(err)
			}
			v[i] = x
		}
		out = append(out, v)
	}
	return out
}

// Vertical bars: the plot is x ∈ [64, 616], y ∈ [32, 312]; values 1 and 3 on [0, 3]
// (step 0.5) give heights 280/3 and 280; +∞ fills the axis and says so.
func TestBarChart(t *testing.T) {
	c := &BarChart{Frame: Frame{Title: "Scores", YLabel: "score"}, Categories: []string{"a", "b", "c"},
		Series: []BarSeries{{Name: "fisher", Values: []float64{1, 3, math.MaxFloat64}}}}
	root := parse(t, c.SVG())
	bars := barRects(t, root)
	if len(bars) != 3 {
		t.Fatalf("%d bars", len(bars))
	}
	band := (616.0 - 64) / 3
	for k, want := range []float64{280.0 / 3, 280, 280} {
		b := bars[k]
		if !near(b[3], math.Round(want*100)/100) || !near(b[1]+b[3], 312) || !near(b[0], math.Round((64+band*float64(k)+band*0.1)*100)/100) {
			t.Errorf("bar %d = %v, want height %v from the baseline", k, b, want)
		}
	}
	if inf := root.find("text", "inf"); len(inf) != 1 || inf[0].Text != "∞" {
		t.Error("no ∞ mark on the infinite bar")
	}
	if got := root.find("rect", "bar")[2].title(); got != "c — fisher: ∞" {
		t.Errorf("hover %q", got)
	}
}

// Horizontal grouped bars with whiskers; negative values extend left of
// zero.
func TestBarChartHorizontal(t *testing.T) {
	c := &BarChart{Frame: Frame{Title: "Redundancy", Width: 500}, Horizontal: true, Categories: []string{"rfs", "fisher"},
		Series: []BarSeries{{Name: "K=10", Values: []float64{0.5, -0.25}, Err: []float64{0.1, 0}}, {Name: "K=20", Values: []float64{0.75, 0.25}}}}
	root := parse(t, c.SVG())
	bars := barRects(t, root)
	if len(bars) != 4 {
		t.Fatalf("%d bars", len(bars))
	}
	// Values and whiskers span [−0.25, 0.75]; about six intervals of a nice
	// step (1/6 → 0.2) give the axis −0.4 … 0.8.
	if got := ticks(root, "x-axis", false); got != "-0.4 -0.2 0.0 0.2 0.4 0.6 0.8" {
		t.Errorf("value axis %v", got)
	}
	zero := bars[0][0]
	if !near(bars[1][0]+bars[1][2], zero) {
		t.Errorf("negative bar %v should end at zero %v", bars[1], zero)
	}
	// Widths are proportional to the values: 0.5, 0.25, 0.75, 0.25.
	unit := bars[0][2] / 0.5
	for k, v := range []float64{0.5, 0.25, 0.75, 0.25} {
		if math.Abs(bars[k][2]-v*unit) > 0.02 {
			t.Errorf("bar %d width %v, want %v", k, bars[k][2], v*unit)
		}
	}
	if len(root.find("path", "whisker")) != 1 {
		t.Error("whisker count")
	}
	if len(root.find("text", "legend-text")) != 2 {
		t.Error("legend")
	}
}

func TestRamp(t *testing.T) {
	if Ramp(0) != "#440154" || Ramp(1) != "#fde725" || Ramp(-3) != "#440154" || Ramp(7) != "#fde725" {
		t.Errorf("ends %s %s", Ramp(0), Ramp(1))
	}
	// 0.5 lies halfway between the 5th and 6th anchors: (#26828e + #1f9e89)/2
	// rounded is (34.5, 144, 139.5) → #23908c.
	if got := Ramp(0.5); got != "#23908c" {
		t.Errorf("Ramp(0.5) = %s", got)
	}
	if light(0) || !light(1) {
		t.Error("text colour on the ramp")
	}
}

func TestHeatMap(t *testing.T) {
	c := NewHeatMap(Frame{Title: "|W|"})
	c.Rows, c.Cols = []string{"gene_1", "gene_2"}, []string{"ALL", "AML"}
	c.Values = [][]float64{{0, 2}, {1, math.NaN()}}
	c.ShowValues = true
	root := parse(t, c.SVG())
	cells := root.find("rect", "cell")
	if len(cells) != 3 {
		t.Fatalf("%d cells, want 3 (NaN left empty)", len(cells))
	}
	want := []struct{ fill, title string }{{Ramp(0), "gene_1 × ALL: 0"}, {Ramp(1), "gene_1 × AML: 2"}, {Ramp(0.5), "gene_2 × ALL: 1"}}
	for i, w := range want {
		if cells[i].attr("fill") != w.fill || cells[i].title() != w.title {
			t.Errorf("cell %d: %s %q, want %s %q", i, cells[i].attr("fill"), cells[i].title(), w.fill, w.title)
		}
	}
	vals := root.find("text", "cell-value")
	if len(vals) != 3 || vals[0].attr("fill") != "#ffffff" || vals[1].attr("fill") != "#000000" {
		t.Errorf("cell values %v", vals)
	}
	// Fixed ends: 2 is then the middle of [0, 4].
	c.Min, c.Max = 0, 4
	root = parse(t, c.SVG())
	if got := root.find("rect", "cell")[1].attr("fill"); got != Ramp(0.5) {
		t.Errorf("with fixed ends %s", got)
	}
	// The colour bar is ticked from 0 to 4.
	if got := ticks(root, "colour-bar", false); got != "0 1 2 3 4" {
		t.Errorf("colour bar ticks %v", got)
	}
}

// A quantity that cannot be negative (a time) with a deviation larger
// than its mean keeps its axis and its whisker at 0 and above.
func TestBarsNonNegative(t *testing.T) {
	c := &BarChart{Frame: Frame{ID: "t", Title: "time"}, Categories: []string{"a", "b"}, Horizontal: true, NonNegative: true,
		Series: []BarSeries{{Name: "s", Values: []float64{0.002, 0.5}, Err: []float64{0.004, 0.1}}}}
	if lo, hi := c.valueDomain(); lo != 0 || hi != 0.6 {
		t.Errorf("domain [%v, %v], want [0, 0.6]", lo, hi)
	}
	if svg := c.SVG(); strings.Contains(svg, ">−") || strings.Contains(svg, ">-") {
		t.Errorf("a negative tick: %s", svg)
	}
	c.NonNegative = false
	if lo, _ := c.valueDomain(); lo >= 0 {
		t.Errorf("without NonNegative the whisker reaches %v", lo)
	}
}
