package classify

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// SVM is a linear C-support vector classifier,
//
//	min_{w,b} ½‖w‖² + C Σ_i max(0, 1 − y_i (wᵀx_i + b)),   y_i ∈ {−1, +1},
//
// trained in the dual by coordinate descent. With Bias = FreeBias (the
// default) b is unregularised, as in LIBSVM's C-SVC (Chang & Lin, ACM TIST
// 2011) and scikit-learn's SVC(kernel="linear"), which the papers used: the
// dual min ½αᵀQα − eᵀα s.t. 0 ≤ α ≤ C, yᵀα = 0 is solved two coordinates
// at a time with LIBSVM's second-order working-set selection (Fan, Chen &
// Lin, JMLR 2005) — see solveFree. With Bias = RegularizedBias a constant-1
// feature is appended instead and regularised like the others, as
// LIBLINEAR does with -B 1; the dual has box constraints only and is solved
// one coordinate at a time (Hsieh et al., ICML 2008, Algorithm 1) — see
// solveDCD.
//
// Several classes: Multiclass = OneVsOne trains a machine for every pair of
// classes present (k < l, class k as +1) and predicts by majority vote, a
// positive decision value voting for k, ties to the lower class index — the
// rule of LIBSVM's svm_predict. OneVsRest trains one machine per class
// present and predicts the largest decision value, ties to the lower index.
type SVM struct {
	C          float64 // cost, > 0
	Multiclass string  // OneVsOne or OneVsRest ("" is OneVsOne)
	Bias       string  // FreeBias or RegularizedBias ("" is FreeBias)
	// Tol stops the solver when the maximal violation of the optimality
	// conditions is at most Tol (0 means 1e−3, LIBSVM's default −e).
	Tol float64
	// MaxIter bounds the solver's iterations (0 means LIBSVM's
	// max(10⁷, 100·l) updates for the free bias, 1000 passes over the data
	// for the regularised one).
	MaxIter int
}

// DefaultSVMTol is LIBSVM's default stopping tolerance.
const DefaultSVMTol = 1e-3

// machine is one binary linear decision function wᵀx + b.
type machine struct {
	pos, neg int // the classes voted for by a positive / non-positive value
	w        []float64
	b        float64
}

func (mc *machine) decision(x []float64) float64 { return dot(mc.w, x) + mc.b }

// SVMModel is a trained SVM.
type SVMModel struct {
	ovr      bool
	classes  int
	only     int // the single class present, when there is one; else −1
	machines []machine
	notes    []string
}

// Train fits the SVM to the rows of x with classes y in 0…classes−1.
func (s SVM) Train(x *mat.Dense, y []int, classes int) (*SVMModel, error) {
	if !(s.C > 0) {
		return nil, fmt.Errorf("svm: C = %v must be positive", s.C)
	}
	multi, bias := s.Multiclass, s.Bias
	if multi == "" {
		multi = OneVsOne
	}
	if bias == "" {
		bias = FreeBias
	}
	if (multi != OneVsOne && multi != OneVsRest) || (bias != FreeBias && bias != RegularizedBias) {
		return nil, fmt.Errorf("svm: unknown multiclass %q or bias %q", multi, bias)
	}
	tol := s.Tol
	if tol <= 0 {
		tol = DefaultSVMTol
	}
	m, _ := x.Dims()
	// The samples of each class, in their order in x (LIBSVM groups them so).
	byClass := make([][]int, classes)
	for i, k := range y {
		byClass[k] = append(byClass[k], i)
	}
	var present []int
	for k, rows := range byClass {
		if len(rows) > 0 {
			present = append(present, k)
		}
	}
	model := &SVMModel{ovr: multi == OneVsRest, classes: classes, only: -1}
	if len(present) == 1 {
		model.only = present[0]
		return model, nil
	}
	solve := func(rows []int, pos func(int) bool, a, b int) {
		xs := make([][]float64, len(rows))
		ys := make([]float64, len(rows))
		for t, i := range rows {
			xs[t] = x.RawRowView(i)
			ys[t] = -1
			if pos(i) {
				ys[t] = 1
			}
		}
		var mc machine
		var res solverStatus
		if bias == FreeBias {
			mc.w, mc.b, res = solveFree(xs, ys, s.C, tol, s.MaxIter)
		} else {
			mc.w, mc.b, res = solveDCD(xs, ys, s.C, tol, s.MaxIter)
		}
		mc.pos, mc.neg = a, b
		model.machines = append(model.machines, mc)
		if !res.converged {
			model.notes = append(model.notes, fmt.Sprintf("svm: the solver for classes %d/%d stopped at its iteration limit (%d) before the optimality conditions held to %g", a, b, res.iterations, tol))
		}
	}
	if multi == OneVsOne {
		model.machines = make([]machine, 0, len(present)*(len(present)-1)/2)
		for p, a := range present {
			for _, b := range present[p+1:] {
				rows := append(append([]int(nil), byClass[a]...), byClass[b]...)
				solve(rows, func(i int) bool { return y[i] == a }, a, b)
			}
		}
		return model, nil
	}
	model.machines = make([]machine, 0, len(present))
	all := make([]int, m)
	for i := range all {
		all[i] = i
	}
	for _, a := range present {
		solve(all, func(i int) bool { return y[i] == a }, a, -1)
	}
	return model, nil
}

// Predict returns the class of x.
func (sm *SVMModel) Predict(x []float64) int {
	if sm.only >= 0 {
		return sm.only
	}
	if sm.ovr {
		best, bestV := -1, 0.0
		for i := range sm.machines {
			if v := sm.machines[i].decision(x); best < 0 || v > bestV {
				best, bestV = sm.machines[i].pos, v
			}
		}
		return best
	}
	votes := make([]int, sm.classes)
	for i := range sm.machines {
		mc := &sm.machines[i]
		if mc.decision(x) > 0 {
			votes[mc.pos]++
		} else {
			votes[mc.neg]++
		}
	}
	best := 0
	for k, v := range votes {
		if v > votes[best] {
			best = k
		}
	}
	return best
}

// Decision returns the decision values of x, one per machine, in training
// order (pairs (k, l), k < l, for one-vs-one; classes for one-vs-rest).
func (sm *SVMModel) Decision(x []float64) []float64 {
	out := make([]float64, len(sm.machines))
	for i := range sm.machines {
		out[i] = sm.machines[i].decision(x)
	}
	return out
}

// Notes are remarks on the training.
func (sm *SVMModel) Notes() []string { return sm.notes }

type solverStatus struct {
	iterations int
	converged  bool
}
