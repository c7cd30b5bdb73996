package lab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"sparsefs/api"
	"sparsefs/core/stats"
)

// EvalRun is one evaluation as the page runs it (docs/evaluation.md, "Units,
// parts and the report"): the plan a worker made of the request
// (eval-plan: the normalised request, the data, the splits and the
// variants), the answer of every unit as it arrives (each unit is a job of
// its own, on any worker), and the report a worker merged from them
// (merge) — the report `sparsefs eval` prints for the same request, byte
// for byte but the timings.
//
// Until the report is merged, View summarises the units that have arrived
// (means over the splits done so far), so the charts fill in as the run
// goes, and what was done survives a cancel.
type EvalRun struct {
	Plan *api.EvalPart
	// Request is the normalised request's JSON (the unit jobs' request
	// without the units).
	Request []byte
	// Parts are the raw answers of the units that finished (nil for the
	// others), Units the same decoded: at first without the fits' full
	// rankings, scores, per-class rankings and weights (Full adds them,
	// variant by variant, when they are to be shown) — reading those for
	// every unit as it arrives would keep the page's thread busy while
	// the workers need the processor.
	Parts [][]byte
	Units []*api.UnitResult
	full  []bool // the unit is decoded in full
	// digests are the workers' digests of the parts (nil where none came).
	digests [][]byte
	// req is Request decoded.
	req api.Request
	// Report is the merged report and ReportJSON its bytes as the worker
	// wrote them (the file the page saves).
	Report     *api.EvalReport
	ReportJSON []byte
}

// NewEvalRun reads the answer of an eval-plan job.
func NewEvalRun(planJSON []byte) (*EvalRun, error) {
	var part api.EvalPart
	if err := json.Unmarshal(planJSON, &part); err != nil {
		return nil, fmt.Errorf("unexpected answer to the evaluation's plan: %v", err)
	}
	if part.Header == nil || part.Request == nil || part.Request.Eval == nil || part.Header.Units < 1 {
		return nil, errors.New("unexpected answer to the evaluation's plan: no units")
	}
	req := *part.Request
	req.Units = nil
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	n := part.Header.Units
	return &EvalRun{Plan: &part, Request: b, Parts: make([][]byte, n), Units: make([]*api.UnitResult, n), digests: make([][]byte, n), req: req}, nil
}

// UnitTask is the job of unit u: the normalised request with Units =
// [u]; a positive session asks the worker to keep the part for a merge
// there.
func (r *EvalRun) UnitTask(u, session int) api.Task {
	req := r.req
	req.Op, req.Units = api.OpEval, []int{u}
	return api.Task{Run: &req, Session: session}
}

// UnitOrder is the order the page sends an evaluation's units in: the
// embedded methods' first (their fits cost far more than a filter's, and a
// long unit left for the end keeps one worker busy while the others wait),
// each variant's splits in turn.
func UnitOrder(h *api.Header) []int {
	ns := len(h.Splits)
	var first, then []int
	for v, info := range h.Variants {
		for s := 0; s < ns; s++ {
			if info.Kind == api.Embedded {
				first = append(first, v*ns+s)
			} else {
				then = append(then, v*ns+s)
			}
		}
	}
	return append(first, then...)
}

// AddPart records the answer of unit u's job, read without the fits'
// rankings and scores (see Full): from the worker's digest of it when
// there is one (nil otherwise).
func (r *EvalRun) AddPart(u int, raw, digest []byte) error {
	if u < 0 || u >= len(r.Parts) {
		return fmt.Errorf("unit %d does not exist", u)
	}
	light := digest
	if light == nil {
		light = raw
	}
	var part struct {
		Units []*struct {
			api.UnitResult
			Fits []struct {
				K int `json:"k,omitempty"`
				api.FitRecord
			} `json:"fits"`
		} `json:"units"`
	}
	if err := json.Unmarshal(light, &part); err != nil {
		return fmt.Errorf("unexpected answer for unit %d: %v", u, err)
	}
	if len(part.Units) != 1 || part.Units[0] == nil || part.Units[0].Unit != u {
		return fmt.Errorf("unexpected answer for unit %d: it holds %d units", u, len(part.Units))
	}
	res := part.Units[0].UnitResult
	res.Fits = make([]api.Fit, len(part.Units[0].Fits))
	for i, f := range part.Units[0].Fits {
		res.Fits[i] = api.Fit{K: f.K, FitRecord: f.FitRecord}
	}
	r.Parts[u], r.Units[u] = raw, &res
	if r.digests == nil {
		r.digests = make([][]byte, len(r.Parts))
	}
	r.digests[u] = digest
	r.markFull(u, false)
	return nil
}

