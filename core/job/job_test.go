package job

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
)

// referenceANOVA computes, independently of the selectors' code, the Fisher
// score SSB/SSW and the F statistic (SSB/(c−1))/(SSW/(m−c)) of every
// feature of the raw (unpreprocessed) data, in 256-bit floating point with
// the textbook one-pass sums: SST = Σx² − (Σx)²/m, SSB = Σ_k (Σ_k x)²/m_k −
// (Σx)²/m, SSW = SST − SSB. Both scores are invariant under the affine
// z-scoring the job applies first, so they must agree to rounding.
func referenceANOVA(ds *dataset.Dataset) (fisher, f []float64) {
	const prec = 256
	m, n := ds.X.Dims()
	c := len(ds.Classes)
	nb := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	counts := ds.ClassCounts()
	for j := 0; j < n; j++ {
		sum, sq := nb(0), nb(0)
		csum := make([]*big.Float, c)
		for k := range csum {
			csum[k] = nb(0)
		}
		for i := 0; i < m; i++ {
			v := nb(ds.X.At(i, j))
			sum.Add(sum, v)
			sq.Add(sq, new(big.Float).SetPrec(prec).Mul(v, v))
			csum[ds.Y[i]].Add(csum[ds.Y[i]], v)
		}
		corr := new(big.Float).SetPrec(prec).Mul(sum, sum)
		corr.Quo(corr, nb(float64(m)))
		sst := new(big.Float).SetPrec(prec).Sub(sq, corr)
		ssb := new(big.Float).SetPrec(prec).Neg(corr)
		for k := range csum {
			t := new(big.Float).SetPrec(prec).Mul(csum[k], csum[k])
			ssb.Add(ssb, t.Quo(t, nb(float64(counts[k]))))
		}
		ssw := new(big.Float).SetPrec(prec).Sub(sst, ssb)
		// The divisions by m and m_k round at 2^−256 of Σx²; below that
		// scale a sum of squares is an exact zero (a constant feature, or
		// one constant within every class).
		scale, _ := sq.Float64()
		b, _ := ssb.Float64()
		w, _ := ssw.Float64()
		if b <= 0x1p-200*scale {
			b = 0
		}
		if w <= 0x1p-200*scale {
			w = 0
		}
		fisher = append(fisher, ratioRef(b, w))
		f = append(f, ratioRef(b/float64(c-1), w/float64(m-c)))
	}
	return fisher, f
}

func ratioRef(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return a / b
}

// On real data, the whole path (file → reader → z-score → selector → JSON
// response) agrees with the independent high-precision computation to 1e−9
// relative, as the walking-skeleton issue requires.
func TestFiltersMatchReferenceOnRealData(t *testing.T) {
	files := []string{"GLIOMA.csv.gz", "ALLAML.csv.gz", "lymphoma.csv.gz"}
	if testing.Short() {
		files = files[:1]
	}
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			path := testdata.Path(t, file)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ds, err := dataset.Parse(raw, dataset.Options{})
			if err != nil {
				t.Fatal(err)
			}
			wantFisher, wantF := referenceANOVA(ds)
			for method, want := range map[string][]float64{"fisher": wantFisher, "fstat": wantF} {
				resp, err := Run(context.Background(), &api.Request{Data: api.Data{Path: path}, Method: method}, Input{Raw: raw}, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := resp.Selection.Scores
				worst := 0.0
				for j := range want {
					if math.IsInf(want[j], 1) != math.IsInf(got[j], 1) {
						t.Fatalf("%s feature %d: %v, want %v", method, j, got[j], want[j])
					}
					if want[j] != 0 && !math.IsInf(want[j], 0) {
						worst = math.Max(worst, math.Abs(got[j]-want[j])/math.Abs(want[j]))
					} else if got[j] != want[j] {
						t.Fatalf("%s feature %d: %v, want %v", method, j, got[j], want[j])
					}
				}
				if worst > 1e-9 {
					t.Errorf("%s: worst relative error %.3g > 1e-9", method, worst)
				}
				t.Logf("%s on %s: worst relative error %.3g over %d features", method, file, worst, len(want))
			}
		})
	}
}

