// Command l20experiments reproduces, for the l20 and topk selectors, the
// sparsity-level experiment (§6.4) and the convergence experiment (§6.5) of
// An, Dong and Qin (2021) on the shared datasets (scikit-feature's benchmark
// collection as gzip-compressed CSV files, kept outside the repository:
// -data DIR, $SPARSEFS_DATA or ../shared/data; docs/results.md#datasets).
// It writes the numbers as
// CSV and draws the figures as SVG (a small plain-Go plotter below; no
// third-party tools) into the output directory, and prints a summary.
//
//	GOTOOLCHAIN=go1.27.3 go run ./scripts/l20experiments [-data DIR] [-out docs/figures] [-kmax 50] [-only sparsity|convergence]
//
// Sparsity (§6.4): on lung_discrete (73 × 325, 7 classes) and lymphoma
// (96 × 4026, 9 classes; the paper's LUNG, 203 × 3312, is not among the
// shared data), z-scored, K = 1…kmax. l20 with the defaults
// (γ = 0.1, ρ = 0.01ρ_max, Algorithm 2) over the K path with warm starts;
// l20 with ρ = 1.01ρ_max (the exact-penalty regime of Theorem 3.1), also
// warm-started; topk (μ = 0.1, ρ = 1.02, ≤ 1000 iterations) for each K.
// Plotted: the sparsity level (rows above 1e−6 × the largest) of l20's
// penalised solution, of the W l20 returns, of topk's split variable W and
// of its V.
//
// Convergence (§6.5): on COIL20 and Isolet, z-scored, γ = 0.1, ρ = 0.01,
// K = 10 as in the paper. The exact objective F of (3.2) at each iterate
// of Algorithm 1 (one stage at the fixed μ = μ* = 2ε/(m + γ(n+1)), at most
// 1000 iterations, rule (6.1)) and of Algorithm 2 (μ0 = 1, σ = 0.1,
// ε = 0.1, 200 iterations a stage); and topk's objective ||XV + 1bᵀ −
// Y||_{2,1} per iteration.
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sparsefs/core/dataset"
	"sparsefs/core/selection"
)

func main() {
	data := flag.String("data", defaultData(), "the shared data directory")
	out := flag.String("out", "docs/figures", "where to write the CSV and SVG files")
	kmax := flag.Int("kmax", 50, "largest K of the sparsity experiment")
	only := flag.String("only", "", "run only one experiment: sparsity or convergence; plot redraws the figures from the CSV files")
	sets := flag.String("sparsity", "lung_discrete,lymphoma", "datasets of the sparsity experiment")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	if *only == "" || *only == "sparsity" {
		for _, name := range strings.Split(*sets, ",") {
			fail(sparsity(*data, *out, name, *kmax))
		}
	}
	if *only == "plot" {
		fail(replot(*out, strings.Split(*sets, ",")))
		return
	}
	if *only == "" || *only == "convergence" {
		for _, name := range []string{"COIL20", "Isolet"} {
			fail(convergence(*data, *out, name))
		}
	}
}

func defaultData() string {
	if d := os.Getenv("SPARSEFS_DATA"); d != "" {
		return d
	}
	return "../shared/data"
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "l20experiments:", err)
		os.Exit(1)
	}
}

// load reads a shared dataset and z-scores it, with a bias.
func load(dir, name string) (*selection.Problem, error) {
	raw, err := os.ReadFile(filepath.Join(dir, name+".csv.gz"))
	if err != nil {
		return nil, err
	}
	ds, err := dataset.Parse(raw, dataset.Options{})
	if err != nil {
		return nil, err
	}
	x := dataset.FitScaler(dataset.ZScore, ds.X).Transform(ds.X)
	return &selection.Problem{X: x, Y: ds.Y, C: len(ds.Classes), Bias: true}, nil
}

