package selection

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// Constants of faceR1.
const (
	// r1FaceFrom and r1FaceTo are the first and last smoothing μ_W of
	// faceR1, relative to the largest ‖wʲ‖ (divided by 10 at each stage).
	r1FaceFrom = 1e-5
	r1FaceTo   = 1e-11
	// r1FaceZero: after a stage, the rows of W with ‖wʲ‖ ≤ r1FaceZero·μ_W
	// are taken for zero rows of the optimum (the smoothed minimum leaves
	// them at a few μ_W; the others stay at their norm as μ_W falls).
	r1FaceZero = 30
	// r1FaceRank: Z_S counts as of full row rank when every diagonal entry
	// of its triangular factor is above r1FaceRank times the largest.
	r1FaceRank = 1e-10
	// r1FaceMinSteps is the fewest Newton steps the budget must allow
	// for faceR1 to run (its first stage took 9–22 on the microarray
	// sets; cut shorter, it ends far from its minimum: ORL, 15 steps,
	// gap 7.9·10⁻⁴).
	r1FaceMinSteps = 20
)

// faceR1 minimises the model of r = p = 1 on the face of exact fit, where
// the residual rows fitted exactly at the iterate stay zero, from the
// iterate of an iteration whose support holds at least as many rows as
// there are samples (m < N: the microarray and image sets): with S the
// support of the iterate (supportRows, |S| ≥ m) and R the residual rows
// above r1ExactFit it solves
//
//	min λΣ_{j∈S}‖wʲ‖ + Σ_{i∈R}‖eᵢ‖   s.t.   Z_S W_S − E_R = Y,
//
// on whose feasible set J is the objective exactly: the face of Nie et
// al.'s reformulation min ‖U‖₂,₁ s.t. [Z λI]U = Y on which the rows of U
// outside S and R are zero. The rows of R are rows of the face like those
// of W (ids s.nr + i; weight 1 where W's have λ, and the column −eᵢ of
// [Z −I]); "the rows" below include them (warpPIE10P: 4 of its 210
// residual rows are not fitted exactly). On the rows whose
// optimum is zero the penalty is not smooth, so it is smoothed,
// λΣⱼ√(‖wʲ‖² + μ_W²), and minimised for μ_W = r1FaceFrom … r1FaceTo times
// the largest ‖wʲ‖, each stage from the last. With c = 2 and one-hot Y
// the model is nearly a linear programme whose optimum is nearly a vertex
// (|S*| = m or m + 1 on the two-class sets); the iterate's S holds a few
// rows more (2–8 there, not told apart from the optimum's by their norms
// at the iterate: some of the optimum's rows are 10⁻⁵ of the largest),
// which each stage takes to a few μ_W while the others keep their norms.
//
// After each stage two answers are tried, each at its exact J and with
// its dual point: the stage's minimum, whose smoothed penalty gradient G
// gives a dual point feasible on S (see face.dual); and the exact face of
// the rows kept, S' = the rows above r1FaceZero·μ_W (when |S'| ≥ m and
// S' changed since the last stage): the minimum of the unsmoothed model
// on Z_{S'}W_{S'} = Y, the optimum itself where S' is its support, whose
// dual point G = (λwʲ/‖wʲ‖) is then the dual optimum (the smoothed one
// loses accuracy as μ_W falls: its Newton systems' condition grows as
// 1/μ_W). dualR1 makes each dual point feasible for the rows outside S
// and the unit balls. Where an unsmoothed Newton step on S' takes rows
// through zero it stops at the first kink and those rows leave S' (an
// edge of the nearly linear programme followed to its vertex, at most
// r1Pivots times: Prostate_GE, arcene; without it the near-flat edge
// left gaps of 3·10⁻¹¹–3·10⁻⁷). Rows outside S whose condition fails at the
// exact face's dual point enter S (a pivot, at most polishRounds; gsr on
// ALLAML, leukemia and Prostate_GE: 1–18 rows the iterate had at zero).
// It stops after the first stage whose best answer and dual value (with
// lower, the best dual value so far) certify polishGoal (tol if
// smaller), or certGap (tol if smaller) after a stage that improved
// neither or once its work has passed soft; or when the budget
// (multiply-adds) is spent.
//
// The work is a QR factorisation of Z_Sᵀ (|S|·m² multiply-adds) per face
// and Newton steps in (|S| − m)·c unknowns, each by the cheaper of the
// dense and the Woodbury form (faceStepWork): on ALLAML, colon, leukemia
// and Prostate_GE 9–16 steps in 4–16 unknowns, under a millisecond; on
// arcene (m = 200) 64 steps and its factorisations, ~40 ms; on the
// multi-class sets (lymphoma: |S| = 502, 9 classes) 14–42 Woodbury steps
// of 10⁸–3·10⁸ multiply-adds each.
//
// It returns the lowest answer found (exact J; the rows outside S zero),
// the dual points (made feasible by dualR1) and the Newton steps; nil when
// |S| < m or |S| + |R| > faceMaxRows, [Z_S −I_R] is not of full row rank
// (r1FaceRank), or budget does not allow the factorisation and
// r1FaceMinSteps Newton steps.
func (s *irls) faceR1(ctx context.Context, budget, soft, lower float64) (*polishState, []dualPoint, int) {
	m, c := s.m, s.c
	scale := math.Sqrt(norm2(s.y) / float64(m))
	sup := s.supportRows()
	if len(sup) < m {
		return nil, nil, 0
	}
	// The residual rows not fitted exactly join the face as rows of U.
	for i := 0; i < m; i++ {
		if math.Sqrt(norm2(s.e[i*c:(i+1)*c])) > r1ExactFit*scale {
			sup = append(sup, s.nr+i)
		}
	}
	if len(sup) > faceMaxRows {
		return nil, nil, 0
	}
	// check is the work of a stage besides its Newton steps: the dual
	// points' products ZᵀΘ and the exact face of up to |S| rows.
	check := func(ns int) float64 { return 2*float64(s.nr)*float64(m)*float64(c) + faceSetup(ns, m) }
	step := faceStepWork(len(sup), len(sup)-m, c)
	start := budget
	if budget -= faceSetup(len(sup), m); budget < r1FaceMinSteps*step+check(len(sup)) {
		return nil, nil, 0
	}
	f, ok := s.newFace(sup)
	if !ok {
		return nil, nil, 0
	}
	ws := make([]float64, len(sup)*c)
	for a, j := range sup {
		if j < s.nr {
			copy(ws[a*c:(a+1)*c], s.w[j*c:(j+1)*c])
		} else {
			copy(ws[a*c:(a+1)*c], s.e[(j-s.nr)*c:(j-s.nr+1)*c])
		}
	}
	if !f.project(ws) {
		return nil, nil, 0
	}
	big := 0.0
	for a, j := range sup {
		if j < s.nr {
			big = math.Max(big, norm2(ws[a*c:(a+1)*c]))
		}
	}
	big = math.Sqrt(big)
	var best *polishState
	var points []dualPoint
	dual := lower
	steps := 0
	// newton runs the Newton steps of the face g from w that the budget
	// allows (at most polishSteps); it returns the rows of an unsmoothed
	// step's kink (see face.newton).
	newton := func(g *face, w []float64, muW float64) []int {
		cost := faceStepWork(len(g.sup), g.k, c)
		n, kink := g.newton(w, muW, min(polishSteps, int(budget/math.Max(cost, 1))))
		steps += n
		budget -= float64(n) * cost
		return kink
	}
	// consider keeps the answer w on the face g if its J is the lowest,
	// and its dual point; it returns the point's ZᵀΘ (see dualR1), nil
	// if there is none, and the residual rows fitted exactly on g (not
	// among its rows) whose θᵢ, before dualR1 scales it, lies outside the
	// unit ball by more than polishKKTMargin: their condition fails.
	consider := func(g *face, w []float64, muW float64) ([]float64, []int) {
		if st := s.faceAnswer(g.sup, w); best == nil || st.obj < best.obj {
			best = st
		}
		th, ok := g.dual(w, muW)
		if !ok {
			return nil, nil
		}
		var over []int
		for i := 0; i < m; i++ {
			if _, in := slices.BinarySearch(g.sup, s.nr+i); !in && norm2(th[i*c:(i+1)*c]) > sq(1+polishKKTMargin) {
				over = append(over, s.nr+i)
			}
		}
		d, v := s.dualR1(th)
		points = append(points, dualPoint{th, d})
		dual = math.Max(dual, d)
		return v, over
	}
	var lastKept []int
	pivots := 0
	for mu := r1FaceFrom; mu >= r1FaceTo*(1-1e-9) && budget > check(len(sup)) && ctx.Err() == nil; mu /= 10 {
		before, dualBefore := math.Inf(1), dual
		if best != nil {
			before = best.obj
		}
		budget -= check(len(sup))
		muW := mu * big
		newton(f, ws, muW)
		consider(f, ws, muW)
		var v []float64 // ZᵀΘ of the exact face's dual point
		var over []int  // its residual rows whose condition fails
		var kept []int
		var wk []float64
		for a, j := range sup {
			if norm2(ws[a*c:(a+1)*c]) > sq(r1FaceZero*muW) {
				kept = append(kept, j)
				wk = append(wk, ws[a*c:(a+1)*c]...)
			}
		}
		if len(kept) < len(sup) && len(kept) >= m && !slices.Equal(kept, lastKept) {
			lastKept = kept
			// The exact face; where its Newton step stops at a kink the
			// rows there leave and the smaller face is solved (an edge
			// of the nearly linear programme followed to its vertex, at
			// most r1Pivots times).
			for round := 0; round <= r1Pivots && budget > faceSetup(len(kept), m); round++ {
				budget -= faceSetup(len(kept), m)
				g, ok := s.newFace(kept)
				if !ok || !g.project(wk) {
					break
				}
				kink := newton(g, wk, 0)
				v, over = consider(g, wk, 0)
				if len(kink) == 0 || len(kept)-len(kink) < m {
					break
				}
				kept, wk = dropRows(kept, wk, kink, c)
			}
		}
		// Enough: a gap of polishGoal (tol if smaller); or of certGap
		// (tol if smaller) after a stage that lowered neither J nor
		// raised D.
		j := math.Min(s.obj, best.obj)
		if gap := j - dual; gap <= math.Min(polishGoal, s.tol)*math.Abs(j) || gap <= math.Min(certGap, s.tol)*math.Abs(j) && (best.obj >= before && dual <= dualBefore || start-budget > soft) {
			break
		}
		// Rows outside S whose optimality condition fails at the exact
		// face's dual point enter S at zero (where the smoothed penalty
		// is smooth), as in the polish (at most polishRounds times): rows
		// of W, and residual rows held at exact fit (GLIOMA, γ = 10: the
		// iterate fits exactly samples the optimum does not). The
		// smoothed minimum's dual point is too rough for it at the first
		// stages (ALLAML: 12 rows outside S violate their condition at
		// μ_W = 10⁻⁴, none at the optimum).
		add := s.faceViolators(sup, v)
		for _, q := range over {
			if _, in := slices.BinarySearch(sup, q); !in {
				add = append(add, q)
			}
		}
		if len(add) > 0 && pivots < polishRounds {
			grown := slices.Concat(sup, add)
			slices.Sort(grown)
			if len(grown) > faceMaxRows {
				break
			}
			budget -= faceSetup(len(grown), m)
			g, ok := s.newFace(grown)
			if !ok {
				break
			}
			ws = regrow(ws, sup, grown, c)
			sup, f, lastKept = grown, g, nil
			pivots++
		}
	}
	return best, points, steps
}

