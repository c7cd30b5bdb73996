package api

// An evaluation (OpEval) runs in units: one variant (a method with one
// setting of its parameters) on one split. Units can run anywhere, in any
// order — goroutines of the command line, a pool of browser workers,
// separate jobs of a cluster — and merge into one report (OpMerge).

// EvalReport is the answer to OpEval (all units) and OpMerge: the request
// as normalised (every default written in, so that running it again
// re-creates the evaluation), the data it ran on, and the merged results
// (K list, classifiers, splits, and per variant the summaries over the
// splits and every unit's values).
type EvalReport struct {
	Request  *Request    `json:"request"`
	Dataset  DatasetInfo `json:"dataset"`
	Features []string    `json:"features"`
	*Report
	Warnings []string `json:"warnings"`
}

// EvalPart is the answer to OpEval with Units (those units' results) and to
// OpEvalPlan (no units): everything OpMerge needs to assemble the report
// from parts computed anywhere. Header.Units is the number of units.
type EvalPart struct {
	Request  *Request      `json:"request"`
	Dataset  DatasetInfo   `json:"dataset"`
	Features []string      `json:"features"`
	Header   *Header       `json:"header"`
	Units    []*UnitResult `json:"units"`
	Warnings []string      `json:"warnings"`
}

// Header is what every unit of an evaluation shares, and all a merge needs
// besides the plan and the units.
type Header struct {
	K           []int    `json:"k"`
	Classifiers []string `json:"classifiers"`
	Targets     bool     `json:"targets"`
	// Features is the number of features of the data (the stability of
	// the subsets is measured against it).
	Features int           `json:"features"`
	Splits   []SplitInfo   `json:"splits"`
	Variants []VariantInfo `json:"variants"`
	// Units is the number of units: len(Variants) × len(Splits); unit u
	// evaluates variant u / len(Splits) on split u % len(Splits).
	Units int `json:"units"`
}

// VariantInfo describes one row of results: a method with its parameters
// (tuned ones excluded), or the fixed feature subset.
type VariantInfo struct {
	Method string `json:"method"`
	// Kind is Filter, Embedded or FixedKind.
	Kind   string         `json:"kind"`
	Params map[string]any `json:"params"`
	// Tuned lists the method's parameters chosen by inner
	// cross-validation in each unit.
	Tuned []string `json:"tuned"`
	// PerK is set for a method refitted for every K (MethodInfo.SelectsK).
	PerK bool `json:"per_k"`
}

// FixedKind is the kind, and FixedMethod the method name, of the row of a
// plan's fixed feature subset (Plan.Features).
const (
	FixedKind   = "fixed"
	FixedMethod = "features"
)

// SplitInfo records a split: the size of its training part and the
// samples (0-based) of its test part.
type SplitInfo struct {
	Train int   `json:"train"`
	Test  []int `json:"test"`
}

// UnitResult is the outcome of one unit: one variant on one split. Every
// per-K array follows Header.K.
type UnitResult struct {
	Unit    int `json:"unit"`
	Variant int `json:"variant"`
	Split   int `json:"split"`
	// Params are the method's parameters as used (tuned ones at the
	// values chosen for this split).
	Params map[string]any `json:"params"`
	// Fits holds the selector's fit on the training part: one, or one
	// per K for a per-K method, none for the fixed subset.
	Fits []Fit `json:"fits"`
	// Selected lists, per K, the features the classifiers were trained
	// on (the first K of the ranking; null where K exceeds a fixed
	// subset); a per-class vote's are in the fit's PerClass instead.
	Selected [][]int `json:"selected"`
	// Accuracy is the test accuracy of each classifier (Header order)
	// for each K.
	Accuracy []Floats `json:"accuracy"`
	// RMSE is the test root mean square error of least squares on the
	// selected features for each K (when the data have targets).
	RMSE Floats `json:"rmse"`
	// Redundancy is RED of the selected features on the training part,
	// and Sparsity the sparsity level of the fit behind each K (null for
	// filters).
	Redundancy Floats `json:"redundancy"`
	Sparsity   []*int `json:"sparsity"`
	// Tuning records the inner cross-validation, when parameters were
	// tuned.
	Tuning *Tuning `json:"tuning,omitempty"`
	// Seconds is the wall time of the whole unit (tuning included).
	Seconds float64  `json:"seconds"`
	Notes   []string `json:"notes"`
}

