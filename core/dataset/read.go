package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// HeaderMode says whether the first row names the columns.
type HeaderMode int

const (
	// HeaderAuto treats the first row as a header when some column holds
	// text there and a number in the second row.
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
)

// Options controls Read. The zero value detects the delimiter and the
// header, takes the last column as the label and rejects missing values.
type Options struct {
	// Delimiter is ',', ';' or '\t'; 0 detects it from the first lines.
	Delimiter rune
	// Header says whether the first row names the columns.
	Header HeaderMode
	// Label chooses the label column: a header name, a 1-based column
	// number, "first" or "last". Empty means the last column. "none" means
	// the file has no class label; Targets must then be given.
	Label string
	// Targets, if set, name the columns holding real-valued regression
	// targets (header names or 1-based column numbers). They are read
	// into Dataset.Targets and are not features.
	Targets []string
	// Missing says what to do with missing feature cells.
	Missing MissingPolicy
	// PreviewRows is how many data rows to keep as text in
	// Dataset.Preview (0 keeps none).
	PreviewRows int
}

// Dataset is a table read from a file: m samples × n features plus a class
// label per sample.
type Dataset struct {
	// X is m×n; a missing cell is NaN (only with ImputeMean).
	X *mat.Dense
	// Features are the n feature names, in column order.
	Features []string
	// Label is the label column's name and LabelColumn its 1-based
	// position in the file.
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
	// Delimiter and Header are what the file turned out to use.
	Delimiter rune
	Header    bool
	// Missing counts missing feature cells; MissingColumns lists the
	// 0-based feature indices that have any.
	Missing        int
	MissingColumns []int
	// Columns are all column names in file order (label included) and
	// Preview the first Options.PreviewRows data rows as text.
	Columns []string
	Preview [][]string
	// Warnings are things worth telling the user that did not stop the
	// read (duplicate column names, for instance).
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

// missingTokens are the cell texts read as a missing value (compared after
// trimming spaces, case-insensitively).
var missingTokens = map[string]bool{"": true, "na": true, "n/a": true, "nan": true, "null": true, "?": true, "#n/a": true}

func isMissing(s string) bool { return len(s) <= 4 && missingTokens[strings.ToLower(s)] }

// parseNumber parses a cell. With a delimiter other than the comma, a
// decimal comma ("1,5", as spreadsheets in many locales write it) is
// accepted too.
func parseNumber(s string, delim rune) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err == nil {
		return v, true
	}
	if delim != ',' && strings.Count(s, ",") == 1 && !strings.Contains(s, ".") {
		if v, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64); err == nil {
			return v, true
		}
	}
	return 0, false
}

// Read reads a dataset; see the package documentation for the format.
func Read(r io.Reader, opts Options) (*Dataset, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	return Parse(raw, opts)
}

// Parse reads a dataset from the bytes of a file (possibly gzip
// compressed).
func Parse(raw []byte, opts Options) (*Dataset, error) {
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, &Error{Msg: "the file looks gzip-compressed but cannot be opened: " + err.Error()}
		}
		raw, err = io.ReadAll(zr)
		if err != nil {
			return nil, &Error{Msg: "the gzip-compressed file is damaged: " + err.Error()}
		}
	}
	raw = bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, &Error{Msg: "the file is empty"}
	}
	if !isText(raw) {
		return nil, &Error{Msg: "this is not a text table (CSV or TSV): it contains binary data"}
	}
	delim := opts.Delimiter
	switch delim {
	case 0:
		delim = sniffDelimiter(raw)
	case ',', ';', '\t':
	default:
		return nil, &Error{Msg: fmt.Sprintf("unsupported delimiter %q: use a comma, a semicolon or a tab", delim)}
	}
	p := &parser{opts: opts, delim: delim}
	return p.parse(raw)
}

// isText reports whether the start of b looks like text (no NUL bytes).
func isText(b []byte) bool {
	if len(b) > 4096 {
		b = b[:4096]
	}
	return bytes.IndexByte(b, 0) < 0
}

