package dataset

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// outcome is what a corpus file must give.
type outcome int

const (
	// refused: an error whose message holds the fragment (which names
	// the place where there is one).
	refused outcome = iota
	// warned: a dataset, and a warning holding the fragment.
	warned
	// accepted: a dataset without warnings.
	accepted
)

func (o outcome) String() string {
	return [...]string{"refused", "warned", "accepted"}[o]
}

// corpus lists the files of testdata/corpus (written by make.py there),
// each with its outcome at the default options unless opts says otherwise.
var corpus = []struct {
	file     string
	opts     Options
	want     outcome
	fragment string
}{
	// Delimited text: structure.
	{"empty.csv", Options{}, refused, "the file is empty"},
	{"blank-lines.csv", Options{}, refused, "the file is empty"},
	{"header-only.csv", Options{}, refused, "the file has a header but no data rows"},
	{"single-row.csv", Options{}, refused, "a single data row"},
	{"single-column.csv", Options{}, refused, "line 1: found a single column (delimiter comma)"},
	{"ragged-short.csv", Options{}, refused, "line 3: this row has 2 fields but the header has 3"},
	{"ragged-long.csv", Options{}, refused, "line 3: this row has 4 fields but the header has 3"},
	{"trailing-comma.csv", Options{}, warned, "the rows end with a comma: the empty field after it is ignored"},
	{"duplicate-names.csv", Options{}, warned, `columns 1 and 2 are both named "a"`},
	{"missing-values.csv", Options{}, refused, `line 3, column 2 ("b"): 2 missing value(s)`},
	{"missing-values.csv", Options{Missing: ImputeMean}, accepted, ""},
	{"missing-label.csv", Options{}, refused, `line 3, column 3 ("label"): the class label is missing`},
	// Numbers.
	{"text-in-number.csv", Options{}, refused, `line 3, column 2 ("b"): "abc" is not a number`},
	{"out-of-range.csv", Options{}, refused, `line 2, column 1 ("a"): "1e400" is out of range`},
	{"infinite.csv", Options{}, refused, `line 3, column 2 ("b"): "-inf" is infinite`},
	{"hex-float.csv", Options{}, refused, `line 3, column 1 ("a"): "0x1p-2" is a hexadecimal number`},
	{"underscore.csv", Options{}, refused, `line 3, column 2 ("b"): "1_000" has an underscore between digits`},
	{"long-value.csv", Options{}, refused, `line 3, column 2 ("b"): "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"… (200 bytes) is not a number`},
	{"decimal-comma.csv", Options{}, accepted, ""},
	// Quotes.
	{"unterminated-quote.csv", Options{}, refused, "line 5, column 2: the quoted cell that opens here is never closed: the file ends on line 31"},
	{"bare-quote.csv", Options{}, refused, `line 2, column 2: a double quote (") appears inside an unquoted field`},
	{"text-after-quote.csv", Options{}, refused, "line 2, column 2: text follows the closing quote"},
	{"quoted-newline-label.csv", Options{}, accepted, ""},
	// Line ends and encodings.
	{"lone-cr.csv", Options{}, refused, "line 3, column 2: a carriage return (CR) alone ends the line here, where the lines before end with LF"},
	{"cr-only.csv", Options{}, accepted, ""},
	{"mixed-line-ends.csv", Options{}, accepted, ""},
	{"crlf.csv", Options{}, accepted, ""},
	{"tab.tsv", Options{}, accepted, ""},
	{"bom-utf8.csv", Options{}, accepted, ""},
	{"utf16le-bom.csv", Options{}, accepted, ""},
	{"utf16be-bom.csv", Options{}, accepted, ""},
	{"utf16-nobom.csv", Options{}, refused, "UTF-16 text (little-endian) without a byte-order mark"},
	{"nul-late.csv", Options{}, refused, "line 602, column 2: a NUL byte: this is binary data"},
	{"non-utf8-header.csv", Options{}, warned, "line 1, column 1: byte 0xF6 is not UTF-8: the header is read as Windows-1252"},
	{"non-utf8-label.csv", Options{}, warned, `line 2, column 3 ("label"): byte 0xFC of the label is not UTF-8`},
	// Headers and classes.
	{"numeric-header.csv", Options{}, warned, "the first row (1, 2, 3, …) numbers the columns: it is read as a header"},
	{"first-row-singleton.csv", Options{}, warned, `the first row was read as data, and its label "99" occurs in no other row`},
	{"label-spellings.csv", Options{}, warned, `the labels "01", "1", "1.0" are one number (1) written in 3 ways`},
	{"all-unique-labels.csv", Options{}, refused, `column 3 ("c"): 4 classes for 4 samples: every class has one sample`},
	{"singleton-classes.csv", Options{}, warned, `2 classes have a single sample ("y" on line 4, "z" on line 5)`},
	{"one-class.csv", Options{}, refused, `column 3 ("label"): every sample has the same class "x"`},
	// Files of other kinds, compressed or damaged.
	{"document.pdf", Options{}, refused, "this is a PDF document, not a data table"},
	{"workbook.xls", Options{}, refused, "an Excel 97–2003 workbook (.xls)"},
	{"data.h5", Options{}, refused, "an HDF5 file"},
	{"data.csv.bz2", Options{}, refused, "bzip2-compressed data"},
	{"binary.bin", Options{}, refused, "line 1, column 1: a NUL byte: this is binary data"},
	{"truncated.csv.gz", Options{}, refused, "the gzip-compressed data end early: the file is truncated"},
	{"corrupt.csv.gz", Options{}, refused, "the gzip-compressed data are damaged"},
	{"twice.csv.gz.gz", Options{}, accepted, ""},
	// Workbooks.
	{"xlsx-shared-gaps.xlsx", Options{}, refused, `sheet "S1", cell B5 ("bee"): 1 missing value(s)`},
	{"xlsx-shared-gaps.xlsx", Options{Missing: ImputeMean}, accepted, ""},
	{"xlsx-error-cell.xlsx", Options{}, refused, `sheet "S1", cell B3 ("bee"): the cell holds the error value "#DIV/0!"`},
	{"xlsx-outside-cell.xlsx", Options{}, refused, `sheet "S1", cell F3: this cell lies outside the table, which spans columns A to C`},
	{"xlsx-bad-shared.xlsx", Options{}, refused, `sheet "S1", cell C2: the cell refers to shared string "99"`},
	{"xlsx-bad-xml.xlsx", Options{}, refused, "the workbook's part xl/worksheets/sheet1.xml is not valid XML"},
	{"xlsx-no-sheets.xlsx", Options{}, refused, "the workbook has no worksheet"},
	{"xlsx-empty-sheet.xlsx", Options{}, refused, "the file is empty"},
	{"not-a-workbook.zip", Options{}, refused, "a ZIP archive but not an Excel workbook"},
	{"spreadsheet.ods", Options{}, refused, "an OpenDocument spreadsheet (.ods)"},
	{"truncated.xlsx", Options{}, refused, "a ZIP archive that cannot be opened"},
	// ARFF.
	{"arff-no-data.arff", Options{}, refused, "the ARFF file has no @data section"},
	{"arff-bad-nominal.arff", Options{}, refused, `line 8, column 2 ("color"): "purple" is not one of the attribute's values ("red", "green")`},
	{"arff-bad-number.arff", Options{}, refused, `line 7, column 2 ("b"): "1e999" is out of range`},
	{"arff-string-feature.arff", Options{}, refused, `line 2, column 1 ("name"): a string attribute cannot be a feature`},
	{"arff-relational.arff", Options{}, refused, "line 2: relational attributes"},
	{"arff-wrong-count.arff", Options{}, refused, "line 7: this row has 2 values but the header declares 3 attributes"},
	{"arff-weights.arff", Options{}, warned, "instance weights {w} are ignored"},
	{"arff-nominal-feature.arff", Options{}, warned, `attribute 2 ("color") is nominal: its values "red", "green", "blue" are read as their positions 0…2`},
	{"arff-unclosed-quote.arff", Options{}, refused, "line 5: a quoted value that opens with ' is never closed on its line"},
	{"arff-sparse-bad-index.arff", Options{}, refused, `line 7: sparse index "7" is not an attribute's (0 to 2)`},
	{"arff-quoted-names.arff", Options{Missing: ImputeMean}, accepted, ""},
	// LIBSVM.
	{"libsvm-zero-index.libsvm", Options{}, refused, "line 1: feature index 0: LIBSVM's indices start at 1"},
	{"libsvm-duplicate.libsvm", Options{}, refused, "line 1: feature 3 is given twice"},
	{"libsvm-multilabel.libsvm", Options{}, refused, `line 1: the label "1,2" holds several labels (the multi-label format)`},
	{"libsvm-bad-value.libsvm", Options{}, refused, `line 1: feature 2: "abc" is not a number`},
	{"libsvm-label-text.libsvm", Options{}, refused, `line 1: label "yes" is not a number`},
	{"libsvm-unsorted.libsvm", Options{}, accepted, ""},
	{"libsvm-huge-index.libsvm", Options{}, refused, "line 1: the table exceeds the limit of 50,000,000 cells (1 rows × 4,000,000,001 columns so far)"},
	// MAT-files.
	{"v73.mat", Options{}, refused, "a MATLAB v7.3 MAT-file, an HDF5 file, which sparsefs cannot read: in MATLAB, save it again as version 7 with save('f.mat','X','Y','-v7')"},
	{"mat-truncated.mat", Options{}, refused, `variable "Y": the values are cut short: the file ends there (it is truncated)`},
	{"mat-no-y.mat", Options{}, refused, `the file has no variable "Y" (the labels, one per sample); its variables are "X"`},
	{"mat-y-length.mat", Options{}, refused, `variable "Y": 3 labels for the 4 rows (samples) of X`},
	{"mat-transposed.mat", Options{}, refused, `variable "Y": 4 labels for the 2 rows (samples) of X: X has one column per label; if its rows are the features, transpose it`},
	{"mat-nan.mat", Options{}, refused, `variable "X", row 1, column 2: 1 missing value(s) (NaN)`},
	{"mat-nan.mat", Options{Missing: ImputeMean}, accepted, ""},
	{"mat-inf.mat", Options{}, refused, `variable "X", row 2, column 2: the value is infinite`},
	{"mat-huge-dims.mat", Options{}, refused, `variable "X": the table exceeds the limit of 50,000,000 cells (100,000 rows × 100,001 columns so far)`},
	{"mat-garbage.mat", Options{}, refused, "the file is damaged before its first variable"},
}

