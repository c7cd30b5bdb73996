package api

// Plan is everything that defines an evaluation besides the data.
// core/plan.Normalize checks a plan against the data's Shape and fills in
// every default, so that a normalised plan written into a report
// re-creates the run exactly.
type Plan struct {
	// Methods are the selectors to evaluate, each with parameters. A
	// parameter given as a list of values is a sweep: the method is
	// evaluated once per value (per combination, when several are
	// lists).
	Methods []Variant `json:"methods"`
	// Features, if set, is a fixed subset (0-based column indices, in the
	// order they are to be taken) evaluated without selection, as one
	// more row of results named "features": its top K are its first K.
	Features []int `json:"features,omitempty"`
	// K is the list of subset sizes (default: 10, 20, …, 100 up to the
	// number of features; the subset's size with Features alone).
	K []int `json:"k"`
	// Classifiers evaluate each top-K subset (default: svm with C = 1;
	// none when the data have no class label).
	Classifiers []Classifier `json:"classifiers"`
	// Protocol says how the samples are split (default: stratified 5-fold
	// cross-validation).
	Protocol Protocol `json:"protocol"`
	// Seed fixes every random choice of the evaluation (0 ≤ Seed < 2⁵³,
	// so that JavaScript reads it exactly).
	Seed uint64 `json:"seed"`
	// Preprocess is ZScore (default), MinMax or NoScaling, fitted on each
	// training part.
	Preprocess string `json:"preprocess"`
	// Bias appends a constant-1 column for the embedded models (default
	// true).
	Bias *bool `json:"bias"`
	// Coding overrides the methods' label coding (OneHot or PlusMinus).
	Coding string `json:"coding,omitempty"`
	// Tune lists parameter grids chosen by an inner cross-validation
	// inside each training part: a selector parameter ("gamma") applies to
	// every method that has it; a classifier parameter is named
	// "svm.C" or "knn.neighbors".
	Tune []Grid `json:"tune,omitempty"`
	// InnerFolds is the number of folds of the inner cross-validation
	// (0: 3 when the training part has fewer than 200 samples, else 8, as
	// dso-fs-peng-fan-2016 §5.1).
	InnerFolds int `json:"inner_folds,omitempty"`
	// WeightRows, if positive, records in every fit of an embedded method
	// |W| of its top WeightRows ranked features (Fit.Weights, for a heat
	// map); 0 records none.
	WeightRows int `json:"weight_rows,omitempty"`
}

// Variant is one method with its parameters (numbers, or text: a number or
// a categorical parameter's choice; a list of such values is a sweep).
type Variant struct {
	Method string         `json:"method"`
	Params map[string]any `json:"params,omitempty"`
}

// Grid is a parameter and the values tuning chooses among.
type Grid struct {
	Param  string `json:"param"`
	Values []any  `json:"values"`
}

// Protocol says how the samples are split into training and test parts.
type Protocol struct {
	// Kind is CV (default), Holdout or Folds.
	Kind string `json:"kind"`
	// Folds is k of k-fold cross-validation (default 5).
	Folds int `json:"folds,omitempty"`
	// Train is the training fraction of a holdout (0 < Train < 1) and
	// Repeats the number of holdouts (default 10).
	Train   float64 `json:"train,omitempty"`
	Repeats int     `json:"repeats,omitempty"`
	// Assignment gives each sample's fold (any integers); split i tests
	// the samples of the i-th smallest fold id and trains on the rest.
	Assignment []int `json:"assignment,omitempty"`
}

// Protocols (Protocol.Kind).
const (
	// CV is stratified k-fold cross-validation.
	CV = "cv"
	// Holdout is repeated stratified holdout.
	Holdout = "holdout"
	// Folds is an explicit assignment of samples to test folds.
	Folds = "folds"
)

// Classifier names a classifier and its parameters. The zero value of
// every parameter means its default.
type Classifier struct {
	// Name is SVM or KNN.
	Name string `json:"name"`
	// C is the SVM's cost parameter (default 1).
	C float64 `json:"C,omitempty"`
	// Multiclass is OneVsOne (default, LIBSVM's one-vs-one with voting)
	// or OneVsRest (largest decision value).
	Multiclass string `json:"multiclass,omitempty"`
	// Bias is FreeBias (default) or RegularizedBias.
	Bias string `json:"bias,omitempty"`
	// Neighbors is k of k-NN (default 1).
	Neighbors int `json:"neighbors,omitempty"`
	// PerClass evaluates the classifier as a per-class vote (named
	// "svm-vote", "knn-vote"): for each class k, one such classifier is
	// trained on the top K features of class k (largest |W_jk| of the
	// method's weight matrix), and a sample gets the class most of them
	// predict, a tie going to the lowest class index (the protocol of
	// exclusive-l21-ming-ding-2019 §6.2). Embedded methods only: a filter
	// has no weights per class.
	PerClass bool `json:"per_class,omitempty"`
}

// Classifiers (Classifier.Name).
const (
	SVM = "svm"
	KNN = "knn"
)

// Multiclass rules of the SVM (Classifier.Multiclass).
const (
	OneVsOne  = "ovo"
	OneVsRest = "ovr"
)

// Intercepts of the SVM (Classifier.Bias).
const (
	// FreeBias is the unregularised intercept of LIBSVM's C-SVC (and of
	// scikit-learn's SVC).
	FreeBias = "free"
	// RegularizedBias appends a constant-1 feature whose weight is
	// regularised like the others (LIBLINEAR with -B 1).
	RegularizedBias = "regularized"
)

// Preprocessing fitted on each training part (Plan.Preprocess,
// Request.Preprocess).
const (
	// ZScore centres each feature and divides it by its population
	// standard deviation.
	ZScore = "zscore"
	// MinMax maps each feature's training range onto [0, 1].
	MinMax = "minmax"
	// NoScaling leaves values as they are (missing cells are still
	// imputed).
	NoScaling = "none"
)

// Label codings of the regression-based models (Plan.Coding,
// Request.Coding; empty: each method's own).
const (
	// OneHot is Y01: one column per class, 1 for the sample's class and
	// 0 elsewhere.
	OneHot = "y01"
	// PlusMinus is Ypm: one-vs-rest ±1.
	PlusMinus = "ypm"
)

// Shape is what a plan is checked against: the size of the data.
type Shape struct {
	Samples, Features int
	// Classes is the number of classes (0 when there is no label);
	// Targets the number of real-valued target columns.
	Classes, Targets int
}
