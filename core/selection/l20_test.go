package selection

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
)

// l20Data loads a shared dataset, keeps the given columns (all when cols is
// nil) and z-scores them, with a bias.
func l20Dataset(tb testing.TB, name string, cols []int) *Problem {
	tb.Helper()
	raw, err := os.ReadFile(testdata.Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	ds, err := dataset.Parse(raw, dataset.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	x := ds.X
	if cols != nil {
		m, _ := x.Dims()
		sub := mat.NewDense(m, len(cols), nil)
		for i := 0; i < m; i++ {
			for jj, j := range cols {
				sub.Set(i, jj, x.At(i, j))
			}
		}
		x = sub
	}
	return &Problem{X: dataset.FitScaler(dataset.ZScore, x).Transform(x), Y: ds.Y, C: len(ds.Classes), Bias: true}
}

// seededCols returns k distinct columns of 0…n−1 drawn with a fixed seed.
func seededCols(n, k int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 99))
	return rng.Perm(n)[:k]
}

// l21Objective is ||AW − Y||_{2,1} + γ||W||_{2,1} computed with gonum from
// the problem's design, independently of the solvers.
func l21Objective(p *Problem, w *mat.Dense, gamma float64) float64 {
	return l21Value(p.Design(), p.Response(OneHot), w, gamma)
}

// l21Value is ||AW − Y||_{2,1} + γ||W||_{2,1}.
func l21Value(a, y, w *mat.Dense, gamma float64) float64 {
	var r mat.Dense
	r.Mul(a, w)
	r.Sub(&r, y)
	m, _ := r.Dims()
	rw, _ := w.Dims()
	f := 0.0
	for _, v := range RowNorms(&r, m) {
		f += v
	}
	for _, v := range RowNorms(w, rw) {
		f += gamma * v
	}
	return f
}