// checkOutcome checks a read's result against the corpus's expectation.
func checkOutcome(t *testing.T, ds *Dataset, err error, want outcome, fragment string) {
	t.Helper()
	switch want {
	case refused:
		var de *Error
		if !errors.As(err, &de) {
			t.Fatalf("got %v (%v), want a *dataset.Error holding %q", err, ds, fragment)
		}
		if !strings.Contains(err.Error(), fragment) {
			t.Errorf("got %q, want %q in it", err, fragment)
		}
		if len(err.Error()) > 400 {
			t.Errorf("a message of %d bytes", len(err.Error()))
		}
	case warned, accepted:
		if err != nil {
			t.Fatalf("got %v, want a dataset", err)
		}
		if m, n := ds.X.Dims(); m != len(ds.Y) || n != len(ds.Features) || len(ds.Classes) < 2 {
			t.Fatalf("inconsistent dataset: %d×%d, %d labels, %d classes", m, n, len(ds.Y), len(ds.Classes))
		}
		found := false
		for _, w := range ds.Warnings {
			found = found || fragment != "" && strings.Contains(w, fragment)
		}
		if want == warned && !found || want == accepted && len(ds.Warnings) > 0 {
			t.Errorf("warnings %q, want %v %q", ds.Warnings, want, fragment)
		}
	}
}

