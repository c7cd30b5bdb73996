package api

import (
	"encoding/json"
	"math"
	"testing"
)

// The special values take the forms docs/methods.md gives them and read back.
func TestRoundTrip(t *testing.T) {
	in := Floats{1.5, math.Inf(1), math.Inf(-1), math.NaN(), 0}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "[1.5,1.7976931348623157e+308,-1.7976931348623157e+308,null,0]" {
		t.Errorf("JSON %s", b)
	}
	var back Floats
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back[0] != 1.5 || back[1] != math.MaxFloat64 || back[2] != -math.MaxFloat64 || !math.IsNaN(back[3]) || back[4] != 0 {
		t.Errorf("read back %v", back)
	}
	if b, _ := json.Marshal(Floats(nil)); string(b) != "[]" {
		t.Errorf("nil: %s", b)
	}
	var f Float
	if err := json.Unmarshal([]byte("null"), &f); err != nil || !math.IsNaN(float64(f)) {
		t.Errorf("null: %v %v", f, err)
	}
	if b, _ := json.Marshal(Float(math.Inf(1))); string(b) != "1.7976931348623157e+308" {
		t.Errorf("Float(+Inf): %s", b)
	}
}

// Floats reads what encoding/json reads as a []float64 with nulls as NaN
// (the reference: encoding/json decoding into []*float64), and refuses
// what it refuses.
// floatsCases are arrays read like encoding/json reads them, and texts
// both refuse; the fuzz test starts from them.
var floatsCases = []string{
	`[]`, `[ ]`, ` [1, 2 ,3 ] `, `[0]`, `[-0]`, `[1.5e-3,-2E+4,3e2,null]`, `[null]`, `[1.7976931348623157e+308]`,
	`[4.9e-324]`, `[123456789012345678901234567890]`, "[1,\n\t2\r]", `[0.1,0.2,0.30000000000000004]`,
	// refused
	`[1,]`, `[,1]`, `[1 2]`, `["1"]`, `[true]`, `[[1]]`, `[{}]`, `[01]`, `[1.]`, `[.5]`, `[+1]`, `[1e]`, `[-]`,
	`[Inf]`, `[-Inf]`, `[NaN]`, `[0x10]`, `[1e400]`, `{}`, `1`, `"x"`, `[1,"a,b"]`,
}

// sameAsEncodingJSON checks that Floats reads text as encoding/json reads
// it into []*float64 (nil for null): the same error or none, the same
// bits.
func sameAsEncodingJSON(t *testing.T, text string) {
	t.Helper()
	var ref []*float64
	refErr := json.Unmarshal([]byte(text), &ref)
	var got Floats
	err := json.Unmarshal([]byte(text), &got)
	if (err != nil) != (refErr != nil) {
		t.Errorf("%q: error %v, encoding/json's %v", text, err, refErr)
		return
	}
	if err != nil || ref == nil { // a refusal, or null (tested below)
		return
	}
	if len(got) != len(ref) || got == nil {
		t.Errorf("%q: %v, want %d values", text, got, len(ref))
		return
	}
	for i, p := range ref {
		if (p == nil && !math.IsNaN(got[i])) || (p != nil && math.Float64bits(*p) != math.Float64bits(got[i])) {
			t.Errorf("%q: value %d is %v", text, i, got[i])
		}
	}
}

func TestFloatsReadsAsEncodingJSON(t *testing.T) {
	for _, text := range floatsCases {
		sameAsEncodingJSON(t, text)
	}
	// null reads as an empty array (as it did through encoding/json).
	var got Floats
	if err := json.Unmarshal([]byte(`null`), &got); err != nil || got == nil || len(got) != 0 {
		t.Errorf("null: %v %v", got, err)
	}
	// Inside an object, as in a report.
	var obj struct{ A, B Floats }
	if err := json.Unmarshal([]byte(`{"A":[1,null],"B":[]}`), &obj); err != nil || len(obj.A) != 2 || !math.IsNaN(obj.A[1]) || obj.B == nil {
		t.Errorf("object: %+v %v", obj, err)
	}
}

// BenchmarkFloatsUnmarshal4434 reads the scores of one GLIOMA fit (4434
// features).
func BenchmarkFloatsUnmarshal4434(b *testing.B) {
	fs := make(Floats, 4434)
	for i := range fs {
		fs[i] = math.Sqrt(float64(i)+0.5) * 1e-3
	}
	text, _ := json.Marshal(fs)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		var back Floats
		if err := json.Unmarshal(text, &back); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzFloats: whatever the text, Floats never panics and reads it as
// encoding/json does (go test -fuzz FuzzFloats ./api).
func FuzzFloats(f *testing.F) {
	for _, text := range floatsCases {
		f.Add(text)
	}
	f.Fuzz(sameAsEncodingJSON)
}
