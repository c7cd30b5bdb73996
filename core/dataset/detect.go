package dataset

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Format names a file format Read understands.
type Format string

const (
	// FormatAuto (the zero value) detects the format from the content.
	FormatAuto Format = ""
	// CSV is delimited text: comma-, semicolon- or tab-separated.
	CSV Format = "csv"
	// XLSX is an Excel workbook (Office Open XML).
	XLSX Format = "xlsx"
	// ARFF is Weka's attribute-relation file format, dense or sparse.
	ARFF Format = "arff"
	// LIBSVM is the sparse text format of LIBSVM and SVMlight.
	LIBSVM Format = "libsvm"
	// MAT is a MATLAB level-5 MAT-file (versions 5 to 7, not 7.3).
	MAT Format = "mat"
)

// Formats lists the formats in the order the documentation gives them.
var Formats = []Format{CSV, XLSX, ARFF, LIBSVM, MAT}

// ParseFormat accepts a format's name as a user writes it: "", "auto",
// "csv" (or "tsv", "txt", "text"), "xlsx" (or "excel"), "arff", "libsvm"
// (or "svmlight", "svm"), "mat" (or "matlab"), in any case.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "csv", "tsv", "txt", "text":
		return CSV, nil
	case "xlsx", "excel":
		return XLSX, nil
	case "arff":
		return ARFF, nil
	case "libsvm", "svmlight", "svm":
		return LIBSVM, nil
	case "mat", "matlab":
		return MAT, nil
	}
	return "", fmt.Errorf("unknown data format %q: use auto, csv, xlsx, arff, libsvm or mat", s)
}

// String returns the format's name as a person reads it.
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case CSV:
		return "CSV"
	case XLSX:
		return "XLSX"
	case ARFF:
		return "ARFF"
	case LIBSVM:
		return "LIBSVM"
	case MAT:
		return "MAT"
	}
	return string(f)
}

var (
	magicGzip   = []byte{0x1f, 0x8b}
	magicZip    = []byte("PK\x03\x04")
	magicZip0   = []byte("PK\x05\x06")
	magicHDF5   = []byte("\x89HDF\r\n\x1a\n")
	magicOLE2   = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	bomUTF8     = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE  = []byte{0xFF, 0xFE}
	bomUTF16BE  = []byte{0xFE, 0xFF}
	otherMagics = []struct {
		magic []byte
		what  string
	}{
		{[]byte("%PDF"), "a PDF document"},
		{[]byte("\x89PNG"), "a PNG image"},
		{[]byte("GIF8"), "a GIF image"},
		{[]byte{0xFF, 0xD8, 0xFF}, "a JPEG image"},
		{[]byte("BZh"), "bzip2-compressed data (decompress it, or compress with gzip instead)"},
		{[]byte("\xfd7zXZ\x00"), "xz-compressed data (decompress it, or compress with gzip instead)"},
		{[]byte{0x28, 0xB5, 0x2F, 0xFD}, "zstd-compressed data (decompress it, or compress with gzip instead)"},
		{[]byte("7z\xbc\xaf\x27\x1c"), "a 7-Zip archive"},
		{[]byte("Rar!"), "a RAR archive"},
		{[]byte("PAR1"), "a Parquet file"},
		{[]byte("SQLite format 3\x00"), "an SQLite database"},
		{[]byte("\x93NUMPY"), "a NumPy array (.npy)"},
		{[]byte("\x7fELF"), "a program (ELF executable)"},
		{[]byte("MZ"), "a Windows program"},
	}
)

// sniff returns the format of text or binary data from its first bytes;
// what names an unreadable binary format, with what to do about it.
func sniff(head []byte, whole bool) (f Format, what string) {
	switch {
	case bytes.HasPrefix(head, magicZip), bytes.HasPrefix(head, magicZip0):
		return XLSX, ""
	case bytes.HasPrefix(head, magicHDF5):
		return "", "an HDF5 file, which sparsefs cannot read (a MATLAB v7.3 .mat file is one: re-save it in MATLAB as version 7 with save('f.mat','X','Y','-v7'))"
	case bytes.HasPrefix(head, magicOLE2):
		return "", "an Excel 97–2003 workbook (.xls) or another Office 97 document, which sparsefs cannot read: save it as .xlsx or CSV"
	case isMATHeader(head):
		return MAT, ""
	}
	for _, m := range otherMagics {
		if bytes.HasPrefix(head, m.magic) {
			if m.what == "a Windows program" && bytes.IndexByte(head, 0) < 0 {
				continue // "MZ…" text
			}
			return "", m.what + ", not a data table"
		}
	}
	if isARFF(head) {
		return ARFF, ""
	}
	if isLIBSVM(head, whole) {
		return LIBSVM, ""
	}
	return CSV, ""
}

// isMATHeader reports whether head starts with a MAT-file's 128-byte header:
// descriptive text beginning "MATLAB", then the version and the
// endian indicator IM or MI.
func isMATHeader(head []byte) bool {
	if !bytes.HasPrefix(head, []byte("MATLAB")) || len(head) < 128 {
		return false
	}
	e := string(head[126:128])
	return e == "IM" || e == "MI"
}

// isARFF reports whether the first line that is neither blank nor a comment
// (%) is an ARFF declaration.
func isARFF(head []byte) bool {
	for _, l := range firstLines(head, 1000, true) {
		if strings.HasPrefix(l, "%") {
			continue
		}
		l = strings.ToLower(l)
		return strings.HasPrefix(l, "@relation") || strings.HasPrefix(l, "@attribute") || strings.HasPrefix(l, "@data")
	}
	return false
}

// isLIBSVM reports whether the first lines (up to 50, blank lines and
// # comments skipped) all read as "label index:value …", with at least one
// index:value pair among them.
func isLIBSVM(head []byte, whole bool) bool {
	pairs := false
	lines := firstLines(head, 50, whole)
	if len(lines) == 1 && lines[0] == "" {
		return false
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		f := strings.Fields(l)
		if len(f) == 0 || strings.ContainsAny(f[0], ":;\"") {
			return false
		}
		for _, p := range f[1:] {
			k, _, ok := strings.Cut(p, ":")
			if !ok {
				return false
			}
			if k == "qid" {
				continue
			}
			if _, err := strconv.ParseUint(k, 10, 64); err != nil {
				return false
			}
			pairs = true
		}
	}
	return pairs
}
