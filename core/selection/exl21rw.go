package selection

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/linalg"
)

// reweight runs the "reweight" solver of the exclusive lasso (α = 0,
// β > 0): alternating minimisation of the variational form of the squared
// ℓ1 norm of each row,
//
//	‖w^j‖₁² = min_{η^j ∈ Δ_c} Σ_k W_jk²/η_jk   (Δ_c the unit simplex),
//
// attained at η_jk = |W_jk|/‖w^j‖₁ (Cauchy–Schwarz; 0/0 = 0). Each row j
// of W has its own simplex over its c entries, so with η fixed the model
//
//	J_η(W) = ‖AW − Y‖_F² + β Σ_j Σ_k W_jk²/η_jk
//
// separates into one weighted ridge regression per class k, with the
// diagonal D_k = diag(η_·k) (N×N):
//
//	w_k = argmin ‖A w − y_k‖² + β wᵀD_k⁻¹w
//	    = D_k Aᵀ(A D_k Aᵀ + βI)⁻¹ y_k        (m×m, used when N ≥ m)
//	    = D_k^½ (D_k^½ G D_k^½ + βI)⁻¹ D_k^½ b_k   (N×N, when N < m)
//
// with G = AᵀA, b_k = Aᵀy_k. The first is the Woodbury (dual) form: λ =
// (A D Aᵀ + βI)⁻¹y and w = D Aᵀλ satisfy (AᵀA + βD⁻¹)w = Aᵀy wherever
// η > 0, and give w_jk = 0 where η_jk = 0 (the limit of the ridge). Neither
// form divides by η, so entries of η at zero need no smoothing floor.
//
// Monotonicity: J(W) ≤ J_η(W) for every η on the simplices, with equality
// at the closed-form η of W. So J(Wᵗ⁺¹) ≤ J_{ηᵗ}(Wᵗ⁺¹) ≤ J_{ηᵗ}(Wᵗ) = J(Wᵗ):
// the exact objective never rises (up to rounding). The start is η = 1/c
// (the minimiser for W = 0), i.e. a ridge regression with weight cβ.
//
// Acceleration: the map η ↦ η(W(η)) is a fixed-point iteration that
// converges linearly (an entry tending to zero shrinks by the factor
// |(Aᵀ(AW − Y))_jk|/(β‖w^j‖₁) per step), and Anderson acceleration of depth
// rwDepth is applied to it, the extrapolated η projected back onto the
// simplices. An extrapolated η is not the minimiser for the current W, so
// the bound above no longer applies: a trial step that raises J is
// discarded, the plain η of the current iterate used instead and the
// Anderson memory cleared. So J never rises (up to rounding) and the
// reported iterate is always the last accepted one.
//
// The stopping rule is the duality gap of the exact model (gapRule), so
// tol certifies J(W) − J* ≤ tol·J(W) as for cd and fista.
func (md *exl21Model) reweight(ctx context.Context, s *Settings, a *mat.Dense) (*mat.Dense, Run, error) {
	accelerate := rwAccelerate
	if md.alpha != 0 || md.beta <= 0 {
		return nil, Run{}, errors.New("exl21: the reweight solver needs alpha = 0 and beta > 0")
	}
	n, c := md.n, md.c
	l := md.loss
	m := l.m
	w := mat.NewDense(n, c, nil)
	aux := l.newAux()
	// eta holds η transposed: row k is the diagonal of D_k.
	eta := mat.NewDense(c, n, nil)
	for i := range eta.RawMatrix().Data {
		eta.RawMatrix().Data[i] = 1 / float64(c)
	}
	wide := !l.gram
	var (
		kmat   *mat.Dense // m×m (wide) or N×N system
		rhs    *mat.Dense // m×c (wide) or N×1
		t      *mat.Dense // N×c: Aᵀλ (wide)
		sqrtD  []float64
		ad     = a.RawMatrix()
		yd     = l.y.RawMatrix()
		failed bool
	)
	if wide {
		kmat = mat.NewDense(m, m, nil)
		rhs = mat.NewDense(m, c, nil)
		t = mat.NewDense(n, c, nil)
	} else {
		kmat = mat.NewDense(n, n, nil)
		rhs = mat.NewDense(n, 1, nil)
		sqrtD = make([]float64, n)
	}
	// solveW sets w from eta: one weighted ridge regression per class.
	solveW := func() {
		wd := w.RawMatrix().Data
		for k := 0; k < c; k++ {
			d := eta.RawRowView(k)
			if wide {
				// λ_k = (A D_k Aᵀ + βI)⁻¹ y_k.
				km := kmat.RawMatrix()
				linalg.ADAt(1, ad, d, 0, km)
				for i := 0; i < m; i++ {
					km.Data[i*km.Stride+i] += md.beta
				}
				if !linalg.Cholesky(km) {
					failed = true
					return
				}
				col := linalg.General{Rows: m, Cols: 1, Stride: c, Data: rhs.RawMatrix().Data[k:]}
				for i := 0; i < m; i++ {
					col.Data[i*c] = yd.Data[i*yd.Stride+k]
				}
				linalg.CholeskySolve(km, col)
				continue
			}
			// (D^½ G D^½ + βI) u = D^½ b_k, w_k = D^½ u.
			for j, v := range d {
				sqrtD[j] = math.Sqrt(v)
			}
			km := kmat.RawMatrix()
			g := l.g.RawMatrix()
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					km.Data[i*km.Stride+j] = sqrtD[i] * g.Data[i*g.Stride+j] * sqrtD[j]
				}
				km.Data[i*km.Stride+i] += md.beta
			}
			if !linalg.Cholesky(km) {
				failed = true
				return
			}
			rd := rhs.RawMatrix().Data
			bd := l.b.RawMatrix()
			for j := 0; j < n; j++ {
				rd[j] = sqrtD[j] * bd.Data[j*bd.Stride+k]
			}
			linalg.CholeskySolve(km, rhs.RawMatrix())
			for j := 0; j < n; j++ {
				wd[j*c+k] = sqrtD[j] * rd[j]
			}
		}
		if wide {
			// w_k = D_k Aᵀ λ_k for all k at once.
			linalg.Gemm(true, false, 1, ad, rhs.RawMatrix(), 0, t.RawMatrix())
			td := t.RawMatrix().Data
			for k := 0; k < c; k++ {
				d := eta.RawRowView(k)
				for j := 0; j < n; j++ {
					wd[j*c+k] = d[j] * td[j*c+k]
				}
			}
		}
	}
	// etaOf sets dst to the closed-form η of v: η_jk = |V_jk|/‖v^j‖₁, a
	// zero row getting 1/c (every point of the simplex minimises for it).
	etaOf := func(dst, v *mat.Dense) {
		vd := v.RawMatrix().Data
		ed := dst.RawMatrix()
		for j := 0; j < n; j++ {
			row := vd[j*c : (j+1)*c]
			l1 := 0.0
			for _, x := range row {
				l1 += math.Abs(x)
			}
			for k, x := range row {
				if l1 == 0 {
					ed.Data[k*ed.Stride+j] = 1 / float64(c)
				} else {
					ed.Data[k*ed.Stride+j] = math.Abs(x) / l1
				}
			}
		}
	}
	// The iterate reported (best, its J f) is the last accepted one. A
	// trial from an extrapolated η that does not lower J is discarded and
	// the plain step from the accepted iterate taken instead, so J never
	// rises.
	var (
		f     = math.Inf(1)
		best  = mat.NewDense(n, c, nil)
		bAux  = l.newAux()
		plain = mat.NewDense(c, n, nil) // F(η): the η of the accepted iterate
		acc   = &anderson{depth: rwDepth}
	)
	step := func(k int) (float64, *mat.Dense, *mat.Dense) {
		for try := 0; try < 2 && !failed; try++ {
			solveW()
			if failed {
				break
			}
			l.aux(aux, w)
			fNew := md.objective(w, aux)
			if fNew > f && acc.extrapolated && try == 0 {
				eta.Copy(plain)
				acc.reset()
				continue
			}
			f = fNew
			best, w = w, best
			bAux, aux = aux, bAux
			etaOf(plain, best)
			if accelerate {
				acc.push(eta.RawMatrix().Data, plain.RawMatrix().Data)
				acc.extrapolate(eta.RawMatrix().Data)
				projectEta(eta, plain)
			} else {
				eta.Copy(plain)
			}
			break
		}
		return f, best, bAux
	}
	// The face's Newton steps (exl21Model.iterate), with the zero entries
	// that break the optimality condition entering the face between
	// rounds, run where ten iterations cost at least one call's budget of
	// multiply-adds, or past nine tenths of the iteration limit where the
	// gaps' fall forecasts the limit first. Their iterate is kept only
	// where it certifies, as an entry the steps set to zero would stay zero
	// here (its η is zero); when it is kept, η becomes its closed form.
	perIter := float64(c) * float64(n) * float64(n) * float64(n) / 3 // the N×N systems
	if wide {
		perIter = float64(c) * float64(m) * float64(m) * (float64(n) + float64(m)/3)
	}
	maxIter := s.maxIter()
	face := &faceHook{
		certifiedOnly: true,
		due: func(k int, gaps []float64) bool {
			return exl21FaceEvery*perIter >= exl21FaceWork || (10*k >= 9*maxIter && !faceReaches(gaps, s.tol(), maxIter-k))
		},
		taken: func(fNew float64) {
			f = fNew
			etaOf(plain, best)
			eta.Copy(plain)
			acc.reset()
		},
	}
	run, err := md.iterate(ctx, s, true, face, step)
	if err == nil && failed {
		err = errors.New("exl21: a reweighted system was not positive definite")
	}
	return best, run, err
}

