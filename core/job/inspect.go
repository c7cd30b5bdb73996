package job

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"sparsefs/api"
	"sparsefs/core/dataset"
)

// runInspect reads the data and describes them, with their first rows
// (OpInspect).
func runInspect(ctx context.Context, req *api.Request, in Input) (*api.Inspection, error) {
	rows := req.PreviewRows
	if rows <= 0 {
		rows = 5
	}
	// A preview must show files with missing values too; the policy only
	// matters when they are used.
	d := req.Data
	d.Missing = api.MissingMean
	ds, err := parse(ctx, in.Raw, &d, rows)
	label := ""
	if err != nil {
		if ds, label = textLabel(ctx, in.Raw, d, rows, err); ds == nil {
			return nil, err
		}
	}
	return &api.Inspection{
		Dataset: NewTable(ds).Info(&req.Data), Columns: ds.Columns, LabelColumn: ds.LabelColumn - 1,
		Preview: ds.Preview, Warnings: nonNil(ds.Warnings), Sheets: ds.Sheets, Label: label,
	}, nil
}

// textLabel reads the data with the column that holds text as the label,
// when the label was left to its default and err says a feature column
// holds text — a clinic's export often has the diagnosis first — and
// returns them with the label to name in requests: the column's header
// name, or its number (nil when they do not read so either). A warning
// says which column was taken, and why.
func textLabel(ctx context.Context, raw []byte, d api.Data, rows int, err error) (*dataset.Dataset, string) {
	var text *dataset.TextCell
	var at *dataset.Error
	if d.Label != "" || len(d.Targets) > 0 || !errors.As(err, &text) || !errors.As(err, &at) {
		return nil, ""
	}
	name := fmt.Sprintf("column %d", text.Column)
	labels := []string{strconv.Itoa(text.Column)}
	if at.Name != "" {
		name += fmt.Sprintf(" (%q)", at.Name)
		labels = []string{at.Name, labels[0]} // a header's name reads best in a report
	}
	var ds *dataset.Dataset
	for _, d.Label = range labels {
		if ds, err = parse(ctx, raw, &d, rows); err == nil && ds.LabelColumn == text.Column {
			break
		}
		ds = nil
	}
	if ds == nil {
		return nil, ""
	}
	ds.Warnings = append([]string{name + " holds text, not numbers: it is read as the class label; choose another label column if it is not one"}, ds.Warnings...)
	return ds, d.Label
}
