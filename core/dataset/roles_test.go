package dataset

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A clinic's export: the patient ID first, the diagnosis second, a text
// column, then numbers. The expected values are the file's own cells.
const clinic = `patient,diagnosis,site,age,marker
P001,tumor,north,61,2.5
P002,normal,south,48,1.0
P003,tumor,south,55,3.5
P004,normal,north,70,0.5
`

func TestIDAndIgnoredColumns(t *testing.T) {
	ds := mustParse(t, clinic, Options{Label: "diagnosis", ID: "patient", Ignore: []string{"site"}})
	if !reflect.DeepEqual(ds.Features, []string{"age", "marker"}) {
		t.Errorf("features %q, want age, marker", ds.Features)
	}
	if !reflect.DeepEqual(ds.IDs, []string{"P001", "P002", "P003", "P004"}) || ds.IDColumn != 1 || ds.IDName != "patient" {
		t.Errorf("IDs %q (column %d, %q)", ds.IDs, ds.IDColumn, ds.IDName)
	}
	if !reflect.DeepEqual(ds.Ignored, []int{3}) {
		t.Errorf("ignored %v, want [3]", ds.Ignored)
	}
	if want := []float64{61, 2.5, 48, 1, 55, 3.5, 70, 0.5}; !reflect.DeepEqual(ds.X.RawMatrix().Data, want) {
		t.Errorf("X %v, want %v", ds.X.RawMatrix().Data, want)
	}
	if !reflect.DeepEqual(ds.Classes, []string{"normal", "tumor"}) || !reflect.DeepEqual(ds.Y, []int{1, 0, 1, 0}) {
		t.Errorf("classes %q y %v", ds.Classes, ds.Y)
	}
	var b strings.Builder
	if err := ds.WriteCSV(&b, []int{1}); err != nil {
		t.Fatal(err)
	}
	want := "patient,marker,diagnosis\nP001,2.5,tumor\nP002,1,normal\nP003,3.5,tumor\nP004,0.5,normal\n"
	if b.String() != want {
		t.Errorf("reduced CSV\n%s\nwant\n%s", b.String(), want)
	}
}

func TestRolesRefused(t *testing.T) {
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Label: "diagnosis", ID: "diagnosis"}, `column 2 ("diagnosis") cannot be both the label and the sample IDs`},
		{Options{Label: "diagnosis", ID: "patient", Ignore: []string{"site", "3"}}, "named twice among the columns left out"},
		{Options{Label: "diagnosis", ID: "nobody"}, `no column is named "nobody"`},
		{Options{Label: "diagnosis", ID: "patient", Ignore: []string{"site", "age", "marker"}}, "no feature columns are left"},
	} {
		_, err := Parse([]byte(clinic), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
		}
	}
}

// The same table written with its features in rows (transposed by hand)
// reads to the same Dataset.
func TestTranspose(t *testing.T) {
	const rows = `gene,S1,S2,S3,S4
class,a,b,a,b
g1,1,2,3,4
g2,5,6,7,8
`
	const cols = `gene,class,g1,g2
S1,a,1,5
S2,b,2,6
S3,a,3,7
S4,b,4,8
`
	for _, format := range []string{"csv", "xlsx"} {
		raw := []byte(rows)
		if format == "xlsx" {
			raw = sheetOf(rows)
		}
		got, err := Parse(raw, Options{Transpose: true, Label: "class", ID: "gene"})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		want := mustParse(t, cols, Options{Label: "class", ID: "gene"})
		if !reflect.DeepEqual(got.X.RawMatrix().Data, want.X.RawMatrix().Data) || !reflect.DeepEqual(got.Features, want.Features) ||
			!reflect.DeepEqual(got.Y, want.Y) || !reflect.DeepEqual(got.IDs, want.IDs) || !reflect.DeepEqual(got.Columns, want.Columns) {
			t.Errorf("%s: transposed read %q %v %v %q, want %q %v %v %q", format, got.Features, got.X.RawMatrix().Data, got.Y, got.IDs,
				want.Features, want.X.RawMatrix().Data, want.Y, want.IDs)
		}
	}
	// A cell that is not a number is placed in the file: line 4 ("g2"),
	// column 3 (S2).
	_, err := Parse([]byte(strings.Replace(rows, "g2,5,6", "g2,5,x6", 1)), Options{Transpose: true, Label: "class", ID: "gene"})
	var e *Error
	if !errors.As(err, &e) || e.Line != 4 || e.Column != 3 || !strings.Contains(err.Error(), `"g2"`) {
		t.Errorf("error %v, want line 4, column 3, naming g2", err)
	}
	if _, err := Parse([]byte("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n"), Options{Transpose: true}); err == nil {
		t.Error("an ARFF file was read transposed")
	}
}

const withNA = `a,b,c,class
1,2,3,x
4,NA,6,y
7,8,,x
10,11,12,y
13,14,15,x
`

