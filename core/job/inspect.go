package job

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/core/dataset"
)

// runInspect reads the data and describes them, with their first rows
// (OpInspect). A file that does not read as the request says, because
// columns hold text, a label holds a different number in every row or the
// features are in rows, is read as the columns suggest instead (proposal),
// and the inspection names what it chose.
func runInspect(ctx context.Context, req *api.Request, in Input) (*api.Inspection, error) {
	rows := req.PreviewRows
	if rows <= 0 {
		rows = 5
	}
	// A preview must show files with missing values too; the policy only
	// matters when they are used.
	d := req.Data
	if d.Missing != api.MissingDropFeatures && d.Missing != api.MissingDropSamples {
		d.Missing = api.MissingMean
	}
	src := in.source()
	ds, err := parse(ctx, src, &d, rows)
	var notes []string
	if err != nil {
		var next error
		if ds, notes, next = propose(ctx, src, &d, rows, err); ds == nil {
			if next != nil {
				return nil, next
			}
			return nil, err
		}
	}
	if d.ID == "" {
		if id, note := numericID(ds); id != "" {
			d2 := d
			d2.ID = id
			if ds2, err := parse(ctx, src, &d2, rows); err == nil {
				d, ds, notes = d2, ds2, append(notes, note)
			}
		}
	}
	if d.Transpose == "" && rowsLookLikeFeatures(ds) && (ds.Classes == nil || dataset.NumericLabels(ds.Classes)) {
		notes = append(notes, fmt.Sprintf("the file has %d rows and %d columns, and its first column names every row differently: if its rows are features (genes × samples), read it with the features in rows", ds.Rows()+boolInt(ds.Header), len(ds.Columns)))
	}
	info := NewTable(ds).Info(&req.Data)
	inspection := &api.Inspection{
		Dataset: info, Columns: ds.Columns, LabelColumn: ds.LabelColumn - 1,
		Preview: ds.Preview, Warnings: nonNil(append(notes, ds.Warnings...)), Sheets: ds.Sheets,
		Continuous: measurement(ds), Aside: aside(ds),
	}
	if d.Label != req.Data.Label {
		inspection.Label = d.Label
	}
	if d.ID != req.Data.ID {
		inspection.ID = d.ID
	}
	if len(d.Ignore) != len(req.Data.Ignore) {
		inspection.Ignore = d.Ignore
	}
	if len(d.Targets) != len(req.Data.Targets) {
		inspection.Targets = d.Targets
	}
	inspection.Transpose = d.Transpose == "yes" && req.Data.Transpose != "yes"
	return inspection, nil
}

// propose reads a file that did not read as d says (err) the way its
// columns suggest, and returns it with notes saying how, having changed d
// to say so; nil when err is not of that kind or the file does not read so
// either — then with the error of that reading, when the columns of text
// were set aside and another problem came next.
//   - Feature columns holding text: the first whose values repeat is the
//     label (when d leaves the label to its default), the first with a
//     different text in every row the sample IDs, the others are left out.
//   - Text in most columns, a cell or two each (a row of class names in a
//     file whose rows are the features): the file is read transposed.
//   - A default label column of numbers, a different one in every row: it
//     is read as a regression target.
func propose(ctx context.Context, src source, d *api.Data, rows int, err error) (*dataset.Dataset, []string, error) {
	var text *dataset.TextCell
	var unique *dataset.UniqueLabels
	switch {
	case errors.As(err, &unique):
		if !unique.Numeric || d.Label != "" || len(d.Targets) > 0 {
			return nil, nil, nil
		}
		try := *d
		try.Label, try.Targets = "none", []string{strconv.Itoa(unique.Column)}
		ds, err := parse(ctx, src, &try, rows)
		if err != nil {
			return nil, nil, nil
		}
		if ds.Header {
			try.Targets = []string{ds.TargetNames[0]}
		}
		*d = try
		return ds, []string{fmt.Sprintf("the last column, %s, holds a different number in every row: it is read as a measurement to predict (a regression target), not as classes", quoteName(ds.TargetNames[0]))}, nil
	case !errors.As(err, &text):
		return nil, nil, nil
	}
	sv, err := parseSurvey(ctx, src, d, rows, true)
	if err != nil {
		return nil, nil, nil
	}
	if d.Transpose == "" && rowOfText(sv) {
		try := *d
		try.Transpose = "yes"
		ds, err := parse(ctx, src, &try, rows)
		var notes []string
		if err != nil {
			ds, notes, _ = propose(ctx, src, &try, rows, err)
		}
		if ds == nil {
			return nil, nil, nil
		}
		*d = try
		return ds, append([]string{fmt.Sprintf("text stands in %d of %d columns, a cell or two in each: the rows of this file are read as features and its columns as samples (features in rows)", len(sv.Text), len(sv.Columns))}, notes...), nil
	}
	try := *d
	var notes, ignored []string
	m := sv.Rows()
	// A default label column that holds text is the label.
	textLabel := sv.Classes != nil && !dataset.NumericLabels(sv.Classes)
	for _, c := range sv.Text {
		ref := columnRef(sv, c.Column)
		switch {
		case try.Label == "" && len(try.Targets) == 0 && !textLabel && c.Distinct < c.Cells && c.Cells*2 >= m:
			try.Label = ref
			notes = append(notes, fmt.Sprintf("%s holds text, not numbers: it is read as the class label; choose another label column if it is not one", columnName(sv, c.Column)))
		case try.ID == "" && c.Distinct == m && c.Cells == m:
			try.ID = ref
			notes = append(notes, fmt.Sprintf("%s holds a different text in every row (%q, …): it is read as the samples' IDs, kept in exports and not used as a feature", columnName(sv, c.Column), c.Example))
		case c.Cells*2 < m:
			// Mostly numbers: a typing slip, more likely than a column of
			// text.
			try.Ignore = append(try.Ignore, ref)
			notes = append(notes, fmt.Sprintf("%s holds text in %d of %d rows (%q on line %d): left out of the features; correct the cell%s to use it",
				columnName(sv, c.Column), c.Cells, m, c.Example, c.Line, map[bool]string{true: "s", false: ""}[c.Cells > 1]))
		default:
			try.Ignore = append(try.Ignore, ref)
			ignored = append(ignored, columnName(sv, c.Column))
		}
	}
	if len(ignored) > 0 {
		more := ""
		if len(ignored) > 5 {
			ignored, more = ignored[:5], fmt.Sprintf(" and %d more", len(ignored)-5)
		}
		verb := "holds"
		if len(ignored) > 1 {
			verb = "hold"
		}
		notes = append(notes, fmt.Sprintf("%s%s %s text, not numbers: left out of the features", strings.Join(ignored, ", "), more, verb))
	}
	ds, err := parse(ctx, src, &try, rows)
	if err != nil {
		return nil, nil, err
	}
	*d = try
	return ds, notes, nil
}