// faceSetup estimates the multiply-adds of newFace for ns rows: the QR
// factorisation of Z_Sᵀ and its Q.
func faceSetup(ns, m int) float64 {
	return 2*float64(ns)*float64(m)*float64(m) + 2*float64(ns)*float64(ns)*float64(m)
}

// face is the face of exact fit of the rows sup of W (and of the residual
// rows with ids s.nr + i, whose column of Z_S is −eᵢ; see faceR1), Z_S W_S
// = Y (|S| ≥ m, Z_S of full row rank): the QR factorisation of Z_Sᵀ (|S|×m)
// and nb (|S|×k, k = |S| − m), a basis of the null space of Z_S (the last
// k columns of its Q), so that W_S = W₀ + N·V for any W₀ on the face and
// V (k×c) free.
type face struct {
	s   *irls
	sup []int
	zs  []float64 // |S|×m: Z_Sᵀ
	pw  []float64 // each row's weight in the penalty: λ, or 1 for a residual row
	qr  mat.QR
	nb  []float64
	k   int
}

// newFace factorises Z_Sᵀ for the rows sup (of W, or residual rows: ids
// s.nr + i); false when Z_S is not of
// full row rank (a diagonal entry of R at most r1FaceRank times the
// largest).
func (s *irls) newFace(sup []int) (*face, bool) {
	m, ns := s.m, len(sup)
	f := &face{s: s, sup: sup, k: ns - m, zs: make([]float64, ns*m), pw: make([]float64, ns)}
	for a, j := range sup {
		if j < s.nr {
			copy(f.zs[a*m:(a+1)*m], s.ztRow(j))
			f.pw[a] = s.lambda
		} else {
			f.zs[a*m+j-s.nr] = -1
			f.pw[a] = 1
		}
	}
	f.qr.Factorize(mat.NewDense(ns, m, slices.Clone(f.zs)))
	var r mat.Dense
	f.qr.RTo(&r)
	big := 0.0
	for i := 0; i < m; i++ {
		big = math.Max(big, math.Abs(r.At(i, i)))
	}
	for i := 0; i < m; i++ {
		if !(math.Abs(r.At(i, i)) > r1FaceRank*big) {
			return nil, false
		}
	}
	return f, true
}

