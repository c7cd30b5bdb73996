package sparse

import "math"

// L2 returns the Euclidean norm of v (with scaling against overflow and
// underflow of the squares when the plain sum of squares would suffer
// from them).
func L2(v []float64) float64 {
	sum := 0.0
	for _, x := range v {
		sum += x * x
	}
	if sum > 0x1p-900 && sum < 0x1p900 {
		return math.Sqrt(sum)
	}
	if sum == 0 {
		return 0
	}
	scale, ssq := 0.0, 1.0
	for _, x := range v {
		if x == 0 {
			continue
		}
		a := math.Abs(x)
		if scale < a {
			ssq = 1 + ssq*(scale/a)*(scale/a)
			scale = a
		} else {
			ssq += (a / scale) * (a / scale)
		}
	}
	return scale * math.Sqrt(ssq)
}

// L1 returns Σ|v_i|.
func L1(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Abs(x)
	}
	return s
}

// RowsL21 returns ‖W‖_{2,1} = Σ_j ‖w^j‖₂ of the n×c row-major matrix w
// (len(w) = n·c).
func RowsL21(w []float64, c int) float64 {
	s := 0.0
	for j := 0; j+c <= len(w); j += c {
		s += L2(w[j : j+c])
	}
	return s
}

// RowsL12Sq returns ‖W‖_{1,2}² = Σ_j ‖w^j‖₁² of the n×c row-major matrix w.
func RowsL12Sq(w []float64, c int) float64 {
	s := 0.0
	for j := 0; j+c <= len(w); j += c {
		a := L1(w[j : j+c])
		s += a * a
	}
	return s
}

// RowsL2p returns ‖W‖_{2,p}^p = Σ_j ‖w^j‖₂^p of the n×c row-major matrix w,
// for p > 0 (zero rows contribute nothing).
func RowsL2p(w []float64, c int, p float64) float64 {
	s := 0.0
	for j := 0; j+c <= len(w); j += c {
		if r := L2(w[j : j+c]); r > 0 {
			if p == 1 {
				s += r
			} else {
				s += math.Pow(r, p)
			}
		}
	}
	return s
}
