package dataset

import (
	"bytes"
	"math"
	"reflect"
	"testing"
)

// The generator follows its definition: X3 is the mean of X1 and X2 up to
// noise of deviation 0.1, X4 lies in [−1, 1), the rows of Y0 outside the
// outliers are X·W plus noise of deviation 0.5, W is zero below its first
// 2·d1 rows and in [0, 1) above, exactly round(a·m) rows are flipped, the
// class is the argmax of the unflipped row, and the CSV reads back to the
// same numbers.
func TestSynth(t *testing.T) {
	s := Synth{M: 400, D1: 6, D2: 5, C: 3, Outliers: 0.1, Seed: 42}
	sd, err := s.Generate()
	if err != nil {
		t.Fatal(err)
	}
	m, d := sd.X.Dims()
	if m != 400 || d != 23 || len(sd.Outliers) != 40 {
		t.Fatalf("dims %d×%d, %d outliers", m, d, len(sd.Outliers))
	}
	isOut := map[int]bool{}
	for _, i := range sd.Outliers {
		isOut[i] = true
	}
	var noise3, noiseY, n3, nY float64
	for i := 0; i < m; i++ {
		row := sd.X.RawRowView(i)
		for j := 0; j < 6; j++ {
			e := row[12+j] - 0.5*(row[j]+row[6+j])
			noise3 += e * e
			n3++
		}
		for j := 18; j < 23; j++ {
			if row[j] < -1 || row[j] >= 1 {
				t.Fatalf("X4[%d,%d] = %v", i, j, row[j])
			}
		}
		sign := 1.0
		if isOut[i] {
			sign = -1
		}
		best := 0
		clean := make([]float64, 3)
		for k := 0; k < 3; k++ {
			xw := 0.0
			for j := 0; j < d; j++ {
				xw += row[j] * sd.W.At(j, k)
			}
			clean[k] = sign * sd.Targets.At(i, k)
			e := clean[k] - xw
			noiseY += e * e
			nY++
			if clean[k] > clean[best] {
				best = k
			}
		}
		if sd.Class[i] != best {
			t.Errorf("row %d: class %d, argmax %d", i, sd.Class[i], best)
		}
	}
	// Sample deviations within 10% of 0.1 and 0.5 (2400 and 1200 draws).
	if sd3 := math.Sqrt(noise3 / n3); math.Abs(sd3-0.1) > 0.01 {
		t.Errorf("X3 noise deviation %v", sd3)
	}
	if sdY := math.Sqrt(noiseY / nY); math.Abs(sdY-0.5) > 0.05 {
		t.Errorf("Y0 noise deviation %v", sdY)
	}
	for j := 0; j < d; j++ {
		for k := 0; k < 3; k++ {
			v := sd.W.At(j, k)
			if (j >= 12 && v != 0) || (j < 12 && (v < 0 || v >= 1)) {
				t.Errorf("W[%d,%d] = %v", j, k, v)
			}
		}
	}
	again, _ := s.Generate()
	if !reflect.DeepEqual(again.X.RawMatrix().Data, sd.X.RawMatrix().Data) {
		t.Error("same seed, different data")
	}
	var buf bytes.Buffer
	if err := sd.WriteCSV(&buf, true, true); err != nil {
		t.Fatal(err)
	}
	ds, err := Parse(buf.Bytes(), Options{Targets: []string{"y1", "y2", "y3"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ds.X.RawMatrix().Data, sd.X.RawMatrix().Data) || !reflect.DeepEqual(ds.Targets.RawMatrix().Data, sd.Targets.RawMatrix().Data) {
		t.Error("the CSV does not read back to the same numbers")
	}
	for i, y := range ds.Y {
		if ds.Classes[y] != string(rune('1'+sd.Class[i])) {
			t.Fatalf("row %d: label %s, class %d", i, ds.Classes[y], sd.Class[i])
		}
	}
	if _, err := (Synth{M: 10, D1: 1, C: 1, Outliers: 2}).Generate(); err == nil {
		t.Error("outlier fraction 2 accepted")
	}
}
