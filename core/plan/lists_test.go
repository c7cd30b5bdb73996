package plan

import (
	"reflect"
	"strings"
	"testing"
)

// The grammar of typed lists (doc.go), case by case; the expected lists
// are written out by hand.
func TestInts(t *testing.T) {
	for in, want := range map[string][]int{
		"1:5":           {1, 2, 3, 4, 5},
		"10:100:10":     {10, 20, 30, 40, 50, 60, 70, 80, 90, 100},
		"10, 20,30":     {10, 20, 30},
		"10 20;30":      {10, 20, 30},
		"3,1:2,7:11:2":  {3, 1, 2, 7, 9, 11},
		"20,80":         {20, 80},
		" 4 ":           {4},
		"0:0":           {0},
		"5:9:3":         {5, 8},
		"-1":            {-1},
		"2 : 4":         {2, 3, 4},
		"1:2:1":         {1, 2},
		"12,12":         {12, 12},
		"0:3":           {0, 1, 2, 3},
		"10,20,...,100": {10, 20, 30, 40, 50, 60, 70, 80, 90, 100},
		"5, 10, …, 25":  {5, 10, 15, 20, 25},
		"1,2,...,2":     {1, 2},
	} {
		got, err := Ints(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Ints(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "a", "1:", "5:1", "1:5:0", "1:5:-1", "1:2:3:4", "1.5", "0:100000000", "10,...,100",
		"10,20,...", "10,20,...,95", "20,10,...,0", "0x10", "1_000", "100:100:7", "1:1:1000000000000"} {
		if _, err := Ints(bad); err == nil {
			t.Errorf("Ints(%q) accepted", bad)
		}
	}
}

// A range written in MATLAB's order a:step:b is refused with the reading
// it probably meant.
func TestRangeInMATLABOrder(t *testing.T) {
	_, err := Ints("5:5:50")
	if err == nil || !strings.Contains(err.Error(), "did you mean 5:50:5?") {
		t.Errorf("5:5:50: %v", err)
	}
	if got, err := Ints("5:50:5"); err != nil || len(got) != 10 || got[9] != 50 {
		t.Errorf("5:50:5 = %v, %v", got, err)
	}
}

// Values: numbers become float64 (a range of decimals lands on its decimal
// values, not on their sums' rounding), anything else stays text.
func TestValues(t *testing.T) {
	got, err := Values("0.1:0.5:0.1, l21 frobenius; 2")
	want := []any{0.1, 0.2, 0.3, 0.4, 0.5, "l21", "frobenius", 2.0}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Values = %v, %v; want %v", got, err, want)
	}
}

// Text writes what Ints reads back: runs of three consecutive numbers as
// a:b, of four in a larger step as a:b:step.
func TestText(t *testing.T) {
	for _, ks := range [][]int{{1, 2, 3, 4, 5}, {5, 10, 15, 20, 25, 30}, {1, 3}, {7}, {10, 20, 30, 40, 55, 56, 57}} {
		text := Text(ks)
		back, err := Ints(text)
		if err != nil || !reflect.DeepEqual(back, ks) {
			t.Errorf("%v → %q → %v, %v", ks, text, back, err)
		}
	}
	if got := Text([]int{5, 10, 15, 20, 25, 30}); got != "5:30:5" {
		t.Errorf("Text = %q", got)
	}
}

func TestGrids(t *testing.T) {
	g, err := Grids("svm.C=0.1,1,10; gamma=0.1:0.3:0.1 knn.neighbors=1 3")
	if err != nil || len(g) != 3 || g[0].Param != "svm.C" || !reflect.DeepEqual(g[1].Values, []any{0.1, 0.2, 0.3}) ||
		g[2].Param != "knn.neighbors" || !reflect.DeepEqual(g[2].Values, []any{1.0, 3.0}) {
		t.Errorf("Grids = %+v, %v", g, err)
	}
	if back, err := Grids(GridsText(g)); err != nil || !reflect.DeepEqual(back, g) {
		t.Errorf("round trip %+v, %v", back, err)
	}
	for _, bad := range []string{"C", "=1", "svm.C="} {
		if _, err := Grids(bad); err == nil {
			t.Errorf("Grids(%q) accepted", bad)
		}
	}
}

func TestHoldout(t *testing.T) {
	if pr, err := Holdout("0.7x10"); err != nil || pr.Train != 0.7 || pr.Repeats != 10 {
		t.Errorf("0.7x10: %+v %v", pr, err)
	}
	for _, bad := range []string{"0.7", "0.7x0", "1.2x3", "0.7x-1", "ax3"} {
		if _, err := Holdout(bad); err == nil {
			t.Errorf("Holdout(%q) accepted", bad)
		}
	}
}

func TestFoldFile(t *testing.T) {
	for in, want := range map[string][]int{
		"0\n1\n2\n0\n":       {0, 1, 2, 0},
		"fold\n1\n2\r\n-3\n": {1, 2, -3},
		"1,2, 3;4\t5":        {1, 2, 3, 4, 5},
	} {
		got, err := FoldFile([]byte(in))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "fold\n", "1\nx\n", "1\n2.5\n"} {
		if _, err := FoldFile([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