// aside returns the 0-based columns that are not features, in order.
func aside(ds *dataset.Dataset) []int {
	cols := append([]int{ds.LabelColumn, ds.IDColumn}, ds.TargetColumns...)
	cols = append(cols, ds.Ignored...)
	out := []int{}
	for _, c := range cols {
		if c > 0 && c <= len(ds.Columns) {
			out = append(out, c-1)
		}
	}
	sort.Ints(out)
	return out
}

// rowOfText reports whether text stands in most columns of a survey, at
// most three cells in each: rows of names in a file whose rows are
// features.
func rowOfText(sv *dataset.Dataset) bool {
	few := 0
	for _, c := range sv.Text {
		if c.Cells <= 3 {
			few++
		}
	}
	return len(sv.Columns) >= 4 && few*2 >= len(sv.Columns)
}

// idName matches the header of a column of sample IDs.
var idName = regexp.MustCompile(`(?i)^((sample|patient|subject|case|record|specimen)s?[ _.-]?(id|no|nr|number)?|id|[a-z0-9 _.-]*[ _.-]id)$`)

// numericID returns the feature column named like an ID (patient_id,
// sample, ID, …) holding whole numbers, a different one in every row, with
// a note saying it is read as the samples' IDs ("" when there is none).
func numericID(ds *dataset.Dataset) (string, string) {
	m, _ := ds.X.Dims()
	for j, name := range ds.Features {
		if !ds.Header || !idName.MatchString(strings.TrimSpace(name)) {
			continue
		}
		seen := make(map[float64]bool, m)
		for i := 0; i < m; i++ {
			v := ds.X.At(i, j)
			if math.IsNaN(v) || v != math.Trunc(v) || seen[v] {
				seen = nil
				break
			}
			seen[v] = true
		}
		if seen == nil {
			continue
		}
		col := columnIndex(ds, name)
		return columnRef(ds, col), fmt.Sprintf("%s holds a different whole number in every row and is named like an ID: it is read as the samples' IDs, not as a feature; choose no sample-ID column if it is a measurement", columnName(ds, col))
	}
	return "", ""
}

// measurement reports whether the label column holds numbers with many
// different values: more than ten and more than one for twenty samples,
// or numbers that are not whole.
func measurement(ds *dataset.Dataset) bool {
	c := len(ds.Classes)
	if c < 3 {
		return false
	}
	if !dataset.NumericLabels(ds.Classes) {
		return false
	}
	whole := true
	for _, s := range ds.Classes {
		v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
		whole = whole && v == math.Trunc(v)
	}
	return !whole || (c > 10 && c*20 > ds.Rows())
}

// rowsLookLikeFeatures reports whether a table may have its features in
// rows: sample IDs in its first column and many more rows than columns
// (the caller also asks for a label that is not text: a clinic's table of
// patients has its diagnosis).
func rowsLookLikeFeatures(ds *dataset.Dataset) bool {
	return ds.IDColumn == 1 && ds.Rows() > 5*len(ds.Columns)
}

// columnRef names a column (1-based) for a request: its header name when
// that names it alone, else its number.
func columnRef(ds *dataset.Dataset, col int) string {
	name := ds.Columns[col-1]
	if ds.Header && columnIndex(ds, name) == col {
		return name
	}
	return strconv.Itoa(col)
}

// columnIndex returns the 1-based column of the first column named name.
func columnIndex(ds *dataset.Dataset, name string) int {
	for j, c := range ds.Columns {
		if c == name {
			return j + 1
		}
	}
	return 0
}

// columnName is a column as a message names it: column 3 ("site").
func columnName(ds *dataset.Dataset, col int) string {
	return fmt.Sprintf("column %d (%s)", col, quoteName(ds.Columns[col-1]))
}

func quoteName(s string) string { return strconv.Quote(s) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