func sparsity(dir, out, name string, kmax int) error {
	p, err := load(dir, name)
	if err != nil {
		return err
	}
	m, n := p.X.Dims()
	ctx := context.Background()
	ks := make([]int, kmax)
	for i := range ks {
		ks[i] = i + 1
	}
	start := time.Now()
	def, err := selection.NewL20(1).SolvePath(ctx, p, nil, ks)
	if err != nil {
		return err
	}
	tDef := time.Since(start)
	exact := selection.NewL20(1)
	exact.Rho = 1.01 * def[0].RhoMax
	start = time.Now()
	strict, err := exact.SolvePath(ctx, p, nil, ks)
	if err != nil {
		return err
	}
	tStrict := time.Since(start)
	var tTopK time.Duration
	topk := make([]*selection.TopKFit, len(ks))
	for i, k := range ks {
		start = time.Now()
		if topk[i], err = selection.NewTopK(k).Solve(ctx, p, nil); err != nil {
			return err
		}
		tTopK += time.Since(start)
	}
	rows := [][]string{{"K", "l20_penalised_level", "l20_penalised_nonzero", "l20_nonzero", "l20_objective", "l20_projected", "l20_swaps",
		"l20exact_penalised_level", "l20exact_nonzero", "l20exact_objective", "l20exact_projected",
		"topk_W_level", "topk_V_nonzero", "topk_objective", "topk_iterations"}}
	worse, above := 0, 0
	for i, k := range ks {
		d, s, t := def[i], strict[i], topk[i]
		dNZ := selection.NonzeroRows(d.Scores, 0)
		sNZ := selection.NonzeroRows(s.Scores, 0)
		tW := selection.NonzeroRows(selection.RowNorms(t.Split, n), selection.SparsityTol)
		tV := selection.NonzeroRows(t.Scores, 0)
		if dNZ > k || sNZ > k {
			above++
		}
		if s.Objective < d.Objective {
			worse++
		}
		rows = append(rows, []string{strconv.Itoa(k), itoa(d.PenalisedLevel), itoa(d.PenalisedRows), itoa(dNZ), ftoa(d.Objective), btoa(d.Projected), itoa(d.Swaps),
			itoa(s.PenalisedLevel), itoa(sNZ), ftoa(s.Objective), btoa(s.Projected),
			itoa(tW), itoa(tV), ftoa(t.Objective), itoa(t.Iterations)})
	}
	title := fmt.Sprintf("Sparsity level vs K — %s (%d × %d), z-scored", name, m, n)
	if err := writeCSV(filepath.Join(out, "l20_sparsity_"+name+".csv"), title, rows); err != nil {
		return err
	}
	if err := sparsityFigure(out, name); err != nil {
		return err
	}
	fmt.Printf("sparsity (%s, K = 1…%d): l20 default %.1f s, l20 ρ = 1.01ρ_max %.1f s, topk %.1f s; K-violations %d; ρ = 1.01ρ_max better at %d of %d K\n",
		name, kmax, tDef.Seconds(), tStrict.Seconds(), tTopK.Seconds(), above, worse, len(ks))
	return nil
}

func convergence(dir, out, name string) error {
	p, err := load(dir, name)
	if err != nil {
		return err
	}
	m, n := p.X.Dims()
	ctx := context.Background()
	const k = 10
	alg2 := selection.NewL20(k)
	alg2.Rho, alg2.Swaps = 0.01, 0
	start := time.Now()
	f2, err := alg2.SolvePath(ctx, p, nil, []int{k})
	if err != nil {
		return err
	}
	t2 := time.Since(start)
	alg1 := selection.NewL20(k)
	alg1.Rho, alg1.Swaps = 0.01, 0
	alg1.Mu0 = f2[0].MuStar
	alg1.StageIter = 1000
	start = time.Now()
	f1, err := alg1.SolvePath(ctx, p, nil, []int{k})
	if err != nil {
		return err
	}
	t1 := time.Since(start)
	start = time.Now()
	tk, err := selection.NewTopK(k).Solve(ctx, p, nil)
	if err != nil {
		return err
	}
	tt := time.Since(start)
	pen := func(f *selection.L20Fit) []float64 { return f.Exact[:f.Iterations-f.ReoptIterations] }
	e1, e2 := pen(f1[0]), pen(f2[0])
	rows := [][]string{{"iteration", "alg1_F", "alg1_mu", "alg2_F", "alg2_mu", "topk_objective"}}
	for it := 0; it < max(len(e1), len(e2), len(tk.Trace)); it++ {
		row := []string{strconv.Itoa(it + 1), "", "", "", "", ""}
		if it < len(e1) {
			row[1], row[2] = ftoa(e1[it]), ftoa(f1[0].Mu[it])
		}
		if it < len(e2) {
			row[3], row[4] = ftoa(e2[it]), ftoa(f2[0].Mu[it])
		}
		if it < len(tk.Trace) {
			row[5] = ftoa(tk.Trace[it])
		}
		rows = append(rows, row)
	}
	title := fmt.Sprintf("%s (%d × %d)", name, m, n)
	if err := writeCSV(filepath.Join(out, "l20_convergence_"+name+".csv"), title, rows); err != nil {
		return err
	}
	if err := convergenceFigure(out, name); err != nil {
		return err
	}
	fmt.Printf("convergence (%s %d×%d): Algorithm 1 %d iterations, F %.6g → %.6g, %.1f s; Algorithm 2 %d iterations in %d stages, F %.6g → %.6g, %.1f s; topk %d iterations (%s), %.6g → %.6g, %.1f s\n",
		name, m, n, len(e1), e1[0], e1[len(e1)-1], t1.Seconds(), len(e2), f2[0].Stages, e2[0], e2[len(e2)-1], t2.Seconds(),
		tk.Iterations, tk.Status, tk.Trace[0], tk.Objective, tt.Seconds())
	return nil
}

