package lab

import (
	"encoding/json"
	"errors"
	"fmt"

	"sparsefs/api"
)

// Evaluation reports read back (the page's or sparsefs eval's).

// IsEvalReport reports whether a file looks like an evaluation report (a
// "request" with an evaluation plan and "results"), rather than the page's
// ranking report.
func IsEvalReport(raw []byte) bool {
	var head struct {
		Format  string          `json:"format"`
		Request *api.Request    `json:"request"`
		Results json.RawMessage `json:"results"`
	}
	return json.Unmarshal(raw, &head) == nil && head.Format == "" && head.Request != nil && head.Request.Eval != nil && head.Results != nil
}

// DecodeEvalReport reads an evaluation report (sparsefs eval's output, or
// a report saved by the page), with errors a person can act on.
func DecodeEvalReport(raw []byte) (*api.EvalReport, error) {
	var rep api.EvalReport
	if err := json.Unmarshal(raw, &rep); err != nil {
		return nil, fmt.Errorf("the evaluation report is damaged: %v", err)
	}
	if rep.Request == nil || rep.Request.Eval == nil || len(rep.K) == 0 || len(rep.Splits) == 0 {
		return nil, errors.New("this file is not an evaluation report (it has no request, K list or splits)")
	}
	for i, vr := range rep.Results {
		if len(vr.Units) != len(rep.Splits) {
			return nil, fmt.Errorf("the evaluation report is damaged: %s has %d units for %d splits", vr.Method, len(vr.Units), len(rep.Splits))
		}
		for _, u := range vr.Units {
			if u == nil || len(u.Selected) != len(rep.K) || len(u.Accuracy) != len(rep.Classifiers) {
				return nil, fmt.Errorf("the evaluation report is damaged: result %d has a unit that does not match the K list and the classifiers", i+1)
			}
		}
	}
	return &rep, nil
}

// RunFromReport makes the EvalRun of a loaded report: complete, merged.
func RunFromReport(raw []byte) (*EvalRun, error) {
	rep, err := DecodeEvalReport(raw)
	if err != nil {
		return nil, err
	}
	h := &api.Header{K: rep.K, Classifiers: rep.Classifiers, Splits: rep.Splits, Targets: rep.Dataset.Targets != nil, Features: rep.Dataset.Features}
	r := &EvalRun{Report: rep, ReportJSON: raw}
	for _, vr := range rep.Results {
		h.Variants = append(h.Variants, vr.VariantInfo)
		for _, u := range vr.Units {
			r.Units = append(r.Units, u)
			r.Parts = append(r.Parts, []byte("{}"))
		}
	}
	h.Units = len(r.Units)
	r.full = make([]bool, len(r.Units))
	for u := range r.full {
		r.full[u] = true
	}
	r.Plan = &api.EvalPart{Request: rep.Request, Dataset: rep.Dataset, Features: rep.Features, Header: h, Warnings: rep.Warnings}
	req := *rep.Request
	req.Units = nil
	r.Request, _ = json.Marshal(req)
	return r, nil
}
