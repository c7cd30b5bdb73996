package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/internal/rng"
	"sparsefs/core/selection"
	"sparsefs/core/stats"
)

// twoClass returns m samples of n features in two classes: the first
// `informative` features are shifted by ±shift with the class, the rest are
// noise.
func twoClass(seed uint64, m, n, informative int, shift float64) *Data {
	r := rng.New(seed, 0)
	x := mat.NewDense(m, n, nil)
	y := make([]int, m)
	for i := 0; i < m; i++ {
		y[i] = i % 2
		for j := 0; j < n; j++ {
			v := r.Normal()
			if j < informative {
				v += shift * float64(2*y[i]-1)
			}
			x.Set(i, j, v)
		}
	}
	return &Data{X: x, Y: y, Classes: 2}
}

func mustNew(t *testing.T, p api.Plan, d *Data) *Evaluation {
	t.Helper()
	e, err := New(p, d)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var secondsField = regexp.MustCompile(`"(seconds|fit_seconds)":(\{[^}]*\}|[-0-9.e+]+|null)`)

// jsonNoTimes marshals v with every timing blanked out.
func jsonNoTimes(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return secondsField.ReplaceAllString(string(b), `"$1":0`)
}

// The heart of the no-leak guarantee. (1) A feature informative only on a
// split's test part — constant (zero) on its training part, ±6 with the
// class on its test part — scores exactly 0 in that split's fits, as a
// constant feature does; in a leaky evaluation (selection on all samples)
// it is ranked first, so this test can fail. (2) Replacing a split's test rows — features, labels, missing
// values — by anything leaves every fitted quantity of that split's unit
// bit for bit unchanged: the rankings, scores, objectives, traces, the
// redundancy, and the parameters chosen by tuning.
func TestNoLeak(t *testing.T) {
	const m, n = 60, 40
	d := twoClass(1, m, n, 0, 0)
	assign := make([]int, m)
	for i := range assign {
		assign[i] = i % 4
	}
	for i := 0; i < m; i++ {
		d.X.Set(i, 0, 0)
		if assign[i] == 0 {
			d.X.Set(i, 0, 6*float64(2*d.Y[i]-1)) // informative on fold 0 only
		}
	}
	// The leaky control: Fisher scores on all the samples rank feature 0
	// first by far.
	all, err := selection.Fisher{}.Fit(context.Background(), &selection.Problem{X: dataset.FitScaler(dataset.ZScore, d.X).Transform(d.X), Y: d.Y, C: 2}, nil)
	if err != nil || all.Ranking[0] != 0 {
		t.Fatalf("control: ranking %v, %v", all.Ranking[:5], err)
	}
	plan := api.Plan{Methods: []api.Variant{{Method: "fisher"}, {Method: "fstat"}, {Method: "l1svm"}}, K: []int{1, 5, 10},
		Classifiers: []api.Classifier{{Name: "svm"}, {Name: "knn"}}, Protocol: api.Protocol{Kind: api.Folds, Assignment: assign}}
	e := mustNew(t, plan, d)
	rep, err := e.Run(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, vr := range rep.Results {
		u := vr.Units[0] // split 0 tests fold 0
		if s := u.Fits[0].Scores[0]; s != 0 {
			t.Errorf("%s: the feature informative only on the test part scores %v on the training part", vr.Method, s)
		}
		if in := indexOf(u.Selected[2], 0); in >= 0 {
			t.Errorf("%s: the feature informative only on the test part is selected", vr.Method)
		}
		if u2 := vr.Units[1]; vr.Kind == "filter" && indexOf(u2.Fits[0].Ranking, 0) != 0 {
			t.Errorf("%s: where fold 0 is in the training part, the feature should come first: %v", vr.Method, u2.Fits[0].Ranking[:3])
		}
	}

	// (2) Perturb the test rows of split 1 (fold 1), with missing values
	// imputed and tuning on, and compare.
	d2 := twoClass(2, m, n, 3, 1)
	for i := 0; i < m; i += 7 {
		d2.X.Set(i, (i/7)%n, math.NaN())
	}
	plan2 := api.Plan{Methods: []api.Variant{{Method: "l1svm"}, {Method: "fisher"}}, K: []int{2, 4},
		Classifiers: []api.Classifier{{Name: "svm"}, {Name: "knn"}}, Protocol: api.Protocol{Kind: api.Folds, Assignment: assign},
		Tune: []api.Grid{{Param: "C", Values: []any{0.01, 1.0}}, {Param: "svm.C", Values: []any{0.1, 10.0}}}}
	base := mustNew(t, plan2, d2)
	pert := &Data{X: mat.DenseCopyOf(d2.X), Y: append([]int(nil), d2.Y...), Classes: 2}
	r := rng.New(99, 0)
	for i := 0; i < m; i++ {
		if assign[i] == 1 {
			for j := 0; j < n; j++ {
				pert.X.Set(i, j, 1e3*r.Normal())
			}
			pert.X.Set(i, 3, math.NaN())
			pert.Y[i] = 1 - pert.Y[i]
		}
	}
	other := mustNew(t, plan2, pert)
	for v := 0; v < 2; v++ {
		u := v*4 + 1
		a, err := base.RunUnit(context.Background(), u, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := other.RunUnit(context.Background(), u, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Tuning == nil || len(a.Tuning.Chosen) == 0 {
			t.Fatalf("unit %d was not tuned", u)
		}
		for _, x := range []*api.UnitResult{a, b} {
			x.Accuracy, x.Seconds = nil, 0
			for i := range x.Fits {
				x.Fits[i].Seconds = 0
			}
		}
		if ja, jb := jsonNoTimes(t, a), jsonNoTimes(t, b); ja != jb {
			t.Errorf("unit %d depends on its test rows:\n%s\n%s", u, ja, jb)
		}
	}
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// The report is the same whatever the number of workers, and the same when
// every unit is computed by a separate Evaluation (as a Web Worker would),
// in a scrambled order, and merged — byte for byte but for the timings.
func TestUnitsAnywhereSameReport(t *testing.T) {
	d := twoClass(3, 40, 25, 4, 0.8)
	plan := api.Plan{Methods: []api.Variant{{Method: "fisher"}, {Method: "l1svm", Params: map[string]any{"C": []any{0.1, 1.0}}}},
		K: []int{1, 3, 8}, Classifiers: []api.Classifier{{Name: "svm"}, {Name: "knn"}}, Protocol: api.Protocol{Kind: api.Holdout, Train: 0.7, Repeats: 3}, Seed: 11}
	e := mustNew(t, plan, d)
	one, err := e.Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := jsonNoTimes(t, one)
	for _, w := range []int{2, 5} {
		rep, err := mustNew(t, plan, d).Run(context.Background(), w, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := jsonNoTimes(t, rep); got != want {
			t.Errorf("%d workers give a different report", w)
		}
	}
	if e.Units() != 9 {
		t.Fatalf("%d units, want 3 variants × 3 splits", e.Units())
	}
	var units []*api.UnitResult
	for _, u := range []int{8, 0, 4, 2, 7, 1, 6, 3, 5} {
		// A fresh evaluation per unit, the result passed through JSON.
		res, err := mustNew(t, plan, d).RunUnit(context.Background(), u, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		var back api.UnitResult
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		units = append(units, &back)
	}
	hb, _ := json.Marshal(e.Header())
	var h api.Header
	if err := json.Unmarshal(hb, &h); err != nil {
		t.Fatal(err)
	}
	merged, err := Merge(&h, units)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonNoTimes(t, merged); got != want {
		t.Errorf("merged units differ from the full run:\n%s\n%s", got, want)
	}
	if _, err := Merge(&h, units[1:]); err == nil || !strings.Contains(err.Error(), "unit 8 is missing") {
		t.Errorf("missing unit: %v", err)
	}
	if _, err := Merge(&h, append(units, units[0])); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("duplicate unit: %v", err)
	}
}

// An independent computation of the fixed-subset accuracies: z-score on
// each training part, then 1-NN by brute force and a linear SVM, against
// the unit's per-split values; the means and deviations over the splits
// follow.
func TestFixedFeaturesAccuracy(t *testing.T) {
	d := twoClass(4, 45, 6, 2, 0.7)
	plan := api.Plan{Features: []int{4, 0, 1}, K: []int{1, 3}, Classifiers: []api.Classifier{{Name: "knn"}}, Protocol: api.Protocol{Kind: api.CV, Folds: 3}, Seed: 5}
	e := mustNew(t, plan, d)
	rep, err := e.Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	vr := rep.Results[0]
	if vr.Method != "features" || vr.Kind != "fixed" || vr.Sparsity != nil || len(vr.Units[0].Fits) != 0 {
		t.Fatalf("fixed variant %+v", vr.VariantInfo)
	}
	var per [2][]float64
	for s, sp := range e.splits {
		for ki, k := range []int{1, 3} {
			cols := []int{4, 0, 1}[:k]
			mu, sd := make([]float64, k), make([]float64, k)
			for c, j := range cols {
				for _, i := range sp.Train {
					mu[c] += d.X.At(i, j)
				}
				mu[c] /= float64(len(sp.Train))
				for _, i := range sp.Train {
					sd[c] += (d.X.At(i, j) - mu[c]) * (d.X.At(i, j) - mu[c])
				}
				sd[c] = math.Sqrt(sd[c] / float64(len(sp.Train)))
			}
			ok := 0
			for _, i := range sp.Test {
				best, bestD := -1, math.Inf(1)
				for _, tr := range sp.Train {
					dist := 0.0
					for c, j := range cols {
						a, b := (d.X.At(i, j)-mu[c])/sd[c], (d.X.At(tr, j)-mu[c])/sd[c]
						dist += (a - b) * (a - b)
					}
					if dist < bestD {
						best, bestD = tr, dist
					}
				}
				if d.Y[best] == d.Y[i] {
					ok++
				}
			}
			want := float64(ok) / float64(len(sp.Test))
			if got := vr.Units[s].Accuracy[0][ki]; math.Abs(got-want) > 1e-15 {
				t.Errorf("split %d K = %d: accuracy %v, independent 1-NN %v", s, k, got, want)
			}
			per[ki] = append(per[ki], want)
		}
	}
	for ki := range per {
		mean, std := stats.MeanStd(per[ki])
		if math.Abs(vr.Accuracy[0].Mean[ki]-mean) > 1e-15 || math.Abs(vr.Accuracy[0].Std[ki]-std) > 1e-15 {
			t.Errorf("K index %d: summary %v ± %v, want %v ± %v", ki, vr.Accuracy[0].Mean[ki], vr.Accuracy[0].Std[ki], mean, std)
		}
	}
}

// RED by hand: f1 and f2 = 2·f1 + 1 are perfectly correlated, f3 is
// uncorrelated with both (orthogonal after centring), f4 is constant.
// RED({f1,f2}) = 1/(2·1)·1 = 1/2; RED({f1,f2,f3}) = (1+0+0)/(3·2) = 1/6;
// RED({f1,f2,f3,f4}) = 1/(4·3) = 1/12; one feature has no pairs (NaN).
func TestRedundancy(t *testing.T) {
	x := mat.NewDense(4, 4, []float64{
		1, 3, 1, 7,
		2, 5, -1, 7,
		3, 7, -1, 7,
		4, 9, 1, 7,
	})
	got := redundancyPrefix(x, []int{0, 1, 2, 3}, []int{1, 2, 3, 4})
	want := []float64{math.NaN(), 0.5, 1.0 / 6, 1.0 / 12}
	for i := range want {
		if !(math.IsNaN(want[i]) && math.IsNaN(got[i])) && math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("RED of %d features = %v, want %v", i+1, got[i], want[i])
		}
	}
}

// perK is a test selector with a K parameter (as l20): it keeps the first k
// features (weights 1, the rest 0) and records the k it was given.
type perK struct{ k int }

func (s perK) Fit(ctx context.Context, p *selection.Problem, _ *selection.Settings) (*selection.Result, error) {
	_, n := p.X.Dims()
	w := mat.NewDense(n, 1, nil)
	for j := 0; j < s.k && j < n; j++ {
		w.Set(j, 0, float64(n-j))
	}
	return selection.EmbeddedResult(w, n, selection.Run{Iterations: s.k, Objective: float64(s.k), Trace: []float64{float64(s.k)}, Status: selection.Converged}), nil
}

// pick is a test selector whose parameter good decides whether it ranks the
// informative features (good = 1) or the noise (good = 0) first.
type pick struct{ good bool }

func (s pick) Fit(ctx context.Context, p *selection.Problem, _ *selection.Settings) (*selection.Result, error) {
	_, n := p.X.Dims()
	scores := make([]float64, n)
	for j := range scores {
		scores[j] = float64(j)
		if s.good {
			scores[j] = float64(n - j)
		}
	}
	return selection.FilterResult(scores), nil
}

func init() {
	selection.Register(&selection.Spec{Name: "test_perk", Kind: selection.Embedded, SelectsK: true,
		Params: []selection.Param{{Name: "k", Default: 1, Min: 1, Max: 1e6, Integer: true, Doc: "rows kept"}},
		New:    func(p selection.Params) (selection.Selector, error) { return perK{k: int(p["k"])}, nil }})
	selection.Register(&selection.Spec{Name: "test_pick", Kind: selection.Filter,
		Params: []selection.Param{{Name: "good", Default: 0, Min: 0, Max: 1, Integer: true, Doc: "rank the informative features first"},
			{Name: "k", Default: 10, Min: 1, Max: 100, Integer: true, Doc: "a filter's parameter named k (as ReliefF's neighbours): not a subset size"}},
		New: func(p selection.Params) (selection.Selector, error) { return pick{good: p["good"] == 1}, nil }})
}

// A method that selects K features (Spec.SelectsK, as l20 and topk) is
// refitted for every K with k = K: one fit per K, each
// recording its K, and the sparsity level following K. A filter's
// parameter k (test_pick's, as ReliefF's neighbours) is left alone.
func TestPerKMethod(t *testing.T) {
	d := twoClass(5, 30, 12, 2, 1)
	plan := api.Plan{Methods: []api.Variant{{Method: "test_perk"}}, K: []int{2, 5, 9}, Protocol: api.Protocol{Kind: api.CV, Folds: 3}}
	rep, err := mustNew(t, plan, d).Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	vr := rep.Results[0]
	if !vr.PerK || vr.Sparsity == nil {
		t.Fatalf("per-K variant %+v", vr.VariantInfo)
	}
	for _, u := range vr.Units {
		if len(u.Fits) != 3 {
			t.Fatalf("%d fits", len(u.Fits))
		}
		for i, k := range []int{2, 5, 9} {
			if u.Fits[i].K != k || u.Fits[i].Iterations != k || *u.Sparsity[i] != k || len(u.Selected[i]) != k || u.Selected[i][k-1] != k-1 {
				t.Errorf("K = %d: fit %+v, sparsity %d, selected %v", k, u.Fits[i], *u.Sparsity[i], u.Selected[i])
			}
		}
		if _, given := u.Params["k"]; given {
			t.Error("the K parameter is reported as a method parameter")
		}
	}
	plan.Methods[0].Params = map[string]any{"k": 3}
	if _, err := New(plan, d); err == nil || !strings.Contains(err.Error(), "the evaluation sets it to each K") {
		t.Errorf("k given by the user: %v", err)
	}
	pick := api.Plan{Methods: []api.Variant{{Method: "test_pick", Params: map[string]any{"k": 7}}}, K: []int{2, 5}, Protocol: api.Protocol{Kind: api.CV, Folds: 3}}
	rep, err = mustNew(t, pick, d).Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vr := rep.Results[0]; vr.PerK || len(vr.Units[0].Fits) != 1 || vr.Units[0].Params["k"] != 7.0 {
		t.Errorf("a parameter named k taken for a subset size: %+v", vr.VariantInfo)
	}
}

// Tuning picks, inside every training part, the setting that ranks the
// informative features first, and records its inner scores.
func TestTuningPicksTheGoodSetting(t *testing.T) {
	d := twoClass(6, 60, 10, 0, 0)
	// Features 0 and 1 are informative; good = 1 ranks them first, good =
	// 0 last.
	for i := 0; i < 60; i++ {
		d.X.Set(i, 0, d.X.At(i, 0)+2.5*float64(2*d.Y[i]-1))
		d.X.Set(i, 1, d.X.At(i, 1)+2.5*float64(2*d.Y[i]-1))
	}
	plan := api.Plan{Methods: []api.Variant{{Method: "test_pick"}}, K: []int{1, 2}, Classifiers: []api.Classifier{{Name: "svm"}},
		Protocol: api.Protocol{Kind: api.CV, Folds: 3}, Tune: []api.Grid{{Param: "good", Values: []any{0.0, 1.0}}, {Param: "svm.C", Values: []any{"0.5", 2}}}}
	e := mustNew(t, plan, d)
	rep, err := e.Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	vr := rep.Results[0]
	if !reflect.DeepEqual(vr.Tuned, []string{"good", "svm.C"}) {
		t.Errorf("tuned %v", vr.Tuned)
	}
	for _, u := range vr.Units {
		if u.Tuning.Chosen["good"] != 1.0 || u.Params["good"] != 1.0 || u.Tuning.InnerFolds != 3 || len(u.Tuning.Grid) != 4 {
			t.Errorf("tuning %+v, params %v", u.Tuning, u.Params)
		}
		if u.Selected[0][0] != 0 {
			t.Errorf("selected %v", u.Selected)
		}
	}
	if m := vr.Accuracy[0].Mean[1]; m < 0.9 {
		t.Errorf("accuracy with the tuned setting %v", m)
	}
	// The plan written back has the values as numbers.
	if g := e.Plan().Tune[1].Values; g[0] != 0.5 || g[1] != 2.0 {
		t.Errorf("normalised grid %v", g)
	}
	bad := plan
	bad.Tune = []api.Grid{{Param: "gamma", Values: []any{1.0}}}
	if _, err := New(bad, d); err == nil || !strings.Contains(err.Error(), "none of the methods has") {
		t.Errorf("tuning an unknown parameter: %v", err)
	}
}

// Regression targets (gsr-fs §5.1 data): least squares on the first 2·d1
// (informative) features has an RMSE near the noise deviation 0.5 of the
// generator, the irrelevant features near the spread of the targets, and
// the selectors that need classes refuse targets without labels.
func TestRegressionRMSE(t *testing.T) {
	sd, err := dataset.Synth{M: 300, D1: 4, D2: 6, C: 2, Seed: 3}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	d := &Data{X: sd.X, Targets: sd.Targets}
	informative := []int{0, 1, 2, 3, 4, 5, 6, 7}
	plan := api.Plan{Features: informative, K: []int{8}, Protocol: api.Protocol{Kind: api.CV, Folds: 5}}
	rep, err := mustNew(t, plan, d).Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Results[0].RMSE.Mean[0]; math.Abs(r-0.5) > 0.06 {
		t.Errorf("RMSE on the informative features %v, want about 0.5", r)
	}
	if len(rep.Classifiers) != 0 || len(rep.Results[0].Accuracy) != 0 {
		t.Error("classifiers without labels")
	}
	plan.Features = []int{12, 13, 14, 15, 16, 17}
	plan.K = []int{6}
	rep, _ = mustNew(t, plan, d).Run(context.Background(), 1, nil)
	if r := rep.Results[0].RMSE.Mean[0]; r < 1.5 {
		t.Errorf("RMSE on the irrelevant features %v", r)
	}
	if _, err := mustNew(t, api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{2}}, d).Run(context.Background(), 1, nil); err == nil || !strings.Contains(err.Error(), "class labels") {
		t.Errorf("fisher on targets: %v", err)
	}
	if _, err := New(api.Plan{Features: informative, Classifiers: []api.Classifier{{Name: "svm"}}}, d); err == nil {
		t.Error("a classifier without labels accepted")
	}
}

// Cancellation stops a run with the context's error.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := mustNew(t, api.Plan{Methods: []api.Variant{{Method: "l1svm"}}, K: []int{2}}, twoClass(1, 20, 5, 1, 1)).Run(ctx, 2, nil)
	if err != context.Canceled {
		t.Errorf("cancelled run: %v", err)
	}
}

// Plan.WeightRows records |W| of each embedded fit's top rows in ranking
// order; filters record none. test_perk's W is, by construction, n − j in
// row j < k and zero below, so the top rows are 0, 1, 2 with |W| = n, n−1,
// n−2 (n = 12 features) — row 2 is zero for K = 2, and still third (ties in
// the ranking go to the lower index).
func TestWeightRows(t *testing.T) {
	d := twoClass(7, 30, 12, 2, 1)
	plan := api.Plan{Methods: []api.Variant{{Method: "test_perk"}, {Method: "test_pick"}}, K: []int{2, 5}, Protocol: api.Protocol{Kind: api.CV, Folds: 3}, WeightRows: 3}
	rep, err := mustNew(t, plan, d).Run(context.Background(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range rep.Results[0].Units {
		for i, f := range u.Fits {
			want := &api.FitWeights{Rows: []int{0, 1, 2}, Abs: []api.Floats{{12}, {11}, {10}}}
			if f.K == 2 {
				want.Abs[2][0] = 0
			}
			if !reflect.DeepEqual(f.Weights, want) {
				t.Errorf("unit %d, fit %d (K = %d): weights %+v, want %+v", u.Unit, i, f.K, f.Weights, want)
			}
		}
	}
	for _, u := range rep.Results[1].Units {
		if u.Fits[0].Weights != nil {
			t.Errorf("a filter has weights: %+v", u.Fits[0].Weights)
		}
	}
	for _, bad := range []int{-1, 1001} {
		plan.WeightRows = bad
		if _, err := New(plan, d); err == nil || !strings.Contains(err.Error(), "weight_rows") {
			t.Errorf("weight_rows = %d: %v", bad, err)
		}
	}
}

// busy is a test selector that computes without blocking, asking ctx.Err
// as a fit's loop does, for up to 10 s.
type busy struct{}

func (busy) Fit(ctx context.Context, p *selection.Problem, _ *selection.Settings) (*selection.Result, error) {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return nil, errors.New("busy: not stopped")
}

func init() {
	selection.Register(&selection.Spec{Name: "test_busy", Kind: selection.Filter,
		New: func(selection.Params) (selection.Selector, error) { return busy{}, nil }})
}

// clockCtx is done once its end has passed, known only to Err (its Done
// never closes), as the browser worker's warm-up budget.
type clockCtx struct {
	context.Context
	end time.Time
}

func (c clockCtx) Err() error {
	if time.Now().After(c.end) {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

// A parent context that ends without closing Done stops the units' fits:
// the evaluation's own cancellation must not hide its Err. A fit that was
// not stopped would end after 10 s with busy's own error, not the
// context's (no duration is asserted: a loaded machine stretches any).
func TestParentErrStopsTheUnits(t *testing.T) {
	e := mustNew(t, api.Plan{Methods: []api.Variant{{Method: "test_busy"}}, K: []int{2}}, twoClass(1, 20, 5, 1, 1))
	_, err := e.RunUnits(clockCtx{context.Background(), time.Now().Add(100 * time.Millisecond)}, []int{0}, 1, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RunUnits ended with %v", err)
	}
}

// A class with fewer samples than the folds is said so: some folds test
// none of it.
func TestSmallClassNote(t *testing.T) {
	d := twoClass(1, 20, 5, 1, 1)
	for i := 3; i < len(d.Y); i++ {
		d.Y[i] = 0 // class 1 keeps three samples
	}
	d.Y[0], d.Y[1], d.Y[2] = 1, 1, 1
	e := mustNew(t, api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{2}}, d)
	if n := e.Notes(); len(n) != 1 || n[0] != "the smallest class has 3 sample(s), fewer than the 5 folds: some folds test none of it" {
		t.Errorf("notes %q", n)
	}
	e = mustNew(t, api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{2}, Protocol: api.Protocol{Kind: api.CV, Folds: 3}}, d)
	if n := e.Notes(); len(n) != 0 {
		t.Errorf("3 folds: notes %q", n)
	}
}