// basis returns nb, formed from the factorisation at the first call (the
// dense Newton step needs it; the Woodbury step does not).
func (f *face) basis() []float64 {
	if f.nb == nil && f.k > 0 {
		m, ns := f.s.m, len(f.sup)
		var q mat.Dense
		f.qr.QTo(&q)
		f.nb = make([]float64, ns*f.k)
		for a := 0; a < ns; a++ {
			for p := 0; p < f.k; p++ {
				f.nb[a*f.k+p] = q.At(a, m+p)
			}
		}
	}
	return f.nb
}

// project changes ws (the rows of the face, |S|×c) by the least change
// that puts it on the face (the minimum-norm solution D of
// Z_S D = Y − Z_S W_S); false if the solve failed.
func (f *face) project(ws []float64) bool {
	s := f.s
	m, c := s.m, s.c
	ns := len(f.sup)
	r := slices.Clone(s.y)
	linalg.Gemm(true, false, -1, gen(ns, m, f.zs), gen(ns, c, ws), 1, gen(m, c, r))
	var d mat.Dense
	if err := f.qr.SolveTo(&d, true, mat.NewDense(m, c, r)); err != nil {
		return false
	}
	for a := 0; a < ns; a++ {
		for t := 0; t < c; t++ {
			ws[a*c+t] += d.At(a, t)
		}
	}
	return true
}