// The JSON of a selection carries every field of the CLI contract, with
// null objective and nonzero_rows for filters and +Inf written as the
// largest double.
func TestSelectionJSONContract(t *testing.T) {
	csv := "a,b,c,label\n1,0,5,x\n2,0,5,x\n6,5,5,y\n7,5,5,y\n1,0,5,x\n"
	// Column b is constant within each class: its scores are +Inf.
	resp, err := Run(context.Background(), &api.Request{Data: api.Data{Name: "t.csv"}, Method: "FSTAT", K: 2}, Input{Raw: []byte(csv)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	for _, key := range []string{"method", "params", "features", "ranking", "scores", "objective", "iterations", "stop", "trace", "nonzero_rows", "seconds", "dataset", "selected", "preprocess", "bias", "warnings"} {
		if _, ok := got[key]; !ok {
			t.Errorf("key %q missing from %s", key, b)
		}
	}
	if got["objective"] != nil || got["nonzero_rows"] != nil || got["stop"] != "closed_form" || got["method"] != "fstat" {
		t.Errorf("filter fields: %s", b)
	}
	if s := got["scores"].([]any); s[1] != math.MaxFloat64 || s[2] != 0.0 {
		t.Errorf("scores %v: want +Inf as MaxFloat64 and the constant column 0", s)
	}
	if !strings.Contains(string(b), `"warnings":["1 constant feature(s) set to zero, e.g. \"c\""]`) {
		t.Errorf("no constant-feature warning in %s", b)
	}
	var back api.Selection
	if err := json.Unmarshal(b, &back); err != nil || back.Scores[1] != math.MaxFloat64 || back.Objective != nil {
		t.Errorf("round trip: %v %v", err, back.Scores)
	}
}

func TestRequestErrors(t *testing.T) {
	csv := []byte("a,b,label\n1,2,x\n3,4,y\n")
	for _, c := range []struct {
		req      api.Request
		raw      []byte
		fragment string
	}{
		{api.Request{}, csv, "no method given"},
		{api.Request{Method: "magic"}, csv, `unknown method "magic"`},
		{api.Request{Method: "fisher", K: 3}, csv, "k = 3 is out of range"},
		{api.Request{Method: "fisher", Preprocess: "log"}, csv, `unknown preprocessing "log"`},
		{api.Request{Method: "fisher", Params: map[string]any{"gamma": 1.0}}, csv, "fisher takes no parameters"},
		{api.Request{Data: api.Data{Name: "bad.csv"}, Method: "fisher"}, []byte("a,b,label\n1,x,1\n2,3,0\n"), `bad.csv: line 2, column 2 ("b"): "x" is not a number`},
		{api.Request{Method: "fisher"}, nil, "no data given"},
		{api.Request{Data: api.Data{Delimiter: "|"}, Method: "fisher"}, csv, "unknown delimiter"},
		{api.Request{Op: "train"}, csv, "unknown operation"},
		{api.Request{Op: "reduce"}, csv, "no features chosen"},
		{api.Request{Op: "reduce", Columns: []int{2}}, csv, "feature 2 does not exist"},
		{api.Request{Op: "synth", Synth: &api.Synth{M: 1, D1: 1, C: 2}}, nil, "synth: m = 1"},
	} {
		_, err := Run(context.Background(), &c.req, Input{Raw: c.raw}, nil)
		if err == nil || !strings.Contains(err.Error(), c.fragment) {
			t.Errorf("%+v: error %v, want %q", c.req, err, c.fragment)
		}
	}
}

// The reduced data are the chosen features, in the order given, then the
// label, as RFC 4180 CSV that reads back to the same numbers; named after
// the data.
func TestReduce(t *testing.T) {
	csv := []byte("a,\"b, quoted\",c,label\n1.5,2,NA,x\n0.1,4,6,\"y y\"\n")
	req := &api.Request{Op: api.OpReduce, Data: api.Data{Name: "dir/my data.csv.gz", Missing: api.MissingMean}, Columns: []int{2, 1}}
	resp, err := Run(context.Background(), req, Input{Raw: csv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "c,\"b, quoted\",label\n,2,x\n6,4,y y\n"
	if r := resp.Reduced; r.Name != "my data-top2.csv" || r.CSV != want {
		t.Errorf("reduced %q:\n%s\nwant\n%s", r.Name, r.CSV, want)
	}
}

func TestInspect(t *testing.T) {
	csv := []byte("g1;g2;diagnosis\n1,5;NA;B\n2;3;M\n4;5;B\n")
	resp, err := Run(context.Background(), &api.Request{Op: api.OpInspect, Data: api.Data{Name: "p.csv"}, PreviewRows: 2}, Input{Raw: csv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := resp.Inspection
	if in.Dataset.Delimiter != ";" || !in.Dataset.Header || in.Dataset.Missing != 1 || in.LabelColumn != 2 ||
		strings.Join(in.Dataset.Classes, ",") != "B,M" || in.Dataset.Counts[0] != 2 || len(in.Preview) != 2 || in.Preview[0][0] != "1,5" {
		t.Errorf("inspection %+v", in)
	}
	// The same file with missing values rejected fails when selecting.
	if _, err := Run(context.Background(), &api.Request{Method: "fisher"}, Input{Raw: csv}, nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("select with a missing value: %v", err)
	}
	if _, err := Run(context.Background(), &api.Request{Data: api.Data{Missing: "mean"}, Method: "fisher"}, Input{Raw: csv}, nil); err != nil {
		t.Errorf("select with imputation: %v", err)
	}
}

func TestMethodsListed(t *testing.T) {
	resp, err := Run(context.Background(), &api.Request{Op: api.OpMethods}, Input{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range resp.Methods.Methods {
		names[m.Name] = true
		if m.Params == nil {
			t.Errorf("%s: params is null", m.Name)
		}
	}
	if !names["fisher"] || !names["fstat"] {
		t.Errorf("methods %v", names)
	}
}

// -k fills the subset size of a method that selects K features, and only
// that: a filter's own parameter k (ReliefF's neighbours) keeps its value.
func TestKFillsOnlySelectsK(t *testing.T) {
	csv := []byte("a,b,c,d,label\n1,0,3,1,x\n2,2,1,0,x\n6,5,2,1,y\n7,5,0,0,y\n3,1,2,2,x\n8,6,1,1,y\n")
	resp, err := Run(context.Background(), &api.Request{Method: "relieff", K: 2}, Input{Raw: csv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Selection.Params["k"]; got != 10.0 {
		t.Errorf("relieff's neighbour count became %v with -k 2", got)
	}
	if len(resp.Selection.Selected) != 2 {
		t.Errorf("selected %v", resp.Selection.Selected)
	}
	resp, err = Run(context.Background(), &api.Request{Method: "l20", K: 2}, Input{Raw: csv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Selection.Params["k"]; got != 2.0 || len(resp.Selection.Selected) != 2 {
		t.Errorf("l20 with -k 2: k = %v, selected %v", got, resp.Selection.Selected)
	}
}
