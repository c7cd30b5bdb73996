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

// maxClasses bounds the distinct labels of a read: a column with more is
// not a class label (and would cost memory for nothing).
const maxClasses = 1 << 20

// labeler collects the labels of a read as codes into the distinct labels
// seen (4 bytes a sample), then encodes them and checks the class
// structure they give: at least two classes, not one class per sample; it
// warns of classes of one sample and of one number written in several ways.
type labeler struct {
	index map[string]int32
	names []string // the distinct labels, in order of appearance
	first []int    // the line (row, sample) of each one's first sample
	codes store[int32]
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

// add records the label of the next sample, on line.
func (lc *labeler) add(label string, line int) *Error {
	k, ok := lc.index[label]
	if !ok {
		if lc.index == nil {
			lc.index = map[string]int32{}
		}
		if len(lc.names) == maxClasses {
			return lc.at(line, lc.col, lc.name, fmt.Sprintf("more than %s distinct labels: this column is not a class label (choose the label column)", thousands(maxClasses)))
		}
		// A label may be a slice of its row's text: keep a copy only.
		label = strings.Clone(label)
		k = int32(len(lc.names))
		lc.index[label] = k
		lc.names = append(lc.names, label)
		lc.first = append(lc.first, line)
	}
	lc.codes.add(k)
	return nil
}

// encode sets ds.Classes and ds.Y, or refuses the class structure.
func (lc *labeler) encode(ds *Dataset) error {
	codes := lc.codes.slice()
	m := len(codes)
	for i, l := range lc.names {
		if !utf8.ValidString(l) {
			ds.Warnings = append(ds.Warnings, lc.at(lc.first[i], lc.col, lc.name, fmt.Sprintf("byte 0x%02X of the label is not UTF-8: labels are read as Windows-1252 (Latin-1); save the file as UTF-8 to be sure of the class names", badByte(l))).Error())
			for k := range lc.names[i:] {
				lc.names[i+k] = fromCP1252(lc.names[i+k])
			}
			break
		}
	}
	classes, order := EncodeLabels(lc.names)
	c := len(classes)
	first := make([]int, c)
	for k, cl := range order {
		first[cl] = lc.first[k]
	}
	if c < 2 {
		return lc.at(0, lc.col, lc.name, fmt.Sprintf("every sample has the same class %s; selection needs at least two classes (is this the right label column?)", quote(classes[0])))
	}
	if c == m && m > 2 {
		e := lc.at(0, lc.col, lc.name, fmt.Sprintf("%s classes for %s samples: every class has one sample, so no class can be learnt (is this the label column? Its values may be measurements, not classes)", thousands(int64(c)), thousands(int64(m))))
		e.Err = &UniqueLabels{Column: lc.col, Numeric: NumericLabels(classes)}
		return e
	}
	ds.Classes = classes
	ds.Y = make([]int, m)
	for i, k := range codes {
		ds.Y[i] = order[k]
	}
	counts := ds.ClassCounts()
	var single []string
	nsingle := 0
	for k, n := range counts {
		if n != 1 {
			continue
		}
		nsingle++
		if len(single) < 3 {
			single = append(single, fmt.Sprintf("%s on %s", quote(ds.Classes[k]), lc.where(first[k])))
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
	if nsingle*2 <= c && c > 10 && m < 3*c {
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("%s classes for %s samples, %.1f a class on average: few models can learn a class from so few samples",
			thousands(int64(c)), thousands(int64(m)), float64(m)/float64(c)))
	}
	if lc.firstRowData && counts[ds.Y[0]] == 1 {
		ds.Warnings = append(ds.Warnings, fmt.Sprintf("the first row was read as data, and its label %s occurs in no other row: if the first row is a header, say so (header=yes)", quote(ds.Classes[ds.Y[0]])))
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

// NumericLabels reports whether every label is a number.
func NumericLabels(classes []string) bool {
	for _, c := range classes {
		if v, err := strconv.ParseFloat(strings.TrimSpace(c), 64); err != nil || math.IsNaN(v) {
			return false
		}
	}
	return true
}
