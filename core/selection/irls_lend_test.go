package selection

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
)

// lentCopy returns a copy of x whose backing array has room for one more
// column (the bias row of a transposed design), as the data reader
// leaves it.
func lentCopy(x *mat.Dense) *mat.Dense {
	m, n := x.Dims()
	data := make([]float64, m*n, m*(n+1))
	for i := 0; i < m; i++ {
		copy(data[i*n:(i+1)*n], x.RawRowView(i))
	}
	return mat.NewDense(m, n, data)
}

// fitText fits the method to p (on two goroutines) and returns every
// number of its result as text: iterations, stop, objective, trace,
// scores, ranking, W, certificate and notes.
func fitText(t *testing.T, method string, params map[string]any, p *Problem) string {
	t.Helper()
	sel, st := newSelector(t, method, params)
	st.Workers = 2
	res, err := sel.Fit(context.Background(), p, &st)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var w []float64
	if res.W != nil {
		w = res.W.RawMatrix().Data
	}
	var cert Certificate
	if res.Certificate != nil {
		cert = *res.Certificate
	}
	return fmt.Sprint(res.Iterations, res.Status, res.Objective, res.Trace, res.Scores, res.Ranking, w, cert, res.Notes)
}

// TestLendIsInvisible: a fit lent its problem's X (Problem.Lend) returns
// the very result of the fit on a copy — every number of the record,
// the iterations and the certificate — and leaves X as it was, bit for
// bit. The cases: the IRLS family with and without the bias row (rfs,
// mtfs, gsr with r = p = 1, whose working set shrinks and is gathered to
// the front of the design, and whose certificate reads the design),
// wide and tall data, a consensus whose two IRLS members run side by side
// on the one X (they must not be lent it), and Xs that cannot be lent
// (no room for the bias row; a view narrower than its stride), which are
// copied.
func TestLendIsInvisible(t *testing.T) {
	wide, err := dataset.Synth{M: 60, D1: 10, D2: 370, C: 3, Seed: 7}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	tall, err := dataset.Synth{M: 300, D1: 5, D2: 25, C: 3, Seed: 8}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		method string
		params map[string]any
		data   *dataset.SynthData
		bias   bool
	}{
		{"rfs wide", "rfs", nil, wide, true},
		{"rfs wide, no bias", "rfs", nil, wide, false},
		{"rfs tall", "rfs", nil, tall, true},
		{"mtfs wide", "mtfs", nil, wide, true},
		{"gsr r=p=1 wide", "gsr", map[string]any{"r": 1.0, "p": 1.0}, wide, true},
		{"consensus rfs+mtfs", "consensus", map[string]any{"m1": "rfs", "m2": "mtfs"}, wide, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := dataset.FitScaler(dataset.ZScore, c.data.X).Transform(c.data.X)
			problem := func(x *mat.Dense, lend bool) *Problem {
				return &Problem{X: x, Y: c.data.Class, C: 3, Bias: c.bias, Lend: lend}
			}
			want := fitText(t, c.method, c.params, problem(mat.DenseCopyOf(x), false))
			lent := lentCopy(x)
			if s := newIRLSOf(irlsModel{r: 1, p: 1, lambda: 1}, lent, c.bias, true, mat.NewDense(len(c.data.Class), 1, nil), 0); &s.zt[0] != &lent.RawMatrix().Data[0] {
				t.Fatal("the design is not built in the lent X")
			} else {
				s.giveBack()
			}
			if got := fitText(t, c.method, c.params, problem(lent, true)); got != want {
				t.Errorf("lent: the result differs from the copy's:\n%s\n%s", got, want)
			}
			if !mat.Equal(lent, x) {
				t.Error("lent: X is not given back as it was")
			}
			// Not lendable: exactly as long as the matrix, and a view of
			// the first n−1 columns (stride n).
			short := mat.DenseCopyOf(x)
			if got := fitText(t, c.method, c.params, problem(short, true)); got != want && c.bias {
				t.Errorf("no room for the bias row: the result differs")
			}
			if !mat.Equal(short, x) {
				t.Error("no room for the bias row: X changed")
			}
		})
	}
	x := dataset.FitScaler(dataset.ZScore, wide.X).Transform(wide.X)
	m, n := x.Dims()
	big := lentCopy(x)
	view := big.Slice(0, m, 0, n-1).(*mat.Dense)
	before := mat.DenseCopyOf(big)
	want := fitText(t, "rfs", nil, &Problem{X: mat.DenseCopyOf(view), Y: wide.Class, C: 3, Bias: true})
	if got := fitText(t, "rfs", nil, &Problem{X: view, Y: wide.Class, C: 3, Bias: true, Lend: true}); got != want {
		t.Error("a view of n−1 columns: the result differs")
	}
	if !mat.Equal(big, before) {
		t.Error("a view of n−1 columns: the matrix under it changed")
	}
}

// TestLendGivenBackOnCancel: a lent fit cancelled in its loop still
// gives X back.
func TestLendGivenBackOnCancel(t *testing.T) {
	data, err := dataset.Synth{M: 60, D1: 10, D2: 370, C: 3, Seed: 9}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.FitScaler(dataset.ZScore, data.X).Transform(data.X)
	lent := lentCopy(x)
	ctx, cancel := context.WithCancel(context.Background())
	steps := 0
	st := &Settings{Progress: func(Progress) {
		if steps++; steps == 3 {
			cancel()
		}
	}}
	_, err = (&RFS{Gamma: 1}).Fit(ctx, &Problem{X: lent, Y: data.Class, C: 3, Bias: true, Lend: true}, st)
	if err == nil {
		t.Fatal("the cancelled fit returned no error")
	}
	if !mat.Equal(lent, x) {
		t.Error("X is not given back after the cancel")
	}
}

// The memory check counts no copy of the design when X is lent and can
// hold it: with a budget between the two estimates (with and without the
// m × N transpose) rfs fits a lent X and refuses a copied one, or a lent
// X with no room for the bias row.
func TestLendMemoryBudget(t *testing.T) {
	sd, err := dataset.Synth{M: 600, D1: 10, D2: 170, C: 3, Seed: 5}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	x := dataset.FitScaler(dataset.ZScore, sd.X).Transform(sd.X)
	base := &Problem{X: x, Y: sd.Class, C: 3, Bias: true}
	total := func(design int) int64 {
		b := 0.0
		for _, n := range base.embeddedNeeds(design, base.gram(2)) {
			b += n.Bytes()
		}
		return int64(b)
	}
	limit := (total(0) + total(1)) / 2
	fit := func(x *mat.Dense, lend bool) error {
		p := &Problem{X: x, Y: sd.Class, C: 3, Bias: true, Lend: lend, MemoryBudget: limit}
		_, err := RFS{}.Fit(context.Background(), p, &Settings{MaxIterations: 3})
		return err
	}
	if err := fit(lentCopy(x), true); err != nil {
		t.Errorf("lent: %v", err)
	}
	if err := fit(mat.DenseCopyOf(x), false); err == nil || !strings.Contains(err.Error(), "above the memory budget") {
		t.Errorf("copied: %v, want a refusal", err)
	}
	if err := fit(mat.DenseCopyOf(x), true); err == nil || !strings.Contains(err.Error(), "above the memory budget") {
		t.Errorf("lent without room for the bias row: %v, want a refusal", err)
	}
}
