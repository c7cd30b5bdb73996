package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"sparsefs/core/internal/testdata"
)

func mustParse(t *testing.T, text string, opts Options) *Dataset {
	t.Helper()
	ds, err := Parse([]byte(text), opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return ds
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// The same 3×2 table written in every supported way must read identically.
func TestReadFormats(t *testing.T) {
	want := []float64{1.5, 2, 3, -4, 5e-3, 6}
	cases := map[string]string{
		"comma":               "a,b,class\n1.5,2,x\n3,-4,y\n5e-3,6,x\n",
		"semicolon":           "a;b;class\n1.5;2;x\n3;-4;y\n5e-3;6;x\n",
		"tab":                 "a\tb\tclass\n1.5\t2\tx\n3\t-4\ty\n5e-3\t6\tx\n",
		"crlf":                "a,b,class\r\n1.5,2,x\r\n3,-4,y\r\n5e-3,6,x\r\n",
		"bom":                 "\xef\xbb\xbfa,b,class\n1.5,2,x\n3,-4,y\n5e-3,6,x\n",
		"quoted":              "\"a\",\"b\",\"class\"\n\"1.5\",2,\"x\"\n3,\"-4\",y\n5e-3,6,\"x\"\n",
		"no final newline":    "a,b,class\n1.5,2,x\n3,-4,y\n5e-3,6,x",
		"blank lines":         "a,b,class\n\n1.5,2,x\n\n3,-4,y\n5e-3,6,x\n\n",
		"spaces":              "a, b, class\n 1.5 , 2 , x\n3,-4,y\n5e-3,6,x\n",
		"decimal comma":       "a;b;class\n1,5;2;x\n3;-4;y\n0,005;6;x\n",
		"quoted delim in hdr": "a,b,\"class, final\"\n1.5,2,x\n3,-4,y\n5e-3,6,x\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			ds := mustParse(t, text, Options{})
			if got := ds.X.RawMatrix().Data; !reflect.DeepEqual(got, want) {
				t.Errorf("X = %v, want %v", got, want)
			}
			if !reflect.DeepEqual(ds.Features, []string{"a", "b"}) {
				t.Errorf("features = %q", ds.Features)
			}
			if !reflect.DeepEqual(ds.Classes, []string{"x", "y"}) || !reflect.DeepEqual(ds.Y, []int{0, 1, 0}) {
				t.Errorf("classes %q, y %v", ds.Classes, ds.Y)
			}
			if !ds.Header {
				t.Error("header not detected")
			}
		})
	}
	t.Run("gzip", func(t *testing.T) {
		ds := mustParse(t, string(gz([]byte(cases["comma"]))), Options{})
		if got := ds.X.RawMatrix().Data; !reflect.DeepEqual(got, want) {
			t.Errorf("X = %v, want %v", got, want)
		}
	})
}

