package jsonfloat

import (
	"encoding/json"
	"math"
	"testing"
)

// The special values take the forms METHODS.md gives them and read back.
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