// Every small file of the corpus gives its expected outcome; every file of
// the folder is in the list.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, c := range corpus {
		listed[c.file] = true
	}
	for _, f := range files {
		if base := filepath.Base(f); base != "make.py" && !listed[base] {
			t.Errorf("%s is not in the corpus table", base)
		}
	}
	if len(listed) < 60 {
		t.Errorf("the corpus has %d files; at least 60 are wanted", len(listed))
	}
	for _, c := range corpus {
		t.Run(c.file+"/"+c.want.String(), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "corpus", c.file))
			if err != nil {
				t.Fatal(err)
			}
			ds, err := Read(bytes.NewReader(raw), c.opts)
			checkOutcome(t, ds, err, c.want, c.fragment)
		})
	}
}

// peakHeap samples the heap's live objects while fn runs and returns the
// largest size seen (sampled every millisecond: an allocation of the sizes
// that matter here lives much longer than that).
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				read()
			}
		}
	}()
	fn()
	read()
	close(stop)
	wg.Wait()
	return peak.Load()
}

// gzipBomb returns a gzip file of about 13 MB that expands to 2 GiB of
// "1,2,3,0" lines, as in issue 14. Deflate blocks that refer to nothing
// before them can be repeated: one megabyte is compressed once, ended with
// a sync flush (which aligns it to a byte), and repeated 2,048 times before
// a final empty block.
func gzipBomb(t testing.TB) []byte {
	chunk := bytes.Repeat([]byte("1,2,3,0\n"), 1<<17) // 1 MiB
	var block bytes.Buffer
	fw, _ := flate.NewWriter(&block, flate.BestCompression)
	fw.Write(chunk)
	fw.Flush()
	const copies = 2048
	crc := uint32(0)
	for i := 0; i < copies; i++ {
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
	}
	var out bytes.Buffer
	out.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	for i := 0; i < copies; i++ {
		out.Write(block.Bytes())
	}
	out.Write([]byte{0x01, 0x00, 0x00, 0xff, 0xff}) // final stored block, empty
	binary.Write(&out, binary.LittleEndian, crc)
	binary.Write(&out, binary.LittleEndian, uint32(copies*len(chunk))) // 2³¹
	if out.Len() > 16<<20 {
		t.Fatalf("the bomb takes %d bytes", out.Len())
	}
	return out.Bytes()
}

