package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFuzzSeeds writes the seed corpora of the fuzz tests into
// testdata/fuzz from the files of testdata/formats and testdata/corpus,
// when SPARSEFS_WRITE_SEEDS=1 (the seeds are committed; rerun it when
// those files change).
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("SPARSEFS_WRITE_SEEDS") != "1" {
		t.Skip("set SPARSEFS_WRITE_SEEDS=1 to write the fuzz seeds")
	}
	var files []string
	for _, dir := range []string{"formats", "corpus"} {
		fs, err := filepath.Glob(filepath.Join("testdata", dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	write := func(fuzz, name string, args ...[]byte) {
		dir := filepath.Join("testdata", "fuzz", fuzz)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, a := range args {
			fmt.Fprintf(&b, "[]byte(%q)\n", a)
		}
		if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasSuffix(base, ".py") {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(raw) > 64<<10 {
			continue
		}
		write("FuzzParse", base, raw)
		switch ext := filepath.Ext(strings.TrimSuffix(base, ".gz")); ext {
		case ".csv", ".tsv":
			write("FuzzCSV", base, raw)
		case ".arff":
			write("FuzzARFF", base, raw)
		case ".libsvm":
			write("FuzzLIBSVM", base, raw)
		case ".mat":
			write("FuzzMAT", base, raw)
		case ".xlsx":
			for _, sheet := range []string{"xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"} {
				if x := partOf(raw, sheet); x != nil {
					write("FuzzXLSX", base+"-"+filepath.Base(sheet), x, partOf(raw, "xl/sharedStrings.xml"))
				}
			}
		}
	}
}
