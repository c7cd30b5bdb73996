package dataset

import (
	"bytes"
	"io"
	"strings"
)

// csvReader splits delimited text into records (RFC 4180): fields
// separated by the delimiter, optionally in double quotes (a quote inside
// doubled), records ending with LF, CRLF or, in a file whose first line
// ends so, a lone CR. It is written for this package rather than taken from
// encoding/csv so that every problem is reported where it is: an
// unterminated quote at the line and column where it opens, a lone CR and a
// NUL byte where they are, and so that no cell can grow beyond
// maxCellBytes.
type csvReader struct {
	r     io.Reader
	buf   []byte
	pos   int
	end   int
	rerr  error // the read error that ended the input (io.EOF at its end)
	delim byte
	line  int      // the line of the next byte, 1-based
	mode  lineMode // the file's line ends, known at the first one
	done  bool

	field  []byte   // the current record's field bytes, back to back
	ends   []int    // the end of each field in field
	fields []string // the fields returned, valid until the next record
}

type lineMode uint8

const (
	modeUnknown lineMode = iota
	modeLF               // LF or CRLF
	modeCR               // a lone CR (classic Mac OS)
)

func newCSVReader(r io.Reader, delim byte) *csvReader {
	return &csvReader{r: r, buf: make([]byte, 64<<10), delim: delim, line: 1}
}

// peek returns the next byte without consuming it; false at the end of the
// input or at a read error (in rerr).
func (r *csvReader) peek() (byte, bool) {
	for r.pos >= r.end {
		if r.rerr != nil {
			return 0, false
		}
		n, err := r.r.Read(r.buf)
		r.pos, r.end = 0, n
		if err != nil {
			r.rerr = err
		}
	}
	return r.buf[r.pos], true
}

// failure returns the read error that stopped the input, or nil at its end.
func (r *csvReader) failure() error {
	if r.rerr == io.EOF {
		return nil
	}
	return r.rerr
}

func (r *csvReader) blank(c byte) bool { return c == ' ' || c == '\t' && r.delim != '\t' }

func nulError(line, col int) *Error {
	return errorf(line, col, "", "a NUL byte: this is binary data, not a text table (a text file saved as UTF-16 without a byte-order mark looks like this too: save it as UTF-8)")
}

