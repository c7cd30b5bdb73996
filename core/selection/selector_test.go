package selection

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The codings of docs/methods.md#coding on a 3-sample, 3-class problem, and
// the override and regression targets that replace them.
func TestResponseCodings(t *testing.T) {
	p := &Problem{X: mat.NewDense(3, 1, []float64{1, 2, 3}), Y: []int{2, 0, 1}, C: 3}
	y01 := []float64{0, 0, 1, 1, 0, 0, 0, 1, 0}
	ypm := []float64{-1, -1, 1, 1, -1, -1, -1, 1, -1}
	if got := p.Response(OneHot).RawMatrix().Data; !reflect.DeepEqual(got, y01) {
		t.Errorf("Y01 = %v", got)
	}
	if got := p.Response(PlusMinus).RawMatrix().Data; !reflect.DeepEqual(got, ypm) {
		t.Errorf("Ypm = %v", got)
	}
	p.Coding = PlusMinus
	if got := p.Response(OneHot).RawMatrix().Data; !reflect.DeepEqual(got, ypm) {
		t.Errorf("override to Ypm = %v", got)
	}
	targets := mat.NewDense(3, 2, []float64{0.5, 1, 2, 3, 4, 5})
	q := &Problem{X: p.X, Targets: targets}
	if q.Response(OneHot) != targets || q.ValidateTargets() != nil || q.Validate() == nil {
		t.Error("regression targets: Response, ValidateTargets or Validate wrong")
	}
	if _, err := ParseCoding("pm1"); err == nil {
		t.Error("ParseCoding accepted pm1")
	}
}

func TestDesignAppendsBias(t *testing.T) {
	p := &Problem{X: mat.NewDense(2, 2, []float64{1, 2, 3, 4}), Bias: true}
	if got := p.Design().RawMatrix().Data; !reflect.DeepEqual(got, []float64{1, 2, 1, 3, 4, 1}) {
		t.Errorf("Design = %v", got)
	}
	p.Bias = false
	if p.Design() != p.X {
		t.Error("Design without bias should be X itself")
	}
}

// JSON has no infinity: an unbounded parameter range is written with the
// largest finite double.
func TestParamJSONInfiniteBound(t *testing.T) {
	b, err := json.Marshal(Param{Name: "gamma", Min: 0, Max: math.Inf(1), Doc: "d"})
	if err != nil || !strings.Contains(string(b), `"max":1.7976931348623157e+308`) {
		t.Errorf("%s, %v", b, err)
	}
}
