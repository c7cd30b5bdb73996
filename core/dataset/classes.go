package dataset

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

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

// labelCheck encodes the labels of a read and checks the class structure
// they give: at least two classes, not one class per sample; it warns of
// classes of one sample and of one number written in several ways.
type labelCheck struct {
	labels []string
	// lines are the line (row, sample) of each label, for messages.
	lines []int
	// col and name are the label column's number and name; at makes an
	// error at a place, where names a line in a message.
	col   int
	name  string
	at    func(line, col int, name, msg string) *Error
	where func(line int) string
	// firstRowData is set when the first row of a text table was read as
	// data, not as a header.
	firstRowData bool
}

// encode sets ds.Classes and ds.Y, or refuses the class structure.
func (lc *labelCheck) encode(ds *Dataset) error {
	m := len(lc.labels)
	badLine := -1
	for i, l := range lc.labels {
		if !utf8.ValidString(l) {
			if badLine < 0 {
				badLine = i
				ds.Warnings = append(ds.Warnings, lc.at(lc.lines[i], lc.col, lc.name, fmt.Sprintf("byte 0x%02X of the label is not UTF-8: labels are read as Windows-1252 (Latin-1); save the file as UTF-8 to be sure of the class names", badByte(l))).Error())
			}
			lc.labels[i] = fromCP1252(l)
		}
	}
	ds.Classes, ds.Y = EncodeLabels(lc.labels)
	c := len(ds.Classes)
	if c < 2 {
		return lc.at(0, lc.col, lc.name, fmt.Sprintf("every sample has the same class %s; selection needs at least two classes (is this the right label column?)", quote(ds.Classes[0])))
	}
	if c == m && m > 2 {
		return lc.at(0, lc.col, lc.name, fmt.Sprintf("%s classes for %s samples: every class has one sample, so no class can be learnt (is this the label column? Its values may be measurements, not classes)", thousands(int64(c)), thousands(int64(m))))
	}
	counts := ds.ClassCounts()
	firstAt := make([]int, c)
	for i := range firstAt {
		firstAt[i] = -1
	}
	for i, y := range ds.Y {
		if firstAt[y] < 0 {
			firstAt[y] = i
		}
	}
	var single []string
	nsingle := 0
	firstRow := false
	for k, n := range counts {
		if n != 1 {
			continue
		}
		nsingle++
		if firstAt[k] == 0 && lc.firstRowData {
			firstRow = true
		}
		if len(single) < 3 {
			single = append(single, fmt.Sprintf("%s on %s", quote(ds.Classes[k]), lc.where(lc.lines[firstAt[k]])))
		}
	}
	if nsingle > 0 {
		more := ""
		if nsingle > len(single) {
			more = fmt.Sprintf(" and %s more", thousands(int64(nsingle-len(single))))
		}
		what := "class has"
		if nsingle > 1 {
			what = "classes have"
		}
		w := fmt.Sprintf("%s %s a single sample (%s%s): a model cannot learn such a class, and a stratified split cannot place it in both its parts",
			thousands(int64(nsingle)), what, strings.Join(single, ", "), more)
		if nsingle*2 > c {
			w += fmt.Sprintf("; %s classes for %s samples: is this the label column?", thousands(int64(c)), thousands(int64(m)))
		}
		ds.Warnings = append(ds.Warnings, w)
	}
	if firstRow {
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("the first row was read as data, and its label %s occurs in no other row: if the first row is a header, say so (header=yes)", quote(lc.labels[0])))
	}
	ds.Warnings = append(ds.Warnings, spellings(ds.Classes)...)
	return nil
}

// spellings warns of classes whose labels are one number written in several
// ways (1, 1.0, 01): they are distinct classes, which is rarely meant.
func spellings(classes []string) []string {
	byValue := map[float64][]string{}
	var order []float64
	for _, c := range classes {
		v, err := strconv.ParseFloat(strings.TrimSpace(c), 64)
		if err != nil || math.IsNaN(v) {
			continue
		}
		if len(byValue[v]) == 0 {
			order = append(order, v)
		}
		byValue[v] = append(byValue[v], c)
	}
	var out []string
	for _, v := range order {
		s := byValue[v]
		if len(s) < 2 {
			continue
		}
		if len(out) == 3 {
			out = append(out, "more labels are one number written in several ways")
			break
		}
		out = append(out, fmt.Sprintf("the labels %s are one number (%s) written in %d ways: they are read as %d different classes; write them alike if they are one class",
			strings.Join(quoteAll(s), ", "), numberText(v), len(s), len(s)))
	}
	return out
}
