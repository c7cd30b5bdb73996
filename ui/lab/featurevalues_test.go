package lab

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// A reduce's CSV of one column: the classes in the data's order (b has no
// sample here and stays, empty), an unknown class appended, NA read as no
// value; the chart's table summarises each class.
func TestReadFeatureValues(t *testing.T) {
	fv, err := ReadFeatureValues(3, "mean area,diagnosis\n1,a\n2,c\nNA,a\n5,a\n", []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if fv.Name != "mean area" || !reflect.DeepEqual(fv.Classes, []string{"a", "b", "c"}) || len(fv.Values[0]) != 3 || !math.IsNaN(fv.Values[0][1]) ||
		len(fv.Values[1]) != 0 || fv.Values[2][0] != 2 {
		t.Errorf("values %+v", fv)
	}
	fig := fv.Chart()
	if got := fig.Table().Rows[0]; !reflect.DeepEqual(got, []string{"a", "2", "1", "3", "3", "5"}) {
		t.Errorf("a's summary %q", got)
	}
	if !strings.Contains(fig.SVG, "a: median 3") {
		t.Error("no median of a")
	}
	if _, err := ReadFeatureValues(0, "x,y,z\n1,2,3\n", nil); err == nil {
		t.Error("three columns read")
	}
}
