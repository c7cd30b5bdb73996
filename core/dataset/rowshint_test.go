package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// RowsHint counts the lines of delimited text, compressed or not (the
// counts below by hand), and gives no hint where lines are not rows.
func TestRowsHint(t *testing.T) {
	gz := func(s string) string {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.String()
	}
	csv := "a,b,label\n1,2,x\n3,4,y\n5,6,x\n"
	for _, c := range []struct {
		name, text string
		opts       Options
		want       int
	}{
		{"csv", csv, Options{}, 4},
		{"no final newline", strings.TrimSuffix(csv, "\n"), Options{}, 4},
		{"gzip", gz(csv), Options{}, 4},
		{"gzip in gzip", gz(gz(csv)), Options{}, 4},
		{"features in rows", csv, Options{Transpose: true}, 0},
		{"arff", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n2,y\n", Options{}, 0},
		{"larger than MaxBytes", csv, Options{MaxBytes: 10}, 0},
	} {
		got, err := RowsHint(context.Background(), strings.NewReader(c.text), c.opts)
		if err != nil || got != c.want {
			t.Errorf("%s: %d, %v; want %d", c.name, got, err, c.want)
		}
	}
}

// A read given a bound on its rows (the lines, the rows, too large, too
// small) gives the data it gives without one; values that fill nearly all
// of the array reserved for them are returned in it, not copied.
func TestReadWithRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("g1,g2,g3,label\n")
	for i := 0; i < 3000; i++ {
		b.WriteString(strings.Repeat("1.5,", 2) + "-2," + []string{"x", "y"}[i%2] + "\n")
	}
	text := b.String()
	want := mustParse(t, text, Options{})
	for _, rows := range []int{3001, 3000, 4000, 10} {
		got := mustParse(t, text, Options{Rows: rows})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rows %d: the data differ", rows)
		}
	}
	var f floats
	f.reserve(100)
	for i := 0; i < 96; i++ {
		f.add(float64(i))
	}
	first := &f.chunks[0][:1][0]
	if s := f.slice(); &s[0] != first || len(s) != 96 {
		t.Errorf("96 values of 100 reserved were copied (or lost: %d)", len(s))
	}
}

// A read given memory to read into (Options.Buffer) uses it when its
// capacity is what the rows need, up to a sixteenth more, and returns the
// values in it (a thirty-second more) — whatever it held before — with
// the data it gives without it; a buffer too small or too large is not
// used.
func TestReadIntoBuffer(t *testing.T) {
	var b strings.Builder
	b.WriteString("g1,g2,g3,label\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%d.5,%d,-2,%s\n", i, i%7, []string{"x", "y"}[i%2])
	}
	text := b.String()
	want := mustParse(t, text, Options{})
	need := 3001 * 4 // the lines × (the features + 1: RowsHint's bound and room for a column)
	for _, c := range []struct {
		size int
		used bool
	}{{need, true}, {need + need/32, true}, {need - 1, false}, {2 * need, false}} {
		buf := make([]float64, c.size)
		for i := range buf {
			buf[i] = math.NaN()
		}
		got := mustParse(t, text, Options{Rows: 3001, Buffer: buf[:0]})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("a buffer of %d: the data differ", c.size)
		}
		if used := &got.X.RawMatrix().Data[0] == &buf[0]; used != c.used {
			t.Errorf("a buffer of %d (the rows need %d): used %v, want %v", c.size, need, used, c.used)
		}
	}
}