func (r *EvalRun) markFull(u int, full bool) {
	if r.full == nil {
		r.full = make([]bool, len(r.Parts))
	}
	r.full[u] = full
}

// Full reads in full the units of variant v that are done (the fits'
// rankings, scores, per-class rankings and weights), and reports whether
// it read any.
func (r *EvalRun) Full(v int) bool {
	ns := len(r.Plan.Header.Splits)
	read := false
	for u := v * ns; u < (v+1)*ns && u < len(r.Parts); u++ {
		if r.Parts[u] == nil || (r.full != nil && r.full[u]) {
			continue
		}
		var part struct {
			Units []*api.UnitResult `json:"units"`
		}
		if json.Unmarshal(r.Parts[u], &part) != nil || len(part.Units) != 1 || part.Units[0] == nil {
			continue
		}
		*r.Units[u] = *part.Units[0] // the report's results point at the same units
		r.markFull(u, true)
		read = true
	}
	return read
}

// Done counts the units that have finished.
func (r *EvalRun) Done() int {
	n := 0
	for _, p := range r.Parts {
		if p != nil {
			n++
		}
	}
	return n
}

// Complete reports whether every unit has finished.
func (r *EvalRun) Complete() bool { return r.Done() == len(r.Parts) }

// Missing lists the units not finished yet.
func (r *EvalRun) Missing() []int {
	var out []int
	for u, p := range r.Parts {
		if p == nil {
			out = append(out, u)
		}
	}
	return out
}

// CollectTask is the job that gives unit u's part to the worker that
// merges a session: the part's JSON, and its digest (the worker's, or the
// unit as the page read it, without the fits' rankings), which the merging
// worker reads at once; the JSON only when it writes the report's.
func (r *EvalRun) CollectTask(u, session int) (api.Task, error) {
	digest := r.digests[u]
	if digest == nil {
		var err error
		if digest, err = json.Marshal(api.UnitDigest{Units: []*api.UnitResult{r.Units[u]}}); err != nil {
			return api.Task{}, err
		}
	}
	return api.Task{Collect: &api.Collect{Session: session, Digest: digest, Part: r.Parts[u]}}, nil
}

// MergeTask is the merge job of every part (when the worker that collected
// them cannot merge them).
func (r *EvalRun) MergeTask() (api.Task, error) {
	req := &api.Request{Op: api.OpMerge, Parts: make([]*api.EvalPart, len(r.Parts))}
	for i, raw := range r.Parts {
		req.Parts[i] = new(api.EvalPart)
		if err := json.Unmarshal(raw, req.Parts[i]); err != nil {
			return api.Task{}, fmt.Errorf("unit %d cannot be read: %v", i, err)
		}
	}
	return api.Task{Run: req}, nil
}