// sniffDelimiter picks the delimiter that splits the first lines into the
// same number (> 1) of fields, preferring tab, then semicolon, then comma
// when several do (a semicolon file may use decimal commas). When none is
// consistent it picks the one giving the most fields on the first line.
func sniffDelimiter(raw []byte) rune {
	lines := firstLines(raw, 50)
	candidates := []rune{'\t', ';', ','}
	best, bestFields := ',', 1
	for _, d := range candidates {
		n0 := countFields(lines[0], d)
		consistent := n0 > 1
		for _, l := range lines[1:] {
			if countFields(l, d) != n0 {
				consistent = false
				break
			}
		}
		if consistent {
			return d
		}
		if n0 > bestFields {
			best, bestFields = d, n0
		}
	}
	return best
}

func firstLines(raw []byte, max int) []string {
	var lines []string
	for len(raw) > 0 && len(lines) < max {
		i := bytes.IndexByte(raw, '\n')
		var l []byte
		if i < 0 {
			l, raw = raw, nil
		} else {
			l, raw = raw[:i], raw[i+1:]
		}
		if s := strings.TrimSpace(string(l)); s != "" {
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	return lines
}

// countFields counts delimiter-separated fields of a line, ignoring
// delimiters inside double quotes.
func countFields(line string, d rune) int {
	n, quoted := 1, false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case c == d && !quoted:
			n++
		}
	}
	return n
}

type parser struct {
	opts  Options
	delim rune
}

