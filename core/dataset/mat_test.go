package dataset

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// bigEndian rewrites an uncompressed little-endian MAT-file (as scipy
// writes it) in big-endian byte order: the endian indicator "MI", the
// version, and every tag and value swapped by its element type's size.
func bigEndian(t *testing.T, le []byte) []byte {
	t.Helper()
	out := append([]byte(nil), le...)
	copy(out[126:], "MI")
	binary.BigEndian.PutUint16(out[124:], binary.LittleEndian.Uint16(le[124:]))
	var walk func(off, end int)
	walk = func(off, end int) {
		for off+8 <= end {
			w := binary.LittleEndian.Uint32(le[off:])
			typ, n, data, small := w, binary.LittleEndian.Uint32(le[off+4:]), off+8, false
			if w>>16 != 0 {
				typ, n, data, small = w&0xFFFF, w>>16, off+4, true
				binary.BigEndian.PutUint32(out[off:], w)
			} else {
				binary.BigEndian.PutUint32(out[off:], typ)
				binary.BigEndian.PutUint32(out[off+4:], n)
			}
			if typ == miMATRIX {
				walk(data, data+int(n))
			} else if size := matTypeSize(typ); size > 1 {
				for k := data; k+size <= data+int(n); k += size {
					for i := 0; i < size; i++ {
						out[k+i] = le[k+size-1-i]
					}
				}
			}
			if small {
				off += 8
			} else {
				off = data + int(n) + int(pad8(n))
			}
		}
	}
	walk(128, len(le))
	return out
}

// A big-endian MAT-file reads as its little-endian original.
func TestMATBigEndian(t *testing.T) {
	le, err := os.ReadFile(filepath.Join("testdata", "formats", "types.mat"))
	if err != nil {
		t.Fatal(err)
	}
	be := bigEndian(t, le)
	if bytes.Equal(be, le) {
		t.Fatal("nothing swapped")
	}
	for _, x := range []string{"X_double", "X_single", "X_int16", "X_int64", "X_uint32", "X_sparse"} {
		want, err := Parse(le, Options{XVar: x, YVar: "Y_row"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(be, Options{XVar: x, YVar: "Y_row"})
		if err != nil {
			t.Fatalf("%s: %v", x, err)
		}
		if !reflect.DeepEqual(got.X.RawMatrix().Data, want.X.RawMatrix().Data) || !reflect.DeepEqual(got.Y, want.Y) {
			t.Errorf("%s: %v, want %v", x, got.X.RawMatrix().Data, want.X.RawMatrix().Data)
		}
	}
	got, err := Parse(be, Options{XVar: "X_double", YVar: "Y_char"})
	if err != nil || !reflect.DeepEqual(got.Classes, []string{"alpha", "beta"}) {
		t.Errorf("char labels: %v %v", got, err)
	}
}
