package classify

import (
	"fmt"

	"sparsefs/api"
	"sparsefs/core/internal/budget"
)

// machineWords is what one trained machine holds besides its d weights:
// the two class indices, the weights' slice header and the bias.
const machineWords = 6

// Needs estimates what Train allocates to fit classifier c (normalised by
// plan.Classifier) to samples with classes y in 0…classes−1, once for
// each feature count of dims (the models of several top-K subsets, kept
// together), before it allocates anything: for the SVM the machines it
// keeps (one per pair of classes present for one-vs-one, one per class
// for one-vs-rest) and its largest binary solve (the samples' vectors and
// the kernel cache), for k-NN, which keeps the training rows it is given,
// the votes and neighbours of a prediction. who names the classifier in
// a refusal (budget.Check).
func Needs(c api.Classifier, y []int, dims []int, classes int) (who string, needs []budget.Need) {
	if c.Name == api.KNN {
		return "the k-NN classifier", []budget.Need{
			{What: "a prediction's votes and neighbours", Rows: 1, RowsOf: "prediction", Cols: classes + 2*c.Neighbors, ColsOf: "classes and neighbours"}}
	}
	kept := 0
	for _, d := range dims {
		kept += d + machineWords
	}
	counts := make([]int, classes)
	for _, k := range y {
		counts[k]++
	}
	present, first, second := 0, 0, 0 // the two largest classes
	for _, n := range counts {
		if n == 0 {
			continue
		}
		present++
		switch {
		case n > first:
			first, second = n, first
		case n > second:
			second = n
		}
	}
	multi := c.Multiclass
	if multi == "" {
		multi = OneVsOne
	}
	who = fmt.Sprintf("the SVM (%s)", map[string]string{OneVsOne: "one-vs-one", OneVsRest: "one-vs-rest"}[multi])
	if present < 2 {
		return who, nil
	}
	machines, of, l := present, "classes", len(y)
	if multi == OneVsOne {
		machines, of, l = present*(present-1)/2, "class pairs", first+second
	}
	return who, []budget.Need{
		{What: "the trained machines", Rows: machines, RowsOf: of, Cols: kept, ColsOf: "weights and indices each"},
		{What: "a binary solve's vectors", Rows: l, RowsOf: "samples", Cols: solveWords, ColsOf: "values each"},
		{What: "a binary solve's kernel cache", Rows: cacheColumns(l), RowsOf: "columns", Cols: l + cacheSlotWords, ColsOf: "samples"},
	}
}

// solveWords is what a binary solve of Train keeps per sample: the rows'
// indices, the rows' slice headers (3 words), the ±1 labels, and the
// solvers' vectors (solveFreeDual's K_ii, α, gradient, active set, shrunk
// flags and kernel cache slot; solveDCDDual keeps fewer).
const solveWords = 11

// cacheSlotWords is what the kernel cache keeps per column besides the
// column: its owner, LRU links and slice header.
const cacheSlotWords = 6

// cacheColumns is the number of kernel columns newKernelCache keeps for l
// samples.
func cacheColumns(l int) int {
	return max(2, min(l, kernelCacheBytes/(8*max(l, 1))))
}

// LinearNeeds estimates what FitLinear allocates for m samples of d
// features and t targets: the centred copies of X and Y, the thin SVD's
// working copy and factors, and the coefficients.
func LinearNeeds(m, d, t int) (who string, needs []budget.Need) {
	k := min(m, d)
	return "the least-squares regression", []budget.Need{
		{What: "the centred data, the SVD's copy of it and its left factor", Rows: m, RowsOf: "samples", Cols: 2*d + k, ColsOf: "features"},
		{What: "the SVD's right factor", Rows: d, RowsOf: "features", Cols: k, ColsOf: "features"},
		{What: "the centred targets and the coefficients", Rows: m + d, RowsOf: "samples and features", Cols: t, ColsOf: "targets"},
	}
}
