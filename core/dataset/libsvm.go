package dataset

// LIBSVM's data format, as its README gives it ("<label> <index1>:<value1>
// <index2>:<value2> …", indices ascending from 1, a feature absent from a
// line being 0) and as SVMlight extends it (a "qid:" pair after the label,
// "#" starting a comment to the end of the line).

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

type libsvmPair struct {
	idx uint32
	val float64
}

func readLIBSVM(lim *limits, r io.Reader, opts Options, ds *Dataset) (*Dataset, error) {
	lines := &lineReader{br: bufio.NewReaderSize(r, 64<<10), lim: lim}
	var (
		lc = &labeler{col: 1, name: "label",
			at:    func(line, _ int, _, msg string) *Error { return &Error{Line: line, Msg: msg} },
			where: func(line int) string { return "line " + strconv.Itoa(line) }}
		rows   int
		ends   []int // the end of each row's pairs
		idx    store[uint32]
		val    floats
		pairs  []libsvmPair
		maxIdx uint32
		first  *Error // the first missing value
	)
	for {
		text, line, err := lines.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		label, rest := nextField(text)
		if label == "" {
			continue
		}
		switch {
		case strings.Contains(label, ":"):
			return nil, errorf(line, 0, "", "the line starts with %s, not with a label: each line is label index:value index:value …", quote(label))
		case strings.Contains(label, ","):
			return nil, errorf(line, 0, "", "the label %s holds several labels (the multi-label format), which sparsefs cannot read: give each sample one class", quote(label))
		case isMissing(label):
			return nil, errorf(line, 0, "", "the class label is missing")
		}
		v, st := parseNumber(label, false)
		if st != numOK {
			return nil, errorf(line, 0, "", "label %s", numberMessage(label, st, "a LIBSVM label is a number"))
		}
		pairs = pairs[:0]
		sorted := true
		for {
			var f string
			if f, rest = nextField(rest); f == "" {
				break
			}
			k, vs, ok := strings.Cut(f, ":")
			if !ok {
				return nil, errorf(line, 0, "", "%s is not an index:value pair", quote(f))
			}
			if k == "qid" {
				continue
			}
			j, err := strconv.ParseUint(k, 10, 32)
			if err != nil {
				return nil, errorf(line, 0, "", "the feature index %s is not a whole number from 1 to %d", quote(k), uint32(math.MaxUint32))
			}
			if j == 0 {
				return nil, errorf(line, 0, "", "feature index 0: LIBSVM's indices start at 1 (if this file counts from 0, add 1 to every index)")
			}
			x := math.NaN()
			if !isMissing(vs) {
				var st numStatus
				x, st = parseNumber(vs, false)
				if st != numOK {
					return nil, errorf(line, 0, "", "feature %d: %s", j, numberMessage(vs, st, "a LIBSVM value is a number"))
				}
			} else if first == nil {
				first = errorf(line, 0, "", "feature %d", j)
			}
			if len(pairs) > 0 && uint32(j) <= pairs[len(pairs)-1].idx {
				sorted = false
			}
			pairs = append(pairs, libsvmPair{uint32(j), x})
		}
		if !sorted {
			sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].idx < pairs[b].idx })
		}
		for i := 1; i < len(pairs); i++ {
			if pairs[i].idx == pairs[i-1].idx {
				return nil, errorf(line, 0, "", "feature %d is given twice", pairs[i].idx)
			}
		}
		if len(pairs) > 0 {
			maxIdx = max(maxIdx, pairs[len(pairs)-1].idx)
		}
		if err := lim.cells(int64(rows+1), int64(maxIdx)+1, line); err != nil {
			return nil, err
		}
		for _, p := range pairs {
			idx.add(p.idx)
			val.add(p.val)
		}
		if err := lc.add(numberText(v), line); err != nil {
			return nil, err
		}
		if len(ds.Preview) < opts.PreviewRows {
			ds.Preview = append(ds.Preview, []string{numberText(v)})
		}
		rows++
		ends = append(ends, idx.n)
	}
	m, n := rows, int(maxIdx)
	switch {
	case m == 0:
		return nil, &Error{Msg: "the file is empty"}
	case m == 1:
		return nil, &Error{Msg: "the file has a single data row; selection needs at least two samples"}
	case n == 0:
		return nil, &Error{Msg: "no line has a feature (an index:value pair): every sample is all zeros"}
	}
	x := mat.NewDense(m, n, nil)
	raw := x.RawMatrix()
	missingCol := make([]bool, n)
	// The two stores grew alike: their chunks have the same lengths.
	row, k := 0, 0
	for ci, ic := range idx.chunks {
		for t, j := range ic {
			for k >= ends[row] {
				row++
			}
			v := val.chunks[ci][t]
			raw.Data[row*raw.Stride+int(j)-1] = v
			if math.IsNaN(v) {
				ds.Missing++
				missingCol[j-1] = true
			}
			k++
		}
		idx.chunks[ci], val.chunks[ci] = nil, nil
	}
	if ds.Missing > 0 && opts.Missing == RejectMissing {
		first.Msg = fmt.Sprintf("%s: %d missing value(s) (NA or NaN), this is the first; fill them in, or impute them with the training mean (missing=mean)", first.Msg, ds.Missing)
		return nil, first
	}
	for j, miss := range missingCol {
		if miss {
			ds.MissingColumns = append(ds.MissingColumns, j)
		}
	}
	ds.X = x
	ds.Features = make([]string, n)
	ds.Columns = make([]string, n+1)
	ds.Columns[0] = "label"
	for j := range ds.Features {
		ds.Features[j] = "f" + strconv.Itoa(j+1)
		ds.Columns[j+1] = ds.Features[j]
	}
	ds.Label, ds.LabelColumn = "label", 1
	for i, p := range ds.Preview {
		for _, v := range x.RawRowView(i) {
			ds.Preview[i] = append(p, numberText(v))
			p = ds.Preview[i]
		}
	}
	if err := lc.encode(ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// nextField returns the first run of non-space characters of s and what
// follows it ("" when there is none).
func nextField(s string) (field, rest string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != '\v' && s[j] != '\f' {
		j++
	}
	return s[i:j], s[j:]
}
