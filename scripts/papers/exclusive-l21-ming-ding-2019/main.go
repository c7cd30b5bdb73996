// Command exclusive-l21-ming-ding-2019 measures the per-class protocol of
// Ming & Ding (IJCAI 2019, §6.2) for the sparse methods, on the folds of a
// `sparsefs eval -preset exclusive-l21-ming-ding-2019` report:
//
//	GOTOOLCHAIN=go1.27.3 go run ./scripts/papers/exclusive-l21-ming-ding-2019 [-methods exl21,mtfs,elasso] [-data FILE] REPORT.json ...
//
// "We select the top features with largest weights for each class. For
// testing, an SVM classifier is built for each class separately, by using
// the selected features. The final classification result is obtained via
// majority voting." Read here as: on each training part (z-scored as the
// evaluation does, with the scaler fitted on that part) the method is fitted
// once; for class k the top K features by |W_jk| (selection.PerClassRanking)
// train a multiclass linear SVM (C = 1, one-vs-one, free intercept: the
// evaluation's classifier); each test sample gets the class most of the c
// SVMs predict, a tie going to the lowest class index. The evaluation of
// sparsefs has no such mode: it trains one SVM on the top K of one ranking
// (‖w^j‖₂ for these methods).
//
// For each report, method and K, it prints the report's accuracy (one SVM
// on one ranking), the same recomputed here (a check that the folds,
// scaling and fits are the evaluation's: the two must agree), the
// per-class vote's accuracy, and how many distinct features the c per-class
// subsets use together (mean over the folds), as CSV on standard output.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/classify"
	"sparsefs/core/dataset"
	"sparsefs/core/selection"
)

// report is the part of an evaluation report read here.
type report struct {
	Request struct {
		Data struct {
			Path string `json:"path"`
		} `json:"data"`
	} `json:"request"`
	K       []int                  `json:"k"`
	Splits  []struct{ Test []int } `json:"splits"`
	Results []struct {
		Method   string `json:"method"`
		Accuracy []struct {
			Mean []float64 `json:"mean"`
		} `json:"accuracy"`
	} `json:"results"`
}

var svm = api.Classifier{Name: api.SVM, C: 1, Multiclass: api.OneVsOne, Bias: api.FreeBias}

func main() {
	methods := flag.String("methods", "exl21,mtfs,elasso", "the embedded methods to run per class (comma-separated)")
	data := flag.String("data", "", "the data file (default: the report's)")
	flag.Parse()
	fmt.Println("dataset,method,k,report_accuracy,one_ranking_accuracy,per_class_vote_accuracy,per_class_distinct_features")
	for _, path := range flag.Args() {
		if err := run(path, *data, strings.Split(*methods, ",")); err != nil {
			fmt.Fprintln(os.Stderr, "exclusive-l21-ming-ding-2019:", err)
			os.Exit(1)
		}
	}
}

func run(path, data string, methods []string) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var r report
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if data == "" {
		data = r.Request.Data.Path
	}
	file, err := os.ReadFile(data)
	if err != nil {
		return err
	}
	ds, err := dataset.Parse(file, dataset.Options{})
	if err != nil {
		return err
	}
	name := strings.TrimSuffix(strings.TrimSuffix(data[strings.LastIndex(data, "/")+1:], ".gz"), ".csv")
	for _, method := range methods {
		reported := make([]float64, len(r.K))
		for _, res := range r.Results {
			if res.Method == method {
				reported = res.Accuracy[0].Mean
			}
		}
		one, vote, distinct, err := folds(ds, r, method)
		if err != nil {
			return fmt.Errorf("%s %s: %w", name, method, err)
		}
		for i, k := range r.K {
			fmt.Printf("%s,%s,%d,%.6f,%.6f,%.6f,%.1f\n", name, method, k, reported[i], one[i], vote[i], distinct[i])
		}
	}
	return nil
}