// replot redraws every figure from its CSV file.
func replot(out string, sparsitySets []string) error {
	for _, name := range sparsitySets {
		if err := sparsityFigure(out, name); err != nil {
			return err
		}
	}
	for _, name := range []string{"COIL20", "Isolet"} {
		if err := convergenceFigure(out, name); err != nil {
			return err
		}
	}
	return nil
}

// readCSV returns the title comment and the columns of a CSV file written
// by writeCSV, by header name; empty cells are NaN.
func readCSV(path string) (string, map[string][]float64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	text := string(raw)
	title := ""
	if strings.HasPrefix(text, "# ") {
		line, rest, _ := strings.Cut(text, "\n")
		title, text = strings.TrimPrefix(line, "# "), rest
	}
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) < 2 {
		return "", nil, fmt.Errorf("%s: %v", path, err)
	}
	cols := map[string][]float64{}
	for _, row := range rows[1:] {
		for j, name := range rows[0] {
			v := math.NaN()
			switch row[j] {
			case "", "true", "false":
				if row[j] == "true" {
					v = 1
				} else if row[j] == "false" {
					v = 0
				}
			default:
				if v, err = strconv.ParseFloat(row[j], 64); err != nil {
					return "", nil, fmt.Errorf("%s: %v", path, err)
				}
			}
			cols[name] = append(cols[name], v)
		}
	}
	return title, cols, nil
}

// defined keeps the leading run of non-NaN values of y (and x).
func defined(x, y []float64) ([]float64, []float64) {
	n := 0
	for n < len(y) && !math.IsNaN(y[n]) {
		n++
	}
	return x[:n], y[:n]
}

func sparsityFigure(out, name string) error {
	title, c, err := readCSV(filepath.Join(out, "l20_sparsity_"+name+".csv"))
	if err != nil {
		return err
	}
	k := c["K"]
	fig := []panel{{
		title: title, xlabel: "K (features asked for)", ylabel: "rows with ||w|| > 1e−6·max", logy: true, legend: "br",
		series: []series{
			{name: "l20 penalised, ρ = 0.01ρmax", x: k, y: c["l20_penalised_level"], color: "#d62728"},
			{name: "l20 penalised, ρ = 1.01ρmax", x: k, y: c["l20exact_penalised_level"], color: "#2ca02c"},
			{name: "topk split variable W", x: k, y: c["topk_W_level"], color: "#9467bd"},
			{name: "l20 returned W (both ρ)", x: k, y: c["l20_nonzero"], color: "#1f77b4"},
			{name: "topk V", x: k, y: c["topk_V_nonzero"], color: "#ff7f0e", dash: true},
			{name: "y = K", x: k, y: k, color: "#555555", dash: true},
		},
	}}
	return writeSVG(filepath.Join(out, "l20_sparsity_"+name+".svg"), fig, 760, 480)
}

func convergenceFigure(out, name string) error {
	title, c, err := readCSV(filepath.Join(out, "l20_convergence_"+name+".csv"))
	if err != nil {
		return err
	}
	it := c["iteration"]
	x1, y1 := defined(it, c["alg1_F"])
	x2, y2 := defined(it, c["alg2_F"])
	xt, yt := defined(it, c["topk_objective"])
	fig := []panel{
		{
			title: "l20 on " + title + ": F of (3.2), γ = 0.1, ρ = 0.01, K = 10", xlabel: "iteration", ylabel: "F(W^k)", logy: true, legend: "tr",
			series: []series{
				{name: fmt.Sprintf("Algorithm 1 (μ = μ* = %.2g)", c["alg1_mu"][0]), x: x1, y: y1, color: "#d62728"},
				{name: "Algorithm 2 (μ0 = 1, σ = 0.1)", x: x2, y: y2, color: "#1f77b4"},
			},
		},
		{
			title: "topk on " + title + ": ||XV + 1bᵀ − Y||₂,₁, K = 10", xlabel: "iteration", ylabel: "objective", logy: true, legend: "tr",
			series: []series{{name: "topk (μ = 0.1, ρ = 1.02)", x: xt, y: yt, color: "#9467bd"}},
		},
	}
	return writeSVG(filepath.Join(out, "l20_convergence_"+name+".svg"), fig, 1100, 440)
}

func itoa(v int) string     { return strconv.Itoa(v) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }
func btoa(v bool) string    { return strconv.FormatBool(v) }

