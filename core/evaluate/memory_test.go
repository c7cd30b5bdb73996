package evaluate

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/internal/budget"
)

// pairsOfSamples returns m samples of 2 features in m/2 classes of 2, and
// the plan that evaluates fisher's top feature with the SVM (one-vs-one)
// under 2-fold cross-validation: every training part has m/2 classes of
// one sample.
func pairsOfSamples(m int) (*Data, api.Plan) {
	x := mat.NewDense(m, 2, nil)
	y := make([]int, m)
	for i := range y {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, float64(i%7))
		y[i] = i / 2
	}
	plan := api.Plan{Methods: []api.Variant{{Method: "fisher"}}, K: []int{1}, Protocol: api.Protocol{Kind: api.CV, Folds: 2},
		Classifiers: []api.Classifier{{Name: api.SVM}}}
	return &Data{X: x, Y: y, Classes: m / 2}, plan
}

// An evaluation budgets its classifiers before it fits anything: 10,000
// classes of 2 samples under 2-fold cross-validation give every training
// part 10,000 singleton classes, whose 49,995,000 one-vs-one machines are
// refused with the estimate and the cause (issue 14: `eval -methods fisher
// -cv 2` ran out of memory there), while the memory it allocates stays far
// below the need; one-vs-rest fits the budget.
func TestEvaluationBudgetsItsClassifiers(t *testing.T) {
	d, plan := pairsOfSamples(20_000)
	e := mustNew(t, plan, d)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := e.RunUnit(context.Background(), 0, nil)
	runtime.ReadMemStats(&after)
	want := "fisher on split 1: the SVM (one-vs-one) would need about 2.6 GiB for its matrices, above the memory budget of 1 GiB: most of it for the trained machines (49,995,000 class pairs × 7 weights and indices each); 10,000 classes for 10,000 samples: every class has one sample"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("%d MiB allocated before the refusal", grew>>20)
	}
	// A budget given is the one checked; none means none.
	e = mustNew(t, plan, d)
	e.MemoryBudget = 1 << 40
	plan.Classifiers[0].Multiclass = api.OneVsRest
	small := mustNew(t, plan, d)
	small.MemoryBudget = 1 << 10
	if _, err := small.RunUnit(context.Background(), 0, nil); err == nil || !strings.Contains(err.Error(), "the SVM (one-vs-rest) would need about") || !strings.Contains(err.Error(), "above the memory budget of 1 KiB") {
		t.Errorf("one-vs-rest under 1 KiB: %v", err)
	}
	if err := e.checkClassifiers(e.plan.Classifiers, e.data.part(e.splits[0].Train), e.MemoryBudget); err != nil {
		t.Errorf("one-vs-one under 1 TiB: %v", err)
	}
}

// Units run side by side in one process (RunUnits' workers) share the
// budget: a budget one unit's classifiers fit in is refused, with half of
// it named and the sharing said, when two units run at a time.
func TestUnitsSideBySideShareTheBudget(t *testing.T) {
	d, plan := pairsOfSamples(600) // 300 classes: 44,850 one-vs-one machines a fold
	e := mustNew(t, plan, d)
	// The unit's estimate, from its refusal under a budget of one byte.
	e.MemoryBudget = 1
	_, err := e.RunUnit(context.Background(), 0, nil)
	var need float64
	var unit string
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	i := strings.Index(msg, "would need about ")
	if i < 0 {
		t.Fatalf("no estimate in %v", err)
	}
	if _, err := fmt.Sscanf(msg[i+len("would need about "):], "%g %s", &need, &unit); err != nil || unit != "MiB" {
		t.Fatalf("%q: %v", msg, err)
	}
	e.MemoryBudget = int64(1.5 * need * (1 << 20))
	if _, err := e.RunUnits(context.Background(), nil, 1, nil); err != nil {
		t.Fatalf("one unit at a time: %v", err)
	}
	_, err = e.RunUnits(context.Background(), nil, 2, nil)
	half := "above the memory budget of " + budget.Size(float64(e.MemoryBudget/2))
	const note = "(2 ran at a time, each with its share of the budget; one at a time has all of it)"
	if err == nil || !strings.Contains(err.Error(), half) || !strings.HasSuffix(err.Error(), note) {
		t.Errorf("two units at a time: %v, want %q and %q", err, half, note)
	}
}