// xlsxBomb returns a workbook whose sheet declares size bytes when
// decompressed (its deflate data expand to 2 GiB of blanks, built as
// gzipBomb's).
func xlsxBomb(t testing.TB, declared uint64) []byte {
	var block bytes.Buffer
	fw, _ := flate.NewWriter(&block, flate.BestCompression)
	fw.Write(bytes.Repeat([]byte(" "), 1<<20))
	fw.Flush()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	add := func(name, text string) {
		w, _ := z.Create(name)
		io.WriteString(w, text)
	}
	add("_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	add("xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	add("xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`)
	var data bytes.Buffer
	for i := 0; i < 2048; i++ {
		data.Write(block.Bytes())
	}
	data.Write([]byte{0x01, 0x00, 0x00, 0xff, 0xff})
	w, err := z.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CompressedSize64: uint64(data.Len()), UncompressedSize64: declared})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data.Bytes())
	z.Close()
	return buf.Bytes()
}

// The large inputs of the corpus, made here: each is refused early, and no
// read takes more than 1 GiB of heap at the default limits.
func TestCorpusLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	const bound = 1 << 30
	bomb := gzipBomb(t)
	var cell strings.Builder
	cell.WriteString("a,b,label\n1,2,x\n3,")
	cell.WriteString(strings.Repeat("z", 50<<20))
	cell.WriteString(",y\n5,6,x\n")
	var classes strings.Builder
	classes.WriteString("a,b,label\n")
	for i := 0; i < 100_000; i++ {
		classes.WriteString(strconv.Itoa(i) + "," + strconv.Itoa(i%7) + ",c" + strconv.Itoa(i) + "\n")
	}
	var pairs strings.Builder
	pairs.WriteString("a,b,label\n")
	for i := 0; i < 20_000; i++ {
		pairs.WriteString(strconv.Itoa(i) + "," + strconv.Itoa(i%7) + ",c" + strconv.Itoa(i/2) + "\n")
	}
	cases := []struct {
		name     string
		raw      []byte
		opts     Options
		want     outcome
		fragment string
	}{
		{"gzip bomb, cell limit", bomb, Options{}, refused, "the table exceeds the limit of 50,000,000 cells (12,500,001 rows × 4 columns so far) (the data expand"},
		{"gzip bomb, byte limit", bomb, Options{MaxBytes: 64 << 20}, refused, "the data expand beyond the limit of 64 MiB when decompressed (from"},
		{"50 MB cell", []byte(cell.String()), Options{}, refused, "line 3, column 2: a cell longer than 1 MiB"},
		{"100,000 classes", []byte(classes.String()), Options{}, refused, `column 3 ("label"): 100,000 classes for 100,000 samples: every class has one sample`},
		{"10,000 classes of 2 samples", []byte(pairs.String()), Options{}, warned, "10,000 classes for 20,000 samples, 2.0 a class on average"},
		{"workbook bomb, declared", xlsxBomb(t, 2<<30), Options{}, refused, "the workbook's part xl/worksheets/sheet1.xml declares 2 GiB when decompressed, beyond the limit of 1 GiB"},
		{"workbook bomb, understated", xlsxBomb(t, 1000), Options{}, refused, "the workbook's compressed data are damaged"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ds *Dataset
			var err error
			peak := peakHeap(func() { ds, err = Read(bytes.NewReader(c.raw), c.opts) })
			checkOutcome(t, ds, err, c.want, c.fragment)
			if c.want == refused && !errors.Is(err, ErrLimit) && strings.Contains(c.fragment, "limit") {
				t.Errorf("%v does not wrap ErrLimit", err)
			}
			t.Logf("peak heap %d MiB", peak>>20)
			if peak > bound {
				t.Errorf("peak heap %d MiB, above the bound of %d MiB", peak>>20, bound>>20)
			}
		})
	}
}

// cancelAfter cancels a context once n bytes have been read through it.
type cancelAfter struct {
	r      io.Reader
	n      int64
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= int64(k); c.n <= 0 {
		c.cancel()
	}
	return k, err
}

// A cancelled context stops a read that no limit would stop.
func TestReadCancelled(t *testing.T) {
	bomb := gzipBomb(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := ReadContext(ctx, &cancelAfter{r: bytes.NewReader(bomb), n: 64 << 10, cancel: cancel}, Options{MaxBytes: -1, MaxCells: -1})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	// Cancelled before it starts.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	_, err = ReadContext(ctx, strings.NewReader("a,b,c\n1,2,x\n3,4,y\n"), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
