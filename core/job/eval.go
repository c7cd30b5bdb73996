package job

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/evaluate"
)

// EvalReport is the answer to OpEval (all units) and OpMerge: the request
// as normalised (every default written in, so that running it again
// re-creates the evaluation), the data it ran on, and the merged report of
// package evaluate (K list, classifiers, splits, and per method the
// summaries over the splits and every unit's values).
type EvalReport struct {
	Request  *Request    `json:"request"`
	Dataset  DatasetInfo `json:"dataset"`
	Features []string    `json:"features"`
	*evaluate.Report
	Warnings []string `json:"warnings"`
}

// EvalPart is the answer to OpEval with Units (those units' results) and to
// OpEvalPlan (no units): everything OpMerge needs to assemble the report
// from parts computed anywhere. Header.Units is the number of units.
type EvalPart struct {
	Request  *Request               `json:"request"`
	Dataset  DatasetInfo            `json:"dataset"`
	Features []string               `json:"features"`
	Header   *evaluate.Header       `json:"header"`
	Units    []*evaluate.UnitResult `json:"units"`
	Warnings []string               `json:"warnings"`
}

// runEval prepares the evaluation of a request and runs it (OpEval) or
// describes it (OpEvalPlan).
func runEval(ctx context.Context, req *Request, progress func(Progress)) (*Response, error) {
	op := strings.ToLower(req.Op)
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
	ds, err := load(&req.Data, 0)
	if err != nil {
		return nil, err
	}
	data := &evaluate.Data{X: ds.X, Y: ds.Y, Classes: len(ds.Classes), Targets: ds.Targets}
	e, err := evaluate.New(plan, data)
	if err != nil {
		return nil, err
	}
	normPlan := e.Plan()
	norm := &Request{Op: OpEval, Data: req.Data, Eval: &normPlan}
	norm.Data.Bytes = nil
	dinfo := info(&req.Data, ds)
	dinfo.SHA256 = parsedFacts(&req.Data, ds, func() any { return dataHash(ds) }, "sha256").(string)
	warnings := nonNil(ds.Warnings)
	if len(dinfo.Constant) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d feature(s) constant over all samples, e.g. %q", len(dinfo.Constant), ds.Features[dinfo.Constant[0]]))
	}
	if ds.Missing > 0 {
		warnings = append(warnings, fmt.Sprintf("%d missing value(s) imputed with the training part's column mean in each split", ds.Missing))
	}
	workers := max(req.Workers, 1)
	report := func(p Progress) {
		if progress != nil {
			progress(p)
		}
	}
	switch {
	case op == OpEvalPlan:
		return &Response{EvalPart: &EvalPart{Request: norm, Dataset: dinfo, Features: ds.Features, Header: e.Header(),
			Units: []*evaluate.UnitResult{}, Warnings: warnings}}, nil
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
		return &Response{EvalPart: &EvalPart{Request: norm, Dataset: dinfo, Features: ds.Features, Header: e.Header(),
			Units: units, Warnings: warnings}}, nil
	}
	rep, err := e.Run(ctx, workers, report)
	if err != nil {
		return nil, err
	}
	return &Response{EvalReport: &EvalReport{Request: norm, Dataset: dinfo, Features: ds.Features, Report: rep,
		Warnings: append(warnings, unitNotes(rep)...)}}, nil
}

// factCache remembers, for the dataset last given as Data.Parsed, what
// every request on it computes again (its constant features, its SHA-256):
// a worker runs an evaluation's units as separate requests on one parsed
// dataset, and for a fast filter on a wide dataset these took more than
// half of each unit. Parsed data are never modified (Data.Parsed), so the
// facts stay true; one dataset is remembered at a time.
var factCache struct {
	sync.Mutex
	ds    *dataset.Dataset
	facts map[string]any
}

