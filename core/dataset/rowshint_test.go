package dataset

import (
	"bytes"
	"compress/gzip"
	"context"
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