// rwDepth is the memory of the Anderson acceleration of the reweight
// solver (chosen on GLIOMA and lymphoma among depths 1, 3, 5, 10 with an
// earlier projection; docs/notes/elasso-reweight.md).
const rwDepth = 5

// rwShrink bounds how far below the plain η an extrapolated entry may go.
const rwShrink = 1e-3

// rwAccelerate switches the acceleration off in tests.
var rwAccelerate = true

// projectEta makes each row of the extrapolated η (c×N, columns are the
// rows of W) a point of the simplex: each entry is kept at least rwShrink
// times its plain value (so entries whose plain value is zero stay zero),
// then each column is scaled to sum 1; a column summing to zero takes the
// plain value.
func projectEta(eta, plain *mat.Dense) {
	c, n := eta.Dims()
	ed, pd := eta.RawMatrix(), plain.RawMatrix()
	for j := 0; j < n; j++ {
		s := 0.0
		for k := 0; k < c; k++ {
			v := &ed.Data[k*ed.Stride+j]
			// Zero is absorbing for the plain map (a zero η_jk gives
			// W_jk = 0 and η_jk = 0 again), so the extrapolation may
			// shrink an entry by at most rwShrink, never to zero.
			if lo := pd.Data[k*pd.Stride+j] * rwShrink; !(*v >= lo) {
				*v = lo
			}
			s += *v
		}
		for k := 0; k < c; k++ {
			if s > 0 {
				ed.Data[k*ed.Stride+j] /= s
			} else {
				ed.Data[k*ed.Stride+j] = pd.Data[k*pd.Stride+j]
			}
		}
	}
}

