package job

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sparsefs/api"
)

func inspect(t *testing.T, csv string, d api.Data) *api.Inspection {
	t.Helper()
	resp, err := Run(context.Background(), &api.Request{Op: api.OpInspect, Data: d}, Input{Raw: []byte(csv)}, nil)
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	return resp.Inspection
}

// The settings an inspection proposes read the file for a selection too.
func selectWith(t *testing.T, csv string, in *api.Inspection) *api.Selection {
	t.Helper()
	d := api.Data{Label: in.Label, ID: in.ID, Ignore: in.Ignore, Targets: in.Targets}
	if in.Transpose {
		d.Transpose = "yes"
	}
	method := "fisher"
	if len(in.Targets) > 0 {
		method = "rfs"
	}
	resp, err := Run(context.Background(), &api.Request{Method: method, Data: d}, Input{Raw: []byte(csv)}, nil)
	if err != nil {
		t.Fatalf("select with %+v: %v", d, err)
	}
	return resp.Selection
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// A clinic's export with the diagnosis first: the inspection reads that
// column as the label, says so, and names it for the requests that follow.
func TestInspectTextLabel(t *testing.T) {
	clinic := "diagnosis,age,marker\ntumor,61,2.5\nnormal,45,1.0\ntumor,70,3.1\nnormal,38,0.9\n"
	in := inspect(t, clinic, api.Data{})
	if in.Label != "diagnosis" || in.LabelColumn != 0 || in.Dataset.Features != 2 || strings.Join(in.Dataset.Classes, ",") != "normal,tumor" ||
		!hasPrefix(in.Warnings, `column 1 ("diagnosis") holds text, not numbers: it is read as the class label`) {
		t.Errorf("clinic file: label %q at %d, %d features, classes %q, warnings %q", in.Label, in.LabelColumn, in.Dataset.Features, in.Dataset.Classes, in.Warnings)
	}
	selectWith(t, clinic, in)
	// Without a header the label is the column's number.
	in = inspect(t, "tumor,61,2.5\nnormal,45,1.0\ntumor,70,3.1\nnormal,38,0.9\n", api.Data{})
	if in.Label != "1" || !hasPrefix(in.Warnings, `column 1 ("f1") holds text`) {
		t.Errorf("no header: %+v", in)
	}
}

// The patient ID first, the diagnosis, a text column, then measurements
// whose last has a different value in every row: the IDs are the sample
// IDs, the diagnosis the label, the text column left out.
func TestInspectClinicRoles(t *testing.T) {
	clinic := "patient,diagnosis,site,age,marker\nP1,tumor,north,61,2.5\nP2,normal,south,45,1.0\nP3,tumor,south,70,3.1\nP4,normal,north,38,0.9\n"
	in := inspect(t, clinic, api.Data{})
	if in.ID != "patient" || in.Label != "diagnosis" || !reflect.DeepEqual(in.Ignore, []string{"site"}) || in.Dataset.Features != 2 || in.Dataset.ID != "patient" {
		t.Errorf("roles: id %q label %q ignore %q, %d features; warnings %q", in.ID, in.Label, in.Ignore, in.Dataset.Features, in.Warnings)
	}
	if !hasPrefix(in.Warnings, `column 1 ("patient") holds a different text in every row ("P1", …): it is read as the samples' IDs`) ||
		!hasPrefix(in.Warnings, `column 3 ("site") holds text, not numbers: left out`) {
		t.Errorf("warnings %q", in.Warnings)
	}
	if sel := selectWith(t, clinic, in); len(sel.Scores) != 2 {
		t.Errorf("selection scores %v, want 2", sel.Scores)
	}
	// Chosen by the request, the label stays; text columns are still
	// proposed as IDs or left out.
	in = inspect(t, clinic, api.Data{Label: "site"})
	if in.Label != "" || in.ID != "patient" || !reflect.DeepEqual(in.Ignore, []string{"diagnosis"}) {
		t.Errorf("label site: id %q label %q ignore %q", in.ID, in.Label, in.Ignore)
	}
	// A label chosen with a different value in every row: with the text
	// columns set aside, that is the problem named.
	_, err := Run(context.Background(), &api.Request{Op: api.OpInspect, Data: api.Data{Label: "marker"}}, Input{Raw: []byte(clinic)}, nil)
	if err == nil || !strings.Contains(err.Error(), "every class has one sample") {
		t.Errorf("label marker: %v", err)
	}
	// A whole-number column named like an ID is the sample IDs.
	in = inspect(t, "patient_id,age,marker,class\n101,61,2.5,x\n102,45,1.0,y\n107,70,3.1,x\n103,38,0.9,y\n", api.Data{})
	if in.ID != "patient_id" || in.Dataset.Features != 2 {
		t.Errorf("numeric ID: id %q, %d features", in.ID, in.Dataset.Features)
	}
}

// A last column of numbers with a different value in every row is read as
// a measurement to predict; one with many values is flagged.
func TestInspectContinuous(t *testing.T) {
	csv := "a,b,level\n1,2,0.5\n3,4,1.25\n5,6,2.5\n7,8,3\n"
	in := inspect(t, csv, api.Data{})
	if in.Label != "none" || !reflect.DeepEqual(in.Targets, []string{"level"}) || !hasPrefix(in.Warnings, `the last column, "level", holds a different number in every row`) {
		t.Errorf("unique numbers: label %q targets %q warnings %q", in.Label, in.Targets, in.Warnings)
	}
	selectWith(t, csv, in)
	var b strings.Builder
	b.WriteString("a,b,level\n")
	for i := 0; i < 40; i++ {
		b.WriteString(strings.Repeat("1,", 1) + "2," + []string{"0.5", "1.5", "2.5", "3.5"}[i%4] + "\n")
	}
	if in := inspect(t, b.String(), api.Data{}); !in.Continuous || in.Label != "" {
		t.Errorf("non-whole labels: continuous %v label %q", in.Continuous, in.Label)
	}
	if in := inspect(t, "a,b,class\n1,2,1\n3,4,2\n5,6,3\n7,8,1\n9,1,2\n2,2,3\n", api.Data{}); in.Continuous {
		t.Error("three whole-number classes flagged as a measurement")
	}
}

// A genes × samples export with a row of classes is read transposed.
func TestInspectFeaturesInRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("gene,S1,S2,S3,S4,S5,S6\nclass,a,b,a,b,a,b\n")
	for g := 1; g <= 8; g++ {
		b.WriteString("g" + string(rune('0'+g)) + ",1,2,3,4,5," + string(rune('0'+g)) + "\n")
	}
	in := inspect(t, b.String(), api.Data{})
	if !in.Transpose || in.Label != "class" || in.ID != "gene" || in.Dataset.Samples != 6 || in.Dataset.Features != 8 {
		t.Errorf("transposed: %v label %q id %q, %d × %d; warnings %q", in.Transpose, in.Label, in.ID, in.Dataset.Samples, in.Dataset.Features, in.Warnings)
	}
	if sel := selectWith(t, b.String(), in); len(sel.Scores) != 8 {
		t.Errorf("%d scores, want 8", len(sel.Scores))
	}
}

