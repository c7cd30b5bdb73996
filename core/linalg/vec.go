package linalg

// dotScalar returns Σ x[i]·y[i] (len(y) ≥ len(x)), with four partial sums:
// s_r sums the products at indices ≡ r (mod 4) of the part that is a
// multiple of four long, s_0 then the rest, and the result is
// (s_0 + s_1) + (s_2 + s_3).
func dotScalar(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	for len(x) >= 4 && len(y) >= 4 {
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		x, y = x[4:], y[4:]
	}
	for i, v := range x {
		s0 += v * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// axpyScalar sets y += alpha·x (len(x) ≥ len(y)).
func axpyScalar(y []float64, alpha float64, x []float64) {
	x = x[:len(y)]
	for i, v := range x {
		y[i] += alpha * v
	}
}