// record returns the next record that is not blank, its fields trimmed of
// spaces (valid until the next call), and the line it starts on; io.EOF
// after the last.
func (r *csvReader) record() ([]string, int, error) {
	for {
		if r.done {
			return nil, 0, io.EOF
		}
		r.field, r.ends = r.field[:0], r.ends[:0]
		line := r.line
		for {
			col := len(r.ends) + 1
			start := len(r.field)
			c, ok := r.peek()
			for ok && r.blank(c) {
				r.pos++
				c, ok = r.peek()
			}
			if ok && c == '"' {
				qline := r.line
				r.pos++
				for {
					c, ok = r.peek()
					if !ok {
						if err := r.failure(); err != nil {
							return nil, 0, err
						}
						end := r.line
						if len(r.field) > start && r.field[len(r.field)-1] == '\n' {
							end-- // the file ends with a line end
						}
						return nil, 0, errorf(qline, col, "", "the quoted cell that opens here is never closed: the file ends on line %d inside it (add the closing double quote)", end)
					}
					r.pos++
					switch c {
					case '"':
						if c2, ok2 := r.peek(); ok2 && c2 == '"' {
							r.pos++
							r.field = append(r.field, '"')
							continue
						}
					case 0:
						return nil, 0, nulError(r.line, col)
					case '\n':
						r.line++
					case '\r':
						if c2, ok2 := r.peek(); ok2 && c2 == '\n' {
							r.pos++
							r.line++
							c = '\n'
						} else if r.mode == modeCR {
							r.line++
						}
					}
					if c == '"' {
						break
					}
					r.field = append(r.field, c)
					if len(r.field)-start > maxCellBytes {
						return nil, 0, errorf(qline, col, "", "the quoted cell that opens here runs on for more than %s: is its closing double quote missing?", byteSize(maxCellBytes))
					}
				}
				c, ok = r.peek()
				for ok && r.blank(c) {
					r.pos++
					c, ok = r.peek()
				}
				if ok && c != r.delim && c != '\n' && c != '\r' {
					return nil, 0, errorf(r.line, col, "", `text follows the closing quote of a quoted cell: quote the whole cell, and double each double quote inside it ("")`)
				}
			} else {
				// An unquoted field: copy the run of ordinary bytes in
				// the buffer at once, stopping at the first special one.
				for ok {
					b := r.buf[r.pos:r.end]
					i := 0
					for i < len(b) {
						if c = b[i]; c == r.delim || c == '\n' || c == '\r' || c == '"' || c == 0 {
							break
						}
						i++
					}
					r.field = append(r.field, b[:i]...)
					r.pos += i
					if len(r.field)-start > maxCellBytes {
						return nil, 0, errorf(r.line, col, "", "a cell longer than %s: this is not a table of numbers", byteSize(maxCellBytes))
					}
					if i < len(b) {
						break
					}
					c, ok = r.peek()
				}
				switch {
				case ok && c == '"':
					return nil, 0, errorf(r.line, col, "", `a double quote (") appears inside an unquoted field; quote the whole field and double the inner quote ("")`)
				case ok && c == 0:
					return nil, 0, nulError(r.line, col)
				}
			}
			r.ends = append(r.ends, len(r.field))
			if !ok {
				if err := r.failure(); err != nil {
					return nil, 0, err
				}
				r.done = true
				break
			}
			r.pos++
			if c == r.delim {
				continue
			}
			if c == '\r' {
				c2, ok2 := r.peek()
				switch {
				case ok2 && c2 == '\n':
					r.pos++
					if r.mode == modeUnknown {
						r.mode = modeLF
					}
				case !ok2 && r.failure() == nil:
					// A CR that ends the file ends its last line.
				case r.mode == modeLF:
					return nil, 0, errorf(r.line, col, "", "a carriage return (CR) alone ends the line here, where the lines before end with LF: the file mixes line ends (save it again with one kind)")
				default:
					r.mode = modeCR
				}
			} else if r.mode == modeUnknown {
				r.mode = modeLF
			}
			r.line++
			break
		}
		if len(r.ends) == 1 && len(bytes.TrimSpace(r.field)) == 0 {
			continue // a blank line
		}
		all := string(r.field)
		r.fields = r.fields[:0]
		from := 0
		for _, to := range r.ends {
			r.fields = append(r.fields, strings.TrimSpace(all[from:to]))
			from = to
		}
		return r.fields, line, nil
	}
}

// csvSource is a CSV file as a table's rows. The row it returns is valid
// until the next call.
type csvSource struct {
	r   *csvReader
	row []cell
}

func (s *csvSource) next() ([]cell, int, error) {
	rec, line, err := s.r.record()
	if err != nil {
		return nil, 0, err
	}
	s.row = s.row[:0]
	for _, f := range rec {
		s.row = append(s.row, cell{s: f})
	}
	return s.row, line, nil
}

// sniffDelimiter picks the delimiter that splits the first lines into the
// same number (> 1) of fields, preferring tab, then semicolon, then comma
// when several do (a semicolon file may use decimal commas). When none is
// consistent it picks the one giving the most fields on the first line.
// head is the start of the file; whole says it is all of it (else its last
// line may be cut).
func sniffDelimiter(head []byte, whole bool) rune {
	lines := firstLines(head, 50, whole)
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

// firstLines returns up to max non-blank lines of head, split at LF, CRLF
// or CR; when head is not the whole file its last, possibly cut, line is
// dropped unless it is the only one.
func firstLines(head []byte, max int, whole bool) []string {
	var lines []string
	for len(head) > 0 && len(lines) < max {
		i := bytes.IndexAny(head, "\r\n")
		var l []byte
		if i < 0 {
			if !whole && len(lines) > 0 {
				break
			}
			l, head = head, nil
		} else {
			l, head = head[:i], head[i+1:]
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
