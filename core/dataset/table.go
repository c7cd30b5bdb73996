package dataset

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"
)

// cellKind says how a tabular reader found a cell.
type cellKind uint8

const (
	// cellText is text to be parsed (every cell of a CSV file).
	cellText cellKind = iota
	// cellNumber is a typed number in num (a workbook's number, an ARFF
	// nominal value's code); s is its text, what a label holds.
	cellNumber
	// cellEmpty is a cell with nothing in it.
	cellEmpty
	// cellError is a spreadsheet error value such as #DIV/0!, in s.
	cellError
)

// cell is one cell of a row from a tabular reader (CSV, XLSX, ARFF).
type cell struct {
	s    string
	num  float64
	kind cellKind
}

// rowSource is a tabular reader: it yields the rows of a table one by one,
// blank rows skipped.
type rowSource interface {
	// next returns the next row and the line (or worksheet row) it starts
	// on; io.EOF after the last. The row may be overwritten by the next
	// call.
	next() ([]cell, int, error)
}

// table turns the rows of a tabular reader into a Dataset: the header, the
// label and target columns, the numbers, the missing cells. CSV, XLSX and
// ARFF share it, so that the same table gives the same Dataset in each.
type table struct {
	opts Options
	lim  *limits
	src  rowSource
	// names, if set, are the column names the format declares (ARFF);
	// otherwise the first row may be a header (Options.Header).
	names []string
	// decimalComma accepts "1,5" as a number (not in comma-separated
	// text).
	decimalComma bool
	// delim is the delimiter of a text table (0 in other formats), for
	// messages.
	delim rune
	// at makes the error for a place: line (or row) and 1-based table
	// column (0: none); where names a line (or row) in a message.
	at    func(line, col int, name, msg string) *Error
	where func(line int) string
}

// textAt is the place of a problem in a text file: line and column.
func textAt(line, col int, name, msg string) *Error {
	return &Error{Line: line, Column: col, Name: name, Msg: msg}
}

func (t *table) errf(line, col int, name, format string, args ...any) *Error {
	return t.at(line, col, name, fmt.Sprintf(format, args...))
}

