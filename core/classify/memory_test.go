package classify

import (
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/internal/budget"
)

// pairs returns c classes of per samples each, of d features.
func pairs(c, per, d int) (*mat.Dense, []int) {
	m := c * per
	x := mat.NewDense(m, d, nil)
	y := make([]int, m)
	for i := range y {
		y[i] = i / per
		for j := 0; j < d; j++ {
			x.Set(i, j, float64((i*7+j*3)%11)-5)
		}
	}
	return x, y
}

// A many-class input is refused from its estimate, before the SVM
// allocates anything (issue 14: an evaluation of 10,000 classes of 2
// samples ran out of memory in the one-vs-one machines).
func TestSVMNeedsRefuseManyClasses(t *testing.T) {
	y := make([]int, 10_000)
	for i := range y {
		y[i] = i
	}
	who, needs := Needs(api.Classifier{Name: api.SVM, Multiclass: OneVsOne}, y, []int{1}, 10_000)
	err := budget.Check(0, who, nil, needs...)
	want := "the SVM (one-vs-one) would need about 2.6 GiB for its matrices, above the memory budget of 1 GiB: most of it for the trained machines (49,995,000 class pairs × 7 weights and indices each)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	// One-vs-rest keeps one machine per class: accepted.
	who, needs = Needs(api.Classifier{Name: api.SVM, Multiclass: OneVsRest}, y, []int{1}, 10_000)
	if err := budget.Check(0, who, nil, needs...); err != nil {
		t.Errorf("one-vs-rest: %v", err)
	}
	// k-NN: a prediction's votes and neighbours.
	who, needs = Needs(api.Classifier{Name: api.KNN, Neighbors: 5}, y, []int{1}, 10_000)
	if err := budget.Check(64, who, nil, needs...); err == nil || !strings.Contains(err.Error(), "the k-NN classifier would need about 78.2 KiB") {
		t.Errorf("k-NN under 64 bytes: %v", err)
	}
}

// The estimate of the machines against the heap they hold once trained
// (runtime.MemStats' HeapAlloc after collections, the model alive), on a
// one-vs-one case where the machines are nearly all of it: 300 classes of
// 2 samples give 44,850 machines of 50 weights. Within a factor of 1.5.
func TestSVMNeedsMatchTheModel(t *testing.T) {
	x, y := pairs(300, 2, 50)
	who, needs := Needs(api.Classifier{Name: api.SVM}, y, []int{50}, 300)
	if who != "the SVM (one-vs-one)" {
		t.Errorf("who %q", who)
	}
	want := budget.Total(needs)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	model, err := SVM{C: 1}.Train(x, y, 300)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(model.machines) != 300*299/2 {
		t.Fatalf("%d machines", len(model.machines))
	}
	runtime.KeepAlive(model)
	got := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	t.Logf("estimated %.0f bytes, the model holds %.0f (ratio %.2f)", want, got, got/want)
	if got > 1.5*want || got < want/1.5 {
		t.Errorf("the model holds %.0f bytes, estimated %.0f", got, want)
	}
}

// The least-squares estimate against what FitLinear allocates
// (TotalAlloc): within a factor of 2.
func TestLinearNeedsMatchAllocations(t *testing.T) {
	const m, d, k = 400, 60, 3
	x, _ := pairs(m/2, 2, d)
	yt := mat.NewDense(m, k, nil)
	for i := 0; i < m; i++ {
		yt.Set(i, i%k, 1)
	}
	_, needs := LinearNeeds(m, d, k)
	want := budget.Total(needs)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	FitLinear(x, yt)
	runtime.ReadMemStats(&after)
	got := float64(after.TotalAlloc - before.TotalAlloc)
	t.Logf("estimated %.0f bytes, allocated %.0f (ratio %.2f)", want, got, got/want)
	if got > 2*want || got < want/2 {
		t.Errorf("allocated %.0f bytes, estimated %.0f", got, want)
	}
}