func TestDropFeatures(t *testing.T) {
	ds := mustParse(t, withNA, Options{Missing: DropFeatures})
	if !reflect.DeepEqual(ds.Features, []string{"a"}) || !reflect.DeepEqual(ds.X.RawMatrix().Data, []float64{1, 4, 7, 10, 13}) {
		t.Errorf("features %q X %v, want a: 1 4 7 10 13", ds.Features, ds.X.RawMatrix().Data)
	}
	if ds.Missing != 0 || ds.MissingColumns != nil || !hasWarning(ds, `2 of 3 features have missing cells and are left out ("b", "c")`) {
		t.Errorf("missing %d %v, warnings %q", ds.Missing, ds.MissingColumns, ds.Warnings)
	}
	if _, err := Parse([]byte("a,class\n1,x\nNA,y\n2,x\n"), Options{Missing: DropFeatures}); err == nil || !strings.Contains(err.Error(), "none would be left") {
		t.Errorf("every feature missing: %v", err)
	}
}

func TestDropSamples(t *testing.T) {
	ds := mustParse(t, withNA+"16,17,18,NA\n", Options{Missing: DropSamples})
	if want := []float64{1, 2, 3, 10, 11, 12, 13, 14, 15}; !reflect.DeepEqual(ds.X.RawMatrix().Data, want) {
		t.Errorf("X %v, want %v", ds.X.RawMatrix().Data, want)
	}
	if !reflect.DeepEqual(ds.Y, []int{0, 1, 0}) || !hasWarning(ds, "3 of 6 samples have missing cells and are left out (line 3, line 4, line 7)") {
		t.Errorf("y %v warnings %q", ds.Y, ds.Warnings)
	}
	if _, err := Parse([]byte("a,class\n1,x\nNA,y\nNA,x\n"), Options{Missing: DropSamples}); err == nil || !strings.Contains(err.Error(), "fewer than two samples") {
		t.Errorf("one sample left: %v", err)
	}
}

func TestSurveyTextColumns(t *testing.T) {
	ds := mustParse(t, clinic, Options{Label: "site", Survey: true})
	want := []TextColumn{
		{Column: 1, Name: "patient", Cells: 4, Distinct: 4, Example: "P001", Line: 2},
		{Column: 2, Name: "diagnosis", Cells: 4, Distinct: 2, Example: "tumor", Line: 2},
	}
	if !reflect.DeepEqual(ds.Text, want) {
		t.Errorf("text columns %+v, want %+v", ds.Text, want)
	}
	if !math.IsNaN(ds.X.At(0, 0)) {
		t.Errorf("a text cell reads %v, want NaN", ds.X.At(0, 0))
	}
	if _, err := Parse([]byte(clinic), Options{Label: "site"}); err == nil {
		t.Error("text columns read without a survey")
	}
}

func hasWarning(ds *Dataset, w string) bool {
	for _, s := range ds.Warnings {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// sheetOf returns a workbook whose one sheet holds a small CSV table: its
// numbers as numbers, its text inline (at most 26 columns).
func sheetOf(csv string) []byte {
	var b strings.Builder
	b.WriteString("<worksheet><sheetData>")
	for i, line := range strings.Split(strings.TrimSpace(csv), "\n") {
		fmt.Fprintf(&b, `<row r="%d">`, i+1)
		for j, v := range strings.Split(line, ",") {
			ref := fmt.Sprintf("%c%d", 'A'+j, i+1)
			if _, err := strconv.ParseFloat(v, 64); err == nil {
				fmt.Fprintf(&b, `<c r="%s"><v>%s</v></c>`, ref, v)
			} else {
				fmt.Fprintf(&b, `<c r="%s" t="inlineStr"><is><t>%s</t></is></c>`, ref, v)
			}
		}
		b.WriteString("</row>")
	}
	b.WriteString("</sheetData></worksheet>")
	return workbookOf([]byte(b.String()), []byte("<sst/>"))
}

// A MAT-file's missing values (missing.mat, written by scipy 1.10.1's
// savemat: NaN in rows 2 and 3, columns 2 and 3) are left out as in a
// table; the options that name a table's columns are refused.
func TestMATMissing(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "formats", "missing.mat"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Parse(raw, Options{Missing: DropFeatures})
	if err != nil || !reflect.DeepEqual(ds.X.RawMatrix().Data, []float64{1, 4, 7, 10, 13}) || !reflect.DeepEqual(ds.Features, []string{"f1"}) {
		t.Fatalf("drop features: %v %v", err, ds)
	}
	ds, err = Parse(raw, Options{Missing: DropSamples})
	if err != nil || !reflect.DeepEqual(ds.X.RawMatrix().Data, []float64{1, 2, 3, 10, 11, 12, 13, 14, 15}) || !reflect.DeepEqual(ds.Y, []int{0, 1, 0}) ||
		!hasWarning(ds, "2 of 5 samples have missing cells and are left out (row 2, row 3)") {
		t.Fatalf("drop samples: %v %+v", err, ds)
	}
	for _, o := range []Options{{ID: "1"}, {Ignore: []string{"2"}}, {Transpose: true}} {
		if _, err := Parse(raw, o); err == nil || !strings.Contains(err.Error(), "a MATLAB file") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}
