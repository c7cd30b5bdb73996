package job

import (
	"context"

	"sparsefs/api"
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
	if err != nil {
		return nil, err
	}
	return &api.Inspection{
		Dataset: NewTable(ds).Info(&req.Data), Columns: ds.Columns, LabelColumn: ds.LabelColumn - 1,
		Preview: ds.Preview, Warnings: nonNil(ds.Warnings), Sheets: ds.Sheets,
	}, nil
}
