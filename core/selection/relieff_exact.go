package selection

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Exact distances for ReliefF on data that lie on a lattice.
//
// Whole-number data — genotypes 0/1/2, counts, pixels, Likert scores —
// and their affine images (the z-scored copy a fit is given) have, in each
// feature, values lo + u·δ with whole u. Their range-normalised Manhattan
// distances are then sums of fractions u/R (R the feature's range in
// steps), and over a common denominator L = lcm(R) they are whole numbers:
// d(a, b)·L = Σ_f |u_a − u_b|·(L/R_f). latticeScaled writes every feature
// as u·(L/R), so that the search's floating-point sums of those whole
// numbers are exact (below 2⁵³) whatever their order: equal distances tie
// exactly and the documented order — distance, then lower row index —
// holds. A floating-point sum of the unit-scaled differences would break
// such ties by its rounding.

// latticeTol is how far, relative to a feature's range, a value may lie
// from its lattice point (the rounding of an affine map of whole numbers
// is some 10⁻¹⁶ of the range).
const latticeTol = 1e-9

// maxLatticeSteps bounds the steps of one feature's lattice, and
// maxDivisor the divisors of the smallest gap tried as its step.
const (
	maxLatticeSteps = 1 << 20
	maxDivisor      = 12
)

// latticeScaled returns the features keep of x as whole numbers
// u·(L/R) (see above), as an m×len(keep) row-major array, when every one
// of them lies on a lattice and their common denominator L keeps every
// distance below 2⁵³; otherwise nil.
func latticeScaled(x *mat.Dense, lo, hi []float64, keep []int) []float64 {
	m, _ := x.Dims()
	nz := len(keep)
	steps := make([]int64, nz)
	codes := make([][]int64, nz)
	col := make([]float64, m)
	l := int64(1)
	for t, j := range keep {
		for i := range col {
			col[i] = x.At(i, j)
		}
		u, r, ok := latticeCodes(col, lo[j], hi[j])
		if !ok {
			return nil
		}
		codes[t], steps[t] = u, r
		l = lcm(l, r)
		if l > (1<<53)/int64(nz) {
			return nil
		}
	}
	out := make([]float64, m*nz)
	for t := range keep {
		scale := l / steps[t]
		for i, u := range codes[t] {
			out[i*nz+t] = float64(u * scale)
		}
	}
	return out
}

// latticeCodes finds the step δ of the lattice a feature's values lie on —
// the smallest gap between two distinct values, or a small divisor of it —
// and returns each value's whole number of steps above lo, and the range
// hi − lo in steps.
func latticeCodes(col []float64, lo, hi float64) (u []int64, r int64, ok bool) {
	distinct := slices.Clone(col)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	gap := math.Inf(1)
	for i := 1; i < len(distinct); i++ {
		gap = math.Min(gap, distinct[i]-distinct[i-1])
	}
	span := hi - lo
	for div := 1.0; div <= maxDivisor; div++ {
		step := gap / div
		steps := math.Round(span / step)
		if steps > maxLatticeSteps {
			return nil, 0, false
		}
		if onLattice(distinct, lo, step, span) {
			u = make([]int64, len(col))
			for i, v := range col {
				u[i] = int64(math.Round((v - lo) / step))
			}
			return u, int64(steps), true
		}
	}
	return nil, 0, false
}

// onLattice reports whether every value lies within latticeTol·span of
// lo + u·step for a whole u.
func onLattice(values []float64, lo, step, span float64) bool {
	for _, v := range values {
		q := (v - lo) / step
		if math.Abs(q-math.Round(q))*step > latticeTol*span {
			return false
		}
	}
	return true
}

// lcm is the least common multiple of a and b, or math.MaxInt64 when it
// is larger.
func lcm(a, b int64) int64 {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	if a/g > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a / g * b
}
