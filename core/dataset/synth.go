package dataset

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/rng"
)

// Synth describes the synthetic data of gsr-fs-peng-fan-irls §5.1 (as
// docs/methods.md#synthetic fixes it): m samples of
//
//	X = [X1 X2 X3 X4],  X1, X2 ~ N(0,1) (m×d1 each),
//	X3 = 0.5(X1 + X2) + N(0, 0.1²) noise,  X4 ~ U(−1,1) (m×d2),
//	Y0 = X·[W1; W2; 0] + N(0, 0.5²) noise,  W1, W2 ~ U(0,1) (d1×c each),
//
// after which a fraction a of the rows of Y0 change sign (the outliers).
// The first 2·d1 features are informative, X3 is redundant and X4
// irrelevant. As classification data the class of a row is the argmax of
// its row of Y0 before the flips (ties to the lower index).
type Synth struct {
	M, D1, D2, C int
	// Outliers is the fraction a of rows of Y0 whose sign is flipped; the
	// number flipped is round(a·m).
	Outliers float64
	Seed     uint64
}

// The paper's setting (§5.1): n = 2000, d1 = 100, d2 = 700, c = 5.
var PaperSynth = Synth{M: 2000, D1: 100, D2: 700, C: 5}

// SynthData is a generated dataset.
type SynthData struct {
	X       *mat.Dense // m×(3·d1 + d2)
	Targets *mat.Dense // m×c: Y0 with the outlier rows flipped
	Class   []int      // 0…c−1: argmax of Y0 before the flips
	// Outliers lists the flipped rows (0-based, increasing).
	Outliers []int
	// W is the (3·d1 + d2)×c weight matrix [W1; W2; 0].
	W *mat.Dense
}

// Validate checks the sizes.
func (s Synth) Validate() error {
	switch {
	case s.M < 2:
		return fmt.Errorf("synth: m = %d samples; at least 2 are needed", s.M)
	case s.D1 < 1:
		return fmt.Errorf("synth: d1 = %d; at least 1 informative feature per block is needed", s.D1)
	case s.D2 < 0:
		return fmt.Errorf("synth: d2 = %d irrelevant features cannot be negative", s.D2)
	case s.C < 1:
		return fmt.Errorf("synth: c = %d; at least 1 target is needed", s.C)
	case !(s.Outliers >= 0 && s.Outliers <= 1):
		return fmt.Errorf("synth: the outlier fraction %v must be in [0, 1]", s.Outliers)
	case float64(s.M)*float64(3*s.D1+s.D2) > 5e8:
		return fmt.Errorf("synth: %d×%d is too large", s.M, 3*s.D1+s.D2)
	}
	return nil
}

// Generate draws the data. The draws come in a fixed order (X1, X2, the
// noise of X3, X4 row by row, then W1, W2, the noise of Y0, then the
// outlier rows), each from its own stream of the seed.
func (s Synth) Generate() (*SynthData, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m, d1, d2, c := s.M, s.D1, s.D2, s.C
	d := 3*d1 + d2
	x := mat.NewDense(m, d, nil)
	rx := rng.New(s.Seed, 1)
	for i := 0; i < m; i++ {
		row := x.RawRowView(i)
		for j := 0; j < 2*d1; j++ {
			row[j] = rx.Normal()
		}
		for j := 0; j < d1; j++ {
			row[2*d1+j] = 0.5*(row[j]+row[d1+j]) + 0.1*rx.Normal()
		}
		for j := 3 * d1; j < d; j++ {
			row[j] = rx.Uniform(-1, 1)
		}
	}
	w := mat.NewDense(d, c, nil)
	rw := rng.New(s.Seed, 2)
	for j := 0; j < 2*d1; j++ {
		for k := 0; k < c; k++ {
			w.Set(j, k, rw.Float64())
		}
	}
	y := mat.NewDense(m, c, nil)
	y.Mul(x, w)
	rn := rng.New(s.Seed, 3)
	class := make([]int, m)
	for i := 0; i < m; i++ {
		row := y.RawRowView(i)
		for k := range row {
			row[k] += 0.5 * rn.Normal()
			if row[k] > row[class[i]] {
				class[i] = k
			}
		}
	}
	nOut := int(math.Round(s.Outliers * float64(m)))
	perm := rng.New(s.Seed, 4).Perm(m)
	out := make([]bool, m)
	for _, i := range perm[:nOut] {
		out[i] = true
	}
	data := &SynthData{X: x, Targets: y, Class: class, W: w, Outliers: []int{}}
	for i, o := range out {
		if o {
			data.Outliers = append(data.Outliers, i)
			row := y.RawRowView(i)
			for k := range row {
				row[k] = -row[k]
			}
		}
	}
	return data, nil
}

// WriteCSV writes the data as a CSV table: features f1…fd, then the targets
// y1…yc when targets is set, then the class label (1…c) in a column named
// "label" when label is set. Numbers are written in the shortest form that
// reads back to the same double.
func (sd *SynthData) WriteCSV(w io.Writer, targets, label bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	m, d := sd.X.Dims()
	_, c := sd.Targets.Dims()
	var line []byte
	for j := 0; j < d; j++ {
		if j > 0 {
			line = append(line, ',')
		}
		line = append(line, 'f')
		line = strconv.AppendInt(line, int64(j+1), 10)
	}
	if targets {
		for k := 0; k < c; k++ {
			line = append(line, ",y"...)
			line = strconv.AppendInt(line, int64(k+1), 10)
		}
	}
	if label {
		line = append(line, ",label"...)
	}
	line = append(line, '\n')
	if _, err := bw.Write(line); err != nil {
		return err
	}
	for i := 0; i < m; i++ {
		line = line[:0]
		for j, v := range sd.X.RawRowView(i) {
			if j > 0 {
				line = append(line, ',')
			}
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
		}
		if targets {
			for _, v := range sd.Targets.RawRowView(i) {
				line = append(line, ',')
				line = strconv.AppendFloat(line, v, 'g', -1, 64)
			}
		}
		if label {
			line = append(line, ',')
			line = strconv.AppendInt(line, int64(sd.Class[i]+1), 10)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
