package classify

import (
	"math"

	"sparsefs/core/linalg"
)

// NewtonStep takes one proximal Newton step on f, the method of newGLMNET
// (Yuan, Ho & Lin, "An improved GLMNET for L1-regularized logistic
// regression", JMLR 13 (2012), §3) with the squared hinge's generalised
// Hessian (Mangasarian, "A finite Newton method for classification",
// Optim. Methods Softw. 17 (2002)). With g the loss's gradient at w and I
// the samples of positive margin loss (b_i > 0), the loss is, near w, the
// quadratic with Hessian H = 2C·X_Iᵀ X_I; the direction d minimises
//
//	gᵀd + ½dᵀHd + ‖w + d‖₁
//
// over the working set J (the nonzero weights and those whose derivative
// leaves the subdifferential, |g_j| > 1; the others stay at zero), by
// coordinate descent on the explicit |J|×|J| Hessian, and the step is
// halved until f meets Armijo's rule f(w + td) ≤ f(w) + σtΔ, Δ = gᵀd +
// ‖w + d‖₁ − ‖w‖₁ (newGLMNET's Eq. 20). The squared hinge is piecewise
// quadratic, so once I and the optimum's nonzero weights and signs are
// found the model is f itself and the full step lands on the optimum, up
// to rounding and the inner solve's tolerance, which the passes of Sweep
// approach only linearly. It reports whether w changed, and then leaves
// every coordinate active. A working set above MaxNewtonSet weights is
// not tried. work holds the step's arrays from one step to the next (the
// machines of a one-vs-rest fit can share one).
func (s *L1SVM) NewtonStep(work *NewtonWork) bool {
	g := s.gradientInto(grow(&work.g, len(s.w)))
	set := work.set[:0]
	for j, wj := range s.w {
		if wj != 0 || math.Abs(g[j]) > 1 {
			set = append(set, j)
		}
	}
	rows := work.rows[:0]
	for i, bi := range s.b {
		if bi > 0 {
			rows = append(rows, i)
		}
	}
	work.set, work.rows = set, rows
	nj, ni := len(set), len(rows)
	if nj == 0 || ni == 0 || nj > MaxNewtonSet {
		return false
	}
	// H = 2C·X_IJᵀX_IJ, accumulated over blocks of newtonBlock/nj samples
	// (A = the block's X_IJᵀ), plus a ridge of 10⁻¹² of its largest
	// diagonal entry, which keeps the model bounded below where H is
	// singular (more weights than independent samples).
	h := linalg.General{Rows: nj, Cols: nj, Stride: nj, Data: grow(&work.h, nj*nj)}
	block := max(1, newtonBlock/nj)
	for i0 := 0; i0 < ni; i0 += block {
		bi := min(block, ni-i0)
		a := linalg.General{Rows: nj, Cols: bi, Stride: bi, Data: grow(&work.a, nj*bi)}
		for k, j := range set {
			row, col := a.Data[k*bi:(k+1)*bi], s.xt[j]
			for t, i := range rows[i0 : i0+bi] {
				row[t] = col[i]
			}
		}
		beta := 1.0
		if i0 == 0 {
			beta = 0
		}
		linalg.ADAt(2*s.c, a, nil, beta, h)
	}
	top := 0.0
	for k := 0; k < nj; k++ {
		top = math.Max(top, h.Data[k*nj+k])
	}
	if !(top > 0) {
		return false
	}
	for k := 0; k < nj; k++ {
		h.Data[k*nj+k] += 1e-12 * top
	}

	z, d := lassoCD(work, h, g, set, s.w)
	delta := 0.0
	w0 := grow(&work.w0, nj)
	for k, j := range set {
		w0[k] = s.w[j]
		delta += g[j]*d[k] + math.Abs(z[k]) - math.Abs(w0[k])
	}
	if !(delta < 0) {
		return false
	}
	f0 := s.Objective()
	for t := 1.0; t > 1e-10; t /= 2 {
		for k, j := range set {
			s.w[j] = w0[k] + t*d[k]
		}
		s.Refresh()
		if f := s.Objective(); f <= f0+l1Sigma*t*delta && f < f0 {
			s.Unshrink()
			return true
		}
	}
	for k, j := range set {
		s.w[j] = w0[k]
	}
	s.Refresh()
	return false
}

// MaxNewtonSet bounds the working set of NewtonStep: its Hessian has |J|²
// entries and its inner sweeps cost |J|² each. newtonBlock is how many
// entries of the design a block of the Hessian's product gathers.
const (
	MaxNewtonSet = 2000
	newtonBlock  = 1 << 20
)

// NewtonWork holds the arrays of NewtonStep. Its largest, for a working
// set of n weights (n ≤ MaxNewtonSet) and m samples, is
// NewtonWorkFloats(n, m) float64 values.
type NewtonWork struct {
	g, h, a, w0, z, d, hd, hff, rhs, zf []float64
	set, rows, face                     []int
}