// newton runs Newton's method on V (W_S = ws + NV, ws changed in place)
// for the penalty λΣⱼ√(‖wʲ‖² + μ_W²) (exact for μ_W = 0), at most limit
// steps with a backtracking line search on it, and returns the steps
// taken. The Hessian in V is (NᵀD₁N) ⊗ I − Σⱼ βⱼ(Nⱼᵀ ⊗ wʲ)(Nⱼ ⊗ wʲᵀ),
// D₁ = diag(λ/sⱼ), βⱼ = λ/sⱼ³, sⱼ = √(‖wʲ‖² + μ_W²): each row's block is
// λ(I − uuᵀ)/sⱼ + λμ_W²uuᵀ/sⱼ³, u = wʲ/‖wʲ‖. Unsmoothed (μ_W = 0) a
// step that takes rows through zero or to polishCross of their norm
// stops at the first such point (crossing); if the line search takes it,
// newton returns there with the positions in ws of the rows it took to
// polishCross of their norm or less (kink).
func (f *face) newton(ws []float64, muW float64, limit int) (steps int, kink []int) {
	c := f.s.c
	ns := len(ws) / c
	if f.k == 0 {
		return 0, nil
	}
	pen := func(w []float64) float64 {
		v := 0.0
		for a := 0; a < ns; a++ {
			v += f.pw[a] * math.Sqrt(norm2(w[a*c:(a+1)*c])+muW*muW)
		}
		return v
	}
	d1 := make([]float64, ns)
	beta := make([]float64, ns)
	gw := make([]float64, ns*c)
	trial := make([]float64, ns*c)
	for ; steps < limit; steps++ {
		for a := 0; a < ns; a++ {
			wa := ws[a*c : (a+1)*c]
			sa := math.Sqrt(norm2(wa) + muW*muW)
			if sa == 0 {
				return steps, nil
			}
			d1[a], beta[a] = f.pw[a]/sa, f.pw[a]/(sa*sa*sa)
			for t, x := range wa {
				gw[a*c+t] = f.pw[a] * x / sa
			}
		}
		dw, ok := f.step(ws, d1, beta, gw)
		f.s.stepped()
		if !ok {
			break
		}
		dec := -dotf(dw, gw)
		f0 := pen(ws)
		if !(dec > 1e-15*f0) {
			break
		}
		// Unsmoothed, a step that takes rows through zero stops at the
		// first kink (as in the polish: crossing), where those rows leave.
		tMax := 1.0
		if muW == 0 {
			for a := 0; a < ns; a++ {
				if t, ok := crossing(ws[a*c:(a+1)*c], dw[a*c:(a+1)*c]); ok {
					tMax = math.Min(tMax, t)
				}
			}
		}
		accepted := false
		for t := tMax; t > 1e-10*tMax; t /= 2 {
			for i := range trial {
				trial[i] = ws[i] + t*dw[i]
			}
			if pen(trial) <= f0-1e-4*t*dec {
				if t == tMax && tMax < 1 {
					for a := 0; a < ns; a++ {
						if norm2(trial[a*c:(a+1)*c]) <= sq(polishCross)*norm2(ws[a*c:(a+1)*c]) {
							kink = append(kink, a)
						}
					}
				}
				copy(ws, trial)
				accepted = true
				break
			}
		}
		if !accepted {
			break
		}
		if len(kink) > 0 {
			steps++
			break
		}
	}
	return steps, kink
}

