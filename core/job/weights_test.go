package job

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/selection"
)

// testEmbedded is an embedded method for these tests only: W = Dᵀ·Y01 with D
// the design (bias column included), reached by three "iterations" whose
// objective is 3, 2, 1.
type testEmbedded struct{}

func (testEmbedded) Fit(ctx context.Context, p *selection.Problem, s *selection.Settings) (*selection.Result, error) {
	_, n := p.X.Dims()
	var w mat.Dense
	w.Mul(p.Design().T(), p.OneHot())
	run, err := selection.Iterate(ctx, s, func(k int) (float64, selection.Status, error) {
		st := selection.NotTerminated
		if k == 3 {
			st = selection.MethodConverged
		}
		return float64(4 - k), st, nil
	})
	if err != nil {
		return nil, err
	}
	return selection.EmbeddedResult(&w, n, run), nil
}

func init() {
	selection.Register(&selection.Spec{
		Name: "jobtest_embedded", Title: "test", Doc: "test", Kind: selection.Embedded,
		New: func(selection.Params) (selection.Selector, error) { return testEmbedded{}, nil },
	})
}

// The top rows of |W| come back in ranking order, with the classes as
// columns; the bias row is never among them.
func TestWeightRows(t *testing.T) {
	// Column means are 0 and population deviations 1 for a and b after
	// z-scoring; W = Dᵀ·Y01 is then, by hand, the class sums of each
	// z-scored column, and the bias row holds the class counts.
	csv := "a,b,label\n1,10,x\n3,10,x\n5,30,y\n7,30,y\n"
	resp, err := Run(context.Background(), &api.Request{Method: "jobtest_embedded", WeightRows: 5}, Input{Raw: []byte(csv)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sel := resp.Selection
	// a z-scores to (−3,−1,1,3)/√5, so its class sums are ∓4/√5; b to
	// (−1,−1,1,1), class sums ∓2: b ranks first (norm 2√2 > 4√2/√5).
	want := &api.Weights{Rows: []int{1, 0}, Columns: []string{"x", "y"},
		Abs: []api.Floats{{2, 2}, {4 / math.Sqrt(5), 4 / math.Sqrt(5)}}}
	if !reflect.DeepEqual(sel.Weights.Rows, want.Rows) || !reflect.DeepEqual(sel.Weights.Columns, want.Columns) {
		t.Fatalf("weights %+v, want %+v", sel.Weights, want)
	}
	for i := range want.Abs {
		for k := range want.Abs[i] {
			if d := math.Abs(sel.Weights.Abs[i][k] - want.Abs[i][k]); d > 1e-12 {
				t.Errorf("|W|[%d][%d] = %v, want %v", i, k, sel.Weights.Abs[i][k], want.Abs[i][k])
			}
		}
	}
	if !reflect.DeepEqual([]float64(sel.Trace), []float64{3, 2, 1}) || sel.Stop != "method_converged" {
		t.Errorf("trace %v, stop %s", sel.Trace, sel.Stop)
	}
	// Not asked for, or for a filter: no weights.
	for _, req := range []*api.Request{
		{Method: "jobtest_embedded"},
		{Method: "fisher", WeightRows: 3},
	} {
		resp, err := Run(context.Background(), req, Input{Raw: []byte(csv)}, nil)
		if err != nil || resp.Selection.Weights != nil {
			t.Errorf("%s: weights %+v, error %v", req.Method, resp.Selection.Weights, err)
		}
	}
	if _, err := Run(context.Background(), &api.Request{Method: "fisher", WeightRows: -1}, Input{Raw: []byte(csv)}, nil); err == nil || !strings.Contains(err.Error(), "weight_rows") {
		t.Errorf("negative weight_rows: %v", err)
	}
}

// A Table read once gives the same selection as the bytes; an inspection
// reads the bytes (it keeps rows as text).
func TestTableReused(t *testing.T) {
	csv := []byte("a,b,c,label\n1,0,5,x\n2,1,4,x\n6,5,5,y\n7,4,3,y\n")
	d := api.Data{Name: "p.csv", Label: "last"}
	tab, err := Read(context.Background(), csv, &d)
	if err != nil {
		t.Fatal(err)
	}
	fromBytes, err := Run(context.Background(), &api.Request{Data: d, Method: "fstat"}, Input{Raw: csv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fromTable, err := Run(context.Background(), &api.Request{Data: d, Method: "fstat"}, Input{Table: tab}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := fromBytes.Selection, fromTable.Selection
	a.Seconds, b.Seconds = 0, 0
	if !reflect.DeepEqual(a, b) {
		t.Errorf("from bytes %+v\nfrom the table %+v", a, b)
	}
	ins, err := Run(context.Background(), &api.Request{Op: api.OpInspect}, Input{Raw: csv, Table: tab}, nil)
	if err != nil || len(ins.Inspection.Preview) != 4 {
		t.Errorf("inspection with a table: %v, %+v", err, ins)
	}
}
