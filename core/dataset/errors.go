package dataset

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Error is a problem with the input that a person can fix. Line and Column
// are 1-based positions in the file (0 when they do not apply); Name is the
// column's header name when there is one.
//
// In a workbook (Sheet set) Line and Column are the row and column of a
// cell, shown as a reference such as B7; in a MATLAB file (Var set) they
// are the row and column of the variable.
type Error struct {
	Line   int
	Column int
	Name   string
	Msg    string
	// Sheet is the worksheet of an XLSX file the problem is in.
	Sheet string
	// Var is the MATLAB variable the problem is in.
	Var string
	// Err is the underlying cause, if any (ErrLimit for a limit reached).
	Err error
}

// TextCell is the cause of the *Error of a feature column's cell that holds
// text: neither a number nor a missing value. Column is the table's column
// (1-based, as Options.Label takes it), which may be the class label.
type TextCell struct{ Column int }

func (t *TextCell) Error() string { return fmt.Sprintf("column %d holds text", t.Column) }

// UniqueLabels is the cause of the *Error of a label column whose every
// value differs; Numeric tells whether they are all numbers (a
// measurement, perhaps, to read as a regression target).
type UniqueLabels struct {
	Column  int
	Numeric bool
}

func (u *UniqueLabels) Error() string {
	return fmt.Sprintf("column %d has a different value in every row", u.Column)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	var b strings.Builder
	sep := func() {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
	}
	switch {
	case e.Sheet != "":
		fmt.Fprintf(&b, "sheet %q", e.Sheet)
		switch {
		case e.Line > 0 && e.Column > 0:
			fmt.Fprintf(&b, ", cell %s%d", ColumnLetters(e.Column), e.Line)
		case e.Line > 0:
			fmt.Fprintf(&b, ", row %d", e.Line)
		case e.Column > 0:
			fmt.Fprintf(&b, ", column %s", ColumnLetters(e.Column))
		}
	case e.Var != "":
		fmt.Fprintf(&b, "variable %q", e.Var)
		if e.Line > 0 {
			fmt.Fprintf(&b, ", row %d", e.Line)
		}
		if e.Column > 0 {
			fmt.Fprintf(&b, ", column %d", e.Column)
		}
	default:
		if e.Line > 0 {
			fmt.Fprintf(&b, "line %d", e.Line)
		}
		if e.Column > 0 {
			sep()
			fmt.Fprintf(&b, "column %d", e.Column)
		}
	}
	if e.Name != "" && e.Column > 0 {
		fmt.Fprintf(&b, " (%s)", quote(e.Name))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func errorf(line, col int, name, format string, args ...any) *Error {
	return &Error{Line: line, Column: col, Name: name, Msg: fmt.Sprintf(format, args...)}
}

// ColumnLetters returns a spreadsheet's name of the 1-based column j
// (1 → A, 27 → AA).
func ColumnLetters(j int) string {
	if j < 1 {
		return "?"
	}
	var b []byte
	for ; j > 0; j = (j - 1) / 26 {
		b = append(b, byte('A'+(j-1)%26))
	}
	for i, k := 0, len(b)-1; i < k; i, k = i+1, k-1 {
		b[i], b[k] = b[k], b[i]
	}
	return string(b)
}

// quoteMax is the length, in bytes, beyond which a value quoted in a
// message is cut: a message must stay readable whatever the cell holds.
const quoteMax = 40

// quote returns s quoted as Go does (invalid bytes escaped), cut to about
// quoteMax bytes with its full length said when it is longer.
func quote(s string) string {
	if len(s) <= quoteMax {
		return strconv.Quote(s)
	}
	cut := quoteMax - 8
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… (%s bytes)", thousands(int64(len(s))))
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// byteSize writes a number of bytes in the largest binary unit that keeps
// it at least 1, with at most one decimal (1 GiB, 512 MiB, 3.5 KiB).
func byteSize(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 {
		return thousands(n) + " bytes"
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + units[u]
}