// anderson is type-II Anderson acceleration (Walker & Ni, SIAM J. Numer.
// Anal. 49(4), 2011) of a fixed-point map x ↦ g(x) with memory depth: from
// the last depth+1 pairs (x_i, g_i), f_i = g_i − x_i, the next point is
// g_t − Σ γ_i (g_{i+1} − g_i) with γ minimising ‖f_t − Σ γ_i (f_{i+1} − f_i)‖.
type anderson struct {
	depth        int
	xs, gs       [][]float64 // the last pairs, oldest first
	extrapolated bool        // the last point returned was not g_t
}

func (a *anderson) reset() {
	a.xs, a.gs = a.xs[:0], a.gs[:0]
	a.extrapolated = false
}

// push records the pair (x, g(x)).
func (a *anderson) push(x, g []float64) {
	if len(a.xs) == a.depth+1 {
		// Recycle the oldest buffers.
		ox, og := a.xs[0], a.gs[0]
		copy(a.xs, a.xs[1:])
		copy(a.gs, a.gs[1:])
		a.xs, a.gs = a.xs[:a.depth], a.gs[:a.depth]
		copy(ox, x)
		copy(og, g)
		a.xs, a.gs = append(a.xs, ox), append(a.gs, og)
		return
	}
	a.xs = append(a.xs, append([]float64(nil), x...))
	a.gs = append(a.gs, append([]float64(nil), g...))
}

// extrapolate writes the next point into dst.
func (a *anderson) extrapolate(dst []float64) {
	t := len(a.xs) - 1
	g := a.gs[t]
	copy(dst, g)
	a.extrapolated = false
	if t == 0 {
		return
	}
	// Normal equations of the least-squares problem in γ (t unknowns),
	// with the differences ΔF_i = f_{i+1} − f_i.
	df := make([][]float64, t)
	for i := 0; i < t; i++ {
		d := make([]float64, len(g))
		for q := range d {
			d[q] = (a.gs[i+1][q] - a.xs[i+1][q]) - (a.gs[i][q] - a.xs[i][q])
		}
		df[i] = d
	}
	ft := make([]float64, len(g))
	for q := range ft {
		ft[q] = g[q] - a.xs[t][q]
	}
	mm := mat.NewSymDense(t, nil)
	rhs := mat.NewVecDense(t, nil)
	for i := 0; i < t; i++ {
		for j := 0; j <= i; j++ {
			mm.SetSym(i, j, dotf(df[i], df[j]))
		}
		rhs.SetVec(i, dotf(df[i], ft))
	}
	// A small Tikhonov term keeps the system solvable when differences are
	// (nearly) collinear.
	tr := 0.0
	for i := 0; i < t; i++ {
		tr += mm.At(i, i)
	}
	if tr == 0 {
		return
	}
	for i := 0; i < t; i++ {
		mm.SetSym(i, i, mm.At(i, i)+1e-10*tr)
	}
	var ch mat.Cholesky
	if !ch.Factorize(mm) {
		return
	}
	gam := mat.NewVecDense(t, nil)
	if err := ch.SolveVecTo(gam, rhs); err != nil {
		return
	}
	for i := 0; i < t; i++ {
		gi := gam.AtVec(i)
		for q := range dst {
			dst[q] -= gi * (a.gs[i+1][q] - a.gs[i][q])
		}
	}
	a.extrapolated = true
}

func dotf(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}
