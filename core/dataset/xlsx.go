package dataset

// The XLSX reader is written here over archive/zip and encoding/xml's
// tokenizer instead of taken from a library, because it is the smallest.
// Measured on a program that reads a file through this package, built with
// GOOS=js GOARCH=wasm go build -ldflags="-s -w" -trimpath (Go 1.26.8), the
// size of the binary, raw and after gzip -9, on the package without a
// workbook reader (the other four formats in) and with each choice:
//
//	                                     raw                    gzip -9
//	no workbook reader                   3,613,804              1,009,761
//	this reader (archive/zip, xml)       4,021,684 (+407,880)   1,118,616 (+108,855)
//	thedatashed/xlsxreader v1.2.8        4,783,227 (+1,169,423) 1,318,778 (+309,017)
//	xuri/excelize/v2 v2.11.1             9,743,368 (+6,129,564) 2,778,685 (+1,768,924)
//
// (the libraries' figures without the glue a reader needs around them).
// The format is small enough to read correctly by hand: ECMA-376 Part 1
// §18.3.1 (sheetData, row, c, v, is), §18.4 (shared strings: si, t, r,
// rPh), §18.18.11 (cell types b, d, e, inlineStr, n, s, str), Part 2 §9.3
// (the relationships that name the workbook and its sheets).

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// The largest cell reference a workbook can hold: column XFD, row 1048576.
const (
	xlsxMaxCol = 16384
	xlsxMaxRow = 1048576
)

type workbook struct {
	lim   *limits
	files map[string]*zip.File
	// shared is the shared string table (sharedErr the error reading
	// it), read when a sheet first needs it: once, however many sheets
	// are tried.
	shared     []string
	sharedErr  error
	sharedRead bool
}

// sharedTable returns the workbook's shared string table, named among the
// workbook part's relationships bookRels (none: nil).
func (wb *workbook) sharedTable(bookRels map[string][2]string) ([]string, error) {
	if !wb.sharedRead {
		wb.sharedRead = true
		for _, rel := range bookRels {
			if strings.HasSuffix(rel[0], "/sharedStrings") && wb.files[rel[1]] != nil {
				if wb.shared, wb.sharedErr = wb.sharedStrings(rel[1]); wb.sharedErr != nil {
					break
				}
			}
		}
	}
	return wb.shared, wb.sharedErr
}

// open returns the decompressed content of a part, counted against the
// byte limit.
func (wb *workbook) open(name string) (io.ReadCloser, error) {
	f := wb.files[name]
	if f == nil {
		return nil, &Error{Msg: fmt.Sprintf("the workbook has no part %s: it is damaged", name)}
	}
	if wb.lim.maxBytes > 0 && f.UncompressedSize64 > uint64(wb.lim.maxBytes) {
		wb.lim.compressed = true
		return nil, &Error{Msg: fmt.Sprintf("the workbook's part %s declares %s when decompressed, beyond the limit of %s; if the file is genuine, raise the limit on bytes read",
			name, byteSize(int64(min(f.UncompressedSize64, 1<<62))), byteSize(wb.lim.maxBytes)), Err: ErrLimit}
	}
	rc, err := f.Open()
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("the workbook's part %s cannot be opened: %v", name, err), Err: err}
	}
	return struct {
		io.Reader
		io.Closer
	}{wb.lim.data(rc, "workbook's compressed"), rc}, nil
}

// xmlError reports a damaged part.
func xmlError(part string, err error) error {
	if isOurs(err) {
		return err
	}
	return &Error{Msg: fmt.Sprintf("the workbook's part %s is not valid XML: %v", part, err), Err: err}
}

// attr returns the value of the attribute of local name key.
func attr(e xml.StartElement, key string) string {
	for _, a := range e.Attr {
		if a.Name.Local == key {
			return a.Value
		}
	}
	return ""
}

// rels reads a relationships part: Id → (Type, Target resolved against
// base, the folder of the part the relationships belong to).
func (wb *workbook) rels(name, base string) (map[string][2]string, error) {
	out := map[string][2]string{}
	if wb.files[name] == nil {
		return out, nil
	}
	rc, err := wb.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, xmlError(name, err)
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "Relationship" {
			target := attr(e, "Target")
			if strings.HasPrefix(target, "/") {
				target = strings.TrimPrefix(target, "/")
			} else {
				target = path.Join(base, target)
			}
			out[attr(e, "Id")] = [2]string{attr(e, "Type"), target}
		}
	}
}

