package dataset

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"math"
	"testing"
)

// The fuzz tests: whatever the bytes, a reader returns a consistent dataset
// or an *Error with a short message, and never panics. Each has a seed
// corpus in testdata/fuzz/<name> (the files of testdata/formats and
// testdata/corpus in that format, written by writeSeeds in seeds_test.go).
// The limits are lowered so that a mutated size cannot make a run slow.

var fuzzLimits = Options{MaxBytes: 4 << 20, MaxCells: 1 << 18}

// checkRead checks what Read gave for one input.
func checkRead(t *testing.T, ds *Dataset, err error) {
	t.Helper()
	if err != nil {
		var de *Error
		if !errors.As(err, &de) {
			t.Fatalf("an error that is not a *dataset.Error: %v", err)
		}
		if msg := err.Error(); msg == "" || len(msg) > 1000 {
			t.Fatalf("a message of %d bytes: %.200q", len(msg), msg)
		}
		return
	}
	m, n := ds.X.Dims()
	if m < 2 || n < 1 || n != len(ds.Features) || len(ds.Columns) < n {
		t.Fatalf("inconsistent dataset: %d×%d, %d features, %d columns", m, n, len(ds.Features), len(ds.Columns))
	}
	if ds.Y != nil {
		if m != len(ds.Y) || len(ds.Classes) < 2 {
			t.Fatalf("%d samples, %d labels, %d classes", m, len(ds.Y), len(ds.Classes))
		}
		for _, y := range ds.Y {
			if y < 0 || y >= len(ds.Classes) {
				t.Fatalf("class index %d of %d", y, len(ds.Classes))
			}
		}
	}
	missing := 0
	for _, v := range ds.X.RawMatrix().Data {
		if math.IsInf(v, 0) {
			t.Fatal("an infinite value in X")
		}
		if math.IsNaN(v) {
			missing++
		}
	}
	if missing != ds.Missing {
		t.Fatalf("%d NaN cells, Missing = %d", missing, ds.Missing)
	}
}

func fuzzRead(t *testing.T, b []byte, format Format) {
	for _, opts := range []Options{fuzzLimits, {MaxBytes: fuzzLimits.MaxBytes, MaxCells: fuzzLimits.MaxCells, Missing: ImputeMean, PreviewRows: 3}} {
		opts.Format = format
		ds, err := Read(bytes.NewReader(b), opts)
		checkRead(t, ds, err)
	}
}

// FuzzParse reads any bytes with the format detected (delimited text, most
// of the time).
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a,b,c\n1,2,x\n3,4,y\n", "1;2;0\n3;4;1\n", "\"a\",b\n1,\"x\"\"\"\n", "\x1f\x8b", "a\tb\n1\tNA\n2\t3\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRead(t, b, FormatAuto) })
}

// FuzzCSV reads any bytes as delimited text.
func FuzzCSV(f *testing.F) {
	f.Add([]byte("a,b,label\n1,2,x\n3,4,y\n"))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRead(t, b, CSV) })
}

// FuzzARFF reads any bytes as ARFF.
func FuzzARFF(f *testing.F) {
	f.Add([]byte("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n{0 3}\n"))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRead(t, b, ARFF) })
}

// FuzzLIBSVM reads any bytes as LIBSVM.
func FuzzLIBSVM(f *testing.F) {
	f.Add([]byte("1 1:0.5 3:2\n-1 qid:3 2:1 # c\n"))
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRead(t, b, LIBSVM) })
}

// FuzzMAT reads any bytes as a MAT-file.
func FuzzMAT(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRead(t, b, MAT) })
}

// FuzzXLSX reads a workbook built around a fuzzed worksheet and shared
// string table (a fuzzed ZIP archive would rarely get past its checksums).
func FuzzXLSX(f *testing.F) {
	f.Add([]byte(`<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>b</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>1</v></c></row><row r="4"><c r="A4" t="b"><v>1</v></c><c r="B4" t="str"><v>y</v></c></row></sheetData></worksheet>`),
		[]byte(`<sst><si><t>a</t></si><si><r><t>x</t></r><rPh><t>p</t></rPh></si></sst>`))
	f.Fuzz(func(t *testing.T, sheet, shared []byte) {
		fuzzRead(t, workbookOf(sheet, shared), FormatAuto)
	})
}

// workbookOf returns an XLSX file with one worksheet and a shared string
// table of the given XML.
func workbookOf(sheet, shared []byte) []byte {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	add := func(name string, text []byte) {
		w, _ := z.Create(name)
		w.Write(text)
	}
	add("_rels/.rels", []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`))
	add("xl/workbook.xml", []byte(`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`))
	add("xl/_rels/workbook.xml.rels", []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`))
	add("xl/worksheets/sheet1.xml", sheet)
	add("xl/sharedStrings.xml", shared)
	z.Close()
	return buf.Bytes()
}

// partOf returns the named part of an XLSX file, for the seeds.
func partOf(xlsx []byte, name string) []byte {
	z, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		return nil
	}
	for _, f := range z.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				return nil
			}
			defer rc.Close()
			b, _ := io.ReadAll(rc)
			return b
		}
	}
	return nil
}
