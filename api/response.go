package api

import (
	"encoding/json"
	"fmt"
)

// Response is the answer to a Request. Exactly one of its parts is set,
// according to the operation, and its JSON is that part's JSON.
type Response struct {
	Selection  *Selection
	Inspection *Inspection
	Methods    *MethodList
	EvalReport *EvalReport
	EvalPart   *EvalPart
	Reduced    *Reduced
}

// MarshalJSON implements json.Marshaler: the JSON of the part that is set.
func (r *Response) MarshalJSON() ([]byte, error) {
	switch {
	case r.Selection != nil:
		return json.Marshal(r.Selection)
	case r.Inspection != nil:
		return json.Marshal(r.Inspection)
	case r.Methods != nil:
		return json.Marshal(r.Methods)
	case r.EvalReport != nil:
		return json.Marshal(r.EvalReport)
	case r.EvalPart != nil:
		return json.Marshal(r.EvalPart)
	case r.Reduced != nil:
		return json.Marshal(r.Reduced)
	}
	return []byte("null"), nil
}

// Selection is the answer to OpSelect.
type Selection struct {
	Method string `json:"method"`
	// Params holds every parameter used, defaults included (categorical
	// ones by name).
	Params     map[string]any `json:"params"`
	Preprocess string         `json:"preprocess"`
	Bias       bool           `json:"bias"`
	Coding     string         `json:"coding,omitempty"`
	Dataset    DatasetInfo    `json:"dataset"`
	// Features are the feature names, in column order.
	Features []string `json:"features"`
	// Ranking lists 0-based feature indices (into Features), best first.
	Ranking []int `json:"ranking"`
	// Scores has one score per feature, in column order.
	Scores Floats `json:"scores"`
	// PValues holds one p-value per feature, in column order, for the
	// methods that test a hypothesis per feature (ttest, fstat, consensus;
	// null where no test could be made); QValues their Benjamini–Hochberg
	// adjustment over all the features (docs/statistics.md). Both are
	// omitted for the other methods.
	PValues Floats `json:"pvalues,omitempty"`
	QValues Floats `json:"qvalues,omitempty"`
	// Selected is the first K of Ranking when K was asked for, or the
	// features whose q-value is at most Q (in ranking order; omitted when
	// there is none, which a warning says).
	Selected []int `json:"selected,omitempty"`
	// Q is the q-value cut asked for (Request.Q); omitted otherwise.
	Q float64 `json:"q,omitempty"`
	// StabilitySelection is what stability selection (stabsel) adds:
	// the stable features and the bounds on false selections; omitted
	// for the other methods.
	StabilitySelection *StabilitySelection `json:"stability_selection,omitempty"`
	// Tally is the answer to a request for some of stabsel's half-sample
	// fits (Request.Halves): their tally, and no ranking.
	Tally *StabilityTally `json:"tally,omitempty"`
	// Consensus holds the rankings a consensus aggregated; omitted for
	// the other methods.
	Consensus *Consensus `json:"consensus,omitempty"`
	// PerClass ranks the features once per class, best first (the
	// per-class selection of the exclusive methods, exl21 and elasso);
	// omitted for the other methods.
	PerClass [][]int `json:"per_class,omitempty"`
	// Objective is the model's exact objective at the solution; null for
	// filters.
	Objective  *Float `json:"objective"`
	Iterations int    `json:"iterations"`
	// Stop says why the solver stopped (one of the Stop values).
	Stop string `json:"stop"`
	// Certificate bounds the distance of the objective from the optimum,
	// when the method could prove one; absent otherwise.
	Certificate *Certificate `json:"certificate,omitempty"`
	// Trace is the objective after each iteration ([] for filters).
	Trace Floats `json:"trace"`
	// NonzeroRows is the sparsity level of W (feature rows with norm above
	// 1e−6 times the largest); null for filters.
	NonzeroRows *int `json:"nonzero_rows"`
	// Seconds is the wall time of the fit (preprocessing excluded).
	Seconds  float64  `json:"seconds"`
	Warnings []string `json:"warnings"`
	// Weights holds |W| of the top-ranked rows when Request.WeightRows
	// asked for them (embedded methods only).
	Weights *Weights `json:"weights,omitempty"`
}

// Why a solver stopped (Selection.Stop, Fit.Stop).
const (
	StopNotTerminated   = "not_terminated"
	StopConverged       = "converged"
	StopMethodConverged = "method_converged"
	StopIterationLimit  = "iteration_limit"
	StopCancelled       = "cancelled"
	StopClosedForm      = "closed_form"
	// StopUncertified: a convex model's stopping rule was met but its
	// duality gap was not certified to 10⁻⁶ (a warning says more).
	StopUncertified = "converged_uncertified"
)

