package dataset

// ARFF as Weka documents it (the "ARFF (stable version)" page of the Weka
// manual): a header of @relation, @attribute name type lines (numeric,
// real, integer, string, date, {nominal values}, relational) and @data;
// % starts a comment line; names and values may be quoted with ' or " and
// use backslash escapes; ? is a missing value. A data line is dense (one
// value per attribute, comma-separated) or sparse ({index value, …} with
// 0-based indices, an omitted value being 0, for a nominal attribute its
// first value), either optionally followed by an instance weight {w}.

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

type arffKind uint8

const (
	arffNumeric arffKind = iota
	arffNominal
	arffString
	arffDate
)

type arffAttr struct {
	name   string
	kind   arffKind
	values []string       // nominal values, in declaration order
	index  map[string]int // nominal value → position
	// numericValues: every nominal value is a number, read as that number
	// when the attribute is a feature (else as its position).
	numericValues bool
	line          int
}

// maxLineBytes bounds a line of an ARFF or LIBSVM file: 2 million values of
// 16 characters.
const maxLineBytes = 32 << 20

// lineReader reads lines, counting them, each at most maxLineBytes long.
type lineReader struct {
	br   *bufio.Reader
	line int
	lim  *limits
}

// next returns the next line (without its line end) and its number;
// io.EOF at the end.
func (a *lineReader) next() (string, int, error) {
	var b []byte
	for {
		chunk, err := a.br.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxLineBytes {
			return "", 0, errorf(a.line+1, 0, "", "a line longer than %s", byteSize(maxLineBytes))
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(b) > 0 {
			break
		}
		if err != nil {
			return "", 0, err
		}
		break
	}
	a.line++
	if a.line%4096 == 0 {
		if err := a.lim.alive(); err != nil {
			return "", 0, err
		}
	}
	s := strings.TrimRight(string(b), "\r\n")
	if i := strings.IndexByte(s, 0); i >= 0 {
		return "", 0, nulError(a.line, 0)
	}
	return s, a.line, nil
}

// arffToken reads one name or value from s: quoted with ' or " (backslash
// escapes), or up to a delimiter in stop. It returns the token, whether it
// was quoted, and the rest of s.
func arffToken(s, stop string) (tok string, quoted bool, rest string, err error) {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return "", false, "", nil
	}
	if q := s[0]; q == '\'' || q == '"' {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\' && i+1 < len(s):
				i++
				switch s[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'r':
					b.WriteByte('\r')
				default:
					b.WriteByte(s[i])
				}
			case c == q:
				return b.String(), true, s[i+1:], nil
			default:
				b.WriteByte(c)
			}
		}
		return "", false, "", fmt.Errorf("a quoted value that opens with %c is never closed on its line", q)
	}
	i := strings.IndexAny(s, stop)
	if i < 0 {
		return strings.TrimSpace(s), false, "", nil
	}
	return strings.TrimSpace(s[:i]), false, s[i:], nil
}

// arffList splits a comma-separated list of values (a nominal type's or a
// dense data line's). A value ? that is not quoted is missing.
func arffList(s string) (vals []string, missing []bool, err error) {
	for {
		tok, quoted, rest, err := arffToken(s, ",")
		if err != nil {
			return nil, nil, err
		}
		vals = append(vals, tok)
		missing = append(missing, !quoted && tok == "?")
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return vals, missing, nil
		}
		if rest[0] != ',' {
			return nil, nil, fmt.Errorf("%s follows a value where a comma should", quote(rest))
		}
		s = rest[1:]
	}
}