func (p *parser) parse(raw []byte) (*Dataset, error) {
	cr := csv.NewReader(bytes.NewReader(raw))
	cr.Comma = p.delim
	cr.FieldsPerRecord = -1
	next := func() ([]string, int, error) {
		for {
			rec, err := cr.Read()
			if err != nil {
				return nil, 0, err
			}
			line, _ := cr.FieldPos(0)
			if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
				continue // a blank line
			}
			for i := range rec {
				rec[i] = strings.TrimSpace(rec[i])
			}
			return rec, line, nil
		}
	}
	first, firstLine, err := next()
	if err != nil {
		return nil, p.csvError(raw, err)
	}
	second, secondLine, err := next()
	if err != nil && err != io.EOF {
		return nil, p.csvError(raw, err)
	}
	hasHeader := p.opts.Header == HeaderYes
	if p.opts.Header == HeaderAuto {
		if second == nil {
			// A single row: a header if any cell is text.
			hasHeader = looksLikeHeader(first, make([]string, len(first)), p.delim)
		} else {
			hasHeader = looksLikeHeader(first, second, p.delim)
		}
	}
	ncols := len(first)
	if ncols < 2 {
		return nil, &Error{Line: firstLine, Msg: fmt.Sprintf("found a single column (delimiter %s); a table needs at least one feature column and a label column", delimName(p.delim))}
	}
	ds := &Dataset{Delimiter: p.delim, Header: hasHeader, Columns: make([]string, ncols)}
	for j := range ds.Columns {
		ds.Columns[j] = "f" + strconv.Itoa(j+1)
		if hasHeader && first[j] != "" {
			ds.Columns[j] = first[j]
		}
	}
	if hasHeader {
		seen := map[string]int{}
		for j, name := range ds.Columns {
			if k, dup := seen[name]; dup {
				ds.Warnings = append(ds.Warnings, fmt.Sprintf("columns %d and %d are both named %q", k+1, j+1, name))
			} else {
				seen[name] = j
			}
		}
	}
	lab, err := p.labelColumn(ds.Columns, hasHeader)
	if err != nil {
		return nil, err
	}
	if lab >= 0 {
		ds.LabelColumn = lab + 1
		ds.Label = ds.Columns[lab]
	}
	isTarget := make([]bool, ncols)
	for _, want := range p.opts.Targets {
		j, err := findColumn(ds.Columns, hasHeader, want, "target")
		if err != nil {
			return nil, err
		}
		if j == lab {
			return nil, &Error{Msg: fmt.Sprintf("column %d (%q) cannot be both the label and a target", j+1, ds.Columns[j])}
		}
		if isTarget[j] {
			return nil, &Error{Msg: fmt.Sprintf("column %d (%q) is named twice as a target", j+1, ds.Columns[j])}
		}
		isTarget[j] = true
		ds.TargetColumns = append(ds.TargetColumns, j+1)
		ds.TargetNames = append(ds.TargetNames, ds.Columns[j])
	}
	if lab < 0 && len(ds.TargetColumns) == 0 {
		return nil, &Error{Msg: "label none needs target columns: name the real-valued targets, or choose a label column"}
	}
	for j, name := range ds.Columns {
		if j != lab && !isTarget[j] {
			ds.Features = append(ds.Features, name)
		}
	}
	n := len(ds.Features)
	if n == 0 {
		return nil, &Error{Msg: "no feature columns are left besides the label and the targets"}
	}
	var targets []float64
	rowsRead := 0

	var data []float64
	var labels []string
	missingCol := make([]bool, n)
	firstMissing := (*Error)(nil)
	addRow := func(rec []string, line int) error {
		if len(rec) != ncols {
			what := "the first row"
			if hasHeader {
				what = "the header"
			}
			return errorf(line, 0, "", "this row has %d fields but %s has %d (a ragged row: check for a missing or extra %s)", len(rec), what, ncols, delimName(p.delim))
		}
		if len(ds.Preview) < p.opts.PreviewRows {
			ds.Preview = append(ds.Preview, append([]string(nil), rec...))
		}
		rowsRead++
		k := 0
		for j, cell := range rec {
			if isTarget[j] {
				v, ok := parseNumber(cell, p.delim)
				if isMissing(cell) {
					return errorf(line, j+1, ds.Columns[j], "the target value is missing (targets cannot be imputed: fill it in or drop the row)")
				}
				if !ok || math.IsInf(v, 0) {
					return errorf(line, j+1, ds.Columns[j], "%q is not a finite number (a regression target must be one)", cell)
				}
				targets = append(targets, v)
				continue
			}
			if j == lab {
				if isMissing(cell) {
					return errorf(line, j+1, ds.Columns[j], "the class label is missing")
				}
				labels = append(labels, cell)
				continue
			}
			if isMissing(cell) {
				ds.Missing++
				missingCol[k] = true
				if firstMissing == nil {
					firstMissing = errorf(line, j+1, ds.Columns[j], "")
				}
				data = append(data, math.NaN())
				k++
				continue
			}
			v, ok := parseNumber(cell, p.delim)
			if !ok {
				return errorf(line, j+1, ds.Columns[j], "%q is not a number (every column but the label must be numeric: remove this column, fix the cell, or choose this column as the label)", cell)
			}
			if math.IsInf(v, 0) {
				return errorf(line, j+1, ds.Columns[j], "%q is infinite", cell)
			}
			data = append(data, v)
			k++
		}
		return nil
	}
	if !hasHeader {
		if err := addRow(first, firstLine); err != nil {
			return nil, err
		}
	}
	if second != nil {
		if err := addRow(second, secondLine); err != nil {
			return nil, err
		}
		for {
			rec, line, err := next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, p.csvError(raw, err)
			}
			if err := addRow(rec, line); err != nil {
				return nil, err
			}
		}
	}
	if rowsRead == 0 {
		return nil, &Error{Msg: "the file has a header but no data rows"}
	}
	if rowsRead == 1 {
		return nil, &Error{Msg: "the file has a single data row; selection needs at least two samples"}
	}
	if ds.Missing > 0 && p.opts.Missing == RejectMissing {
		e := *firstMissing
		e.Msg = fmt.Sprintf("%d missing value(s) (empty, NA or NaN cells), this is the first; fill them in, or impute them with the training mean (missing=mean)", ds.Missing)
		return nil, &e
	}
	for k, miss := range missingCol {
		if miss {
			ds.MissingColumns = append(ds.MissingColumns, k)
		}
	}
	ds.X = mat.NewDense(rowsRead, n, data)
	if t := len(ds.TargetColumns); t > 0 {
		ds.Targets = mat.NewDense(rowsRead, t, targets)
	}
	if lab < 0 {
		return ds, nil
	}
	ds.Classes, ds.Y = EncodeLabels(labels)
	if len(ds.Classes) < 2 {
		return nil, errorf(0, lab+1, ds.Label, "every sample has the same class %q; selection needs at least two classes (is this the right label column?)", ds.Classes[0])
	}
	return ds, nil
}

// looksLikeHeader reports whether some column holds text (not a number and
// not a missing-value marker) in the first row and a number in the second.
func looksLikeHeader(first, second []string, delim rune) bool {
	for j, cell := range first {
		if j >= len(second) {
			break
		}
		if _, num := parseNumber(cell, delim); num || isMissing(cell) {
			continue
		}
		if _, num := parseNumber(second[j], delim); num || second[j] == "" {
			return true
		}
	}
	return false
}