// A genes × samples table without a row of classes reads as it stands —
// gene names as IDs, the last sample's values (−2, 0, 2: a copy-number
// call) as three classes —, which the inspection questions; a clinic's
// table of patients with a diagnosis does not get the question.
func TestInspectRowsLookLikeFeatures(t *testing.T) {
	var b strings.Builder
	b.WriteString("gene,S1,S2\n")
	for g := 0; g < 20; g++ {
		fmt.Fprintf(&b, "g%d,%.2f,%d\n", g, float64(g%7)/3, []int{-2, 0, 2}[g%3])
	}
	in := inspect(t, b.String(), api.Data{})
	if in.ID != "gene" || !hasPrefix(in.Warnings, "the file has 21 rows and 3 columns, and its first column names every row differently") {
		t.Errorf("id %q, warnings %q", in.ID, in.Warnings)
	}
	b.Reset()
	b.WriteString("patient,diagnosis,age\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "P%d,%s,%d\n", i, []string{"a", "b"}[i%2], 40+i)
	}
	if in := inspect(t, b.String(), api.Data{}); hasPrefix(in.Warnings, "the file has") {
		t.Errorf("a clinic's table questioned: %q", in.Warnings)
	}
}

// A slip in a numeric column (one cell of text) leaves the column out and
// says where the cell is, so that it can be corrected.
func TestInspectTypingSlip(t *testing.T) {
	in := inspect(t, "a,b,class\n1,2,x\n3,4o,y\n5,6,x\n7,8,y\n", api.Data{})
	if !reflect.DeepEqual(in.Ignore, []string{"b"}) || !hasPrefix(in.Warnings, `column 2 ("b") holds text in 1 of 4 rows ("4o" on line 3): left out of the features; correct the cell to use it`) {
		t.Errorf("ignore %q, warnings %q", in.Ignore, in.Warnings)
	}
}
