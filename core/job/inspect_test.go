package job

import (
	"context"
	"strings"
	"testing"

	"sparsefs/api"
)

// A file whose default label column does not read because another column
// holds text (a clinic's export with the diagnosis first): inspecting it
// reads that column as the label, says so, and names it for the requests
// that follow; a label the request names, a column of sample IDs, or
// targets leave the error as it is.
func TestInspectTextLabel(t *testing.T) {
	inspect := func(csv string, d api.Data) (*api.Inspection, error) {
		resp, err := Run(context.Background(), &api.Request{Op: api.OpInspect, Data: d}, Input{Raw: []byte(csv)}, nil)
		if err != nil {
			return nil, err
		}
		return resp.Inspection, nil
	}
	clinic := "diagnosis,age,marker\ntumor,61,2.5\nnormal,45,1.0\ntumor,70,3.1\nnormal,38,0.9\n"
	in, err := inspect(clinic, api.Data{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Label != "diagnosis" || in.LabelColumn != 0 || in.Dataset.Features != 2 || strings.Join(in.Dataset.Classes, ",") != "normal,tumor" ||
		len(in.Warnings) == 0 || !strings.HasPrefix(in.Warnings[0], `column 1 ("diagnosis") holds text, not numbers: it is read as the class label`) {
		t.Errorf("clinic file: label %q at %d, %d features, classes %q, warnings %q", in.Label, in.LabelColumn, in.Dataset.Features, in.Dataset.Classes, in.Warnings)
	}
	// What the inspection chose reads the file for a selection too.
	if _, err := Run(context.Background(), &api.Request{Method: "fisher", Data: api.Data{Label: in.Label}}, Input{Raw: []byte(clinic)}, nil); err != nil {
		t.Errorf("select with the label chosen: %v", err)
	}
	// Without a header the label is the column's number.
	in, err = inspect("tumor,61,2.5\nnormal,45,1.0\ntumor,70,3.1\nnormal,38,0.9\n", api.Data{})
	if err != nil || in.Label != "1" || !strings.HasPrefix(in.Warnings[0], `column 1 ("f1") holds text`) {
		t.Errorf("no header: %+v, %v", in, err)
	}
	for _, c := range []struct {
		csv string
		d   api.Data
	}{
		{clinic, api.Data{Label: "marker"}},
		{"id,age,marker,class\nP1,61,2.5,x\nP2,45,1.0,y\nP3,70,3.1,x\nP4,38,0.9,y\n", api.Data{}}, // every ID differs: no class label
		{clinic, api.Data{Targets: []string{"age"}}},
	} {
		if _, err := inspect(c.csv, c.d); err == nil || !strings.Contains(err.Error(), "is not a number") {
			t.Errorf("%+v: %v", c.d, err)
		}
	}
}
