package dataset_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/dataset"
	"sparsefs/core/internal/testdata"
	"sparsefs/core/selection"
)

// table is the table of testdata/formats/make.py, which wrote it in every
// format with writers independent of this package (Python's csv module,
// openpyxl, scipy.io.savemat, plain text checked by scipy.io.arff).
var table = struct {
	x       [][]float64
	classes []string
	y       []int
}{
	x: [][]float64{
		{0.5, 0, -2.25, 1e5, 3},
		{1.5, 0, 0, 2e-3, 0},
		{-1, 4, 0.125, 0, 7},
		{2, 0, 1, -3.5, 0},
		{0, 0, 0, 0, 1},
		{0.75, -8, 6, 12, 0},
		{3.25, 1, 0, 0.5, 2},
		{-0.5, 0, 9, 0, 0},
		{1, 2, 3, 4, 5},
		{0, 0.001, 0, -7, 0},
		{6, 0, -1, 0, 8},
		{2.5, 3, 0, 1.25, 0},
	},
	classes: []string{"1", "2", "3"},
	y:       []int{0, 0, 1, 1, 2, 2, 0, 1, 2, 0, 1, 2},
}

func readFile(t *testing.T, path string, opts dataset.Options) *dataset.Dataset {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Read(bytes.NewReader(raw), opts)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ds
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// The same table in every format gives the same Dataset, and so the same
// rankings.
func TestFormatsAgree(t *testing.T) {
	dir := filepath.Join("testdata", "formats")
	cases := []struct {
		file   string
		opts   dataset.Options
		format dataset.Format
	}{
		{"table.csv", dataset.Options{}, dataset.CSV},
		{"table.xlsx", dataset.Options{Sheet: "Data"}, dataset.XLSX},
		{"table.xlsx", dataset.Options{Sheet: "data"}, dataset.XLSX},
		{"table.arff", dataset.Options{}, dataset.ARFF},
		{"table_sparse.arff", dataset.Options{}, dataset.ARFF},
		{"table.libsvm", dataset.Options{}, dataset.LIBSVM},
		{"table.mat", dataset.Options{}, dataset.MAT},
		{"table_z.mat", dataset.Options{}, dataset.MAT},
		{"table.csv", dataset.Options{Format: dataset.CSV}, dataset.CSV},
		{"table.libsvm", dataset.Options{Format: dataset.LIBSVM}, dataset.LIBSVM},
	}
	var rankings [][]int
	for _, c := range cases {
		for _, gz := range []bool{false, true} {
			name := c.file
			if gz {
				name += ".gz"
			}
			t.Run(name, func(t *testing.T) {
				raw, err := os.ReadFile(filepath.Join(dir, c.file))
				if err != nil {
					t.Fatal(err)
				}
				if gz {
					raw = gzipped(raw)
				}
				ds, err := dataset.Read(bytes.NewReader(raw), c.opts)
				if err != nil {
					t.Fatal(err)
				}
				if ds.Format != c.format || ds.Compressed != gz {
					t.Errorf("format %v compressed %v, want %v %v", ds.Format, ds.Compressed, c.format, gz)
				}
				m, n := ds.X.Dims()
				if m != len(table.x) || n != 5 {
					t.Fatalf("%d×%d, want 12×5", m, n)
				}
				for i, row := range table.x {
					if got := ds.X.RawRowView(i); !reflect.DeepEqual(got, row) {
						t.Errorf("row %d = %v, want %v", i+1, got, row)
					}
				}
				if !reflect.DeepEqual(ds.Features, []string{"f1", "f2", "f3", "f4", "f5"}) {
					t.Errorf("features %q", ds.Features)
				}
				if !reflect.DeepEqual(ds.Classes, table.classes) || !reflect.DeepEqual(ds.Y, table.y) {
					t.Errorf("classes %q y %v", ds.Classes, ds.Y)
				}
				if len(ds.Warnings) != 0 {
					t.Errorf("warnings %q", ds.Warnings)
				}
				res, err := selection.Fisher{}.Fit(context.Background(), &selection.Problem{X: ds.X, Y: ds.Y, C: len(ds.Classes)}, nil)
				if err != nil {
					t.Fatal(err)
				}
				rankings = append(rankings, res.Ranking)
			})
		}
	}
	for i := 1; i < len(rankings); i++ {
		if !reflect.DeepEqual(rankings[i], rankings[0]) {
			t.Errorf("ranking %d = %v, the first %v", i, rankings[i], rankings[0])
		}
	}
}

// A workbook's sheets: by default the first that holds a table, with a
// warning naming each sheet skipped; another by name; an unknown name
// refused with the list; a workbook where no sheet reads refused with
// every sheet's problem.
func TestXLSXSheets(t *testing.T) {
	path := filepath.Join("testdata", "formats", "table.xlsx")
	raw, _ := os.ReadFile(path)
	// The first sheet, Notes, holds one line of text (make.py).
	_, err := dataset.Read(bytes.NewReader(raw), dataset.Options{Sheet: "Notes"})
	if err == nil || !strings.HasPrefix(err.Error(), `sheet "Notes"`) {
		t.Fatalf("sheet Notes: %v", err)
	}
	first := readFile(t, path, dataset.Options{})
	if first.Sheet != "Data" || len(first.Warnings) == 0 || first.Warnings[0] != err.Error()+" — this sheet is skipped" {
		t.Errorf("default: sheet %q, warnings %q", first.Sheet, first.Warnings)
	}
	if data := readFile(t, path, dataset.Options{Sheet: "Data"}); !mat.Equal(first.X, data.X) || !reflect.DeepEqual(first.Y, data.Y) {
		t.Error("the default read differs from sheet Data's")
	}
	_, err = dataset.Read(bytes.NewReader(raw), dataset.Options{Label: "no such column"})
	if err == nil || !strings.HasPrefix(err.Error(), `no sheet of the workbook holds a table that reads: sheet "Notes"`) || !strings.Contains(err.Error(), `; sheet "Data"`) {
		t.Errorf("no sheet reads: %v", err)
	}
	_, err = dataset.Read(bytes.NewReader(raw), dataset.Options{Sheet: "Results"})
	if err == nil || !strings.Contains(err.Error(), `no sheet named "Results"; its sheets are "Notes", "Data"`) {
		t.Errorf("unknown sheet: %v", err)
	}
	ds := readFile(t, path, dataset.Options{Sheet: "Data"})
	if ds.Sheet != "Data" || !reflect.DeepEqual(ds.Sheets, []string{"Notes", "Data"}) {
		t.Errorf("sheet %q of %q", ds.Sheet, ds.Sheets)
	}
}

// mixed.xlsx (make.py): a table from B3, booleans, empty cells, a number
// typed as text.
func TestXLSXCells(t *testing.T) {
	ds := readFile(t, filepath.Join("testdata", "formats", "mixed.xlsx"), dataset.Options{Missing: dataset.ImputeMean})
	if !reflect.DeepEqual(ds.Features, []string{"a", "flag", "b"}) || ds.Label != "class" {
		t.Errorf("features %q label %q", ds.Features, ds.Label)
	}
	nan := math.NaN()
	want := [][]float64{{1.5, 1, 2}, {nan, 0, 4}, {2.5, 1, nan}, {7, 0, 8}}
	for i, row := range want {
		for j, v := range row {
			got := ds.X.At(i, j)
			if got != v && !(math.IsNaN(v) && math.IsNaN(got)) {
				t.Errorf("X[%d,%d] = %v, want %v", i, j, got, v)
			}
		}
	}
	if ds.Missing != 2 || !reflect.DeepEqual(ds.Classes, []string{"x", "y"}) {
		t.Errorf("missing %d classes %q", ds.Missing, ds.Classes)
	}
	_, err := dataset.Read(bytes.NewReader(mustRead(t, filepath.Join("testdata", "formats", "mixed.xlsx"))), dataset.Options{})
	// B5 is the first missing cell: sheet row 5, column B.
	if err == nil || !strings.Contains(err.Error(), `sheet "Mixed", cell B5 ("a"): 2 missing value(s)`) {
		t.Errorf("missing rejected: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every numeric element type of a MAT-file reads as the same numbers, dense
// or sparse, compressed or not (types.mat from make.py).
func TestMATTypes(t *testing.T) {
	ints := [][]float64{{1, -2, 3}, {4, 5, -6}, {-7, 8, 9}, {10, 0, 12}}
	abs := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 0, 12}}
	logical := [][]float64{{1, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}}
	for _, file := range []string{"types.mat", "types_z.mat"} {
		path := filepath.Join("testdata", "formats", file)
		for name, want := range map[string][][]float64{
			"X_double": ints, "X_single": ints, "X_int8": ints, "X_int16": ints, "X_int32": ints, "X_int64": ints,
			"X_uint8": abs, "X_uint16": abs, "X_uint32": abs, "X_uint64": abs, "X_logical": logical, "X_sparse": ints,
		} {
			ds := readFile(t, path, dataset.Options{XVar: name, YVar: "Y_row"})
			for i, row := range want {
				if got := ds.X.RawRowView(i); !reflect.DeepEqual(got, row) {
					t.Errorf("%s %s row %d = %v, want %v", file, name, i, got, row)
				}
			}
			if !reflect.DeepEqual(ds.Classes, []string{"1", "2"}) || !reflect.DeepEqual(ds.Y, []int{0, 1, 0, 1}) {
				t.Errorf("%s %s: classes %q y %v", file, name, ds.Classes, ds.Y)
			}
		}
		ds := readFile(t, path, dataset.Options{XVar: "X_double", YVar: "Y_char"})
		if !reflect.DeepEqual(ds.Classes, []string{"alpha", "beta"}) || !reflect.DeepEqual(ds.Y, []int{0, 1, 0, 1}) {
			t.Errorf("%s char labels: %q %v", file, ds.Classes, ds.Y)
		}
		for _, c := range []struct {
			x, y, frag string
		}{
			{"X_3d", "Y_row", `variable "X_3d": the data have 3 dimensions (2×2×2)`},
			{"X_complex", "Y_row", `variable "X_complex": the data are complex numbers`},
			{"X_double", "Y_cell", `variable "Y_cell": the labels are a cell array`},
			{"X_double", "Y_onehot", `variable "Y_onehot": the labels are a 4×2 matrix`},
			{"X", "Y_row", `no variable "X" (the data, samples × features); its variables are "X_double", "X_single"`},
			{"X_double", "Z", `no variable "Z" (the labels, one per sample)`},
		} {
			_, err := dataset.Read(bytes.NewReader(mustRead(t, path)), dataset.Options{XVar: c.x, YVar: c.y})
			if err == nil || !strings.Contains(err.Error(), c.frag) {
				t.Errorf("%s %s/%s: %v, want %q", file, c.x, c.y, err, c.frag)
			}
		}
	}
}

// scikit-feature's own .mat files (shared/data/mat) read as the CSV copies
// of the same datasets do; the sums and class counts come from
// scipy.io.loadmat 1.10.1 on the same files.
func TestSharedMAT(t *testing.T) {
	for _, c := range []struct {
		mat, csv string
		m, n     int
		sum      float64 // Σ X, from scipy
		counts   []int
	}{
		{"colon.mat", "colon.csv.gz", 62, 2000, -30656, []int{40, 22}},
		{"lung_small.mat", "lung_discrete.csv.gz", 73, 325, -522, []int{6, 5, 5, 16, 7, 13, 21}},
		{"ORL.mat", "ORL.csv.gz", 400, 1024, 54429100, nil},
	} {
		t.Run(c.mat, func(t *testing.T) {
			ds := readFile(t, testdata.Path(t, filepath.Join("mat", c.mat)), dataset.Options{})
			m, n := ds.X.Dims()
			sum := 0.0
			for _, v := range ds.X.RawMatrix().Data {
				sum += v
			}
			if m != c.m || n != c.n || sum != c.sum {
				t.Errorf("%d×%d, sum %v; want %d×%d, %v", m, n, sum, c.m, c.n, c.sum)
			}
			if c.counts != nil && !reflect.DeepEqual(ds.ClassCounts(), c.counts) {
				t.Errorf("class counts %v, want %v", ds.ClassCounts(), c.counts)
			}
			ref := readFile(t, testdata.Path(t, c.csv), dataset.Options{})
			if !reflect.DeepEqual(ds.X.RawMatrix().Data, ref.X.RawMatrix().Data) || !reflect.DeepEqual(ds.Features, ref.Features) ||
				!reflect.DeepEqual(ds.Classes, ref.Classes) || !reflect.DeepEqual(ds.Y, ref.Y) {
				t.Errorf("differs from %s: classes %q vs %q", c.csv, ds.Classes, ref.Classes)
			}
		})
	}
}
