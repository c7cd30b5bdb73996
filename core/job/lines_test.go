package job

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"testing"

	"sparsefs/api"
)

// A reading given the file's line count (Input.Lines) opens the file once,
// for the parse, where without it the lines are counted in a read of their
// own first; the table is the same. Features in rows, or a format other
// than delimited text, take no count: the file is then opened once too.
func TestKnownLines(t *testing.T) {
	body := []byte("a,b,label\n1,0,x\n2,2,x\n6,5,y\n7,5,y\n")
	genes := []byte("gene,s1,s2,s3,s4\ng1,1,2,6,7\ng2,0,2,5,5\nlabel,x,x,y,y\n")
	for _, c := range []struct {
		name      string
		body      []byte
		data      api.Data
		lines     int
		wantOpens int
	}{
		{"counted here", body, api.Data{}, 0, 2},
		{"known", body, api.Data{}, 5, 1},
		{"known, csv named", body, api.Data{Format: "csv"}, 5, 1},
		{"features in rows", genes, api.Data{Transpose: "yes", ID: "gene", Label: "label"}, 2, 1},
	} {
		opens := 0
		open := func() (io.ReadCloser, error) {
			opens++
			return io.NopCloser(bytes.NewReader(c.body)), nil
		}
		got, err := Input{Open: open, Lines: c.lines}.ReadTable(context.Background(), &c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := Input{Raw: c.body}.ReadTable(context.Background(), &c.data)
		if err != nil {
			t.Fatal(err)
		}
		if opens != c.wantOpens {
			t.Errorf("%s: the file opened %d times, want %d", c.name, opens, c.wantOpens)
		}
		if !reflect.DeepEqual(got.Data.X, want.Data.X) || !reflect.DeepEqual(got.Data.Y, want.Data.Y) {
			t.Errorf("%s: a different table", c.name)
		}
	}
}