// NewtonWorkFloats is the number of float64 values a NewtonWork holds at
// most for n weights of the working set and m samples: two n×n matrices
// (the Hessian and its face's factor), a block of the design and the
// vectors.
func NewtonWorkFloats(n, m int) int {
	return 2*n*n + min(n*m, max(n, newtonBlock)) + 7*n
}

// grow returns (*buf)[:n], reallocating *buf when it is shorter.
func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// lassoCD minimises gᵀd + ½dᵀHd + ‖w + d‖₁ over d on the coordinates set
// (H's order, symmetric positive definite; g and w indexed by the full
// coordinates) by cyclic coordinate descent, each coordinate's minimiser in
// closed form (soft thresholding). Every lassoFaceEvery sweeps it solves
// the model on the face of the current point (faceSolve), which ends it
// where that face is the minimiser's; else it ends when a sweep moves no
// coordinate by more than 10⁻¹³ of the largest |w + d|, or after
// lassoSweeps sweeps. It returns z = w + d and d on the set.
func lassoCD(work *NewtonWork, h linalg.General, g []float64, set []int, w []float64) (z, d []float64) {
	n := len(set)
	z, d = grow(&work.z, n), grow(&work.d, n)
	hd := grow(&work.hd, n) // H·d
	clear(d)
	clear(hd)
	for k, j := range set {
		z[k] = w[j]
	}
	sweeps := min(lassoSweeps, max(lassoFaceEvery, lassoWork/(n*n)))
	for sweep := 1; sweep <= sweeps; sweep++ {
		moved, big := 0.0, 0.0
		for k, j := range set {
			hk := h.Data[k*h.Stride : k*h.Stride+n]
			a := hk[k]
			u := z[k] - (g[j]+hd[k])/a
			zk := math.Copysign(math.Max(math.Abs(u)-1/a, 0), u)
			if step := zk - z[k]; step != 0 {
				for t, v := range hk {
					hd[t] += step * v
				}
				d[k] += step
				z[k] = zk
				moved = math.Max(moved, math.Abs(step))
			}
			big = math.Max(big, math.Abs(zk))
		}
		if moved <= 1e-13*big {
			break
		}
		if sweep%lassoFaceEvery == 0 {
			if zf, ok := faceSolve(work, h, g, set, w, z); ok {
				for k, j := range set {
					z[k], d[k] = zf[k], zf[k]-w[j]
				}
				break
			}
		}
	}
	return z, d
}

// faceSolve minimises the model of lassoCD on the face of z: with F the
// nonzero coordinates of z and σ their signs, the stationary point of
// gᵀd + ½dᵀHd + σᵀz_F with z zero off F solves
//
//	H_FF z_F = H_F·w − g_F − σ,
//
// by Cholesky. It reports whether that point is the model's minimiser:
// its signs are σ and every coordinate off F meets |g_j + (H(z − w))_j| ≤ 1.
func faceSolve(work *NewtonWork, h linalg.General, g []float64, set []int, w, z []float64) ([]float64, bool) {
	face := work.face[:0]
	for k, v := range z {
		if v != 0 {
			face = append(face, k)
		}
	}
	work.face = face
	nf, n := len(face), len(set)
	if nf == 0 {
		return nil, false
	}
	hff := linalg.General{Rows: nf, Cols: nf, Stride: nf, Data: grow(&work.hff, nf*nf)}
	rhs := linalg.General{Rows: nf, Cols: 1, Stride: 1, Data: grow(&work.rhs, nf)}
	for a, k := range face {
		hk := h.Data[k*h.Stride : k*h.Stride+n]
		for b, t := range face {
			hff.Data[a*nf+b] = hk[t]
		}
		hw := 0.0
		for t, j := range set {
			hw += hk[t] * w[j]
		}
		rhs.Data[a] = hw - g[set[k]] - math.Copysign(1, z[k])
	}
	if !linalg.Cholesky(hff) {
		return nil, false
	}
	linalg.CholeskySolve(hff, rhs)
	zf := grow(&work.zf, n)
	clear(zf)
	for a, k := range face {
		if rhs.Data[a]*z[k] <= 0 {
			return nil, false
		}
		zf[k] = rhs.Data[a]
	}
	for k, j := range set {
		if zf[k] != 0 {
			continue
		}
		hk := h.Data[k*h.Stride : k*h.Stride+n]
		grad := g[j]
		for t, jt := range set {
			grad += hk[t] * (zf[t] - w[jt])
		}
		if math.Abs(grad) > 1 {
			return nil, false
		}
	}
	return zf, true
}

// lassoSweeps bounds the inner sweeps of NewtonStep, and lassoWork their
// multiply-adds (|J|² a sweep); every lassoFaceEvery of them the model is
// solved on the current face. With a tenth of that work the inner solves
// of the text set PCMAC (|J| ≈ 760 weights, 730 samples of positive loss)
// stayed too inexact for the steps to certify within 20 of them.
const (
	lassoSweeps    = 2000
	lassoFaceEvery = 10
	lassoWork      = 500_000_000
)