// Certificate bounds the distance of a convex model's objective from its
// optimum by a feasible point of its dual.
type Certificate struct {
	// Gap is (J − D)/J ≥ (J − J*)/J, J the objective at the answer and D
	// the value of the dual at a feasible dual point (D ≤ J*). It can be
	// slightly negative at rounding level (10⁻¹⁵ relative).
	Gap float64 `json:"gap"`
	// Dual is D.
	Dual float64 `json:"dual"`
	// Polished tells whether a Newton refinement (the active-set polish,
	// a smoothed or face minimum, the dual's interior-point solve) gave
	// the answer; NewtonSteps counts the Newton steps the certificate
	// took, whether or not their answer was kept.
	Polished    bool `json:"polished"`
	NewtonSteps int  `json:"newton_steps"`
	// Support is the number of rows of W the certificate treats as
	// nonzero.
	Support int `json:"support"`
}

// Weights is part of an embedded model's weight matrix, for display: the
// absolute values of the rows of W of the top-ranked features.
type Weights struct {
	// Rows are feature indices (into Selection.Features), best first.
	Rows []int `json:"rows"`
	// Columns name W's columns: the classes when W has one column per
	// class, otherwise w1, w2, ….
	Columns []string `json:"columns"`
	// Abs[i][k] is |W[Rows[i], k]|.
	Abs []Floats `json:"abs"`
}

// DatasetInfo describes the data a response was computed on.
type DatasetInfo struct {
	Name     string `json:"name,omitempty"`
	Samples  int    `json:"samples"`
	Features int    `json:"features"`
	Label    string `json:"label"`
	// Delimiter and Header are those of a CSV file ("" and false for the
	// other formats).
	Delimiter string `json:"delimiter"`
	Header    bool   `json:"header"`
	// Format is the file's format when it is not CSV ("xlsx", "arff",
	// "libsvm", "mat"), and Sheet the worksheet read from a workbook.
	Format  string   `json:"format,omitempty"`
	Sheet   string   `json:"sheet,omitempty"`
	Classes []string `json:"classes"`
	Counts  []int    `json:"class_counts"`
	// Constant lists the 0-based features constant over all samples.
	Constant []int `json:"constant"`
	// Missing counts missing cells; MissingColumns lists their features.
	Missing        int   `json:"missing"`
	MissingColumns []int `json:"missing_columns"`
	// Targets are the names of the real-valued target columns.
	Targets []string `json:"targets,omitempty"`
	// ID is the name of the column of sample IDs, if any.
	ID string `json:"id,omitempty"`
	// SHA256, in evaluation reports, identifies the data as read: the
	// SHA-256 of the feature names, the values (their IEEE bits), the
	// labels and the targets, so that a re-run can be checked to use the
	// same data whatever file they came from.
	SHA256 string `json:"sha256,omitempty"`
}

// Shape returns the shape of the data, as a plan is checked against it.
func (d *DatasetInfo) Shape() Shape {
	return Shape{Samples: d.Samples, Features: d.Features, Classes: len(d.Classes), Targets: len(d.Targets)}
}

// Inspection is the answer to OpInspect: what the data look like.
type Inspection struct {
	Dataset DatasetInfo `json:"dataset"`
	// Columns are all column names in file order, LabelColumn the 0-based
	// position of the label among them, and Preview the first rows.
	Columns     []string   `json:"columns"`
	LabelColumn int        `json:"label_column"`
	Preview     [][]string `json:"preview"`
	Warnings    []string   `json:"warnings"`
	// Sheets are a workbook's worksheets, in order (one is read: Sheet).
	Sheets []string `json:"sheets,omitempty"`
	// Label is set when the request left the label column to its default
	// and the file does not read so because another column holds text:
	// that column (its header name, or its 1-based number) is the label
	// the file was read with, which the requests that follow must name.
	Label string `json:"label,omitempty"`
	// ID, Ignore, Targets and Transpose are set when the inspection read
	// the file so, the request having left them out: a column of text with
	// a different value in every row (or of whole numbers, named like an
	// ID) as the sample IDs, other text columns left out, a numeric label
	// column with a different value in every row as a regression target
	// (Label is then "none"), a file whose rows are features transposed.
	// The requests that follow must say the same.
	ID        string   `json:"id,omitempty"`
	Ignore    []string `json:"ignore,omitempty"`
	Targets   []string `json:"targets,omitempty"`
	Transpose bool     `json:"transpose,omitempty"`
	// Continuous is set when the label column holds numbers with many
	// different values: perhaps a measurement, to read as a regression
	// target rather than as classes.
	Continuous bool `json:"continuous,omitempty"`
	// Aside are the 0-based columns that are not features: the label, the
	// targets, the sample IDs and the columns left out, in order.
	Aside []int `json:"aside"`
}

// MethodList is the answer to OpMethods.
type MethodList struct {
	Methods []MethodInfo `json:"methods"`
}

// Kind separates filters (a score per feature, no model) from embedded
// methods (a sparse weight matrix fitted by an iterative solver).
type Kind = string

const (
	Filter   Kind = "filter"
	Embedded Kind = "embedded"
	// Ensemble is a method made of other methods' fits (stabsel,
	// consensus).
	Ensemble Kind = "ensemble"
)

