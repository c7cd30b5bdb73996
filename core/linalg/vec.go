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

// subCombScalar sets y −= Σ_s l[lo+s·ls]·b[bo+s·bs : bo+s·bs+len(y)] for s
// = 0 … n−1, in that order for each value of y and skipping zero
// coefficients: the result of n calls axpyScalar(y, −l[…], row) in turn,
// bit for bit. It runs over y in blocks of four kept in registers, so the
// rows of b are read once per block instead of y once per row.
func subCombScalar(y []float64, l []float64, lo, ls int, b []float64, bo, bs, n int) {
	t := 0
	for ; t+4 <= len(y); t += 4 {
		v := y[t : t+4 : t+4]
		y0, y1, y2, y3 := v[0], v[1], v[2], v[3]
		for s := 0; s < n; s++ {
			c := l[lo+s*ls]
			if c == 0 {
				continue
			}
			c = -c
			off := bo + s*bs + t
			r := b[off : off+4 : off+4]
			y0 += c * r[0]
			y1 += c * r[1]
			y2 += c * r[2]
			y3 += c * r[3]
		}
		v[0], v[1], v[2], v[3] = y0, y1, y2, y3
	}
	for ; t < len(y); t++ {
		yt := y[t]
		for s := 0; s < n; s++ {
			if c := l[lo+s*ls]; c != 0 {
				yt += -c * b[bo+s*bs+t]
			}
		}
		y[t] = yt
	}
}