// SetReport records the merged report: its JSON (the file the page
// saves) when full is set, else the report without its units (a merge
// with Light, whose JSON comes later: SetReportJSON). Its units are those
// of the parts (the merge copies them unchanged), so only its summaries
// are decoded: reading a report of thousands of features in the page
// costs a third of a full decoding.
func (r *EvalRun) SetReport(raw []byte, full bool) error {
	var light struct {
		api.EvalReport
		Results []struct {
			api.VariantInfo
			Accuracy   []api.Summary  `json:"accuracy"`
			RMSE       *api.Summary   `json:"rmse"`
			Redundancy api.Summary    `json:"redundancy"`
			Sparsity   *api.Summary   `json:"sparsity"`
			Stability  *api.Stability `json:"stability"`
			FitSeconds api.Scalar     `json:"fit_seconds"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &light); err != nil {
		return fmt.Errorf("unexpected answer of the merge: %v", err)
	}
	h := r.Plan.Header
	ns := len(h.Splits)
	if len(light.Results) != len(h.Variants) || len(light.K) != len(h.K) {
		return errors.New("unexpected answer of the merge: it does not match the plan")
	}
	rep := light.EvalReport
	rep.Results = make([]api.VariantResult, len(light.Results))
	for v, lr := range light.Results {
		rep.Results[v] = api.VariantResult{VariantInfo: lr.VariantInfo, Accuracy: lr.Accuracy, RMSE: lr.RMSE, Redundancy: lr.Redundancy,
			Sparsity: lr.Sparsity, Stability: lr.Stability, FitSeconds: lr.FitSeconds, Units: r.Units[v*ns : (v+1)*ns]}
	}
	r.Report = &rep
	if full {
		r.ReportJSON = raw
	}
	return nil
}

// SetReportJSON records the JSON of the report (after SetReport of its
// summaries).
func (r *EvalRun) SetReportJSON(raw []byte) { r.ReportJSON = raw }

// Reuse takes over the finished units of an earlier run of the same
// request on the same data (a run cancelled, then started again), and
// returns how many.
func (r *EvalRun) Reuse(prev *EvalRun) int {
	if prev == nil || !bytes.Equal(prev.Request, r.Request) || len(prev.Parts) != len(r.Parts) ||
		prev.Plan.Dataset.SHA256 != r.Plan.Dataset.SHA256 {
		return 0
	}
	n := 0
	for u, p := range prev.Parts {
		if p != nil && r.Parts[u] == nil {
			r.Parts[u], r.Units[u] = p, prev.Units[u]
			if prev.digests != nil {
				r.digests[u] = prev.digests[u]
			}
			r.markFull(u, prev.full != nil && prev.full[u])
			n++
		}
	}
	return n
}

// View is the report to show: the merged one, or until then the units
// done so far summarised over their splits as the merge does (means and
// sample deviations; a variant with no unit done has none).
func (r *EvalRun) View() *api.EvalReport {
	if r.Report != nil {
		return r.Report
	}
	h := r.Plan.Header
	rep := &api.EvalReport{Request: r.Plan.Request, Dataset: r.Plan.Dataset, Features: r.Plan.Features,
		Report: &api.Report{K: h.K, Classifiers: h.Classifiers, Splits: h.Splits}, Warnings: r.Plan.Warnings}
	ns := len(h.Splits)
	nk := len(h.K)
	for v, info := range h.Variants {
		var us []*api.UnitResult
		for s := 0; s < ns; s++ {
			if u := v*ns + s; u < len(r.Units) && r.Units[u] != nil {
				us = append(us, r.Units[u])
			}
		}
		vr := api.VariantResult{VariantInfo: info, Units: us, Accuracy: make([]api.Summary, len(h.Classifiers))}
		if len(us) > 0 {
			for q := range h.Classifiers {
				vr.Accuracy[q] = summarize(nk, us, func(u *api.UnitResult) []float64 { return u.Accuracy[q] })
			}
			if h.Targets {
				s := summarize(nk, us, func(u *api.UnitResult) []float64 { return u.RMSE })
				vr.RMSE = &s
			}
			vr.Redundancy = summarize(nk, us, func(u *api.UnitResult) []float64 { return u.Redundancy })
			if sp := sparsityRows(us, nk); sp != nil {
				s := summarize(nk, us, func(u *api.UnitResult) []float64 { return sp[u] })
				vr.Sparsity = &s
			}
			secs := make([]float64, len(us))
			for i, u := range us {
				for _, f := range u.Fits {
					secs[i] += f.Seconds
				}
			}
			m, sd := stats.MeanStd(secs)
			vr.FitSeconds = api.Scalar{Mean: api.Float(m), Std: api.Float(sd)}
		}
		rep.Results = append(rep.Results, vr)
	}
	return rep
}

// sparsityRows returns each unit's sparsity levels as numbers (NaN where
// null), or nil when no unit has any (a filter).
func sparsityRows(us []*api.UnitResult, nk int) map[*api.UnitResult][]float64 {
	out := map[*api.UnitResult][]float64{}
	found := false
	for _, u := range us {
		row := make([]float64, nk)
		for i := range row {
			row[i] = math.NaN()
			if i < len(u.Sparsity) && u.Sparsity[i] != nil {
				row[i] = float64(*u.Sparsity[i])
				found = true
			}
		}
		out[u] = row
	}
	if !found {
		return nil
	}
	return out
}

// summarize is the summary over the splits of one per-K measure of the
// units, as the report's (core/evaluate).
func summarize(nk int, us []*api.UnitResult, get func(*api.UnitResult) []float64) api.Summary {
	rows := make([][]float64, len(us))
	for j, u := range us {
		rows[j] = get(u)
	}
	mean, std := stats.ColumnMeanStd(rows, nk)
	return api.Summary{Mean: mean, Std: std}
}