func readXLSX(lim *limits, r io.Reader, opts Options, ds *Dataset) (*Dataset, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("this is a ZIP archive that cannot be opened (%v): an Excel workbook (.xlsx) is one, but this one is damaged or is no workbook", err), Err: err}
	}
	wb := &workbook{lim: lim, files: map[string]*zip.File{}}
	for _, f := range zr.File {
		wb.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	// The workbook part: named by the package's relationships (ECMA-376
	// Part 2 §9.3), usually xl/workbook.xml.
	top, err := wb.rels("_rels/.rels", "")
	if err != nil {
		return nil, err
	}
	book := ""
	for _, rel := range top {
		if strings.HasSuffix(rel[0], "/officeDocument") {
			book = rel[1]
		}
	}
	if book == "" || wb.files[book] == nil {
		book = "xl/workbook.xml"
	}
	if wb.files[book] == nil {
		return nil, notWorkbook(wb)
	}
	bookRels, err := wb.rels(path.Join(path.Dir(book), "_rels", path.Base(book)+".rels"), path.Dir(book))
	if err != nil {
		return nil, err
	}
	type sheet struct{ name, target, kind string }
	var sheets []sheet
	rc, err := wb.open(book)
	if err != nil {
		return nil, err
	}
	d := xml.NewDecoder(rc)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			rc.Close()
			return nil, xmlError(book, err)
		}
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "sheet" {
			rel := bookRels[attr(e, "id")]
			sheets = append(sheets, sheet{name: attr(e, "name"), target: rel[1], kind: rel[0]})
		}
	}
	rc.Close()
	if len(sheets) == 0 {
		return nil, &Error{Msg: "the workbook has no worksheet"}
	}
	for _, s := range sheets {
		ds.Sheets = append(ds.Sheets, s.name)
	}
	if opts.Sheet == "" {
		return firstTable(ds, len(sheets), func(i int, ds *Dataset) (*Dataset, error) {
			return wb.readSheet(ds, sheets[i].name, sheets[i].target, sheets[i].kind, bookRels, opts)
		})
	}
	chosen := -1
	for i, s := range sheets {
		if s.name == opts.Sheet {
			chosen = i
		}
	}
	if chosen < 0 {
		for i, s := range sheets {
			if strings.EqualFold(s.name, strings.TrimSpace(opts.Sheet)) {
				chosen = i
				break
			}
		}
	}
	if chosen < 0 {
		return nil, &Error{Msg: fmt.Sprintf("the workbook has no sheet named %s; its sheets are %s", quote(opts.Sheet), strings.Join(quoteAll(ds.Sheets), ", "))}
	}
	sh := sheets[chosen]
	return wb.readSheet(ds, sh.name, sh.target, sh.kind, bookRels, opts)
}

// firstTable reads the first of a workbook's n sheets that holds a table:
// a workbook often opens with a sheet of notes. A sheet skipped is named
// in a warning, with why; when no sheet reads, the error gives every
// sheet's problem. A limit reached or a cancelled read stops at once.
func firstTable(ds *Dataset, n int, read func(i int, ds *Dataset) (*Dataset, error)) (*Dataset, error) {
	base := *ds
	var skipped []string
	var errs []error
	for i := range n {
		try := base
		out, err := read(i, &try)
		if err == nil {
			out.Warnings = append(skipped, out.Warnings...)
			*ds = *out
			return ds, nil
		}
		var e *Error
		if !errors.As(err, &e) || errors.Is(err, ErrLimit) {
			return nil, err
		}
		errs = append(errs, err)
		skipped = append(skipped, err.Error()+" — this sheet is skipped")
	}
	if len(errs) == 1 {
		return nil, errs[0]
	}
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return nil, &Error{Msg: "no sheet of the workbook holds a table that reads: " + strings.Join(msgs, "; ")}
}

// readSheet reads the table on one sheet (named name, in part target, of
// relationship type kind). Every problem it finds names the sheet.
func (wb *workbook) readSheet(ds *Dataset, name, target, kind string, bookRels map[string][2]string, opts Options) (*Dataset, error) {
	ds.Sheet = name
	if !strings.HasSuffix(kind, "/worksheet") || wb.files[target] == nil {
		what := "is not a worksheet"
		if strings.HasSuffix(kind, "/chartsheet") {
			what = "is a chart, not a worksheet"
		}
		return nil, &Error{Sheet: name, Msg: what + ": choose another sheet"}
	}
	shared, err := wb.sharedTable(bookRels)
	if err != nil {
		return nil, err
	}
	rc, err := wb.open(target)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	src := &xlsxSource{lim: wb.lim, d: xml.NewDecoder(rc), part: target, sheet: name, shared: shared}
	t := &table{opts: opts, lim: wb.lim, src: src, decimalComma: true,
		at: func(line, col int, cname, msg string) *Error {
			if col > 0 {
				col += src.first - 1
			}
			return &Error{Sheet: name, Line: line, Column: col, Name: cname, Msg: msg}
		},
		where: func(line int) string { return "row " + strconv.Itoa(line) },
	}
	out, err := t.build(ds)
	var e *Error
	if errors.As(err, &e) && e.Sheet == "" && e.Var == "" {
		e.Sheet = name
	}
	return out, err
}

