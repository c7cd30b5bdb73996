package classify

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/rng"
)

// The ten-sample problem of the scikit-learn golden values below.
var goldX = mat.NewDense(10, 3, []float64{
	0.5, 1.0, -0.3, 1.5, 0.2, 0.8, -0.7, 1.1, 0.4, 2.0, -0.5, 1.2, -1.2, -0.8, 0.3,
	0.3, -1.4, -0.9, 1.1, 0.9, -1.5, -0.4, 0.6, 1.7, 0.9, -0.2, 0.1, -1.6, 0.4, -0.6,
})
var goldY = []int{1, 1, 0, 1, 0, 0, 1, 0, 1, 0}

func rows(x *mat.Dense) [][]float64 {
	m, _ := x.Dims()
	out := make([][]float64, m)
	for i := range out {
		out[i] = x.RawRowView(i)
	}
	return out
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// Hand derivation: on the line, points 1, 2 (class 0, the machine's +1)
// and −1, −2 (class 1) are separated by w = 1, b = 0, the margin points ±1
// being the support vectors (α = ½ ≤ C = 1, w = Σα_iy_ix_i = 1). Moving
// class 1 to 0 and class 0 to 2, 3 gives w = 1, b = −1: the unregularised
// bias follows the data.
func TestSVMHandDerived(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		y    []int
		w, b float64
	}{
		{[]float64{-2, -1, 1, 2}, []int{1, 1, 0, 0}, 1, 0},
		{[]float64{0, 2, 3}, []int{1, 0, 0}, 1, -1},
	} {
		model, err := SVM{C: 1, Tol: 1e-12}.Train(mat.NewDense(len(c.x), 1, c.x), c.y, 2)
		if err != nil {
			t.Fatal(err)
		}
		mc := model.machines[0]
		if !near(mc.w[0], c.w, 1e-9) || !near(mc.b, c.b, 1e-9) {
			t.Errorf("x = %v: w = %v, b = %v; want %v, %v", c.x, mc.w, mc.b, c.w, c.b)
		}
	}
}

