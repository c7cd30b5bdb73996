package selection

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
	"sparsefs/core/sparse"
)

// loadProblem reads a shared dataset, z-scores it and keeps the rows and
// columns whose index is a multiple of rowStep and colStep (a deterministic
// subsample that keeps the tests affordable); the bias is on.
func loadProblem(t testing.TB, name string, rowStep, colStep int) *Problem {
	t.Helper()
	raw, err := os.ReadFile(testdata.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Parse(raw, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.FitScaler(dataset.ZScore, ds.X).Transform(ds.X)
	m, n := x.Dims()
	var rows, cols []int
	for i := 0; i < m; i += rowStep {
		rows = append(rows, i)
	}
	for j := 0; j < n; j += colStep {
		cols = append(cols, j)
	}
	sub := mat.NewDense(len(rows), len(cols), nil)
	y := make([]int, len(rows))
	for a, i := range rows {
		for b, j := range cols {
			sub.Set(a, b, x.At(i, j))
		}
		y[a] = ds.Y[i]
	}
	return &Problem{X: sub, Y: y, C: len(ds.Classes), Bias: true}
}

// randomProblem returns a seeded m×n classification problem whose first
// few features carry the class.
func randomProblem(m, n, c int, seed uint64) *Problem {
	rng := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(m, n, nil)
	y := make([]int, m)
	for i := range y {
		y[i] = i % c
		for j := 0; j < n; j++ {
			v := rng.NormFloat64()
			if j < 2*c && j%c == y[i] {
				v += 1.5
			}
			x.Set(i, j, v)
		}
	}
	return &Problem{X: x, Y: y, C: c, Bias: true}
}

func fitExl21(t *testing.T, e Exl21, p *Problem, tol float64, maxIter int) *Result {
	t.Helper()
	res, err := e.Fit(context.Background(), p, &Settings{Tolerance: tol, MaxIterations: maxIter})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// exl21Objective recomputes J(W) = ‖XW − Y‖² + α‖W‖_{2,1} + β‖W‖_{1,2}²
// from scratch.
func exl21Objective(p *Problem, w *mat.Dense, alpha, beta float64) float64 {
	a := p.Design()
	r := mat.NewDense(a.RawMatrix().Rows, w.RawMatrix().Cols, nil)
	r.Mul(a, w)
	r.Sub(r, p.Response(OneHot))
	f := mat.Norm(r, 2)
	_, c := w.Dims()
	return f*f + alpha*sparse.RowsL21(w.RawMatrix().Data, c) + beta*sparse.RowsL12Sq(w.RawMatrix().Data, c)
}

// checkExl21KKT verifies 0 ∈ ∇f(W) + ∂h at every row of W: for a nonzero
// row, u = −2x_jᵀ(XW − Y) − αw/‖w‖₂ must equal 2β‖w‖₁·sign(w) on the
// support and lie within ±2β‖w‖₁ off it; for a zero row ‖u‖₂ ≤ α (the
// subdifferential of β‖·‖₁² at 0 is {0}). Tolerances are relative to the
// largest gradient entry.
func checkExl21KKT(t *testing.T, p *Problem, w *mat.Dense, alpha, beta, tol float64) {
	t.Helper()
	g := lossGradient(p, w, -2)
	n, _ := g.Dims()
	scale := mat.Norm(g, math.Inf(1)) + alpha
	for j := 0; j < n; j++ {
		row, gj := w.RawRowView(j), g.RawRowView(j)
		nrm := sparse.L2(row)
		if nrm == 0 {
			if sparse.L2(gj) > alpha+tol*scale {
				t.Errorf("zero row %d: ‖∇_j f‖ = %v > α = %v", j, sparse.L2(gj), alpha)
			}
			continue
		}
		l1 := sparse.L1(row)
		for k, v := range row {
			u := gj[k] - alpha*v/nrm
			if v != 0 {
				if d := math.Abs(u - 2*beta*l1*math.Copysign(1, v)); d > tol*scale {
					t.Errorf("row %d class %d: stationarity residual %v", j, k, d)
				}
			} else if math.Abs(u) > 2*beta*l1+tol*scale {
				t.Errorf("row %d class %d: |u| = %v > 2β‖w‖₁ = %v", j, k, math.Abs(u), 2*beta*l1)
			}
		}
	}
}

// lossGradient returns s·Xᵀ(XW − Y) (s = 2: the gradient of the least
// squares), computed with gonum.
func lossGradient(p *Problem, w *mat.Dense, s float64) *mat.Dense {
	a := p.Design()
	m, n := a.Dims()
	_, c := w.Dims()
	r := mat.NewDense(m, c, nil)
	r.Mul(a, w)
	r.Sub(r, p.Response(OneHot))
	g := mat.NewDense(n, c, nil)
	g.Mul(a.T(), r)
	g.Scale(s, g)
	return g
}

func checkMonotone(t *testing.T, name string, trace []float64, rel float64) {
	t.Helper()
	for k := 1; k < len(trace); k++ {
		if trace[k] > trace[k-1]*(1+rel) {
			t.Errorf("%s: objective rose at iteration %d: %v → %v", name, k+1, trace[k-1], trace[k])
			return
		}
	}
}

// On a small random problem the two solvers of the convex model agree, the
// answer satisfies the optimality conditions, the reported objective is J
// recomputed from scratch, the trace never rises, and the duality gap
// bounds the distance to the optimum.
func TestExl21SolversAgreeSmall(t *testing.T) {
	p := randomProblem(30, 12, 3, 1)
	for _, ab := range [][2]float64{{1, 1}, {5, 0.2}, {0.3, 4}, {0, 1}, {2, 0}} {
		alpha, beta := ab[0], ab[1]
		var objs []float64
		for _, sv := range []Exl21Solver{Exl21CD, Exl21FISTA} {
			res := fitExl21(t, Exl21{Alpha: alpha, Beta: beta, Solver: sv}, p, 1e-11, 100000)
			if res.Status != MethodConverged {
				t.Errorf("α=%v β=%v %v: status %v after %d iterations", alpha, beta, sv, res.Status, res.Iterations)
			}
			if j := exl21Objective(p, res.W, alpha, beta); !relClose(res.Objective, j, 1e-12) {
				t.Errorf("α=%v β=%v %v: reported %v, recomputed %v", alpha, beta, sv, res.Objective, j)
			}
			checkMonotone(t, sv.String(), res.Trace, 1e-14)
			checkExl21KKT(t, p, res.W, alpha, beta, 1e-4)
			objs = append(objs, res.Objective)
		}
		if !relClose(objs[0], objs[1], 1e-10) {
			t.Errorf("α=%v β=%v: cd %v, fista %v", alpha, beta, objs[0], objs[1])
		}
	}
}

// The duality gap is an upper bound on J(W) − J* at any W (here random
// points near and far from the optimum), and vanishes at the optimum.
func TestExl21DualityGap(t *testing.T) {
	p := randomProblem(20, 8, 3, 2)
	for _, ab := range [][2]float64{{1, 1}, {0, 2}, {3, 0}} {
		opt := fitExl21(t, Exl21{Alpha: ab[0], Beta: ab[1], Solver: Exl21CD}, p, 1e-13, 100000)
		a := p.Design()
		md := &exl21Model{loss: newSqLoss(a, p.Response(OneHot)), alpha: ab[0], beta: ab[1], n: 9, nf: 8, c: 3}
		rng := rand.New(rand.NewPCG(5, 5))
		grad := mat.NewDense(9, 3, nil)
		for trial := 0; trial < 50; trial++ {
			w := mat.DenseCopyOf(opt.W)
			size := math.Pow(10, float64(trial%6)-4)
			for i := range w.RawMatrix().Data {
				w.RawMatrix().Data[i] += size * rng.NormFloat64()
			}
			aux := md.loss.newAux()
			md.loss.aux(aux, w)
			f := md.objective(w, aux)
			gap := md.dualityGap(w, aux, grad, f, make([]float64, 3))
			if gap < f-opt.Objective-1e-12*f {
				t.Errorf("α,β=%v: gap %v < J(W) − J* = %v", ab, gap, f-opt.Objective)
			}
		}
		aux := md.loss.newAux()
		md.loss.aux(aux, opt.W)
		if gap := md.dualityGap(opt.W, aux, grad, opt.Objective, make([]float64, 3)); gap > 1e-9*opt.Objective {
			t.Errorf("α,β=%v: gap at the optimum %v", ab, gap)
		}
	}
}

// The done-criterion of the issue on real data: GLIOMA (50 samples; every
// 6th of its 4434 genes, 739 features; residual form) and lung_discrete
// (73 samples; every 5th of its 325 features, 65 features; the Gram form).
// The default solver (cd), run to a certified relative duality gap of
// 1e−10, and fista, a different algorithm, agree to 1e−9 relative (the
// issue asks 1e−6); the optimality conditions hold. The paper's ALM is
// run to its own stopping rule: it never goes below the optimum, and how far
// above it stops is logged (it is not the default for that reason).
func TestExl21RealData(t *testing.T) {
	for _, c := range []struct {
		file    string
		colStep int
		gram    bool
	}{{"GLIOMA.csv.gz", 6, false}, {"lung_discrete.csv.gz", 5, true}} {
		p := loadProblem(t, c.file, 1, c.colStep)
		m, n := p.X.Dims()
		if got := n+1 < m; got != c.gram {
			t.Fatalf("%s: %d×%d does not exercise the intended form", c.file, m, n)
		}
		cd := fitExl21(t, Exl21{Alpha: 1, Beta: 1, Solver: Exl21CD}, p, 1e-10, 100000)
		fi := fitExl21(t, Exl21{Alpha: 1, Beta: 1, Solver: Exl21FISTA}, p, 1e-10, 100000)
		if cd.Status != MethodConverged || fi.Status != MethodConverged {
			t.Errorf("%s: status cd %v, fista %v", c.file, cd.Status, fi.Status)
		}
		if !relClose(cd.Objective, fi.Objective, 1e-9) {
			t.Errorf("%s: cd %.15g, fista %.15g", c.file, cd.Objective, fi.Objective)
		}
		if j := exl21Objective(p, cd.W, 1, 1); !relClose(cd.Objective, j, 1e-10) {
			t.Errorf("%s: reported %v, recomputed %v", c.file, cd.Objective, j)
		}
		checkExl21KKT(t, p, cd.W, 1, 1, 1e-5)
		checkMonotone(t, "cd", cd.Trace, 1e-13)
		checkMonotone(t, "fista", fi.Trace, 1e-13)
		alm := fitExl21(t, Exl21{Alpha: 1, Beta: 1, Solver: Exl21ALM}, p, -1, 2000)
		if alm.Objective < cd.Objective*(1-1e-9) {
			t.Errorf("%s: ALM %v below the certified optimum %v", c.file, alm.Objective, cd.Objective)
		}
		t.Logf("%s %d×%d: optimum %.12g (cd %d it, fista %d it); ALM stops at %.12g (%v, %d it), %.2e above",
			c.file, m, n, cd.Objective, cd.Iterations, fi.Iterations, alm.Objective, alm.Status, alm.Iterations, alm.Objective/cd.Objective-1)
	}
}

// The per-class rankings order each column of W by magnitude, ties by the
// lower index, and leave the bias row out.
func TestPerClassRanking(t *testing.T) {
	w := mat.NewDense(4, 2, []float64{
		0.5, 0,
		-2, 0.1,
		0, -0.1,
		9, 9, // bias row
	})
	got := PerClassRanking(w, 3)
	if want := [][]int{{1, 0, 2}, {1, 2, 0}}; !reflect.DeepEqual(got, want) {
		t.Errorf("PerClassRanking = %v, want %v", got, want)
	}
}

// elasso is the exl21 engine with α = 0: the registry preset takes β and
// the solver only, and fits exactly what Exl21{Alpha: 0} fits.
func TestElassoPreset(t *testing.T) {
	spec, err := Lookup("elasso")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spec.Resolve(map[string]any{"alpha": 1.0}); err == nil {
		t.Error("elasso accepted alpha")
	}
	params, err := spec.Resolve(map[string]any{"beta": "0.5", "solver": "fista"})
	if err != nil {
		t.Fatal(err)
	}
	sel, err := spec.New(params)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Exl21{Alpha: 0, Beta: 0.5, Solver: Exl21FISTA}); sel != want {
		t.Errorf("elasso = %+v, want %+v", sel, want)
	}
	// Every row of an exclusive-lasso solution keeps a nonzero entry
	// (Proposition 3 of the paper), unless its gradient vanishes.
	p := randomProblem(20, 6, 3, 3)
	res := fitExl21(t, Exl21{Beta: 0.5}, p, 1e-10, 10000)
	if nz := NonzeroRows(res.Scores, 0); nz != 6 {
		t.Errorf("elasso zeroed whole rows: %d of 6 nonzero", nz)
	}
	if len(res.PerClass) != 3 || len(res.PerClass[0]) != 6 {
		t.Errorf("per-class rankings %v", res.PerClass)
	}
}

func TestExl21Validate(t *testing.T) {
	spec, _ := Lookup("exl21")
	for _, bad := range []map[string]any{{"alpha": -1.0}, {"beta": "x"}, {"solver": "newton"}} {
		if _, err := spec.Resolve(bad); err == nil {
			t.Errorf("Resolve(%v) accepted", bad)
		}
	}
	if err := (Exl21{Alpha: math.NaN()}).Validate(); err == nil {
		t.Error("NaN alpha accepted")
	}
	// Real-valued targets are accepted (docs/methods.md#regression).
	p := randomProblem(15, 5, 2, 4)
	q := &Problem{X: p.X, Targets: mat.NewDense(15, 1, nil), Bias: true}
	for i := 0; i < 15; i++ {
		q.Targets.Set(i, 0, p.X.At(i, 0)-2*p.X.At(i, 3))
	}
	res := fitExl21(t, Exl21{Alpha: 0.1, Beta: 0.1}, q, 1e-10, 10000)
	if res.Ranking[0] != 3 || res.Ranking[1] != 0 {
		t.Errorf("regression targets: ranking %v", res.Ranking)
	}
}

// The certificate a fit reports at the default tolerance is true: its dual
// value lies below the optimum (a fit to a gap of 10⁻¹³), its relative gap
// bounds (J − J*)/J, and it is at most the tolerance the solvers stop at —
// exl21 (cd, fista) and elasso (reweight).
func TestExl21Certificate(t *testing.T) {
	p := randomProblem(40, 15, 3, 4)
	for _, e := range []Exl21{{Alpha: 1, Beta: 1, Solver: Exl21CD}, {Alpha: 1, Beta: 1, Solver: Exl21FISTA}, {Alpha: 0, Beta: 2, Solver: Exl21Reweight}} {
		res := fitExl21(t, e, p, 1e-6, 100000)
		opt := fitExl21(t, Exl21{Alpha: e.Alpha, Beta: e.Beta, Solver: Exl21CD}, p, 1e-13, 1000000)
		c := res.Certificate
		if c == nil {
			t.Fatalf("%v: no certificate", e.Solver)
		}
		if c.Dual > opt.Objective*(1+1e-12) || (res.Objective-opt.Objective)/res.Objective > c.Gap+1e-12 || c.Gap > 1e-6 {
			t.Errorf("%v: J %v, J* %v, certificate %+v", e.Solver, res.Objective, opt.Objective, c)
		}
	}
}