// labelColumn returns the 0-based label column, or −1 for "none".
func (p *parser) labelColumn(cols []string, hasHeader bool) (int, error) {
	want := strings.TrimSpace(p.opts.Label)
	switch strings.ToLower(want) {
	case "", "last":
		return len(cols) - 1, nil
	case "first":
		return 0, nil
	case "none":
		return -1, nil
	}
	return findColumn(cols, hasHeader, want, "label")
}

// findColumn finds a column by header name (exactly, else uniquely
// case-insensitively) or 1-based number; what says which column is sought,
// for the error message.
func findColumn(cols []string, hasHeader bool, want, what string) (int, error) {
	want = strings.TrimSpace(want)
	if hasHeader {
		for j, c := range cols {
			if c == want {
				return j, nil
			}
		}
		found := -1
		for j, c := range cols {
			if strings.EqualFold(c, want) {
				if found >= 0 {
					found = -2
					break
				}
				found = j
			}
		}
		if found >= 0 {
			return found, nil
		}
	}
	if k, err := strconv.Atoi(want); err == nil {
		if k < 1 || k > len(cols) {
			return 0, &Error{Msg: fmt.Sprintf("%s column %d is out of range: the file has %d columns (numbered from 1)", what, k, len(cols))}
		}
		return k - 1, nil
	}
	names := cols
	more := ""
	if len(names) > 8 {
		names, more = names[:8], fmt.Sprintf(" and %d more", len(cols)-8)
	}
	if !hasHeader {
		how := ""
		if what == "label" {
			how = ", first or last"
		}
		return 0, &Error{Msg: fmt.Sprintf("no column is named %q: the file has no header row, so give the %s column by number (1 to %d)%s", want, what, len(cols), how)}
	}
	return 0, &Error{Msg: fmt.Sprintf("no column is named %q; the columns are %s%s", want, strings.Join(quoteAll(names), ", "), more)}
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return q
}

func delimName(d rune) string {
	switch d {
	case ',':
		return "comma"
	case ';':
		return "semicolon"
	case '\t':
		return "tab"
	}
	return strconv.QuoteRune(d)
}

// csvError turns encoding/csv's errors into ours, naming the field where
// the problem is.
func (p *parser) csvError(raw []byte, err error) error {
	if err == io.EOF {
		return &Error{Msg: "the file is empty"}
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		switch pe.Err {
		case csv.ErrBareQuote:
			msg = `a double quote (") appears inside an unquoted field; quote the whole field and double the inner quote ("")`
		case csv.ErrQuote:
			msg = `a quoted field is not closed or has text after its closing quote`
		}
		// pe.Column counts bytes within the line, not fields.
		line := lineText(raw, pe.Line)
		col := 0
		if pe.Column <= len(line) && pe.Err != csv.ErrQuote {
			col = countFields(line[:max(pe.Column-1, 0)], p.delim)
		}
		return &Error{Line: pe.Line, Column: col, Msg: msg}
	}
	return err
}

// EncodeLabels returns the sorted distinct labels and each label's index
// among them: numeric order when every label parses as a number (ties by
// text), otherwise lexicographic (byte) order.
func EncodeLabels(labels []string) (classes []string, y []int) {
	set := map[string]int{}
	for _, l := range labels {
		set[l] = 0
	}
	classes = make([]string, 0, len(set))
	numeric := true
	vals := map[string]float64{}
	for l := range set {
		classes = append(classes, l)
		v, err := strconv.ParseFloat(l, 64)
		if err != nil || math.IsNaN(v) {
			numeric = false
		}
		vals[l] = v
	}
	sort.Slice(classes, func(a, b int) bool {
		if numeric && vals[classes[a]] != vals[classes[b]] {
			return vals[classes[a]] < vals[classes[b]]
		}
		return classes[a] < classes[b]
	})
	for i, c := range classes {
		set[c] = i
	}
	y = make([]int, len(labels))
	for i, l := range labels {
		y[i] = set[l]
	}
	return classes, y
}

// lineText returns line k (1-based) of raw, without its line end.
func lineText(raw []byte, k int) string {
	for ; k > 1 && len(raw) > 0; k-- {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			return ""
		}
		raw = raw[i+1:]
	}
	if i := bytes.IndexByte(raw, '\n'); i >= 0 {
		raw = raw[:i]
	}
	return strings.TrimSuffix(string(raw), "\r")
}