// Golden values from scikit-learn 1.2.1 (LIBSVM 3.x inside):
// SVC(kernel="linear", C=C, tol=1e-12).fit(goldX, goldY) gives coef_ and
// intercept_ below (LIBSVM keeps kernel values in single precision, so
// they agree with the exact optimum to about 1e−7). For two classes scikit-learn negates LIBSVM's machine
// so that a positive value means classes_[1]; our machine has class 0
// positive, as LIBSVM's, so w = −coef_ and b = −intercept_.
func TestSVMMatchesLIBSVM(t *testing.T) {
	for _, c := range []struct {
		C    float64
		coef []float64
		b    float64
	}{
		{1, []float64{1.664532511866748, 0.7212974835047739, -0.10670084258311638}, -0.5855740353773509},
		{0.1, []float64{0.6546499163491087, 0.12137342965772892, -0.14587971102681319}, -0.07355744419553964},
		{10, []float64{1.8941233566978042, 0.820786913053146, -0.12141817325626802}, -0.5284118431838289},
	} {
		model, err := SVM{C: c.C, Tol: 1e-12}.Train(goldX, goldY, 2)
		if err != nil {
			t.Fatal(err)
		}
		mc := model.machines[0]
		for k := range c.coef {
			if !near(-mc.w[k], c.coef[k], 1e-6) {
				t.Errorf("C = %v: w = %v, want −%v", c.C, mc.w, c.coef)
				break
			}
		}
		if !near(-mc.b, c.b, 1e-6) {
			t.Errorf("C = %v: b = %v, want −%v", c.C, mc.b, c.b)
		}
	}
	// Three classes, one-vs-one: scikit-learn keeps LIBSVM's machines
	// (pairs (0,1), (0,2), (1,2), the first class positive) unnegated.
	y3 := []int{0, 1, 2, 1, 0, 2, 1, 2, 0, 1}
	coef := [][]float64{{-0.5762564648857325, -0.42894271777057075, -0.03032922381121672}, {0.6543967045311768, -0.08732104894226281, -0.6746420978845251}, {1.0359250139752336, 0.48473041515936244, -0.09396665273532578}}
	b := []float64{-0.025563285739486186, 0.4610429465169116, -0.7167248884632684}
	model, err := SVM{C: 1, Tol: 1e-12}.Train(goldX, y3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for p, mc := range model.machines {
		for k := range coef[p] {
			if !near(mc.w[k], coef[p][k], 1e-6) || !near(mc.b, b[p], 1e-6) {
				t.Errorf("machine %d (%d/%d): w = %v b = %v, want %v %v", p, mc.pos, mc.neg, mc.w, mc.b, coef[p], b[p])
				break
			}
		}
	}
}

func randomProblem(seed uint64, m, d int) ([][]float64, []float64) {
	r := rng.New(seed, 0)
	x := make([][]float64, m)
	y := make([]float64, m)
	for i := range x {
		x[i] = make([]float64, d)
		s := 0.0
		for k := range x[i] {
			x[i][k] = r.Normal()
			s += x[i][k] * float64(k%3-1)
		}
		y[i] = 1
		if s+0.8*r.Normal() < 0 {
			y[i] = -1
		}
	}
	return x, y
}

// The dual solutions satisfy the optimality conditions of the SVM, and the
// duality gap P(w, b) − D(α) closes: P = ½‖w‖² + C Σ max(0, 1 − y_i f(x_i)),
// D = eᵀα − ½‖w‖² with w = Σα_iy_ix_i (for the regularised bias ‖w‖²
// includes the bias weight).
func TestSVMOptimality(t *testing.T) {
	for _, c := range []struct {
		m, d int
		C    float64
	}{{40, 5, 1}, {30, 60, 1}, {60, 3, 0.05}, {25, 8, 100}} {
		x, y := randomProblem(uint64(c.m*c.d), c.m, c.d)
		w, b, alpha, st := solveFreeDual(x, y, c.C, 1e-10, 0)
		if !st.converged {
			t.Fatalf("%+v: free-bias solver did not converge", c)
		}
		sumAY, sumA := 0.0, 0.0
		for i, a := range alpha {
			if a < 0 || a > c.C {
				t.Fatalf("α_%d = %v outside [0, %v]", i, a, c.C)
			}
			sumAY += a * y[i]
			sumA += a
			// KKT: α = 0 ⇒ y f ≥ 1; α = C ⇒ y f ≤ 1; else y f = 1.
			yf := y[i] * (dot(w, x[i]) + b)
			bad := (a == 0 && yf < 1-1e-8) || (a == c.C && yf > 1+1e-8) || (a > 0 && a < c.C && math.Abs(yf-1) > 1e-8)
			if bad {
				t.Errorf("%+v: sample %d α = %v y f = %v", c, i, a, yf)
			}
		}
		if math.Abs(sumAY) > 1e-10*math.Max(1, sumA) {
			t.Errorf("%+v: yᵀα = %v", c, sumAY)
		}
		ww := dot(w, w)
		primal := ww / 2
		for i := range x {
			primal += c.C * math.Max(0, 1-y[i]*(dot(w, x[i])+b))
		}
		if gap := primal - (sumA - ww/2); gap < -1e-9*primal || gap > 1e-7*primal {
			t.Errorf("%+v: free bias duality gap %v (P = %v)", c, gap, primal)
		}
		// Regularised bias: the gap of the augmented problem closes, and
		// its optimum lies between the free one and the free one plus ½b²
		// (the free problem is a relaxation, and its (w, b) is feasible).
		wr, br, ar, st := solveDCDDual(x, y, c.C, 1e-10, 100000)
		if !st.converged {
			t.Fatalf("%+v: DCD did not converge", c)
		}
		wa := append(append([]float64(nil), wr...), br)
		pr := dot(wa, wa) / 2
		sumAr := 0.0
		for i := range x {
			pr += c.C * math.Max(0, 1-y[i]*(dot(wr, x[i])+br))
			sumAr += ar[i]
		}
		if gap := pr - (sumAr - dot(wa, wa)/2); gap < -1e-9*pr || gap > 1e-7*pr {
			t.Errorf("%+v: regularised bias duality gap %v (P = %v)", c, gap, pr)
		}
		if pr < primal-1e-7*primal || pr > primal+b*b/2+1e-7*primal {
			t.Errorf("%+v: regularised-bias optimum %v outside [%v, %v]", c, pr, primal, primal+b*b/2)
		}
	}
}

// LIBSVM's vote: a positive decision value votes for the first class of the
// pair; the most votes win, ties to the lower class index.
func TestSVMVoting(t *testing.T) {
	mk := func(pos, neg int, b float64) machine { return machine{pos: pos, neg: neg, w: []float64{0}, b: b} }
	// Pairs (0,1), (0,2), (1,2): 0 beats 1, 2 beats 0, 1 beats 2: a
	// three-way tie, won by class 0.
	model := &SVMModel{classes: 3, only: -1, machines: []machine{mk(0, 1, 1), mk(0, 2, -1), mk(1, 2, 1)}}
	if got := model.Predict([]float64{0}); got != 0 {
		t.Errorf("three-way tie: class %d, want 0", got)
	}
	// A zero decision value votes for the second class.
	model.machines = []machine{mk(0, 1, 0), mk(0, 2, 0), mk(1, 2, 0)}
	if got := model.Predict([]float64{0}); got != 2 {
		t.Errorf("zero values: class %d, want 2", got)
	}
	// One-vs-rest: the largest value wins, ties to the lower class.
	ovr := &SVMModel{ovr: true, classes: 3, only: -1, machines: []machine{mk(0, -1, 0.5), mk(1, -1, 2), mk(2, -1, 2)}}
	if got := ovr.Predict([]float64{0}); got != 1 {
		t.Errorf("ovr: class %d, want 1", got)
	}
}

// A class absent from the training part is never predicted, and a part
// with a single class predicts it.
func TestSVMAbsentClasses(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 5, 6})
	model, err := SVM{C: 1}.Train(x, []int{0, 0, 2, 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(model.machines) != 1 || model.Predict([]float64{0.5}) != 0 || model.Predict([]float64{5.5}) != 2 {
		t.Errorf("two of three classes: %d machines", len(model.machines))
	}
	one, _ := SVM{C: 1}.Train(x, []int{1, 1, 1, 1}, 3)
	if one.Predict([]float64{100}) != 1 {
		t.Error("single class not predicted")
	}
	for _, multi := range []string{OneVsOne, OneVsRest} {
		for _, bias := range []string{FreeBias, RegularizedBias} {
			m, _ := SVM{C: 10, Multiclass: multi, Bias: bias}.Train(x, []int{0, 0, 2, 2}, 3)
			if m.Predict([]float64{-1}) != 0 || m.Predict([]float64{7}) != 2 {
				t.Errorf("%s/%s misclassifies a separable problem", multi, bias)
			}
		}
	}
}

// The iteration limit is a note, not an error.
func TestSVMIterationLimitIsANote(t *testing.T) {
	x, y := randomProblem(9, 50, 4)
	xm := mat.NewDense(50, 4, nil)
	yi := make([]int, 50)
	for i := range x {
		xm.SetRow(i, x[i])
		if y[i] < 0 {
			yi[i] = 1
		}
	}
	model, err := SVM{C: 1, MaxIter: 2}.Train(xm, yi, 2)
	if err != nil || len(model.Notes()) != 1 {
		t.Errorf("err %v, notes %q", err, model.Notes())
	}
}

// The kernel cache returns exact columns under eviction, and a solver with
// a cache of a few columns reaches the same solution as with all of them.
func TestKernelCacheEviction(t *testing.T) {
	x, y := randomProblem(21, 30, 4)
	saved := kernelCacheBytes
	defer func() { kernelCacheBytes = saved }()
	kernelCacheBytes = 3 * 8 * 30 // three columns
	c := newKernelCache(x)
	r := rng.New(2, 2)
	for k := 0; k < 200; k++ {
		i := r.Intn(30)
		col := c.col(i)
		for e := range col {
			if col[e] != dot(x[i], x[e]) {
				t.Fatalf("column %d entry %d = %v", i, e, col[e])
			}
		}
	}
	if len(c.data) != 3 {
		t.Errorf("%d columns held, want 3", len(c.data))
	}
	w1, b1, _, _ := solveFreeDual(x, y, 1, 1e-10, 0)
	kernelCacheBytes = saved
	w2, b2, _, _ := solveFreeDual(x, y, 1, 1e-10, 0)
	for k := range w1 {
		if math.Abs(w1[k]-w2[k]) > 1e-9 || math.Abs(b1-b2) > 1e-9 {
			t.Fatalf("small cache w %v b %v, large %v %v", w1, b1, w2, b2)
		}
	}
}
