package dataset

import (
	"fmt"
	"io"
	"strconv"
)

// transposed is a rowSource over a whole table read first, yielding its
// columns as rows (Options.Transpose: a file whose rows are the features).
// Row j is the file's column j + 1, reported as "line" j + 1.
type transposed struct {
	rows [][]cell
	col  int
	out  []cell
}

func (s *transposed) next() ([]cell, int, error) {
	if len(s.rows) == 0 || s.col == len(s.rows[0]) {
		return nil, 0, io.EOF
	}
	if s.out == nil {
		s.out = make([]cell, len(s.rows))
	}
	for i, r := range s.rows {
		s.out[i] = r[s.col]
	}
	s.col++
	return s.out, s.col, nil
}

// transpose reads the whole table from t.src and replaces it with its
// transpose; places in messages keep naming the file's own rows and
// columns.
func (t *table) transpose() error {
	if t.names != nil {
		return &Error{Msg: "an ARFF file's attributes are its columns: it cannot be read transposed"}
	}
	at, where := t.at, t.where
	var rows [][]cell
	var lines []int
	for {
		rec, line, err := t.src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(rows) > 0 && len(rec) != len(rows[0]) {
			return at(line, 0, "", fmt.Sprintf("this row has %d fields but the first has %d (a ragged row); a table read with its features in rows needs rows of one length", len(rec), len(rows[0])))
		}
		if err := t.lim.cells(int64(len(rows)+1), int64(len(rec)), line); err != nil {
			return err
		}
		if len(rows)%1024 == 0 {
			if err := t.lim.alive(); err != nil {
				return err
			}
		}
		rows = append(rows, append([]cell(nil), rec...))
		lines = append(lines, line)
	}
	t.src = &transposed{rows: rows}
	// The table's row r, column c is the file's column r, row c.
	t.at = func(r, c int, name, msg string) *Error {
		line := 0
		if c >= 1 && c <= len(lines) {
			line = lines[c-1]
		}
		e := at(line, r, "", msg)
		if name != "" {
			e.Msg = fmt.Sprintf("row %s: %s", quote(name), msg)
		}
		return e
	}
	t.where = func(r int) string {
		if r == 0 {
			return where(0)
		}
		return "column " + strconv.Itoa(r)
	}
	return nil
}
