package job

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/evaluate"
)

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

// topWeights returns |W| for the first k features of ranking (fewer when
// there are fewer). The bias row, if any, is never among them: rankings
// index feature rows only.
func topWeights(w *mat.Dense, ranking []int, k int, classes []string) *Weights {
	k = min(k, len(ranking))
	_, c := w.Dims()
	cols := classes
	if len(cols) != c {
		cols = make([]string, c)
		for j := range cols {
			cols[j] = fmt.Sprintf("w%d", j+1)
		}
	}
	rows := append([]int(nil), ranking[:k]...)
	return &Weights{Rows: rows, Columns: append([]string(nil), cols...), Abs: evaluate.AbsRows(w, rows)}
}

// Load reads the dataset a Data describes (its Bytes, else its Path) with
// its Label, Delimiter, Header and Missing settings, as every operation but
// OpInspect does. A caller that runs several requests on the same data may
// keep the result and set it as Data.Parsed to skip the parse.
func Load(d *Data) (*dataset.Dataset, error) {
	return load(d, 0)
}