// Fit is one fit of a selector inside a unit: the whole ranking and the
// model's record (its FitRecord).
type Fit struct {
	// K is the subset size a per-K method was fitted for (0 otherwise).
	K       int    `json:"k,omitempty"`
	Ranking []int  `json:"ranking"`
	Scores  Floats `json:"scores"`
	// PerClass ranks the features once per class, for the methods that
	// select per class (exl21, elasso), and for every method when a
	// per-class vote is evaluated (its |W_jk|, Classifier.PerClass: the
	// vote's classifier for class k takes the top K of PerClass[k]);
	// omitted otherwise.
	PerClass [][]int `json:"per_class,omitempty"`
	// StabilitySelection is what stability selection (stabsel) adds;
	// omitted for the other methods.
	StabilitySelection *StabilitySelection `json:"stability_selection,omitempty"`
	FitRecord
	// Weights holds |W| of the top-ranked rows when Plan.WeightRows asks
	// for them (embedded methods only).
	Weights *FitWeights `json:"weights,omitempty"`
}

// FitRecord is what a fit records besides its ranking: the objective,
// iterations, why it stopped, the objective after every iteration (for
// the convergence plot) and the sparsity level of W. Read alone from a
// fit's JSON, it skips the long arrays of a wide dataset.
type FitRecord struct {
	// Objective is null for filters.
	Objective  *Float `json:"objective"`
	Iterations int    `json:"iterations"`
	Stop       string `json:"stop"`
	Trace      Floats `json:"trace"`
	// NonzeroRows is the sparsity level of W; null for filters.
	NonzeroRows *int `json:"nonzero_rows"`
	// Seconds is the wall time of the selector's fit.
	Seconds float64 `json:"seconds"`
}

// FitWeights is |W| of a fit's top-ranked feature rows, in ranking order
// (the bias row is never among them: rankings index feature rows only).
type FitWeights struct {
	Rows []int    `json:"rows"`
	Abs  []Floats `json:"abs"`
}

// Tuning records the inner cross-validation of one unit.
type Tuning struct {
	// InnerFolds is the number of inner folds used.
	InnerFolds int `json:"inner_folds"`
	// Chosen holds the values picked: selector parameters by name,
	// classifier parameters as "svm.C", "knn.neighbors".
	Chosen map[string]any `json:"chosen"`
	// Grid lists every point tried with its score.
	Grid []TuneScore `json:"grid"`
}

// TuneScore is the inner cross-validation score of one grid point for one
// measure: the mean, over the inner folds and the K list, of a
// classifier's accuracy ("svm(…)", larger is better) or of the
// least-squares RMSE ("rmse", smaller is better).
type TuneScore struct {
	Params  map[string]any `json:"params"`
	Measure string         `json:"measure"`
	Score   Float          `json:"score"`
}

// Report is the merged outcome of an evaluation.
type Report struct {
	K           []int           `json:"k"`
	Classifiers []string        `json:"classifiers"`
	Splits      []SplitInfo     `json:"splits"`
	Results     []VariantResult `json:"results"`
}

// VariantResult is one row of the report: a variant, its measures
// summarised over the splits, and every unit's own values.
type VariantResult struct {
	VariantInfo
	// Accuracy summarises each classifier's accuracy (Report.Classifiers
	// order) for each K.
	Accuracy []Summary `json:"accuracy"`
	// RMSE summarises the least-squares RMSE (null without targets).
	RMSE *Summary `json:"rmse"`
	// Redundancy summarises RED; Sparsity the sparsity level (null for
	// methods without a weight matrix).
	Redundancy Summary  `json:"redundancy"`
	Sparsity   *Summary `json:"sparsity"`
	// Stability is the stability of the top-K subsets across the splits
	// (null for the fixed subset).
	Stability *Stability `json:"stability"`
	// FitSeconds summarises the selector's fitting time per split (the
	// sum over its fits for a per-K method).
	FitSeconds Scalar `json:"fit_seconds"`
	// Units are the variant's units in split order.
	Units []*UnitResult `json:"units"`
}

// Summary holds, for each K, the mean and the sample standard deviation
// over the splits (NaN, written null, where undefined).
type Summary struct {
	Mean Floats `json:"mean"`
	Std  Floats `json:"std"`
}

// Stability holds, for each K, the stability index of Nogueira, Sechidis
// and Brown (JMLR 18(174), 2018) of the splits' top-K subsets and its
// approximate 95% confidence interval (null where undefined: a single
// split, or K equal to the number of features). core/stats computes it.
type Stability struct {
	Index  Floats `json:"index"`
	CILow  Floats `json:"ci_low"`
	CIHigh Floats `json:"ci_high"`
}

// Scalar is the mean and sample standard deviation of one number per split.
type Scalar struct {
	Mean Float `json:"mean"`
	Std  Float `json:"std"`
}
