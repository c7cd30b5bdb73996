package job

// The browser's worker (wasm/) answers the operations of Run and five of
// its own, which need what only a worker keeps between jobs (the loaded
// file, the parts of an evaluation, a merged report) or produce a file for
// the page rather than a result. They are part of the job format: the
// page sends them as Requests, with the fields Columns, Synth, Session,
// Part, Expect and Light; Run itself refuses them.
const (
	// OpReduce writes the data restricted to the features Columns (plus
	// the label) as CSV; the answer is a Reduced.
	OpReduce = "reduce"
	// OpSynth generates the synthetic data Synth describes, as CSV; the
	// answer is a Reduced.
	OpSynth = "synth"
	// OpPrepare reads loaded data ahead of a run and warms the worker up
	// (for the plan Eval, when given: its methods on a slice of the
	// data); the answer is {}.
	OpPrepare = "prepare"
	// OpCollect keeps Part, an evaluation part, in the worker for a later
	// OpMerge there with the same Session; the answer is {}. (An OpEval
	// with Units and a Session keeps its own part.) With Light, Part is
	// the part's digest and its JSON comes beside the request.
	OpCollect = "collect"
	// OpReport writes the JSON of the report of an OpMerge with a Session
	// and Light (merging the parts it kept in full), and forgets them.
	OpReport = "report"
)

// workerOp reports whether op is one of the worker's own operations.
func workerOp(op string) bool {
	switch op {
	case OpReduce, OpSynth, OpPrepare, OpCollect, OpReport:
		return true
	}
	return false
}

// MaxSynthCells bounds the table OpSynth generates (samples × features):
// the CSV text of a million numbers is about 20 MB, and every worker keeps
// a copy.
const MaxSynthCells = 1_000_000

// Synth is what OpSynth generates: the gsr-fs §5.1 data of `sparsefs
// synth` (M samples, D1 informative and D2 irrelevant features, C classes
// or targets, a fraction of outliers, a seed), with Task "classification"
// (a label column, the default) or "regression" (targets y1…yC), written
// as CSV under Name.
type Synth struct {
	M        int     `json:"m"`
	D1       int     `json:"d1"`
	D2       int     `json:"d2"`
	C        int     `json:"c"`
	Outliers float64 `json:"outliers"`
	Seed     uint64  `json:"seed"`
	Task     string  `json:"task"`
	Name     string  `json:"name"`
}

// Reduced is the answer to OpReduce and OpSynth: a CSV file and its name.
type Reduced struct {
	Name string `json:"name"`
	CSV  string `json:"csv"`
}
