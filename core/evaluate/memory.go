package evaluate

import (
	"slices"
	"strings"

	"sparsefs/api"
	"sparsefs/core/classify"
	"sparsefs/core/internal/budget"
)

// checkClassifiers refuses, before anything is fitted on the training part
// tr, classifiers whose models for every K would exceed the memory budget
// setting (classify.Needs, classify.LinearNeeds), with the top-K columns
// of the training part they are trained on: every K's columns when k-NN
// keeps them (every class's, for a per-class vote), the largest K's
// otherwise.
func (e *Evaluation) checkClassifiers(cls []api.Classifier, tr *part, setting int64) error {
	m, n := tr.x.Dims()
	var dims []int
	for _, k := range e.plan.K {
		if k <= n {
			dims = append(dims, k)
		}
	}
	if len(dims) == 0 {
		return nil
	}
	widest, kept := slices.Max(dims), 0
	for _, d := range dims {
		kept += d
	}
	columns := func(k int) budget.Need {
		return budget.Need{What: "the top-K columns of the training part", Rows: m, RowsOf: "samples", Cols: k, ColsOf: "features"}
	}
	cause := func(nd budget.Need) string {
		if strings.Contains(nd.RowsOf, "class") {
			return budget.ClassCause(m, tr.y, e.data.Classes)
		}
		return ""
	}
	if tr.y != nil {
		for _, c := range cls {
			// A per-class vote keeps one model per class for every K.
			ds, copies := dims, 1
			if c.PerClass {
				ds, copies = repeatEach(dims, e.data.Classes), e.data.Classes
			}
			who, needs := classify.Needs(c, tr.y, ds, e.data.Classes)
			cols := columns(widest)
			if c.Name == api.KNN {
				cols = columns(kept * copies)
			}
			if err := budget.Check(setting, who, cause, append(needs, cols)...); err != nil {
				return err
			}
		}
	}
	if tr.t != nil {
		_, t := tr.t.Dims()
		who, needs := classify.LinearNeeds(m, widest, t)
		if err := budget.Check(setting, who, cause, append(needs, columns(widest))...); err != nil {
			return err
		}
	}
	return nil
}

// repeatEach returns v with each element repeated n times.
func repeatEach(v []int, n int) []int {
	out := make([]int, 0, len(v)*n)
	for _, x := range v {
		for range n {
			out = append(out, x)
		}
	}
	return out
}

// collectBytes is the size of the data from which each unit starts with a
// garbage collection (see runUnit): a unit's copies of the rows are then
// reused by the next rather than added to them. On smaller data a
// collection per unit would cost more than it saves.
const collectBytes = 32 << 20