// irlsL21 is the independent solver of the convex model (2.1),
// min_W ||AW − Y||_{2,1} + γ||W||_{2,1}, written for these tests: iteratively
// reweighted least squares (the reweighting of Nie et al. 2010, here in
// the primal p×p form), W ← (AᵀD₁A + γD₂)⁻¹AᵀD₁Y with D₁ =
// diag(1/(2√(||r_i||² + ε))) and D₂ = diag(1/(2√(||w^j||² + ε))). Each step
// minimises a quadratic majoriser of the ε-smoothed objective, which
// therefore never increases. It runs until the relative change of the
// objective is below 1e−13 (at most 20000 steps) and returns the exact
// objective and W. a is m×p, y m×c.
func irlsL21(a, y *mat.Dense, gamma float64) (float64, *mat.Dense) {
	m, p := a.Dims()
	_, c := y.Dims()
	const eps = 1e-18
	w := mat.NewDense(p, c, nil)
	// Start: ridge least squares.
	var ata mat.Dense
	ata.Mul(a.T(), a)
	for j := 0; j < p; j++ {
		ata.Set(j, j, ata.At(j, j)+gamma)
	}
	var aty mat.Dense
	aty.Mul(a.T(), y)
	if err := w.Solve(&ata, &aty); err != nil {
		panic(err)
	}
	obj := func(w *mat.Dense) float64 { return l21Value(a, y, w, gamma) }
	prev := obj(w)
	da := mat.NewDense(m, p, nil)
	for it := 0; it < 20000; it++ {
		var r mat.Dense
		r.Mul(a, w)
		r.Sub(&r, y)
		rn := RowNorms(&r, m)
		for i := 0; i < m; i++ {
			d := 1 / (2 * math.Sqrt(rn[i]*rn[i]+eps))
			for j := 0; j < p; j++ {
				da.Set(i, j, d*a.At(i, j))
			}
		}
		var lhs, rhs mat.Dense
		lhs.Mul(a.T(), da)
		rhs.Mul(da.T(), y)
		wn := RowNorms(w, p)
		for j := 0; j < p; j++ {
			lhs.Set(j, j, lhs.At(j, j)+gamma/(2*math.Sqrt(wn[j]*wn[j]+eps)))
		}
		sym := mat.NewSymDense(p, nil)
		for i := 0; i < p; i++ {
			for j := i; j < p; j++ {
				sym.SetSym(i, j, (lhs.At(i, j)+lhs.At(j, i))/2)
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(sym) {
			break
		}
		next := mat.NewDense(p, c, nil)
		if err := ch.SolveTo(next, &rhs); err != nil {
			break
		}
		f := obj(next)
		w = next
		if math.Abs(prev-f) <= 1e-13*f {
			prev = f
			break
		}
		prev = f
	}
	return prev, w
}

// columnsOf returns the m×(|cols|+1) design of the given feature columns
// and the bias.
func columnsOf(p *Problem, cols []int) *mat.Dense {
	m, _ := p.X.Dims()
	a := mat.NewDense(m, len(cols)+1, nil)
	for i := 0; i < m; i++ {
		for jj, j := range cols {
			a.Set(i, jj, p.X.At(i, j))
		}
		a.Set(i, len(cols), 1)
	}
	return a
}

// bruteForceL20 returns the global optimum of (2.3): the best over all
// K-subsets S of the convex model (2.1) on the columns S and the bias,
// each solved by irlsL21 (a support of size < K is covered by its
// supersets, whose convex problems may zero rows).
func bruteForceL20(p *Problem, k int, gamma float64) (float64, []int) {
	_, n := p.X.Dims()
	y := p.Response(OneHot)
	best, bestS := math.Inf(1), []int(nil)
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == k {
			f, _ := irlsL21(columnsOf(p, cur), y, gamma)
			if f < best {
				best, bestS = f, append([]int(nil), cur...)
			}
			return
		}
		for j := start; j < n; j++ {
			rec(j+1, append(cur, j))
		}
	}
	rec(0, nil)
	return best, bestS
}

// The independent IRLS solver and l20 with the constraint inactive (K = n)
// solve the same convex model (2.1): they must reach the same optimum. This
// also checks the smoothing, the gradient and nmAPG of the engine.
func TestL20ConvexMatchesIRLS(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", seededCols(325, 12, 1))
	for _, gamma := range []float64{0.1, 1} {
		l := NewL20(12)
		l.Gamma = gamma
		res, err := l.Fit(context.Background(), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := irlsL21(p.Design(), p.Response(OneHot), gamma)
		if got := l21Objective(p, res.W, gamma); math.Abs(got-res.Objective) > 1e-9*got {
			t.Errorf("γ=%v: reported objective %v, recomputed %v", gamma, res.Objective, got)
		}
		rel := (res.Objective - want) / want
		if rel > 1e-5 || rel < -1e-9 {
			t.Errorf("γ=%v: l20 (K = n) objective %.10g, IRLS %.10g (relative %.2e)", gamma, res.Objective, want, rel)
		}
		t.Logf("γ=%v: l20 %.10g, IRLS %.10g (relative %.2e)", gamma, res.Objective, want, rel)
	}
}

// The acceptance test of the issue: on small real data, the objective l20
// reports is within 2% of the global optimum of (2.3), found by brute force
// over all K-subsets of 9 features (each subset's convex problem solved by
// the independent IRLS above), and not below it.
func TestL20NearGlobalOptimum(t *testing.T) {
	cases := []struct {
		file string
		n    int
		seed uint64
		ks   []int
	}{
		{"lung_discrete.csv.gz", 325, 2, []int{1, 2, 3, 4}},
		{"GLIOMA.csv.gz", 4434, 3, []int{2, 3}},
		{"colon.csv.gz", 2000, 4, []int{3}},
	}
	for _, tc := range cases {
		p := l20Dataset(t, tc.file, seededCols(tc.n, 9, tc.seed))
		for _, k := range tc.ks {
			opt, bestS := bruteForceL20(p, k, 0.1)
			res, err := NewL20(k).Fit(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := res.Objective
			if nz := NonzeroRows(res.Scores, 0); nz > k {
				t.Errorf("%s K=%d: %d nonzero feature rows", tc.file, k, nz)
			}
			if got > 1.02*opt || got < opt*(1-1e-6) {
				t.Errorf("%s K=%d: l20 objective %.8g (features %v), global optimum %.8g (features %v): ratio %.5f",
					tc.file, k, got, res.Ranking[:k], opt, bestS, got/opt)
			} else {
				t.Logf("%s K=%d: l20 %.8g, optimum %.8g (ratio %.6f)", tc.file, k, got, opt, got/opt)
			}
		}
	}
}

// Theorem 3.1. Its proof shows that for ρ > ρ_max = m·||X||_∞ − γ every
// infeasible W is beaten by its projection W̃ onto ||W_F||_{2,0} ≤ K:
// F(W̃) < F(W). Checked on random W (of several scales) on real data; and
// with ρ far below ρ_max the inequality fails for some W (the projection
// of the unconstrained optimum), so the test can tell the two apart.
// Finally l20 run with ρ = 1.01ρ_max returns a penalised solution that is
// already feasible (no projection).
func TestTheorem31ExactPenalty(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", seededCols(325, 10, 5))
	m, n := p.X.Dims()
	const gamma, k = 0.1, 3
	xInf := 0.0
	for i := 0; i < m; i++ {
		for _, v := range p.X.RawRowView(i) {
			xInf = math.Max(xInf, math.Abs(v))
		}
	}
	rhoMax := float64(m)*xInf - gamma
	penalised := func(w *mat.Dense, rho float64) float64 {
		norms := RowNorms(w, n)
		sorted := append([]float64(nil), norms...)
		// sum of all but the k largest
		for i := 0; i < k; i++ {
			big := 0
			for j := range sorted {
				if sorted[j] > sorted[big] {
					big = j
				}
			}
			sorted[big] = 0
		}
		gap := 0.0
		for _, v := range sorted {
			gap += v
		}
		return l21Objective(p, w, gamma) + rho*gap
	}
	project := func(w *mat.Dense) *mat.Dense {
		out := mat.DenseCopyOf(w)
		rank := RankByScore(RowNorms(w, n))
		for _, j := range rank[k:] {
			for l := 0; l < p.C; l++ {
				out.Set(j, l, 0)
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(6, 7))
	for trial := 0; trial < 200; trial++ {
		w := mat.NewDense(n+1, p.C, nil)
		scale := math.Pow(10, float64(trial%5)-3)
		for i := 0; i <= n; i++ {
			for l := 0; l < p.C; l++ {
				w.Set(i, l, scale*rng.NormFloat64())
			}
		}
		rho := rhoMax * (1 + 1e-3)
		if f, g := penalised(w, rho), penalised(project(w), rho); !(g < f) {
			t.Fatalf("trial %d: ρ > ρ_max but F(projection) = %v ≥ F(W) = %v", trial, g, f)
		}
	}
	// Below ρ_max: the unconstrained optimum beats its projection.
	_, wFull := irlsL21(p.Design(), p.Response(OneHot), gamma)
	small := 1e-3 * rhoMax
	if f, g := penalised(wFull, small), penalised(project(wFull), small); !(g > f) {
		t.Errorf("ρ = 1e−3ρ_max: expected the projection to be worse, F(W) = %v, F(projection) = %v", f, g)
	}
	// The solver with ρ > ρ_max.
	l := NewL20(k)
	l.Rho = 1.01 * rhoMax
	fits, err := l.SolvePath(context.Background(), p, nil, []int{k})
	if err != nil {
		t.Fatal(err)
	}
	if f := fits[0]; f.Projected || f.PenalisedRows > k {
		t.Errorf("ρ = 1.01ρ_max: penalised solution has %d nonzero rows (projected %v)", f.PenalisedRows, f.Projected)
	}
	if math.Abs(fits[0].RhoMax-rhoMax) > 1e-9*rhoMax {
		t.Errorf("ρ_max = %v, want %v", fits[0].RhoMax, rhoMax)
	}
}

// What nmAPG guarantees (Li and Lin 2015, the non-monotone line search of
// Algorithm 1): c_k is a weighted average of F_μ(W¹…W^k), every new
// iterate satisfies F_μ(W^{k+1}) ≤ c_k, so c_k never increases (and
// F_μ(W^k) ≤ c_k). This needs the prox to be an exact minimiser and τ > L_μ:
// it would fail with the printed Theorem 5.1 or a wrong Lipschitz constant.
// Checked at a fixed μ on real data, for the penalised model (ρ > 0,
// nonconvex) with both Lipschitz rules.
func TestNMAPGNonmonotoneGuarantee(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", nil)
	for _, rule := range []LipschitzRule{SpectralLipschitz, FrobeniusLipschitz} {
		for _, mu := range []float64{1, 0.01} {
			l := NewL20(5)
			l.Lipschitz = rule
			d, err := l.prepare(p)
			if err != nil {
				t.Fatal(err)
			}
			md, eng := d.md, d.eng
			md.gamma, md.rho, md.k = 0.1, 5, 5
			eng.lip = l.lipschitz(&md.design, md.gamma, &d.sigma2)
			eng.setW(make([]float64, md.p*md.c))
			eng.start(mu)
			rejected := 0
			const iters = 300
			for k := 0; k < iters; k++ {
				ck := eng.ck
				acc := eng.accepted
				eng.iterate()
				if eng.accepted == acc {
					rejected++
				}
				slack := 1e-12 * math.Abs(ck)
				if eng.fw > ck+slack {
					t.Fatalf("rule %d μ=%v iteration %d: F_μ(W^{k+1}) = %.15g > c_k = %.15g", rule, mu, k, eng.fw, ck)
				}
				if eng.ck > ck+slack || eng.fw > eng.ck+slack {
					t.Fatalf("rule %d μ=%v iteration %d: c_{k+1} = %.15g, c_k = %.15g, F = %.15g", rule, mu, k, eng.ck, ck, eng.fw)
				}
			}
			t.Logf("rule %d μ=%v: %d of %d extrapolations rejected (V computed)", rule, mu, rejected, iters)
		}
	}
}

// Every K of a path yields at most K nonzero feature rows, the objective
// reported is that of (2.3) at the returned W, and the notes say whether a
// projection happened. K = 1…8 with warm starts on real data.
func TestL20PathFeasible(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", nil)
	ks := make([]int, 8)
	for i := range ks {
		ks[i] = i + 1
	}
	fits, err := NewL20(1).SolvePath(context.Background(), p, nil, ks)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fits {
		k := ks[i]
		if nz := NonzeroRows(f.Scores, 0); nz > k || nz < 1 {
			t.Errorf("K=%d: %d nonzero feature rows", k, nz)
		}
		if got := l21Objective(p, f.W, 0.1); math.Abs(got-f.Objective) > 1e-9*got {
			t.Errorf("K=%d: objective %v, recomputed %v", k, f.Objective, got)
		}
		if f.Projected != (f.PenalisedRows > k) || len(f.Trace) != f.Iterations || len(f.Exact) != f.Iterations || len(f.Notes) < 2 {
			t.Errorf("K=%d: projected %v with %d penalised rows; trace %d, exact %d, iterations %d; notes %q",
				k, f.Projected, f.PenalisedRows, len(f.Trace), len(f.Exact), f.Iterations, f.Notes)
		}
		if f.Status.Early() {
			t.Errorf("K=%d: status %v", k, f.Status)
		}
	}
}

// A hand-made case whose answer is known: class c is told by feature c
// alone (x_ic = 1 if sample i is of class c, else −1, for two classes), the
// other features are noise. With K = 1 and a tiny γ the best single
// feature fits Y exactly apart from the γ term, so both l20 and topk must
// select a class feature and reach a loss near zero.
func TestL20AndTopKFindThePerfectFeature(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	const m, n = 40, 15
	x := mat.NewDense(m, n, nil)
	y := make([]int, m)
	for i := 0; i < m; i++ {
		y[i] = i % 2
		for j := 0; j < n; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
		x.Set(i, 7, 2*float64(y[i])-1)
	}
	p := &Problem{X: x, Y: y, C: 2, Bias: true}
	l := NewL20(1)
	l.Gamma = 1e-4
	res, err := l.Fit(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The exact fit has W row 7 = (−½, ½), bias (½, ½): γ-term ≈ 1.4e−4.
	if res.Ranking[0] != 7 || res.Objective > 0.01 || NonzeroRows(res.Scores, 0) != 1 {
		t.Errorf("l20: ranking %v, objective %v, scores %v", res.Ranking[:3], res.Objective, res.Scores)
	}
	tk, err := NewTopK(1).Fit(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Ranking[0] != 7 || tk.Objective > 0.01 || NonzeroRows(tk.Scores, 0) != 1 {
		t.Errorf("topk: ranking %v, objective %v", tk.Ranking[:3], tk.Objective)
	}
}

// Bad requests are errors that name the parameter.
func TestL20Errors(t *testing.T) {
	p := &Problem{X: mat.NewDense(4, 2, []float64{1, 2, 3, 4, 5, 6, 7, 9}), Y: []int{0, 1, 0, 1}, C: 2, Bias: true}
	for _, c := range []struct {
		sel  Selector
		frag string
	}{
		{NewL20(3), "k = 3 is out of range"},
		{NewL20(0), "parameter k = 0"},
		{&L20{K: 1, Gamma: 0.1, RhoRel: 0.01, Mu0: 1, Sigma: 1, Epsilon: 0.1, StageIter: 200}, "sigma"},
		{NewTopK(3), "k = 3 is out of range"},
		{&TopK{K: 1, Mu: 0, Rho: 1.02}, "parameter mu"},
	} {
		if _, err := c.sel.Fit(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%T: error %v, want %q", c.sel, err, c.frag)
		}
	}
}

// TestL20OptimalitySweep is the long version of TestL20NearGlobalOptimum
// behind SPARSEFS_LONG=1 (about a minute natively): 140 cases, 9 seeded
// features of each of five datasets × K = 1…4, for seeds 10–12 (on which
// the support refinement was designed) and 20–23 (held out). It asserts
// the 2% bound for the default l20 and logs how far the paper's method
// alone (no refinement, swaps = 0) lands; docs/results.md#l20-optimality
// quotes the summary.
func TestL20OptimalitySweep(t *testing.T) {
	if os.Getenv("SPARSEFS_LONG") == "" {
		t.Skip("set SPARSEFS_LONG=1 to run the 140-case sweep")
	}
	files := []struct {
		file string
		n    int
	}{{"lung_discrete.csv.gz", 325}, {"GLIOMA.csv.gz", 4434}, {"colon.csv.gz", 2000}, {"lymphoma.csv.gz", 4026}, {"TOX_171.csv.gz", 5748}}
	for _, seeds := range [][2]uint64{{10, 13}, {20, 24}} {
		var worstPaper, worstDefault float64
		paperOver, cases := 0, 0
		for _, f := range files {
			for seed := seeds[0]; seed < seeds[1]; seed++ {
				p := l20Dataset(t, f.file, seededCols(f.n, 9, seed))
				for k := 1; k <= 4; k++ {
					opt, _ := bruteForceL20(p, k, 0.1)
					paper := NewL20(k)
					paper.Swaps = 0
					rp, err := paper.Fit(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					rd, err := NewL20(k).Fit(context.Background(), p, nil)
					if err != nil {
						t.Fatal(err)
					}
					cases++
					a, b := rp.Objective/opt, rd.Objective/opt
					worstPaper, worstDefault = math.Max(worstPaper, a), math.Max(worstDefault, b)
					if a > 1.02 {
						paperOver++
					}
					if b > 1.02 || b < 1-1e-6 {
						t.Errorf("%s seed %d K=%d: l20 %.8g, optimum %.8g (ratio %.5f)", f.file, seed, k, rd.Objective, opt, b)
					}
				}
			}
		}
		t.Logf("seeds %d–%d, %d cases: paper's method alone above 2%% in %d (worst ratio %.4f); default l20 worst ratio %.4f",
			seeds[0], seeds[1]-1, cases, paperOver, worstPaper, worstDefault)
	}
}

// l20 accepts real-valued targets (docs/methods.md#regression): with
// the one-hot matrix given as targets it computes exactly what it computes
// from the class labels; topk, a classifier's method, refuses them.
func TestL20Targets(t *testing.T) {
	p := l20Dataset(t, "lung_discrete.csv.gz", seededCols(325, 20, 12))
	q := &Problem{X: p.X, Targets: p.OneHot(), Bias: true}
	a, err := NewL20(4).Fit(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewL20(4).Fit(context.Background(), q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Objective != b.Objective || !mat.Equal(a.W, b.W) {
		t.Errorf("labels: %v, targets: %v", a.Objective, b.Objective)
	}
	if _, err := NewTopK(4).Fit(context.Background(), q, nil); err == nil {
		t.Error("topk accepted real-valued targets")
	}
}