func readARFF(lim *limits, r io.Reader, opts Options, ds *Dataset) (*Dataset, error) {
	lines := &lineReader{br: bufio.NewReaderSize(r, 64<<10), lim: lim}
	var attrs []*arffAttr
	data := false
	for !data {
		s, line, err := lines.next()
		if err == io.EOF {
			return nil, &Error{Msg: "the ARFF file has no @data section"}
		}
		if err != nil {
			return nil, err
		}
		t := strings.TrimSpace(s)
		if t == "" || t[0] == '%' {
			continue
		}
		word, rest, _ := strings.Cut(t, " ")
		if i := strings.IndexByte(word, '\t'); i >= 0 {
			word, rest = word[:i], t[i+1:]
		}
		switch strings.ToLower(word) {
		case "@relation":
		case "@data":
			data = true
		case "@attribute":
			a, err := arffAttribute(rest, line)
			if err != nil {
				return nil, err
			}
			attrs = append(attrs, a)
		case "@end":
			return nil, errorf(line, 0, "", "@end outside a relational attribute")
		default:
			return nil, errorf(line, 0, "", "%s is not an ARFF declaration (@relation, @attribute or @data)", quote(word))
		}
	}
	if len(attrs) == 0 {
		return nil, &Error{Msg: "the ARFF file declares no attributes"}
	}
	names := make([]string, len(attrs))
	for j, a := range attrs {
		names[j] = a.name
	}
	lab, err := labelColumn(opts.Label, names, true)
	if err != nil {
		return nil, err
	}
	aside := map[int]bool{lab: true} // the label, the IDs, the columns left out
	for _, want := range append([]string{opts.ID}, opts.Ignore...) {
		if strings.TrimSpace(want) == "" {
			continue
		}
		j, err := findColumn(names, true, want, "sample-ID or left-out")
		if err != nil {
			return nil, err
		}
		aside[j] = true
	}
	for j, a := range attrs {
		if aside[j] {
			continue
		}
		switch a.kind {
		case arffString, arffDate:
			what := "a string"
			if a.kind == arffDate {
				what = "a date"
			}
			return nil, errorf(a.line, j+1, a.name, "%s attribute cannot be a feature (only numeric and nominal ones can): make it the label or the sample IDs, or leave it out", what)
		case arffNominal:
			if !a.numericValues {
				ds.Warnings = append(ds.Warnings, fmt.Sprintf("attribute %d (%s) is nominal: its values %s are read as their positions 0…%d",
					j+1, quote(a.name), strings.Join(quoteAll(a.values[:min(len(a.values), 4)]), ", ")+map[bool]string{true: ", …", false: ""}[len(a.values) > 4], len(a.values)-1))
			}
		}
	}
	for _, want := range opts.Targets {
		j, err := findColumn(names, true, want, "target")
		if err != nil {
			return nil, err
		}
		if a := attrs[j]; a.kind != arffNumeric && !(a.kind == arffNominal && a.numericValues) {
			return nil, errorf(a.line, j+1, a.name, "a regression target must be a numeric attribute")
		}
	}
	src := &arffSource{lines: lines, attrs: attrs, lab: lab, warn: func(w string) { ds.Warnings = append(ds.Warnings, w) }}
	t := &table{opts: opts, lim: lim, src: src, names: names}
	return t.build(ds)
}

// arffAttribute parses the rest of an @attribute line.
func arffAttribute(s string, line int) (*arffAttr, error) {
	name, _, rest, err := arffToken(s, " \t{")
	if err != nil {
		return nil, errorf(line, 0, "", "%v", err)
	}
	if name == "" {
		return nil, errorf(line, 0, "", "@attribute without a name")
	}
	a := &arffAttr{name: name, line: line}
	typ := strings.TrimSpace(rest)
	low := strings.ToLower(typ)
	switch {
	case low == "numeric" || low == "real" || low == "integer":
	case low == "string":
		a.kind = arffString
	case strings.HasPrefix(low, "date"):
		a.kind = arffDate
	case strings.HasPrefix(low, "relational"):
		return nil, errorf(line, 0, a.name, "relational attributes (multi-instance data) cannot be read: flatten the relation into numeric attributes")
	case strings.HasPrefix(typ, "{"):
		end := strings.LastIndexByte(typ, '}')
		if end < 0 {
			return nil, errorf(line, 0, a.name, "the list of nominal values is not closed with }")
		}
		vals, _, err := arffList(typ[1:end])
		if err != nil {
			return nil, errorf(line, 0, a.name, "%v", err)
		}
		if len(vals) == 1 && vals[0] == "" {
			vals = nil
		}
		a.kind, a.values, a.index, a.numericValues = arffNominal, vals, map[string]int{}, true
		for k, v := range vals {
			if _, dup := a.index[v]; dup {
				return nil, errorf(line, 0, a.name, "the nominal value %s is declared twice", quote(v))
			}
			a.index[v] = k
			if _, st := parseNumber(v, false); st != numOK {
				a.numericValues = false
			}
		}
	case typ == "":
		return nil, errorf(line, 0, a.name, "the attribute has no type")
	default:
		return nil, errorf(line, 0, a.name, "unknown attribute type %s: use numeric, real, integer, string, date or {a list of values}", quote(typ))
	}
	return a, nil
}

// arffSource reads the @data section as a table's rows.
type arffSource struct {
	lines   *lineReader
	attrs   []*arffAttr
	lab     int
	weights bool // an instance weight has been seen (and ignored)
	warn    func(string)
}

