package dataset

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// WriteCSV writes the data restricted to the features columns (0-based, in
// that order) as CSV: a header row, the sample IDs when the data have them,
// the chosen features, then the target columns and the label column when
// the data have them. Numbers are
// written in the shortest form that reads back to the same double, a
// missing cell is empty, a label is its class name; fields are quoted as
// RFC 4180 asks.
func (d *Dataset) WriteCSV(w io.Writer, columns []int) error {
	n := len(d.Features)
	for _, j := range columns {
		if j < 0 || j >= n {
			return fmt.Errorf("feature %d does not exist: the data have %d features", j, n)
		}
	}
	cw := csv.NewWriter(w)
	row := make([]string, 0, len(columns)+len(d.TargetNames)+2)
	if d.IDs != nil {
		row = append(row, d.IDName)
	}
	for _, j := range columns {
		row = append(row, d.Features[j])
	}
	row = append(row, d.TargetNames...)
	if d.Classes != nil {
		row = append(row, d.Label)
	}
	if err := cw.Write(row); err != nil {
		return err
	}
	number := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for i := 0; i < d.Rows(); i++ {
		row = row[:0]
		if d.IDs != nil {
			row = append(row, d.IDs[i])
		}
		for _, j := range columns {
			row = append(row, number(d.X.At(i, j)))
		}
		if d.Targets != nil {
			for _, v := range d.Targets.RawRowView(i) {
				row = append(row, number(v))
			}
		}
		if d.Classes != nil {
			row = append(row, d.Classes[d.Y[i]])
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
