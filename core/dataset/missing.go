package dataset

import (
	"fmt"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// missingCell reports whether a cell is missing: empty, or a missing-value
// marker (NA, NaN, ?, #N/A, …; isMissing).
func missingCell(c cell) bool {
	return c.kind == cellEmpty || (c.kind != cellNumber && isMissing(c.s))
}

// missingFeature reports whether a row has a missing cell where a sample
// needs a value: a feature, the label or a target (Options.Missing =
// DropSamples leaves such a row out).
func missingFeature(rec []cell, roles []role) bool {
	for j, c := range rec {
		switch roles[j] {
		case roleFeature, roleLabel, roleTarget:
			if missingCell(c) {
				return true
			}
		}
	}
	return false
}

// dropped counts the rows left out for their missing cells and keeps the
// first lines, for the warning.
type dropped struct {
	n     int
	lines []int
}

func (d *dropped) add(line int) {
	d.n++
	if len(d.lines) < 3 {
		d.lines = append(d.lines, line)
	}
}

// check warns of the rows left out, or refuses data with fewer than two
// samples left.
func (d *dropped) check(ds *Dataset, kept int, where func(int) string) error {
	if d.n == 0 {
		return nil
	}
	at := make([]string, len(d.lines))
	for i, l := range d.lines {
		at[i] = where(l)
	}
	more := ""
	if d.n > len(at) {
		more = fmt.Sprintf(" and %s more", thousands(int64(d.n-len(at))))
	}
	if kept < 2 {
		return &Error{Msg: fmt.Sprintf("%s of %s samples have missing cells (%s%s): fewer than two samples would be left; impute the missing values or leave out the features that have them instead",
			thousands(int64(d.n)), thousands(int64(d.n+kept)), strings.Join(at, ", "), more)}
	}
	ds.Warnings = append(ds.Warnings, fmt.Sprintf("%s of %s samples have missing cells and are left out (%s%s)",
		thousands(int64(d.n)), thousands(int64(d.n+kept)), strings.Join(at, ", "), more))
	return nil
}

// dropMissingFeatures leaves out the features that have a missing cell
// (Options.Missing = DropFeatures), with a warning naming them.
func dropMissingFeatures(ds *Dataset) error {
	if len(ds.MissingColumns) == 0 {
		return nil
	}
	m, n := ds.X.Dims()
	gone := make([]bool, n)
	var names []string
	for _, j := range ds.MissingColumns {
		gone[j] = true
		if len(names) < 3 {
			names = append(names, quote(ds.Features[j]))
		}
	}
	more := ""
	if len(ds.MissingColumns) > len(names) {
		more = fmt.Sprintf(" and %s more", thousands(int64(len(ds.MissingColumns)-len(names))))
	}
	keep := n - len(ds.MissingColumns)
	if keep == 0 {
		return &Error{Msg: fmt.Sprintf("every feature (%s) has missing cells: none would be left; impute the missing values or leave out the samples that have them instead", thousands(int64(n)))}
	}
	x := mat.NewDense(m, keep, nil)
	features := make([]string, 0, keep)
	for j, name := range ds.Features {
		if !gone[j] {
			features = append(features, name)
		}
	}
	for i := 0; i < m; i++ {
		row, out := ds.X.RawRowView(i), x.RawRowView(i)
		k := 0
		for j, v := range row {
			if !gone[j] {
				out[k] = v
				k++
			}
		}
	}
	ds.Warnings = append(ds.Warnings, fmt.Sprintf("%s of %s features have missing cells and are left out (%s%s)",
		thousands(int64(len(ds.MissingColumns))), thousands(int64(n)), strings.Join(names, ", "), more))
	ds.X, ds.Features = x, features
	ds.Missing, ds.MissingColumns = 0, nil
	return nil
}