// writeCSV writes rows after a comment line holding the figure's title.
func writeCSV(path, title string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "# %s\n", title)
	w := csv.NewWriter(f)
	if err := w.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// --- a small SVG line plotter ---

type series struct {
	name  string
	x, y  []float64
	color string
	dash  bool
}

type panel struct {
	title, xlabel, ylabel string
	logy                  bool
	// legend is the corner of the legend: "tr" (top right) or "br".
	legend string
	series []series
}

// writeSVG draws the panels side by side in a w×h picture.
func writeSVG(path string, panels []panel, w, h int) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	pw := float64(w) / float64(len(panels))
	for i, p := range panels {
		drawPanel(&b, p, float64(i)*pw, 0, pw, float64(h))
	}
	b.WriteString("</svg>\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func drawPanel(b *strings.Builder, p panel, x0, y0, w, h float64) {
	const left, right, top, bottom = 70.0, 20.0, 40.0, 50.0
	px0, px1 := x0+left, x0+w-right
	py0, py1 := y0+h-bottom, y0+top // y grows downwards
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range p.series {
		for i := range s.x {
			if math.IsNaN(s.y[i]) || (p.logy && s.y[i] <= 0) {
				continue
			}
			xmin, xmax = math.Min(xmin, s.x[i]), math.Max(xmax, s.x[i])
			ymin, ymax = math.Min(ymin, s.y[i]), math.Max(ymax, s.y[i])
		}
	}
	fy := func(v float64) float64 { return v }
	if p.logy {
		fy = math.Log10
		ymin, ymax = math.Pow(10, math.Floor(math.Log10(ymin))), math.Pow(10, math.Ceil(math.Log10(ymax)))
	} else {
		ymin, ymax = niceRange(ymin, ymax)
	}
	xmin, xmax = niceRange(math.Min(xmin, 0), xmax)
	sx := func(v float64) float64 { return px0 + (v-xmin)/(xmax-xmin)*(px1-px0) }
	sy := func(v float64) float64 { return py0 + (fy(v)-fy(ymin))/(fy(ymax)-fy(ymin))*(py1-py0) }
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="13" font-weight="bold">%s</text>`+"\n", (px0+px1)/2, y0+22, esc(p.title))
	// Axes, ticks and grid.
	for _, t := range ticks(xmin, xmax, false) {
		x := sx(t)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", x, py0, x, py1)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", x, py0+16, tickLabel(t))
	}
	for _, t := range ticks(ymin, ymax, p.logy) {
		y := sy(t)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", px0, y, px1, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", px0-6, y+4, tickLabel(t))
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", px0, py1, px1-px0, py0-py1)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", (px0+px1)/2, py0+36, esc(p.xlabel))
	fmt.Fprintf(b, `<text transform="translate(%.1f %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", x0+16, (py0+py1)/2, esc(p.ylabel))
	// Lines.
	for _, s := range p.series {
		var pts []string
		for i := range s.x {
			if math.IsNaN(s.y[i]) || (p.logy && s.y[i] <= 0) {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx(s.x[i]), sy(s.y[i])))
		}
		dash := ""
		if s.dash {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="1.8"%s points="%s"/>`+"\n", s.color, dash, strings.Join(pts, " "))
	}
	// Legend on a veil, in its corner.
	ly := py1 + 4
	if p.legend == "br" {
		ly = py0 - 10 - 16*float64(len(p.series))
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="white" fill-opacity="0.85" stroke="#ccc"/>`+"\n", px1-256, ly, 250.0, 16*float64(len(p.series))+6)
	for i, s := range p.series {
		y := ly + 16 + 16*float64(i)
		dash := ""
		if s.dash {
			dash = ` stroke-dasharray="6 4"`
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", px1-250, y-4, px1-222, y-4, s.color, dash)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", px1-216, y, esc(s.name))
	}
}

// niceRange widens [lo, hi] to multiples of a round step.
func niceRange(lo, hi float64) (float64, float64) {
	if hi <= lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 5)
	return math.Floor(lo/step) * step, math.Ceil(hi/step) * step
}

func niceStep(raw float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*e >= raw {
			return f * e
		}
	}
	return 10 * e
}

func ticks(lo, hi float64, log bool) []float64 {
	var out []float64
	if log {
		for v := lo; v <= hi*1.0001; v *= 10 {
			out = append(out, v)
		}
		return out
	}
	step := niceStep((hi - lo) / 5)
	for v := lo; v <= hi+step/1e6; v += step {
		out = append(out, v)
	}
	return out
}

func tickLabel(v float64) string {
	if v != 0 && (math.Abs(v) >= 1e5 || math.Abs(v) < 1e-3) {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
