package job

import (
	"context"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"

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
				resp, err := Run(context.Background(), &Request{Data: Data{Path: path}, Method: method}, nil)
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
	resp, err := Run(context.Background(), &Request{Data: Data{Bytes: []byte(csv), Name: "t.csv"}, Method: "FSTAT", K: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(resp, false)
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
	var back Selection
	if err := json.Unmarshal(b, &back); err != nil || back.Scores[1] != math.MaxFloat64 || back.Objective != nil {
		t.Errorf("round trip: %v %v", err, back.Scores)
	}
}

func TestRequestErrors(t *testing.T) {
	csv := []byte("a,b,label\n1,2,x\n3,4,y\n")
	for _, c := range []struct {
		req      Request
		fragment string
	}{
		{Request{Data: Data{Bytes: csv}}, "no method given"},
		{Request{Data: Data{Bytes: csv}, Method: "magic"}, `unknown method "magic"`},
		{Request{Data: Data{Bytes: csv}, Method: "fisher", K: 3}, "k = 3 is out of range"},
		{Request{Data: Data{Bytes: csv}, Method: "fisher", Preprocess: "log"}, `unknown preprocessing "log"`},
		{Request{Data: Data{Bytes: csv}, Method: "fisher", Params: map[string]any{"gamma": 1.0}}, "fisher takes no parameters"},
		{Request{Data: Data{Bytes: []byte("a,b,label\n1,x,1\n2,3,0\n"), Name: "bad.csv"}, Method: "fisher"}, `bad.csv: line 2, column 2 ("b"): "x" is not a number`},
		{Request{Data: Data{Path: "/nonexistent.csv"}, Method: "fisher"}, "/nonexistent.csv does not exist"},
		{Request{Data: Data{Bytes: csv, Delimiter: "|"}, Method: "fisher"}, "unknown delimiter"},
		{Request{Op: "train", Data: Data{Bytes: csv}}, "unknown operation"},
		{Request{Op: "Reduce", Data: Data{Bytes: csv}, Columns: []int{0}}, "the operation reduce belongs to the browser's worker"},
	} {
		_, err := Run(context.Background(), &c.req, nil)
		if err == nil || !strings.Contains(err.Error(), c.fragment) {
			t.Errorf("%+v: error %v, want %q", c.req, err, c.fragment)
		}
	}
}

func TestInspect(t *testing.T) {
	csv := []byte("g1;g2;diagnosis\n1,5;NA;B\n2;3;M\n4;5;B\n")
	resp, err := Run(context.Background(), &Request{Op: OpInspect, Data: Data{Bytes: csv, Name: "p.csv"}, PreviewRows: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := resp.Inspection
	if in.Dataset.Delimiter != ";" || !in.Dataset.Header || in.Dataset.Missing != 1 || in.LabelColumn != 2 ||
		strings.Join(in.Dataset.Classes, ",") != "B,M" || in.Dataset.Counts[0] != 2 || len(in.Preview) != 2 || in.Preview[0][0] != "1,5" {
		t.Errorf("inspection %+v", in)
	}
	// The same file with missing values rejected fails when selecting.
	if _, err := Run(context.Background(), &Request{Data: Data{Bytes: csv}, Method: "fisher"}, nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("select with a missing value: %v", err)
	}
	if _, err := Run(context.Background(), &Request{Data: Data{Bytes: csv, Missing: "mean"}, Method: "fisher"}, nil); err != nil {
		t.Errorf("select with imputation: %v", err)
	}
}

func TestMethodsListed(t *testing.T) {
	resp, err := Run(context.Background(), &Request{Op: OpMethods}, nil)
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
	resp, err := Run(context.Background(), &Request{Data: Data{Bytes: csv}, Method: "relieff", K: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Selection.Params["k"]; got != 10.0 {
		t.Errorf("relieff's neighbour count became %v with -k 2", got)
	}
	if len(resp.Selection.Selected) != 2 {
		t.Errorf("selected %v", resp.Selection.Selected)
	}
	resp, err = Run(context.Background(), &Request{Data: Data{Bytes: csv}, Method: "l20", K: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp.Selection.Params["k"]; got != 2.0 || len(resp.Selection.Selected) != 2 {
		t.Errorf("l20 with -k 2: k = %v, selected %v", got, resp.Selection.Selected)
	}
}