// parsedFacts returns fact name of ds, computed by compute, or remembered
// when the data came parsed (d.Parsed).
func parsedFacts(d *Data, ds *dataset.Dataset, compute func() any, name string) any {
	if d.Parsed == nil || d.Parsed != ds {
		return compute()
	}
	factCache.Lock()
	if factCache.ds != ds {
		factCache.ds, factCache.facts = ds, map[string]any{}
	}
	v, ok := factCache.facts[name]
	factCache.Unlock()
	if ok {
		return v
	}
	v = compute()
	factCache.Lock()
	if factCache.ds == ds {
		factCache.facts[name] = v
	}
	factCache.Unlock()
	return v
}

// dataHash returns the SHA-256 (hex) of the data as read: feature names,
// values (IEEE bits, row by row), class of each sample, target names and
// values. It does not depend on the file's formatting.
func dataHash(ds *dataset.Dataset) string {
	h := sha256.New()
	var buf [8]byte
	num := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	text := func(s string) {
		num(uint64(len(s)))
		h.Write([]byte(s))
	}
	matrix := func(x *mat.Dense) {
		if x == nil {
			num(0)
			return
		}
		r, c := x.Dims()
		num(uint64(r))
		num(uint64(c))
		for i := 0; i < r; i++ {
			for _, v := range x.RawRowView(i) {
				num(math.Float64bits(v))
			}
		}
	}
	num(uint64(len(ds.Features)))
	for _, f := range ds.Features {
		text(f)
	}
	matrix(ds.X)
	num(uint64(len(ds.Y)))
	for _, y := range ds.Y {
		text(ds.Classes[y])
	}
	num(uint64(len(ds.TargetNames)))
	for _, t := range ds.TargetNames {
		text(t)
	}
	matrix(ds.Targets)
	return hex.EncodeToString(h.Sum(nil))
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
// naming the method and the split.
func unitNotes(r *evaluate.Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, vr := range r.Results {
		for _, u := range vr.Units {
			for _, n := range u.Notes {
				msg := fmt.Sprintf("%s, split %d: %s", vr.Method, u.Split+1, n)
				if !seen[msg] {
					seen[msg] = true
					out = append(out, msg)
				}
			}
		}
	}
	return out
}

// Merge assembles the report from the parts of one evaluation (OpEval
// answers with Units, computed in any order, anywhere). The parts must come
// from the same request on the same data, and together hold every unit
// exactly once.
func Merge(parts []*EvalPart) (*EvalReport, error) {
	if len(parts) == 0 || parts[0] == nil || parts[0].Header == nil || parts[0].Request == nil {
		return nil, errors.New("merge needs the parts of an evaluation (the answers of eval with units)")
	}
	first := parts[0]
	key := func(p *EvalPart) ([]byte, error) {
		return json.Marshal([]any{p.Request, p.Dataset, p.Features, p.Header})
	}
	want, err := key(first)
	if err != nil {
		return nil, err
	}
	var units []*evaluate.UnitResult
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
	return &EvalReport{Request: first.Request, Dataset: first.Dataset, Features: first.Features, Report: rep,
		Warnings: append(nonNil(append([]string(nil), first.Warnings...)), unitNotes(rep)...)}, nil
}

// ReadFoldFile reads a fold assignment: one integer per sample, separated by
// newlines, commas, semicolons, tabs or spaces (a header line that is not a
// number is skipped).
func ReadFoldFile(raw []byte) ([]int, error) {
	fields := strings.FieldsFunc(string(raw), func(r rune) bool {
		return r == '\n' || r == '\r' || r == ',' || r == ';' || r == '\t' || r == ' '
	})
	out := make([]int, 0, len(fields))
	for i, f := range fields {
		var v int
		if _, err := fmt.Sscanf(f, "%d", &v); err != nil || fmt.Sprint(v) != strings.TrimPrefix(f, "+") {
			if i == 0 {
				continue // a header
			}
			return nil, fmt.Errorf("fold file: entry %d (%q) is not a whole number", i+1, f)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, errors.New("fold file: no fold numbers found")
	}
	return out, nil
}
