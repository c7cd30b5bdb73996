package api

// Operations a Request can ask for (core/job.Run performs them all).
const (
	// OpSelect fits a selector and ranks the features (the default): a
	// Selection.
	OpSelect = "select"
	// OpInspect reads the data and describes them, for a preview: an
	// Inspection.
	OpInspect = "inspect"
	// OpMethods lists the available methods and their parameters: a
	// MethodList.
	OpMethods = "methods"
	// OpEval evaluates methods by cross-validation or holdout: the whole
	// EvalReport, or with Units only those units, as an EvalPart.
	OpEval = "eval"
	// OpEvalPlan describes an evaluation's units without running them:
	// an EvalPart with no units.
	OpEvalPlan = "eval-plan"
	// OpMerge merges the EvalParts of one evaluation (Parts) into its
	// EvalReport.
	OpMerge = "merge"
	// OpReduce writes the data restricted to the features Columns (plus
	// the label, targets and sample IDs) as CSV: a Reduced.
	OpReduce = "reduce"
	// OpSynth generates the synthetic data Synth describes, as CSV: a
	// Reduced.
	OpSynth = "synth"
)

// Ops lists every operation, in the order the messages name them.
var Ops = []string{OpSelect, OpInspect, OpMethods, OpEval, OpEvalPlan, OpMerge, OpReduce, OpSynth}

// Request is one unit of work.
type Request struct {
	// Op is one of the operations above (OpSelect when empty).
	Op   string `json:"op,omitempty"`
	Data Data   `json:"data"`
	// Method names the selector; Params sets its parameters (the others
	// take their defaults): numbers, or text (a number, or the name of a
	// categorical parameter's choice).
	Method string         `json:"method,omitempty"`
	Params map[string]any `json:"params,omitempty"`
	// Eval is the plan of OpEval and OpEvalPlan (methods, K list,
	// classifiers, protocol, seed, tuning). Preprocess, Bias and Coding
	// may be given here at the top level instead of in the plan.
	Eval *Plan `json:"eval,omitempty"`
	// Units, for OpEval, runs only these units (numbered from 0) and
	// answers with an EvalPart instead of the report.
	Units []int `json:"units,omitempty"`
	// Workers is how many units OpEval runs at once in goroutines
	// (default 1). It never changes the result.
	Workers int `json:"workers,omitempty"`
	// Halves, with OpSelect and the method stabsel, fits only the
	// half-samples [Halves[0], Halves[1]) of its 2B and answers with their
	// tally (Selection.Tally) instead of a selection; Tallies, with OpSelect
	// and stabsel, combines tallies that cover the 2B fits into the
	// selection one request would give, fitting nothing. The page spreads
	// one stability selection over its workers so.
	Halves  []int            `json:"halves,omitempty"`
	Tallies []StabilityTally `json:"tallies,omitempty"`
	// Parts are the partial results OpMerge merges.
	Parts []*EvalPart `json:"parts,omitempty"`
	// Preprocess is ZScore (default), MinMax or NoScaling.
	Preprocess string `json:"preprocess,omitempty"`
	// Bias appends a constant-1 column for the embedded models (default
	// true).
	Bias *bool `json:"bias,omitempty"`
	// Coding overrides the method's label coding: OneHot or PlusMinus.
	Coding string `json:"coding,omitempty"`
	// K, if positive, asks for the top K features in Selection.Selected.
	// For a method that selects exactly K features (MethodInfo.SelectsK:
	// l20, topk) it is also that method's parameter k.
	K int `json:"k,omitempty"`
	// Q, if positive (at most 1), asks instead of K for the features
	// whose q-value is at most Q in Selection.Selected, in ranking order
	// (the methods that give q-values only; the command line's -k q0.05).
	Q float64 `json:"q,omitempty"`
	// PreviewRows is how many rows an inspection returns (default 5).
	PreviewRows int `json:"preview_rows,omitempty"`
	// WeightRows, if positive, asks an embedded method for |W| of its top
	// WeightRows ranked features in Selection.Weights (for a heat map).
	WeightRows int `json:"weight_rows,omitempty"`
	// MemoryBudget bounds, in bytes, what a fit may allocate; a fit that
	// would need more is refused before it starts, naming the cause (0:
	// 1 GiB; negative: no bound).
	MemoryBudget int64 `json:"memory_budget,omitempty"`
	// Columns are the 0-based features OpReduce keeps, in that order.
	Columns []int `json:"columns,omitempty"`
	// Synth is what OpSynth generates.
	Synth *Synth `json:"synth,omitempty"`
}