func (s *arffSource) next() ([]cell, int, error) {
	for {
		text, line, err := s.lines.next()
		if err != nil {
			return nil, 0, err
		}
		t := strings.TrimSpace(text)
		if t == "" || t[0] == '%' {
			continue
		}
		row := make([]cell, len(s.attrs))
		if t[0] == '{' {
			err = s.sparse(t, line, row)
		} else {
			err = s.dense(t, line, row)
		}
		if err != nil {
			return nil, 0, err
		}
		return row, line, nil
	}
}

// stripWeight removes a trailing instance weight ", {w}" from a line.
func (s *arffSource) stripWeight(t string) string {
	if !strings.HasSuffix(t, "}") {
		return t
	}
	i := strings.LastIndexByte(t, '{')
	if i <= 0 {
		return t
	}
	before := strings.TrimRight(t[:i], " \t")
	if !strings.HasSuffix(before, ",") && !strings.HasSuffix(before, "}") {
		return t
	}
	if !s.weights {
		s.weights = true
		s.warn("the rows' instance weights {w} are ignored: every sample counts once")
	}
	return strings.TrimSuffix(before, ",")
}

func (s *arffSource) dense(t string, line int, row []cell) error {
	vals, missing, err := arffList(s.stripWeight(t))
	if err != nil {
		return errorf(line, 0, "", "%v", err)
	}
	if len(vals) != len(s.attrs) {
		return errorf(line, 0, "", "this row has %d values but the header declares %d attributes", len(vals), len(s.attrs))
	}
	for j, v := range vals {
		c, err := s.value(j, v, missing[j], line)
		if err != nil {
			return err
		}
		row[j] = c
	}
	return nil
}

func (s *arffSource) sparse(t string, line int, row []cell) error {
	t = s.stripWeight(t)
	if !strings.HasSuffix(t, "}") {
		return errorf(line, 0, "", "a sparse row that opens with { is not closed with }")
	}
	set := make([]bool, len(s.attrs))
	body := strings.TrimSpace(t[1 : len(t)-1])
	for body != "" {
		idx, _, rest, err := arffToken(body, " \t,")
		if err != nil {
			return errorf(line, 0, "", "%v", err)
		}
		k, err := strconv.Atoi(idx)
		if err != nil || k < 0 || k >= len(s.attrs) {
			return errorf(line, 0, "", "sparse index %s is not an attribute's (0 to %d)", quote(idx), len(s.attrs)-1)
		}
		if set[k] {
			return errorf(line, k+1, s.attrs[k].name, "the sparse row gives this attribute twice")
		}
		val, quoted, rest, err := arffToken(rest, ",")
		if err != nil {
			return errorf(line, k+1, s.attrs[k].name, "%v", err)
		}
		if val == "" && !quoted {
			return errorf(line, k+1, s.attrs[k].name, "sparse index %d has no value", k)
		}
		c, err := s.value(k, val, !quoted && val == "?", line)
		if err != nil {
			return err
		}
		row[k], set[k] = c, true
		rest = strings.TrimLeft(rest, " \t")
		if rest != "" && rest[0] != ',' {
			return errorf(line, k+1, s.attrs[k].name, "%s follows a value where a comma should", quote(rest))
		}
		body = strings.TrimLeft(strings.TrimPrefix(rest, ","), " \t")
	}
	for j, a := range s.attrs {
		if set[j] {
			continue
		}
		// An omitted value is 0: for a nominal attribute, its first value.
		if a.kind == arffNominal {
			if len(a.values) == 0 {
				return errorf(line, j+1, a.name, "the value is omitted, but the attribute declares no values")
			}
			c, err := s.value(j, a.values[0], false, line)
			if err != nil {
				return err
			}
			row[j] = c
		} else {
			row[j] = cell{s: "0", kind: cellNumber}
		}
	}
	return nil
}

// value turns attribute j's value into a table cell.
func (s *arffSource) value(j int, v string, missing bool, line int) (cell, error) {
	if missing {
		return cell{kind: cellEmpty}, nil
	}
	a := s.attrs[j]
	switch a.kind {
	case arffNominal:
		k, ok := a.index[v]
		if !ok {
			return cell{}, errorf(line, j+1, a.name, "%s is not one of the attribute's values (%s)", quote(v), strings.Join(quoteAll(a.values[:min(len(a.values), 8)]), ", "))
		}
		if j == s.lab || a.numericValues {
			return cell{s: v}, nil
		}
		return cell{s: v, num: float64(k), kind: cellNumber}, nil
	case arffNumeric:
		if _, st := parseNumber(v, false); st != numOK {
			return cell{}, errorf(line, j+1, a.name, "%s", numberMessage(v, st, "the attribute is numeric"))
		}
	}
	return cell{s: v}, nil
}
