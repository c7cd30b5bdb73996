package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// HeaderMode says whether the first row names the columns.
type HeaderMode int

const (
	// HeaderAuto treats the first row as a header when some column holds
	// text there and a number in the second row, or when it holds the
	// column numbers 0, 1, 2, … or 1, 2, 3, … (with a warning).
	HeaderAuto HeaderMode = iota
	// HeaderYes always treats the first row as a header.
	HeaderYes
	// HeaderNo never does; columns are then named f1, f2, … by position.
	HeaderNo
)

// MissingPolicy says what Read does with missing cells.
type MissingPolicy int

const (
	// RejectMissing makes Read fail when any feature cell is missing.
	RejectMissing MissingPolicy = iota
	// ImputeMean keeps missing cells as NaN in X; a Scaler fitted on a
	// training part replaces them with that part's column mean.
	ImputeMean
	// DropFeatures leaves out every feature that has a missing cell (with
	// a warning naming them).
	DropFeatures
	// DropSamples leaves out every sample (row) that has a missing cell
	// in a feature, the label or a target (with a warning).
	DropSamples
)

// Options controls Read. The zero value detects the format, the delimiter
// and the header, takes the last column as the label, rejects missing
// values and applies the default limits.
type Options struct {
	// Format fixes the file's format; FormatAuto (the zero value) detects
	// it from the content. Gzip compression is always detected.
	Format Format
	// Delimiter is ',', ';' or '\t'; 0 detects it from the first lines.
	// Delimited text only.
	Delimiter rune
	// Header says whether the first row names the columns. Delimited
	// text and workbooks only (ARFF names its attributes; LIBSVM and MAT
	// files have no names).
	Header HeaderMode
	// Label chooses the label column: a header name, a 1-based column
	// number, "first" or "last". Empty means the last column. "none" means
	// the file has no class label; Targets must then be given. Delimited
	// text, workbooks and ARFF; a LIBSVM file's label is its first field
	// and a MAT file's its YVar.
	Label string
	// Targets, if set, name the columns holding real-valued regression
	// targets (header names or 1-based column numbers). They are read
	// into Dataset.Targets and are not features. Delimited text,
	// workbooks and ARFF only.
	Targets []string
	// ID names the column holding the samples' IDs (a header name or a
	// 1-based number; empty or "none": none): it is read as text into Dataset.IDs
	// and is not a feature. Ignore names columns to leave out. Delimited
	// text, workbooks and ARFF.
	ID     string
	Ignore []string
	// Transpose reads a table whose rows are the features and whose
	// columns are the samples (a genes × samples export): row i of the
	// file is column i of the table. Delimited text and workbooks.
	Transpose bool
	// Survey reads a feature column holding text as missing cells instead
	// of refusing it, and describes it in Dataset.Text: an inspection
	// proposes the roles of such columns from it.
	Survey bool
	// Missing says what to do with missing feature cells.
	Missing MissingPolicy
	// PreviewRows is how many data rows to keep as text in
	// Dataset.Preview (0 keeps none).
	PreviewRows int
	// Sheet names the worksheet of a workbook to read (exactly, else
	// case-insensitively); empty means the first.
	Sheet string
	// XVar and YVar name the variables of a MAT-file holding the data
	// (samples × features) and the labels (one per sample); empty means
	// "X" and "Y", as scikit-feature's files have them.
	XVar, YVar string
	// MaxBytes limits the bytes read, counted after decompression; 0
	// means DefaultMaxBytes, a negative value no limit.
	MaxBytes int64
	// MaxCells limits the cells of the table (samples × columns, the
	// label included); 0 means DefaultMaxCells, a negative value no
	// limit.
	MaxCells int64
	// Rows, when above zero, is at least the number of data rows of
	// delimited text read with its samples in rows (RowsHint gives it):
	// the values are read into one array of that many rows rather than
	// assembled from chunks at the end, so that reading holds the matrix
	// once, not twice. A smaller value is only less help.
	Rows int
	// Buffer, with Rows, is memory to read the values into: an earlier
	// table's values the caller no longer reads (a worker gives the last
	// job's table to the next reading of the same file, so that the
	// large array is reused rather than freed and allocated again). It is
	// used when its capacity is what Rows needs, up to a sixteenth more;
	// otherwise it is dropped.
	Buffer []float64
}