// Data says where a dataset comes from and how to read it. The bytes of
// the file never travel in the JSON: the command line reads Path, the
// worker receives the file beside its messages (worker.go).
type Data struct {
	// Path is the file the command line read ("-": standard input).
	Path string `json:"path,omitempty"`
	// Name is a display name (the browser's file name).
	Name string `json:"name,omitempty"`
	// Label is the label column: a name, a 1-based number, "first" or
	// "last" (the default), or "none" (Targets alone).
	Label string `json:"label,omitempty"`
	// Targets name the columns holding real-valued regression targets
	// (header names or 1-based numbers).
	Targets []string `json:"targets,omitempty"`
	// ID names the column holding the samples' IDs (kept in exports, not
	// a feature; "none": no such column, none to propose) and Ignore the
	// columns to leave out (header names or 1-based numbers).
	ID     string   `json:"id,omitempty"`
	Ignore []string `json:"ignore,omitempty"`
	// Transpose is "yes" to read a file whose rows are the features and
	// whose columns the samples (genes × samples), "no" to read it as it
	// stands, "" to read it as it stands unless an inspection finds rows
	// of text that say otherwise.
	Transpose string `json:"transpose,omitempty"`
	// Delimiter is ",", ";", "\t" or "" to detect it.
	Delimiter string `json:"delimiter,omitempty"`
	// Header is "auto" (default), "yes" or "no".
	Header string `json:"header,omitempty"`
	// Missing is MissingReject (default), MissingMean, MissingDropFeatures
	// or MissingDropSamples.
	Missing string `json:"missing,omitempty"`
	// Format is the file's format: "auto" or "" (detected from the
	// content), "csv", "xlsx", "arff", "libsvm" or "mat".
	Format string `json:"format,omitempty"`
	// Sheet names a workbook's worksheet (default: the first); XVar and
	// YVar a MAT-file's variables (default: X and Y).
	Sheet string `json:"sheet,omitempty"`
	XVar  string `json:"x_var,omitempty"`
	YVar  string `json:"y_var,omitempty"`
	// MaxBytes bounds the file's size once decompressed and MaxCells its
	// cells (0: the defaults, 1 GiB and 50 million, which fit a browser
	// tab; negative: no bound).
	MaxBytes int64 `json:"max_bytes,omitempty"`
	MaxCells int64 `json:"max_cells,omitempty"`
}

// What to do with missing cells (Data.Missing).
const (
	// MissingReject refuses data with a missing feature cell.
	MissingReject = "reject"
	// MissingMean imputes each missing cell with its feature's mean over
	// the part of the data a model is fitted on.
	MissingMean = "mean"
	// MissingDropFeatures leaves out every feature with a missing cell.
	MissingDropFeatures = "drop-features"
	// MissingDropSamples leaves out every sample with a missing cell.
	MissingDropSamples = "drop-samples"
)

// Synth is what OpSynth generates: the data of gsr-fs §5.1 (M samples, D1
// informative and D2 irrelevant features, C classes or targets, a
// fraction of outliers, a seed), with Task TaskClassification (a label
// column, the default), TaskRegression (targets y1…yC) or TaskBoth,
// written as CSV under Name.
type Synth struct {
	M        int     `json:"m"`
	D1       int     `json:"d1"`
	D2       int     `json:"d2"`
	C        int     `json:"c"`
	Outliers float64 `json:"outliers"`
	Seed     uint64  `json:"seed"`
	Task     string  `json:"task"`
	Name     string  `json:"name"`
	// MaxCells, if positive, bounds samples × features (the page's
	// limit: every worker keeps a copy of the data).
	MaxCells int `json:"max_cells,omitempty"`
}

// The columns after the features of generated data (Synth.Task).
const (
	TaskClassification = "classification"
	TaskRegression     = "regression"
	TaskBoth           = "both"
)