func TestDelimiterDetected(t *testing.T) {
	for text, want := range map[string]rune{
		"1,2,0\n3,4,1\n":       ',',
		"1;2;0\n3;4;1\n":       ';',
		"1\t2\t0\n3\t4\t1\n":   '\t',
		"1,5;2;0\n3;4,25;1\n":  ';', // decimal commas vary per line; semicolons do not
		"\"a;b\",c,d\n1,2,0\n": ',', // a quoted semicolon is not a delimiter
	} {
		if got := sniffDelimiter([]byte(text), true); got != want {
			t.Errorf("sniffDelimiter(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestHeaderless(t *testing.T) {
	ds := mustParse(t, "1,2,0\n3,4,1\n", Options{})
	if ds.Header {
		t.Fatal("a numeric first row was taken for a header")
	}
	if !reflect.DeepEqual(ds.Features, []string{"f1", "f2"}) || ds.Label != "f3" || ds.Rows() != 2 {
		t.Errorf("features %q label %q rows %d", ds.Features, ds.Label, ds.Rows())
	}
	// Forced header on the same text: one data row left, one class.
	if _, err := Parse([]byte("1,2,0\n3,4,1\n5,6,0\n"), Options{Header: HeaderYes}); err != nil {
		t.Errorf("forced header: %v", err)
	}
	// Forced no-header on a text header: the header row is then data and
	// its text cell is an error naming line 1.
	_, err := Parse([]byte("a,b,c\n1,2,0\n3,4,1\n"), Options{Header: HeaderNo})
	wantError(t, err, 1, 1, `"a" is not a number`)
}

func TestLabelColumn(t *testing.T) {
	// No column has a distinct value in every row: such a label is refused.
	text := "id,Diagnosis,g1,g2\n1,0,0.5,3\n2,1,0.7,1\n1,0,0.1,3\n"
	for label, wantLabel := range map[string]string{"Diagnosis": "Diagnosis", "diagnosis": "Diagnosis", "2": "Diagnosis", "first": "id", "last": "g2", "": "g2"} {
		ds := mustParse(t, text, Options{Label: label})
		if ds.Label != wantLabel {
			t.Errorf("Label %q: got column %q, want %q", label, ds.Label, wantLabel)
		}
	}
	text = strings.NewReplacer(",0,", ",B,", ",1,", ",M,").Replace(text)
	ds := mustParse(t, text, Options{Label: "Diagnosis"})
	if !reflect.DeepEqual(ds.Classes, []string{"B", "M"}) {
		t.Errorf("classes %q", ds.Classes)
	}
	if !reflect.DeepEqual(ds.Features, []string{"id", "g1", "g2"}) || ds.LabelColumn != 2 {
		t.Errorf("features %q label column %d", ds.Features, ds.LabelColumn)
	}
	if got := ds.X.RawRowView(1); !reflect.DeepEqual(got, []float64{2, 0.7, 1}) {
		t.Errorf("row 2 = %v", got)
	}
	_, err := Parse([]byte(text), Options{Label: "diag"})
	if err == nil || !strings.Contains(err.Error(), `no column is named "diag"`) || !strings.Contains(err.Error(), `"Diagnosis"`) {
		t.Errorf("unknown label name: %v", err)
	}
	_, err = Parse([]byte(text), Options{Label: "9"})
	if err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("label number out of range: %v", err)
	}
}

// Classes sort numerically when every label is a number (so 10 follows 9
// and −1 precedes 1), lexicographically otherwise (docs/methods.md#labels).
func TestEncodeLabels(t *testing.T) {
	for _, c := range []struct {
		in      []string
		classes []string
		y       []int
	}{
		{[]string{"1", "-1", "1", "-1"}, []string{"-1", "1"}, []int{1, 0, 1, 0}},
		{[]string{"10", "9", "2", "1"}, []string{"1", "2", "9", "10"}, []int{3, 2, 1, 0}},
		{[]string{"2.5", "1e1", "0"}, []string{"0", "2.5", "1e1"}, []int{1, 2, 0}},
		{[]string{"b", "a", "B", "10", "9"}, []string{"10", "9", "B", "a", "b"}, []int{4, 3, 2, 0, 1}},
	} {
		classes, y := EncodeLabels(c.in)
		if !reflect.DeepEqual(classes, c.classes) || !reflect.DeepEqual(y, c.y) {
			t.Errorf("EncodeLabels(%q) = %q, %v; want %q, %v", c.in, classes, y, c.classes, c.y)
		}
	}
}

func wantError(t *testing.T, err error, line, col int, fragment string) {
	t.Helper()
	var de *Error
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want a *dataset.Error containing %q", err, fragment)
	}
	if de.Line != line || de.Column != col || !strings.Contains(de.Error(), fragment) {
		t.Errorf("got %q (line %d, column %d), want line %d, column %d and %q", de.Error(), de.Line, de.Column, line, col, fragment)
	}
}

// Every bad input gets a message naming where the problem is.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name, text string
		line, col  int
		fragment   string
	}{
		{"empty", "", 0, 0, "the file is empty"},
		{"whitespace only", " \n\r\n\t\n", 0, 0, "the file is empty"},
		{"header only", "a,b,label\n", 0, 0, "no data rows"},
		{"ragged short", "a,b,label\n1,2,x\n3,y\n5,6,x\n", 3, 0, "this row has 2 fields but the header has 3"},
		{"ragged long", "a,b,label\n1,2,x\n3,4,y,9\n", 3, 0, "has 4 fields"},
		{"non-numeric", "a,b,label\n1,2,x\n3,abc,y\n", 3, 2, `column 2 ("b"): "abc" is not a number`},
		{"infinite", "a,b,label\n1,2,x\n3,Inf,y\n", 3, 2, "infinite"},
		{"one class", "a,b,label\n1,2,x\n3,4,x\n", 0, 3, `same class "x"`},
		{"single column", "label\nx\ny\n", 1, 0, "single column"},
		{"missing label", "a,b,label\n1,2,x\n3,4,\n", 3, 3, "class label is missing"},
		{"bare quote", "a,b,label\n1,2\"3,x\n", 2, 2, "double quote"},
		{"unclosed quote", "a,b,label\n1,\"2,x\n", 2, 2, "never closed"},
		{"single data row", "a,b,label\n1,2,x\n", 0, 0, "single data row"},
		{"missing rejected", "a,b,label\n1,2,x\n3,NA,y\n,5,x\n", 3, 2, "2 missing value(s)"},
		{"binary", "ab\x00cd,1\n", 1, 1, "binary"},
		{"zip", "PK\x03\x04\x00\x00garbage", 0, 0, "ZIP archive that cannot be opened"},
		{"bad gzip", "\x1f\x8b\x08garbage", 0, 0, "gzip"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.text), Options{})
			wantError(t, err, c.line, c.col, c.fragment)
		})
	}
}