// dual returns the dual point of the face at ws (m×c, before dualR1):
// Θ = −Ψ, Ψ the least-squares solution of Z_SᵀΨ = G, G = (λwʲ/sⱼ)_{j∈S},
// sⱼ = √(‖wʲ‖² + μ_W²), by the factorisation of Z_Sᵀ. Where ws minimises
// the penalty on the face, NᵀG = 0, G is in the range of Z_Sᵀ and
// (ZᵀΘ)ʲ = −λwʲ/sⱼ, of norm at most λ, on S. False if the solve failed.
func (f *face) dual(ws []float64, muW float64) ([]float64, bool) {
	s := f.s
	c := s.c
	ns := len(ws) / c
	gw := mat.NewDense(ns, c, nil)
	for a := 0; a < ns; a++ {
		wa := ws[a*c : (a+1)*c]
		sa := math.Sqrt(norm2(wa) + muW*muW)
		if sa == 0 {
			return nil, false
		}
		for t, x := range wa {
			gw.Set(a, t, -f.pw[a]*x/sa)
		}
	}
	var th mat.Dense
	if err := f.qr.SolveTo(&th, false, gw); err != nil {
		return nil, false
	}
	return slices.Clone(th.RawMatrix().Data), true
}

// faceViolators returns the rows outside sup (ascending) whose optimality
// condition fails at a dual point with v = ZᵀΘ: ‖vʲ‖ > λ(1 + polishKKTMargin).
func (s *irls) faceViolators(sup []int, v []float64) []int {
	if v == nil {
		return nil
	}
	c := s.c
	var out []int
	for j := 0; j < s.nr; j++ {
		if norm2(v[j*c:(j+1)*c]) > sq(s.lambda*(1+polishKKTMargin)) {
			if _, in := slices.BinarySearch(sup, j); !in {
				out = append(out, j)
			}
		}
	}
	return out
}

// dropRows returns the rows sup and their values ws (|S|×c) without the
// rows at the positions drop (ascending).
func dropRows(sup []int, ws []float64, drop []int, c int) ([]int, []float64) {
	var rows []int
	var w []float64
	for a, j := range sup {
		if _, out := slices.BinarySearch(drop, a); !out {
			rows = append(rows, j)
			w = append(w, ws[a*c:(a+1)*c]...)
		}
	}
	return rows, w
}

// regrow returns the rows ws of W on the rows sup laid out on the rows
// grown (a superset, ascending), the new rows zero.
func regrow(ws []float64, sup, grown []int, c int) []float64 {
	out := make([]float64, len(grown)*c)
	for a, j := range sup {
		b, _ := slices.BinarySearch(grown, j)
		copy(out[b*c:(b+1)*c], ws[a*c:(a+1)*c])
	}
	return out
}

// faceAnswer returns the answer with the rows sup of W set to ws and the
// others zero, with its residuals and exact J.
func (s *irls) faceAnswer(sup []int, ws []float64) *polishState {
	c := s.c
	st := &polishState{w: make([]float64, len(s.w)), e: make([]float64, len(s.e))}
	for a, j := range sup {
		if j < s.nr {
			st.sup = append(st.sup, j)
			copy(st.w[j*c:(j+1)*c], ws[a*c:(a+1)*c])
		}
	}
	s.residual(st.sup, st.w, st.e)
	st.obj = s.exactJ(st.e, st.w)
	return st
}
