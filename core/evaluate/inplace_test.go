package evaluate

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
)

// permuteRows against the rows gathered one by one into a new matrix, on
// permutations with cycles of every length, a fixed point and the identity.
func TestPermuteRows(t *testing.T) {
	for _, perm := range [][]int{
		{0, 1, 2, 3, 4, 5, 6},
		{6, 5, 4, 3, 2, 1, 0},
		{1, 2, 0, 3, 5, 6, 4},
		{3, 0, 1, 2, 4, 6, 5},
	} {
		m, n := len(perm), 3
		x := mat.NewDense(m, n, nil)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				x.Set(i, j, float64(10*i+j))
			}
		}
		want := mat.NewDense(m, n, nil)
		for r, i := range perm {
			want.SetRow(r, x.RawRowView(i))
		}
		permuteRows(x, perm)
		if !mat.Equal(x, want) {
			t.Errorf("perm %v:\n%v\nwant\n%v", perm, mat.Formatted(x), mat.Formatted(want))
		}
	}
	if _, ok := blockOrder(4, []int{0, 1}, []int{1, 2}); ok {
		t.Error("a row in both parts was accepted")
	}
	if _, ok := blockOrder(4, []int{0, 0}, []int{2}); ok {
		t.Error("a row twice in one part was accepted")
	}
	if p, ok := blockOrder(5, []int{3, 1}, []int{4}); !ok || !equalInts(p, []int{0, 2, 4, 3, 1}) {
		t.Errorf("blockOrder = %v, %v; want [0 2 4 3 1]", p, ok)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A unit run alone on data the evaluation owns takes its parts out of the
// data in place (the data's rows are rearranged: the test checks they
// are, so that it fails if the copies are taken instead) and gives the
// result of the same unit on copies, byte for byte but for the timings —
// with tuning, missing values imputed by the training mean, a selection
// and classifiers; the data then refuse a second unit. With two units in
// one run the rows are copied and the data left as they were.
func TestUnitInPlace(t *testing.T) {
	base := twoClass(5, 36, 20, 4, 0.8)
	base.X.Set(3, 2, math.NaN())
	base.X.Set(17, 5, math.NaN())
	plan := api.Plan{Methods: []api.Variant{{Method: "fisher"}, {Method: "l1svm", Params: map[string]any{"C": []any{0.1, 1.0}}}, {Method: "rfs"}},
		K: []int{2, 6}, Classifiers: []api.Classifier{{Name: "svm"}, {Name: "knn"}}, Protocol: api.Protocol{Kind: api.CV, Folds: 3}, Seed: 7}
	// The data's array has room for one more column, as the reader leaves
	// it: rfs's fit is lent the training rows and writes its design's
	// bias row past them (selection.Problem.Lend), which must not touch
	// the test rows.
	clone := func() *Data {
		d := *base
		m, n := base.X.Dims()
		d.X = mat.NewDense(m, n, make([]float64, m*n, m*(n+1)))
		d.X.Copy(base.X)
		return &d
	}
	for _, u := range []int{0, 4, 5, 9, 11} { // 9 and 11: rfs
		want, err := mustNew(t, plan, clone()).RunUnit(context.Background(), u, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := clone()
		e := mustNew(t, plan, d)
		e.Own = true
		got, err := e.RunUnit(context.Background(), u, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := jsonNoTimes(t, got), jsonNoTimes(t, want); g != w {
			t.Errorf("unit %d in place:\n%s\nwant\n%s", u, g, w)
		}
		if mat.Equal(d.X, base.X) {
			t.Errorf("unit %d: the data are unchanged: the parts were copied", u)
		}
		if _, err := e.RunUnit(context.Background(), (u+1)%e.Units(), nil); !errors.Is(err, errSpent) {
			t.Errorf("a second unit on the rearranged data: %v, want errSpent", err)
		}
	}
	d := clone()
	e := mustNew(t, plan, d)
	e.Own = true
	if _, err := e.RunUnits(context.Background(), []int{1, 2}, 1, nil); err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(d.X, base.X) && !nanEqual(d.X, base.X) {
		t.Error("two units in one run changed the data")
	}
}

// nanEqual reports whether a and b hold the same values, NaN equal to NaN.
func nanEqual(a, b *mat.Dense) bool {
	m, n := a.Dims()
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			x, y := a.At(i, j), b.At(i, j)
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		}
	}
	return true
}
