package dataset

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// TextColumn describes a feature column that holds text, found by a read
// with Options.Survey: its cells that hold text are counted and read as
// missing, so that an inspection can propose the column's role (the label,
// the sample IDs, or left out) instead of refusing the file.
type TextColumn struct {
	// Column is the column's 1-based position in the file, Name its name.
	Column int
	Name   string
	// Cells counts the cells holding text (not numbers, not missing);
	// Distinct the different texts among them, counted up to
	// surveyDistinctMax.
	Cells    int
	Distinct int
	// Example is the first text found (cut to a few dozen bytes) and Line
	// where.
	Example string
	Line    int
}

// surveyDistinctMax bounds the distinct texts a survey keeps per column.
const surveyDistinctMax = 1 << 16

// survey collects the text columns of a read (Options.Survey).
type survey struct {
	cols map[int]*surveyed
}

type surveyed struct {
	TextColumn
	seen map[string]struct{}
}

// add records text s in column j (0-based), on line.
func (s *survey) add(j int, name, text string, line int) {
	if s.cols == nil {
		s.cols = map[int]*surveyed{}
	}
	c := s.cols[j]
	if c == nil {
		ex := text
		if len(ex) > 40 {
			cut := 40
			for cut > 0 && !utf8.RuneStart(ex[cut]) {
				cut--
			}
			ex = ex[:cut] + "…"
		}
		c = &surveyed{TextColumn: TextColumn{Column: j + 1, Name: name, Example: ex, Line: line}, seen: map[string]struct{}{}}
		s.cols[j] = c
	}
	c.Cells++
	if len(c.seen) < surveyDistinctMax {
		if _, ok := c.seen[text]; !ok {
			c.seen[strings.Clone(text)] = struct{}{}
		}
	}
	c.Distinct = len(c.seen)
}

// columns returns the text columns found, in file order.
func (s *survey) columns() []TextColumn {
	out := make([]TextColumn, 0, len(s.cols))
	for _, c := range s.cols {
		out = append(out, c.TextColumn)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Column < out[b].Column })
	if len(out) == 0 {
		return nil
	}
	return out
}