func TestMissingImputeKept(t *testing.T) {
	ds := mustParse(t, "a,b,label\n1,2,x\n3,NA,y\n,5,x\n7,n/a,y\n", Options{Missing: ImputeMean})
	if ds.Missing != 3 || !reflect.DeepEqual(ds.MissingColumns, []int{0, 1}) {
		t.Fatalf("missing %d in %v", ds.Missing, ds.MissingColumns)
	}
	if !math.IsNaN(ds.X.At(1, 1)) || !math.IsNaN(ds.X.At(2, 0)) {
		t.Error("missing cells are not NaN")
	}
}

func TestPreviewAndWarnings(t *testing.T) {
	ds := mustParse(t, "a,a,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n", Options{PreviewRows: 2})
	if !reflect.DeepEqual(ds.Preview, [][]string{{"1", "2", "x"}, {"3", "4", "y"}}) {
		t.Errorf("preview %q", ds.Preview)
	}
	if len(ds.Warnings) != 1 || !strings.Contains(ds.Warnings[0], "both named") {
		t.Errorf("warnings %q", ds.Warnings)
	}
}

// The shared datasets: sizes and class counts as the data README states.
func TestSharedData(t *testing.T) {
	for _, c := range []struct {
		file    string
		m, n    int
		classes []string
	}{
		{"colon.csv.gz", 62, 2000, []string{"-1", "1"}},
		{"GLIOMA.csv.gz", 50, 4434, []string{"1", "2", "3", "4"}},
		{"lung_discrete.csv.gz", 73, 325, []string{"1", "2", "3", "4", "5", "6", "7"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			f, err := os.Open(testdata.Path(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ds, err := Read(f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if m, n := ds.X.Dims(); m != c.m || n != c.n || !reflect.DeepEqual(ds.Classes, c.classes) {
				t.Errorf("%d×%d, classes %q; want %d×%d, %q", m, n, ds.Classes, c.m, c.n, c.classes)
			}
		})
	}
}

// Target columns are read as numbers beside the features; with label
// "none" there are no classes.
func TestTargets(t *testing.T) {
	text := "f1,y1,f2,y2,class\n1,0.5,2,-1,a\n3,1.5,4,-2,b\n5,2.5,6,-3,a\n"
	ds := mustParse(t, text, Options{Targets: []string{"y1", "4"}})
	if !reflect.DeepEqual(ds.Features, []string{"f1", "f2"}) || !reflect.DeepEqual(ds.X.RawMatrix().Data, []float64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("features %q X %v", ds.Features, ds.X.RawMatrix().Data)
	}
	if !reflect.DeepEqual(ds.TargetNames, []string{"y1", "y2"}) || !reflect.DeepEqual(ds.TargetColumns, []int{2, 4}) ||
		!reflect.DeepEqual(ds.Targets.RawMatrix().Data, []float64{0.5, -1, 1.5, -2, 2.5, -3}) {
		t.Errorf("targets %q %v %v", ds.TargetNames, ds.TargetColumns, ds.Targets.RawMatrix().Data)
	}
	if !reflect.DeepEqual(ds.Y, []int{0, 1, 0}) || ds.Rows() != 3 {
		t.Errorf("labels %v rows %d", ds.Y, ds.Rows())
	}
	none := mustParse(t, "f1,y\n1,2\n3,4\n", Options{Label: "none", Targets: []string{"y"}})
	if none.Y != nil || none.Classes != nil || none.Rows() != 2 || none.Label != "" || none.Targets.At(1, 0) != 4 {
		t.Errorf("label none: %+v", none)
	}
	for _, c := range []struct {
		text string
		opts Options
		frag string
	}{
		{"f1,y\n1,2\n3,4\n", Options{Label: "none"}, "label none needs target columns"},
		{"f1,y,c\n1,2,a\n3,4,b\n", Options{Targets: []string{"c"}}, "both the label and a target"},
		{"f1,y,c\n1,2,a\n3,4,b\n", Options{Targets: []string{"y", "Y"}}, "named twice"},
		{"f1,y,c\n1,2,a\n3,4,b\n", Options{Targets: []string{"z"}}, `no column is named "z"`},
		{"f1,y,c\n1,2,a\n3,4,b\n", Options{Targets: []string{"9"}}, "target column 9 is out of range"},
		{"f1,y,c\n1,,a\n3,4,b\n", Options{Targets: []string{"y"}, Missing: ImputeMean}, "target value is missing"},
		{"f1,y,c\n1,x,a\n3,4,b\n", Options{Targets: []string{"y"}}, "a regression target must be a finite number"},
		{"y,c\n1,a\n3,b\n", Options{Targets: []string{"y"}}, "no feature columns"},
	} {
		_, err := Parse([]byte(c.text), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%q %+v: error %v, want %q", c.text, c.opts, err, c.frag)
		}
	}
}

// Spreadsheet column names (Excel's last column is XFD, its 16,384th), cell
// references, the cut of quoted values, number texts.
func TestHelpers(t *testing.T) {
	for j, want := range map[int]string{1: "A", 26: "Z", 27: "AA", 52: "AZ", 703: "AAA", 16384: "XFD"} {
		if got := ColumnLetters(j); got != want {
			t.Errorf("ColumnLetters(%d) = %q, want %q", j, got, want)
		}
		if col, row, ok := cellRef(want + "7"); !ok || col != j || row != 7 {
			t.Errorf("cellRef(%s7) = %d, %d, %v", want, col, row, ok)
		}
	}
	for _, bad := range []string{"", "A", "7", "a7", "XFE1", "A0", "A1048577", "A1B"} {
		if _, _, ok := cellRef(bad); ok {
			t.Errorf("cellRef(%q) accepted", bad)
		}
	}
	if got := quote(strings.Repeat("é", 50)); got != `"`+strings.Repeat("é", 16)+`"… (100 bytes)` {
		t.Errorf("quote = %s", got)
	}
	for v, want := range map[float64]string{1: "1", -2: "-2", 1e6: "1000000", 0.1: "0.1", 2.5e-7: "2.5e-07", 1e20: "1e+20", math.Copysign(0, -1): "0"} {
		if got := numberText(v); got != want {
			t.Errorf("numberText(%v) = %q, want %q", v, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1,023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 1 << 30: "1 GiB", 64 << 20: "64 MiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// The limits refuse a read where it passes them, with ErrLimit.
func TestLimits(t *testing.T) {
	text := "a,b,label\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n"
	_, err := Parse([]byte(text), Options{MaxCells: 9})
	wantError(t, err, 5, 0, "the table exceeds the limit of 9 cells (4 rows × 3 columns so far)")
	if !errors.Is(err, ErrLimit) {
		t.Errorf("%v does not wrap ErrLimit", err)
	}
	if _, err := Parse([]byte(text), Options{MaxCells: 12}); err != nil {
		t.Errorf("at the cell limit: %v", err)
	}
	_, err = Parse([]byte(text), Options{MaxBytes: 20})
	wantError(t, err, 0, 0, "the data exceed the limit of 20 bytes")
	if _, err := Parse([]byte(text), Options{MaxBytes: int64(len(text))}); err != nil {
		t.Errorf("at the byte limit: %v", err)
	}
	_, err = Parse(gz([]byte(text)), Options{MaxBytes: 20})
	wantError(t, err, 0, 0, "the data expand beyond the limit of 20 bytes when decompressed")
	if _, err := Parse([]byte(text), Options{MaxBytes: -1, MaxCells: -1}); err != nil {
		t.Errorf("no limits: %v", err)
	}
}
