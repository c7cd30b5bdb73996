package dataset

import (
	"fmt"
	"strings"
)

// Error is a problem with the input that a person can fix. Line and Column
// are 1-based positions in the file (0 when they do not apply); Name is the
// column's header name when there is one.
type Error struct {
	Line   int
	Column int
	Name   string
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d", e.Line)
	}
	if e.Column > 0 {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "column %d", e.Column)
		if e.Name != "" {
			fmt.Fprintf(&b, " (%q)", e.Name)
		}
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