// Dataset is a table read from a file: m samples × n features plus a class
// label per sample.
type Dataset struct {
	// X is m×n; a missing cell is NaN (only with ImputeMean).
	X *mat.Dense
	// Features are the n feature names, in column order. A format without
	// names gives f1, f2, … (a LIBSVM file's feature j is fj).
	Features []string
	// Label is the label column's name and LabelColumn its 1-based
	// position in the file (in a LIBSVM file "label" and 1, in a MAT-file
	// the labels' variable and n + 1).
	Label       string
	LabelColumn int
	// Classes are the distinct labels in class order; Y[i] indexes
	// Classes for sample i. Both are nil when the file has no label
	// (Options.Label = "none").
	Classes []string
	Y       []int
	// Targets is m×t, the real-valued target columns named by
	// Options.Targets (nil without them); TargetNames are their names and
	// TargetColumns their 1-based positions in the file.
	Targets       *mat.Dense
	TargetNames   []string
	TargetColumns []int
	// Format is the format the file turned out to have, and Compressed
	// tells whether it was gzip-compressed.
	Format     Format
	Compressed bool
	// Delimiter and Header are what a delimited file turned out to use
	// (Header also for a workbook; true for ARFF).
	Delimiter rune
	Header    bool
	// Sheet is the worksheet read from a workbook and Sheets all of its
	// worksheets, in workbook order.
	Sheet  string
	Sheets []string
	// IDs are the samples' IDs, from the column Options.ID names
	// (IDColumn, 1-based, named IDName); nil without one.
	IDs      []string
	IDColumn int
	IDName   string
	// Ignored are the 1-based columns left out (Options.Ignore).
	Ignored []int
	// Text describes the feature columns that hold text (Options.Survey
	// only), in file order.
	Text []TextColumn
	// Missing counts missing feature cells; MissingColumns lists the
	// 0-based feature indices that have any.
	Missing        int
	MissingColumns []int
	// Columns are all column names in file order (label included) and
	// Preview the first Options.PreviewRows data rows as text.
	Columns []string
	Preview [][]string
	// Warnings are things worth telling the user that did not stop the
	// read: duplicate column names, classes of a single sample, one
	// number written as several labels, a header taken from column
	// numbers, names that are not UTF-8, ignored parts of a file.
	Warnings []string
}

// Rows returns the number of samples.
func (d *Dataset) Rows() int {
	r, _ := d.X.Dims()
	return r
}

// ClassCounts returns the number of samples in each class.
func (d *Dataset) ClassCounts() []int {
	counts := make([]int, len(d.Classes))
	for _, y := range d.Y {
		counts[y]++
	}
	return counts
}

// Read reads a dataset in any of the formats of the package documentation,
// detected from the content.
func Read(r io.Reader, opts Options) (*Dataset, error) {
	return ReadContext(context.Background(), r, opts)
}

// Parse reads a dataset from the bytes of a file (possibly gzip
// compressed), as Read does.
func Parse(raw []byte, opts Options) (*Dataset, error) {
	return ReadContext(context.Background(), bytes.NewReader(raw), opts)
}

// ReadContext reads a dataset as Read does and stops, returning ctx.Err(),
// soon after ctx is done.
func ReadContext(ctx context.Context, r io.Reader, opts Options) (*Dataset, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	lim := newLimits(ctx, opts)
	br := bufio.NewReaderSize(&rawReader{l: lim, r: r}, 64<<10)
	ds := &Dataset{}
	var in io.Reader
	if head, _ := br.Peek(2); bytes.Equal(head, magicGzip) {
		zr, err := gunzip(br)
		if err != nil {
			return nil, err
		}
		ds.Compressed = true
		in = lim.data(zr, "gzip-compressed")
	} else {
		in = lim.data(br, "")
	}
	out, err := read(lim, in, opts, ds)
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return nil, cerr
		}
		return nil, err
	}
	return out, nil
}

func (o *Options) check() error {
	if _, err := ParseFormat(string(o.Format)); err != nil {
		return err
	}
	switch o.Delimiter {
	case 0, ',', ';', '\t':
	default:
		return &Error{Msg: fmt.Sprintf("unsupported delimiter %q: use a comma, a semicolon or a tab", o.Delimiter)}
	}
	return nil
}

// sniffSize is how much of the start of a file the format and the
// delimiter are detected from.
const sniffSize = 256 << 10