// notWorkbook names what a ZIP archive without a workbook is.
func notWorkbook(wb *workbook) error {
	if f := wb.files["mimetype"]; f != nil {
		if rc, err := f.Open(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(rc, 100))
			rc.Close()
			if strings.Contains(string(b), "opendocument.spreadsheet") {
				return &Error{Msg: "this is an OpenDocument spreadsheet (.ods), which sparsefs cannot read: save it as .xlsx or CSV"}
			}
		}
	}
	if wb.files["word/document.xml"] != nil {
		return &Error{Msg: "this is a Word document, not a data table"}
	}
	return &Error{Msg: "this is a ZIP archive but not an Excel workbook (it has no xl/workbook.xml): extract the data file from it"}
}

// sharedStrings reads the shared string table (§18.4.9): one si per
// string, its text in t, or in the t of its rich-text runs r (phonetic runs
// rPh are not part of the text).
func (wb *workbook) sharedStrings(name string) ([]string, error) {
	rc, err := wb.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	var out []string
	var b strings.Builder
	in, text, phonetic := false, false, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, xmlError(name, err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "si":
				in = true
				b.Reset()
			case "rPh":
				phonetic++
			case "t":
				text = in && phonetic == 0
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "si":
				out = append(out, b.String())
				in = false
			case "rPh":
				phonetic--
			case "t":
				text = false
			}
		case xml.CharData:
			if text {
				b.Write(e)
				if b.Len() > maxCellBytes {
					return nil, &Error{Msg: fmt.Sprintf("the workbook's shared string %d is longer than %s: this is not a table of numbers", len(out)+1, byteSize(maxCellBytes))}
				}
			}
		}
	}
}

// xlsxSource reads a worksheet's rows (§18.3.1.73 row, §18.3.1.4 c). The
// table spans the columns of the first row that holds anything; a later
// row's cells outside them are an error, its missing cells empty.
type xlsxSource struct {
	lim    *limits
	d      *xml.Decoder
	part   string
	sheet  string
	shared []string
	// first and last are the table's first and last columns (1-based),
	// set by its first row.
	first, last int
	row         int  // the row last read
	inData      bool // inside sheetData
}