func (t *table) build(ds *Dataset) (*Dataset, error) {
	if t.at == nil {
		t.at = textAt
	}
	if t.where == nil {
		t.where = func(line int) string { return "line " + strconv.Itoa(line) }
	}
	var first, second []cell
	var firstLine, secondLine int
	var err error
	if t.opts.Transpose {
		if err := t.transpose(); err != nil {
			return nil, err
		}
	}
	if t.names == nil {
		first, firstLine, err = t.src.next()
		if err == io.EOF {
			return nil, &Error{Msg: "the file is empty"}
		}
		if err != nil {
			return nil, err
		}
		first = append([]cell(nil), first...)
	}
	second, secondLine, err = t.src.next()
	if err != nil && err != io.EOF {
		return nil, err
	}
	second = append([]cell(nil), second...)
	hasHeader := t.names != nil || t.opts.Header == HeaderYes
	if t.names == nil && t.opts.Header == HeaderAuto {
		switch {
		case second == nil:
			// A single row: a header if any cell is text.
			hasHeader = t.looksLikeHeader(first, make([]cell, len(first)))
		default:
			hasHeader = t.looksLikeHeader(first, second)
		}
		if !hasHeader && len(first) >= 3 && columnNumbers(first) {
			hasHeader = true
			ds.Warnings = append(ds.Warnings, fmt.Sprintf("the first row (%s, %s, %s, …) numbers the columns: it is read as a header; if it is data, say the file has no header", first[0].s, first[1].s, first[2].s))
		}
	}
	ncols := len(first)
	if t.names != nil {
		ncols = len(t.names)
	}
	// Rows that all end with a delimiter ("1,2,x,") have an empty last
	// field that is no column.
	trailing := false
	if t.names == nil && t.delim != 0 && ncols > 2 && second != nil && len(second) == ncols &&
		first[ncols-1].s == "" && second[ncols-1].s == "" {
		trailing = true
		ncols--
		first = first[:ncols]
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("the rows end with a %s: the empty field after it is ignored", delimName(t.delim)))
	}
	if ncols < 2 {
		if t.delim != 0 {
			return nil, t.errf(firstLine, 0, "", "found a single column (delimiter %s); a table needs at least one feature column and a label column", delimName(t.delim))
		}
		return nil, t.errf(firstLine, 0, "", "found a single column; a table needs at least one feature column and a label column")
	}
	ds.Header = hasHeader
	ds.Columns = make([]string, ncols)
	var badName *Error
	for j := range ds.Columns {
		ds.Columns[j] = "f" + strconv.Itoa(j+1)
		switch {
		case t.names != nil:
			ds.Columns[j] = t.names[j]
		case hasHeader && first[j].kind != cellEmpty && first[j].s != "":
			name := first[j].s
			if !utf8.ValidString(name) {
				if badName == nil {
					badName = t.errf(firstLine, j+1, "", "byte 0x%02X is not UTF-8", badByte(name))
				}
				name = fromCP1252(name)
			}
			ds.Columns[j] = name
		}
	}
	if badName != nil {
		ds.Warnings = append(ds.Warnings, badName.Error()+": the header is read as Windows-1252 (Latin-1); save the file as UTF-8 to be sure of the names")
	}
	if hasHeader {
		seen := map[string]int{}
		for j, name := range ds.Columns {
			if k, dup := seen[name]; dup {
				ds.Warnings = append(ds.Warnings, fmt.Sprintf("columns %d and %d are both named %s", k+1, j+1, quote(name)))
			} else {
				seen[name] = j
			}
		}
	}
	roles, lab, err := assignRoles(ds, t.opts, hasHeader)
	if err != nil {
		return nil, err
	}
	n := len(ds.Features)
	var data, targets floats
	if r := int64(t.opts.Rows); r > 0 && n > 0 && (t.lim.maxCells <= 0 || r <= t.lim.maxCells/int64(ncols)) {
		// Room for one more column: a fit lent the table transposes it in
		// place and writes its design's bias row past it
		// (selection.Problem.Lend).
		buf := t.opts.Buffer
		t.opts.Buffer = nil
		data.room = int(r)
		data.reserveIn(buf, int(r)*(n+1))
	}
	lc := &labeler{name: ds.Label, col: lab + 1, at: t.at, where: t.where, firstRowData: t.names == nil && !hasHeader}
	rowsRead, kept := 0, 0
	missingCol := make([]bool, n)
	firstMissing := (*Error)(nil)
	var drop dropped
	var texts survey
	what := "the first row"
	if hasHeader {
		what = "the header"
	}
	numeric := "every column but the label must be numeric: remove this column, fix the cell, or choose this column as the label"
	addRow := func(rec []cell, line int) error {
		if trailing && len(rec) == ncols+1 && rec[ncols].s == "" {
			rec = rec[:ncols]
		}
		if len(rec) != ncols {
			if t.delim != 0 {
				return t.errf(line, 0, "", "this row has %d fields but %s has %d (a ragged row: check for a missing or extra %s)", len(rec), what, ncols, delimName(t.delim))
			}
			return t.errf(line, 0, "", "this row has %d values but %s has %d", len(rec), what, ncols)
		}
		if err := t.lim.cells(int64(rowsRead+1), int64(ncols), line); err != nil {
			return err
		}
		if rowsRead%1024 == 0 {
			if err := t.lim.alive(); err != nil {
				return err
			}
		}
		if len(ds.Preview) < t.opts.PreviewRows {
			row := make([]string, len(rec))
			for j, c := range rec {
				row[j] = c.s
			}
			ds.Preview = append(ds.Preview, row)
		}
		rowsRead++
		if t.opts.Missing == DropSamples && missingFeature(rec, roles) {
			drop.add(line)
			return nil
		}
		kept++
		k := 0
		for j, c := range rec {
			switch roles[j] {
			case roleIgnored:
				continue
			case roleID:
				ds.IDs = append(ds.IDs, strings.Clone(c.s))
				continue
			case roleTarget:
				if missingCell(c) {
					return t.errf(line, j+1, ds.Columns[j], "the target value is missing (targets cannot be imputed: fill it in or drop the row)")
				}
				v, st := t.value(c)
				if st != numOK {
					return t.errf(line, j+1, ds.Columns[j], "%s", numberMessage(c.s, st, "a regression target must be a finite number"))
				}
				targets.add(v)
				continue
			case roleLabel:
				if missingCell(c) {
					return t.errf(line, j+1, ds.Columns[j], "the class label is missing")
				}
				if err := lc.add(c.s, line); err != nil {
					return err
				}
				continue
			}
			if missingCell(c) {
				ds.Missing++
				missingCol[k] = true
				if firstMissing == nil {
					firstMissing = t.errf(line, j+1, ds.Columns[j], "")
				}
				data.add(math.NaN())
				k++
				continue
			}
			v, st := t.value(c)
			if st != numOK {
				if c.kind == cellError {
					return t.errf(line, j+1, ds.Columns[j], "the cell holds the error value %s, not a number", quote(c.s))
				}
				if st == numBad && c.kind == cellText && t.opts.Survey {
					texts.add(j, ds.Columns[j], c.s, line)
					data.add(math.NaN())
					k++
					continue
				}
				e := t.errf(line, j+1, ds.Columns[j], "%s", numberMessage(c.s, st, numeric))
				if st == numBad && c.kind == cellText {
					e.Err = &TextCell{Column: j + 1}
				}
				return e
			}
			data.add(v)
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
			rec, line, err := t.src.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
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
	if err := drop.check(ds, kept, t.where); err != nil {
		return nil, err
	}
	if ds.Missing > 0 && t.opts.Missing == RejectMissing {
		e := *firstMissing
		e.Msg = fmt.Sprintf("%d missing value(s) (empty, NA or NaN cells), this is the first; fill them in, impute them with the training mean (missing=mean), or leave out the features or the samples that have them (missing=drop-features or drop-samples)", ds.Missing)
		return nil, &e
	}
	for k, miss := range missingCol {
		if miss {
			ds.MissingColumns = append(ds.MissingColumns, k)
		}
	}
	ds.X = mat.NewDense(kept, n, data.slice())
	if nt := len(ds.TargetColumns); nt > 0 {
		ds.Targets = mat.NewDense(kept, nt, targets.slice())
	}
	ds.Text = texts.columns()
	if t.opts.Missing == DropFeatures {
		if err := dropMissingFeatures(ds); err != nil {
			return nil, err
		}
	}
	if lab < 0 {
		return ds, nil
	}
	if err := lc.encode(ds); err != nil {
		if !t.opts.Survey {
			return nil, err
		}
		// A survey describes the columns even when the label does not
		// read as classes.
		ds.Classes, ds.Y = nil, nil
	}
	return ds, nil
}

// value returns the number a cell holds.
func (t *table) value(c cell) (float64, numStatus) {
	switch c.kind {
	case cellNumber:
		if math.IsInf(c.num, 0) {
			return c.num, numInf
		}
		return c.num, numOK
	case cellText:
		return parseNumber(c.s, t.decimalComma)
	}
	return 0, numBad
}

// numberLike reports whether a cell holds a number or a missing-value
// marker.
func (t *table) numberLike(c cell) bool {
	if c.kind == cellNumber || c.kind == cellEmpty || isMissing(c.s) {
		return true
	}
	_, st := parseNumber(c.s, t.decimalComma)
	return st != numBad
}

// looksLikeHeader reports whether some column holds text (not a number and
// not a missing-value marker) in the first row and a number in the second.
func (t *table) looksLikeHeader(first, second []cell) bool {
	for j, c := range first {
		if j >= len(second) {
			break
		}
		if t.numberLike(c) {
			continue
		}
		s2 := second[j]
		if s2.kind == cellEmpty || s2.kind == cellNumber || s2.s == "" {
			return true
		}
		if _, st := parseNumber(s2.s, t.decimalComma); st != numBad {
			return true
		}
	}
	return false
}

// columnNumbers reports whether a row holds the numbers of its columns,
// 0, 1, 2, … or 1, 2, 3, … (a header written by a program that named the
// columns by position).
func columnNumbers(row []cell) bool {
	start := -1
	for j, c := range row {
		v, err := strconv.Atoi(strings.TrimSpace(c.s))
		if err != nil {
			return false
		}
		if j == 0 {
			if v != 0 && v != 1 {
				return false
			}
			start = v
		} else if v != start+j {
			return false
		}
	}
	return true
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = quote(v)
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