// read detects the format of the (decompressed) bytes in and reads them.
func read(lim *limits, in io.Reader, opts Options, ds *Dataset) (*Dataset, error) {
	br := bufio.NewReaderSize(in, sniffSize)
	head, err := br.Peek(sniffSize)
	whole := err != nil
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, err
	}
	var text io.Reader = br
	switch {
	case bytes.HasPrefix(head, bomUTF8):
		br.Discard(len(bomUTF8))
		head = head[len(bomUTF8):]
	case bytes.HasPrefix(head, bomUTF16LE), bytes.HasPrefix(head, bomUTF16BE):
		order := binary.ByteOrder(binary.LittleEndian)
		if head[0] == 0xFE {
			order = binary.BigEndian
		}
		br.Discard(2)
		br = bufio.NewReaderSize(newUTF16Reader(br, order), sniffSize)
		head, err = br.Peek(sniffSize)
		whole = err != nil
		if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
			return nil, err
		}
		text = br
	}
	if len(bytes.TrimSpace(head)) == 0 && whole {
		return nil, &Error{Msg: "the file is empty"}
	}
	if bytes.HasPrefix(head, magicGzip) {
		// gzip inside gzip (a .csv.gz compressed again).
		if ds.Compressed && lim.depth >= 3 {
			return nil, &Error{Msg: "gzip inside gzip inside gzip: decompress the file"}
		}
		zr, err := gunzip(br)
		if err != nil {
			return nil, err
		}
		ds.Compressed = true
		lim.depth++
		return read(lim, lim.data(zr, "gzip-compressed"), opts, ds)
	}
	f := opts.Format
	if f == FormatAuto {
		var what string
		f, what = sniff(head, whole)
		if what != "" {
			return nil, &Error{Msg: "this is " + what}
		}
		if f == CSV {
			if enc := utf16NoBOM(head); enc != "" {
				return nil, &Error{Msg: "this looks like UTF-16 text (" + enc + ") without a byte-order mark: save it as UTF-8 (or as UTF-16 with its byte-order mark)"}
			}
		}
	}
	ds.Format = f
	switch f {
	case XLSX:
		return readXLSX(lim, text, opts, ds)
	case MAT:
		if err := noColumns(opts, "a MATLAB file", "its variables"); err != nil {
			return nil, err
		}
		return readMAT(lim, text, opts, ds)
	case ARFF:
		if err := textOnly(opts, "ARFF", false); err != nil {
			return nil, err
		}
		return readARFF(lim, text, opts, ds)
	case LIBSVM:
		if err := textOnly(opts, "LIBSVM", true); err != nil {
			return nil, err
		}
		if err := noColumns(opts, "a LIBSVM file", "its index:value pairs"); err != nil {
			return nil, err
		}
		return readLIBSVM(lim, text, opts, ds)
	}
	delim := opts.Delimiter
	if delim == 0 {
		delim = sniffDelimiter(head, whole)
	}
	ds.Delimiter = delim
	t := &table{opts: opts, lim: lim, src: &csvSource{r: newCSVReader(text, byte(delim))}, decimalComma: delim != ',', delim: delim}
	return t.build(ds)
}

// textOnly refuses the options that do not apply to a format (ARFF names
// its columns; a LIBSVM file has a single label and no targets).
func textOnly(opts Options, format string, labelFirst bool) error {
	if opts.Delimiter != 0 {
		return &Error{Msg: fmt.Sprintf("a delimiter was given, but this is a%s %s file", an(format), format)}
	}
	if labelFirst {
		switch strings.ToLower(strings.TrimSpace(opts.Label)) {
		case "", "first", "last", "1":
		default:
			return &Error{Msg: fmt.Sprintf("a LIBSVM file's label is the first field of each line: the label option %s does not apply", quote(opts.Label))}
		}
		if len(opts.Targets) > 0 {
			return &Error{Msg: "a LIBSVM file has no target columns: its only values besides the features are the labels"}
		}
	}
	return nil
}

// noColumns refuses the options that name a table's columns (sample IDs,
// columns left out, features in rows) for a format whose features are
// not columns of a table.
func noColumns(opts Options, format, features string) error {
	switch {
	case strings.TrimSpace(opts.ID) != "" && !strings.EqualFold(strings.TrimSpace(opts.ID), "none"):
		return &Error{Msg: fmt.Sprintf("%s has no column of sample IDs: its features are %s", format, features)}
	case len(opts.Ignore) > 0:
		return &Error{Msg: fmt.Sprintf("%s has no columns to leave out: its features are %s", format, features)}
	case opts.Transpose:
		return &Error{Msg: fmt.Sprintf("%s cannot be read transposed: its features are %s", format, features)}
	}
	return nil
}

func an(word string) string {
	if strings.ContainsRune("AEFHILMNORSX", rune(word[0])) {
		return "n"
	}
	return ""
}

// gunzip opens gzip-compressed data; a header that cannot be read is an
// *Error for people (a cancellation or a limit passes through).
func gunzip(r io.Reader) (*gzip.Reader, error) {
	zr, err := gzip.NewReader(r)
	if err != nil && !isOurs(err) {
		return nil, &Error{Msg: "the file looks gzip-compressed but cannot be opened: " + err.Error(), Err: err}
	}
	return zr, err
}
