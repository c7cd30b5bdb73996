package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sparsefs/api"
	"sparsefs/core/evaluate"
)

// runEval prepares the evaluation of a request and runs it (OpEval) or
// describes it (OpEvalPlan).
func runEval(ctx context.Context, req *api.Request, in Input, progress func(api.Progress)) (*api.Response, error) {
	if req.Eval == nil {
		return nil, errors.New("no evaluation plan given (eval: methods, k, classifiers, protocol, …)")
	}
	if req.Method != "" || req.Params != nil || req.K != 0 {
		return nil, errors.New("an evaluation takes its methods, parameters and K list in eval, not in method, params and k")
	}
	if len(req.Parts) > 0 {
		return nil, errors.New("parts belong to the merge operation")
	}
	plan := *req.Eval
	var err error
	if plan.Preprocess, err = mergeSetting("preprocess", req.Preprocess, plan.Preprocess); err != nil {
		return nil, err
	}
	if plan.Coding, err = mergeSetting("coding", req.Coding, plan.Coding); err != nil {
		return nil, err
	}
	if req.Bias != nil {
		if plan.Bias != nil && *plan.Bias != *req.Bias {
			return nil, errors.New("bias is given twice with different values (at the top level and in eval)")
		}
		plan.Bias = req.Bias
	}
	t, err := table(ctx, req, in)
	if err != nil {
		return nil, err
	}
	ds := t.Data
	data := &evaluate.Data{X: ds.X, Y: ds.Y, Classes: len(ds.Classes), Targets: ds.Targets}
	e, err := evaluate.New(plan, data)
	if err != nil {
		return nil, err
	}
	e.MemoryBudget = req.MemoryBudget
	// A table read for this request, or given to it alone, serves one
	// unit in place (its rows rearranged into the unit's parts).
	e.Own = in.Table == nil || in.Own
	normPlan := e.Plan()
	norm := &api.Request{Op: api.OpEval, Data: req.Data, Eval: &normPlan}
	dinfo := t.Info(&req.Data)
	dinfo.SHA256 = t.SHA256()
	warnings := append(nonNil(ds.Warnings), e.Notes()...)
	if len(dinfo.Constant) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d feature(s) constant over all samples, e.g. %q", len(dinfo.Constant), ds.Features[dinfo.Constant[0]]))
	}
	if ds.Missing > 0 {
		warnings = append(warnings, fmt.Sprintf("%d missing value(s) imputed with the training part's column mean in each split", ds.Missing))
	}
	workers := max(req.Workers, 1)
	report := func(p api.Progress) {
		if progress != nil {
			progress(p)
		}
	}
	switch {
	case strings.ToLower(req.Op) == api.OpEvalPlan:
		return &api.Response{EvalPart: &api.EvalPart{Request: norm, Dataset: dinfo, Features: ds.Features, Header: e.Header(),
			Units: []*api.UnitResult{}, Warnings: warnings}}, nil
	case req.Units != nil:
		for _, u := range req.Units {
			if u < 0 || u >= e.Units() {
				return nil, fmt.Errorf("unit %d does not exist: this evaluation has units 0 to %d", u, e.Units()-1)
			}
		}
		units, err := e.RunUnits(ctx, req.Units, workers, report)
		if err != nil {
			return nil, err
		}
		return &api.Response{EvalPart: &api.EvalPart{Request: norm, Dataset: dinfo, Features: ds.Features, Header: e.Header(),
			Units: units, Warnings: warnings}}, nil
	}
	rep, err := e.Run(ctx, workers, report)
	if err != nil {
		return nil, err
	}
	return &api.Response{EvalReport: &api.EvalReport{Request: norm, Dataset: dinfo, Features: ds.Features, Report: rep,
		Warnings: append(warnings, unitNotes(rep)...)}}, nil
}

// mergeSetting combines a setting given at the top level of a request with
// the same setting in its plan.
func mergeSetting(name, top, inPlan string) (string, error) {
	switch {
	case top == "":
		return inPlan, nil
	case inPlan == "" || strings.EqualFold(top, inPlan):
		return top, nil
	}
	return "", fmt.Errorf("%s is given twice with different values (%q at the top level, %q in eval)", name, top, inPlan)
}

// unitNotes gathers the units' notes for the report's warnings, each once,
// naming the method and the splits it came from.
func unitNotes(r *api.Report) []string {
	var out []string
	for _, vr := range r.Results {
		var order []string
		splits := map[string][]int{}
		for _, u := range vr.Units {
			for _, n := range u.Notes {
				if _, seen := splits[n]; !seen {
					order = append(order, n)
				}
				if s := splits[n]; len(s) == 0 || s[len(s)-1] != u.Split+1 {
					splits[n] = append(s, u.Split+1)
				}
			}
		}
		for _, n := range order {
			where := "split"
			if len(splits[n]) > 1 {
				where = "splits"
			}
			out = append(out, fmt.Sprintf("%s, %s %s: %s", vr.Method, where, splitList(splits[n], len(vr.Units)), n))
		}
	}
	return out
}

// splitList writes split numbers for people: "all", "1–3, 5".
func splitList(s []int, of int) string {
	if len(s) == of && of > 1 {
		return "all"
	}
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d–%d", s[i], s[j]))
		} else {
			parts = append(parts, fmt.Sprint(s[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// Merge assembles the report from the parts of one evaluation (OpEval
// answers with Units, computed in any order, anywhere). The parts must come
// from the same request on the same data, and together hold every unit
// exactly once.
func Merge(parts []*api.EvalPart) (*api.EvalReport, error) {
	if len(parts) == 0 || parts[0] == nil || parts[0].Header == nil || parts[0].Request == nil {
		return nil, errors.New("merge needs the parts of an evaluation (the answers of eval with units)")
	}
	first := parts[0]
	key := func(p *api.EvalPart) ([]byte, error) {
		return json.Marshal([]any{p.Request, p.Dataset, p.Features, p.Header})
	}
	want, err := key(first)
	if err != nil {
		return nil, err
	}
	var units []*api.UnitResult
	for i, p := range parts {
		if p == nil || p.Header == nil || p.Request == nil {
			return nil, fmt.Errorf("part %d is not an evaluation part", i+1)
		}
		got, err := key(p)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(got, want) {
			return nil, fmt.Errorf("part %d comes from a different evaluation (request, data or splits differ from part 1)", i+1)
		}
		units = append(units, p.Units...)
	}
	rep, err := evaluate.Merge(first.Header, units)
	if err != nil {
		return nil, err
	}
	return &api.EvalReport{Request: first.Request, Dataset: first.Dataset, Features: first.Features, Report: rep,
		Warnings: append(nonNil(append([]string(nil), first.Warnings...)), unitNotes(rep)...)}, nil
}