// MethodInfo describes one method and all the parameters it takes (the
// iteration loop's included), with their defaults.
type MethodInfo struct {
	Name   string  `json:"name"`
	Title  string  `json:"title"`
	Doc    string  `json:"doc"`
	Paper  string  `json:"paper"`
	Kind   Kind    `json:"kind"`
	Params []Param `json:"params"`
	// SelectsK marks a method whose parameter k (KParam) is the number of
	// features it selects (filled from Request.K).
	SelectsK bool `json:"selects_k,omitempty"`
	// KDepth marks a method whose parameter k, 0 for "all", bounds its
	// work to what the top k features need (mrmr's greedy search; the
	// others follow by relevance): `sparsefs select -k K` sets it to K.
	KDepth bool `json:"k_depth,omitempty"`
	// PValues marks a method that gives each feature a p-value (and so
	// q-values: Selection.PValues, QValues).
	PValues bool `json:"pvalues,omitempty"`
	// Wraps names the method's categorical parameters whose choices are
	// other methods (stabsel's base, consensus's m1…m4): a parameter
	// "SLOT.NAME" is the parameter NAME of the method chosen in SLOT
	// ("base.C"), which takes its defaults for the others.
	Wraps []string `json:"wraps,omitempty"`
}

// NoMethod is the choice of a Wraps parameter that leaves its slot empty.
const NoMethod = "none"

// KParam is the name of the parameter of a method that selects a given
// number K of features (MethodInfo.SelectsK).
const KParam = "k"

// Param returns the parameter of a method by name, or nil.
func (m *MethodInfo) Param(name string) *Param {
	for i := range m.Params {
		if m.Params[i].Name == name {
			return &m.Params[i]
		}
	}
	return nil
}

// Reduced is the answer to OpReduce and OpSynth: a CSV file and its name.
type Reduced struct {
	Name string `json:"name"`
	CSV  string `json:"csv"`
}

// Progress describes how far a job has got.
type Progress struct {
	// Iteration is the number of iterations done (0 for filters).
	Iteration int `json:"iteration"`
	// MaxIterations is the limit in force (0 for filters).
	MaxIterations int `json:"max_iterations"`
	// Objective is the objective after Iteration (NaN for filters).
	Objective Float `json:"objective"`
	// Fraction estimates the share of the work done, in [0, 1].
	Fraction float64 `json:"fraction"`
	// Phase is PhaseCertifying while a solver, its iterations done (or
	// paused), proves its answer optimal one Newton, face or barrier step
	// at a time (docs/methods.md#stopping); empty otherwise.
	Phase string `json:"phase,omitempty"`
	// Steps counts the certificate's steps taken so far in that phase.
	Steps int `json:"steps,omitempty"`
}

// PhaseCertifying is Progress.Phase while a solver certifies its answer.
const PhaseCertifying = "certifying"

// PhaseText says what p's phase is doing, for a progress display
// ("certifying the optimum, step 3"); empty outside a phase.
func (p Progress) PhaseText() string {
	switch {
	case p.Phase != PhaseCertifying:
		return ""
	case p.Steps == 0:
		return "certifying the optimum"
	}
	return fmt.Sprintf("certifying the optimum, step %d", p.Steps)
}

// StabilitySelection is what stability selection (the method stabsel)
// adds to its ranking, whose scores are the features' selection
// probabilities (docs/methods.md#stabsel).
type StabilitySelection struct {
	// Base is the selector run on the half-samples, Q the number of its
	// top features taken from each, Pairs the number B of complementary
	// pairs of half-samples, and Threshold the probability π a feature
	// needs to be stable.
	Base      string  `json:"base"`
	Q         int     `json:"q"`
	Pairs     int     `json:"pairs"`
	Threshold float64 `json:"threshold"`
	// Stable lists the features selected with probability at least π,
	// best first.
	Stable []int `json:"stable"`
	// Bound is Meinshausen and Bühlmann's bound on the expected number of
	// falsely selected features among Stable, q²/((2π − 1)·p);
	// BoundUnimodal is Shah and Samworth's sharper bound under their
	// unimodality assumption (null for a π outside its range).
	Bound         Float `json:"bound"`
	BoundUnimodal Float `json:"bound_unimodal"`
}

// StabilityTally is what a share of stability selection's half-sample
// fits found (Request.Halves): for the fits From ≤ i < To of the 2B
// (pair i/2, half i%2), how often each feature was in the base's top q
// (Counts) and its positions summed over the rankings (Positions), the
// fits that stopped early and their notes. Tallies covering the 2B fits
// combine (Request.Tallies) into the selection one request would give.
type StabilityTally struct {
	From      int      `json:"from"`
	To        int      `json:"to"`
	Counts    []int    `json:"counts"`
	Positions []int    `json:"positions"`
	Early     int      `json:"early"`
	Notes     []string `json:"notes"`
}

// Consensus is what a consensus of rankings (the method consensus) adds:
// the rankings it aggregated (docs/methods.md#consensus).
type Consensus struct {
	// Aggregation is "rra" (robust rank aggregation) or "mean" (mean
	// rank).
	Aggregation string `json:"aggregation"`
	// Methods names the methods aggregated, in slot order, and Rankings
	// holds each one's ranking (0-based features, best first).
	Methods  []string `json:"methods"`
	Rankings [][]int  `json:"rankings"`
}