func (s *xlsxSource) errAt(row, col int, format string, args ...any) *Error {
	return &Error{Sheet: s.sheet, Line: row, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// cellRef parses a reference such as "AB12" into its column and row.
func cellRef(ref string) (col, row int, ok bool) {
	i := 0
	for i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z' {
		col = col*26 + int(ref[i]-'A'+1)
		i++
		if col > xlsxMaxCol {
			return 0, 0, false
		}
	}
	if i == 0 || i == len(ref) {
		return 0, 0, false
	}
	row, err := strconv.Atoi(ref[i:])
	if err != nil || row < 1 || row > xlsxMaxRow {
		return 0, 0, false
	}
	return col, row, true
}

// rawCell is a cell as the sheet holds it.
type rawCell struct {
	col     int
	typ     string
	v       strings.Builder
	hasV    bool // inside v
	gotV    bool // v has been read
	inline  bool
	inText  bool
	phon    int
	formula int
}

func (s *xlsxSource) next() ([]cell, int, error) {
	for {
		row, cells, err := s.readRow()
		if err != nil {
			return nil, 0, err
		}
		if len(cells) == 0 {
			continue // a blank row
		}
		if s.first == 0 {
			s.first, s.last = cells[0].col, cells[len(cells)-1].col
		}
		out := make([]cell, s.last-s.first+1)
		for i := range out {
			out[i].kind = cellEmpty
		}
		for _, c := range cells {
			if c.col < s.first || c.col > s.last {
				return nil, 0, s.errAt(row, c.col, "this cell lies outside the table, which spans columns %s to %s (the first row that holds anything): move or delete it",
					ColumnLetters(s.first), ColumnLetters(s.last))
			}
			out[c.col-s.first] = c.cell
		}
		return out, row, nil
	}
}

type placedCell struct {
	col int
	cell
}

// readRow reads the next row element: its number and its cells that hold
// something, in column order; io.EOF after the last.
func (s *xlsxSource) readRow() (int, []placedCell, error) {
	var cells []placedCell
	inRow := false
	var c *rawCell
	row, nextCol := 0, 1
	for {
		tok, err := s.d.Token()
		if err == io.EOF {
			if inRow {
				return 0, nil, xmlError(s.part, errors.New("the file ends inside a row"))
			}
			return 0, nil, io.EOF
		}
		if err != nil {
			return 0, nil, xmlError(s.part, err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "sheetData":
				s.inData = true
			case "row":
				if !s.inData {
					continue
				}
				inRow = true
				row = s.row + 1
				if r := attr(e, "r"); r != "" {
					n, err := strconv.Atoi(r)
					if err != nil || n < 1 || n > xlsxMaxRow {
						return 0, nil, s.errAt(s.row+1, 0, "the row number %s is not one a worksheet can have", quote(r))
					}
					row = n
				}
				if row <= s.row {
					return 0, nil, s.errAt(row, 0, "row %d comes after row %d: the worksheet is damaged", row, s.row)
				}
				s.row = row
				nextCol = 1
				if row%1024 == 0 {
					if err := s.lim.alive(); err != nil {
						return 0, nil, err
					}
				}
			case "c":
				if !inRow {
					continue
				}
				c = &rawCell{col: nextCol, typ: attr(e, "t")}
				if ref := attr(e, "r"); ref != "" {
					col, r, ok := cellRef(ref)
					if !ok || r != row {
						return 0, nil, s.errAt(row, 0, "the cell reference %s is not one of row %d", quote(ref), row)
					}
					c.col = col
				}
				if c.col < nextCol {
					return 0, nil, s.errAt(row, c.col, "this cell comes after column %s in its row: the worksheet is damaged", ColumnLetters(nextCol-1))
				}
				if c.col > xlsxMaxCol {
					return 0, nil, s.errAt(row, 0, "a cell beyond column XFD, the last a worksheet has")
				}
				nextCol = c.col + 1
			case "v":
				if c != nil {
					c.hasV = true
				}
			case "is":
				if c != nil {
					c.inline = true
				}
			case "t":
				if c != nil && c.inline && c.phon == 0 {
					c.inText = true
				}
			case "rPh":
				if c != nil {
					c.phon++
				}
			case "f":
				if c != nil {
					c.formula++
				}
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "sheetData":
				s.inData = false
			case "row":
				if inRow {
					return row, cells, nil
				}
			case "c":
				if c == nil {
					continue
				}
				pc, err := s.typed(row, c)
				if err != nil {
					return 0, nil, err
				}
				if pc.kind != cellEmpty {
					cells = append(cells, pc)
				}
				c = nil
			case "v":
				if c != nil {
					c.hasV, c.gotV = false, true
				}
			case "t":
				if c != nil {
					c.inText = false
				}
			case "rPh":
				if c != nil {
					c.phon--
				}
			case "f":
				if c != nil {
					c.formula--
				}
			}
		case xml.CharData:
			if c != nil && (c.hasV || c.inText) && c.formula == 0 {
				c.v.Write(e)
				if c.v.Len() > maxCellBytes {
					return 0, nil, s.errAt(row, c.col, "a cell longer than %s: this is not a table of numbers", byteSize(maxCellBytes))
				}
			}
		}
	}
}

// typed turns a cell's type and text into a table cell (§18.18.11).
func (s *xlsxSource) typed(row int, c *rawCell) (placedCell, error) {
	typ := c.typ
	text := c.v.String()
	pc := placedCell{col: c.col}
	switch {
	case c.inline || typ == "inlineStr":
		pc.cell = cell{s: strings.TrimSpace(text)}
	case !c.gotV:
		pc.kind = cellEmpty
		return pc, nil
	case typ == "s":
		k, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil || k < 0 || k >= len(s.shared) {
			return pc, s.errAt(row, c.col, "the cell refers to shared string %s, which the workbook does not have: it is damaged", quote(text))
		}
		pc.cell = cell{s: strings.TrimSpace(s.shared[k])}
	case typ == "str", typ == "d":
		pc.cell = cell{s: strings.TrimSpace(text)}
	case typ == "b":
		switch strings.TrimSpace(text) {
		case "1":
			pc.cell = cell{s: "TRUE", num: 1, kind: cellNumber}
		case "0":
			pc.cell = cell{s: "FALSE", num: 0, kind: cellNumber}
		default:
			return pc, s.errAt(row, c.col, "the boolean cell holds %s, not 0 or 1: the workbook is damaged", quote(text))
		}
	case typ == "e":
		pc.cell = cell{s: strings.TrimSpace(text), kind: cellError}
	case typ == "" || typ == "n":
		v, st := parseNumber(strings.TrimSpace(text), false)
		if st == numOK {
			pc.cell = cell{s: numberText(v), num: v, kind: cellNumber}
		} else {
			pc.cell = cell{s: strings.TrimSpace(text)}
		}
	default:
		return pc, s.errAt(row, c.col, "the cell has the unknown type %s: the workbook is damaged", quote(typ))
	}
	if pc.kind == cellText && pc.s == "" {
		pc.kind = cellEmpty
	}
	return pc, nil
}