// folds returns, per K, the accuracy of one SVM on the top K of the
// method's ranking and of the per-class vote, each averaged over the
// report's folds, and the mean number of distinct per-class features.
func folds(ds *dataset.Dataset, r report, method string) (one, vote, distinct []float64, err error) {
	spec, err := selection.Lookup(method)
	if err != nil {
		return nil, nil, nil, err
	}
	params, err := spec.Resolve(nil)
	if err != nil {
		return nil, nil, nil, err
	}
	sel, err := spec.New(params)
	if err != nil {
		return nil, nil, nil, err
	}
	m, _ := ds.X.Dims()
	classes := len(ds.Classes)
	one, vote, distinct = make([]float64, len(r.K)), make([]float64, len(r.K)), make([]float64, len(r.K))
	for _, split := range r.Splits {
		test := make([]bool, m)
		for _, i := range split.Test {
			test[i] = true
		}
		var trIdx []int
		for i := 0; i < m; i++ {
			if !test[i] {
				trIdx = append(trIdx, i)
			}
		}
		xtr, ytr := rows(ds.X, trIdx), labels(ds.Y, trIdx)
		xte, yte := rows(ds.X, split.Test), labels(ds.Y, split.Test)
		scaler := dataset.FitScaler(dataset.ZScore, xtr)
		xtr, xte = scaler.Transform(xtr), scaler.Transform(xte)
		settings := params.Settings()
		res, err := sel.Fit(context.Background(), &selection.Problem{X: xtr, Y: ytr, C: classes, Bias: true}, &settings)
		if err != nil {
			return nil, nil, nil, err
		}
		_, n := xtr.Dims()
		perClass := selection.PerClassRanking(res.W, n)
		for i, k := range r.K {
			model, err := classify.Train(svm, columns(xtr, res.Ranking[:k]), ytr, classes)
			if err != nil {
				return nil, nil, nil, err
			}
			one[i] += classify.Accuracy(model, columns(xte, res.Ranking[:k]), yte) / float64(len(r.Splits))
			acc, used, err := perClassVote(xtr, ytr, xte, yte, perClass, k, classes)
			if err != nil {
				return nil, nil, nil, err
			}
			vote[i] += acc / float64(len(r.Splits))
			distinct[i] += float64(used) / float64(len(r.Splits))
		}
	}
	return one, vote, distinct, nil
}

// perClassVote trains one SVM per class on that class's top k features and
// returns the accuracy of their majority vote on the test part (a tie goes
// to the lowest class index) and the number of distinct features used.
func perClassVote(xtr *mat.Dense, ytr []int, xte *mat.Dense, yte []int, perClass [][]int, k, classes int) (float64, int, error) {
	votes := make([][]int, len(yte))
	for i := range votes {
		votes[i] = make([]int, classes)
	}
	used := map[int]bool{}
	for _, ranking := range perClass {
		feats := ranking[:k]
		for _, j := range feats {
			used[j] = true
		}
		model, err := classify.Train(svm, columns(xtr, feats), ytr, classes)
		if err != nil {
			return 0, 0, err
		}
		xk := columns(xte, feats)
		for i := range yte {
			votes[i][model.Predict(xk.RawRowView(i))]++
		}
	}
	ok := 0
	for i, v := range votes {
		if argmax(v) == yte[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(yte)), len(used), nil
}

func argmax(v []int) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

func rows(x *mat.Dense, idx []int) *mat.Dense {
	_, n := x.Dims()
	out := mat.NewDense(len(idx), n, nil)
	for r, i := range idx {
		out.SetRow(r, x.RawRowView(i))
	}
	return out
}

func labels(y []int, idx []int) []int {
	out := make([]int, len(idx))
	for r, i := range idx {
		out[r] = y[i]
	}
	return out
}

func columns(x *mat.Dense, cols []int) *mat.Dense {
	m, _ := x.Dims()
	out := mat.NewDense(m, len(cols), nil)
	for c, j := range cols {
		out.SetCol(c, mat.Col(nil, j, x))
	}
	return out
}
