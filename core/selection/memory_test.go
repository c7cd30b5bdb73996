package selection

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// classProblem returns m samples of 2 features in m/per classes of per
// samples each.
func classProblem(m, per int) *Problem {
	x := mat.NewDense(m, 2, nil)
	y := make([]int, m)
	for i := range y {
		x.Set(i, 0, float64(i%7))
		x.Set(i, 1, float64(i%5))
		y[i] = i / per
	}
	return &Problem{X: x, Y: y, C: m / per, Bias: true}
}

// The memory a fit needs is checked before it allocates, and the refusal
// names the cause (issue 14: rfs asked for an 80 GB one-hot matrix for
// 100,000 classes of one sample).
func TestMemoryBudget(t *testing.T) {
	for _, c := range []struct {
		name     string
		p        *Problem
		sel      Selector
		fragment string
	}{
		{"100,000 singleton classes, rfs", classProblem(100_000, 1), RFS{},
			"rfs would need about 372.5 GiB for its matrices, above the memory budget of 1 GiB: most of it for the coded labels, residuals and multipliers (5 × 100,000 samples × 100,000 classes); 100,000 classes for 100,000 samples: every class has one sample"},
		{"10,000 classes of 2, rfs", classProblem(20_000, 2), RFS{},
			"rfs would need about 7.5 GiB for its matrices, above the memory budget of 1 GiB: most of it for the coded labels, residuals and multipliers (5 × 20,000 samples × 10,000 classes); 10,000 classes for 20,000 samples (2.0 samples a class)"},
		{"10,000 classes of 2, dso", classProblem(20_000, 2), byName(t, "dso"), "dso would need about"},
		{"10,000 classes of 2, topk", classProblem(20_000, 2), byName(t, "topk"), "topk would need about"},
		{"10,000 classes of 2, l20", classProblem(20_000, 2), byName(t, "l20"), "l20 would need about"},
		{"10,000 classes of 2, exl21", classProblem(20_000, 2), byName(t, "exl21"), "exl21 would need about"},
		{"10,000 classes of 2, gsr", classProblem(20_000, 2), byName(t, "gsr"), "gsr would need about"},
		{"per-class statistics", func() *Problem {
			p := classProblem(4000, 2)
			p.X = mat.NewDense(4000, 100, nil)
			p.MemoryBudget = 1 << 20
			return p
		}(), Fisher{}, "the method would need about 1.5 MiB for its matrices, above the memory budget of 1 MiB: most of it for the per-class statistics (2,000 classes × 100 features)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := c.sel.Fit(context.Background(), c.p, nil)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), c.fragment) {
				t.Fatalf("got %v, want %q", err, c.fragment)
			}
			// Refused before allocating: far less than the need.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("%d MiB allocated before the refusal", grew>>20)
			}
		})
	}
	// Fisher on 10,000 classes of 2 samples of 2 features needs little:
	// accepted.
	if _, err := (Fisher{}).Fit(context.Background(), classProblem(20_000, 2), nil); err != nil {
		t.Errorf("fisher: %v", err)
	}
	// A budget given, or none.
	p := classProblem(200, 2)
	p.MemoryBudget = 1 << 10
	if _, err := (RFS{}).Fit(context.Background(), p, nil); err == nil || !strings.Contains(err.Error(), "above the memory budget of 1 KiB") {
		t.Errorf("small budget: %v", err)
	}
	p.MemoryBudget = -1
	if _, err := (RFS{}).Fit(context.Background(), p, &Settings{MaxIterations: 2}); err != nil {
		t.Errorf("no budget: %v", err)
	}
}

// byName returns the method of the registry with its default parameters.
func byName(t *testing.T, name string) Selector {
	spec, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	params, err := spec.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := spec.New(params)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// The estimates of the common needs, by hand: m = 3, n = 4 (+1 bias), c = 2.
func TestEmbeddedNeeds(t *testing.T) {
	p := &Problem{X: mat.NewDense(3, 4, nil), Y: []int{0, 1, 0}, C: 2, Bias: true}
	total := 0.0
	for _, n := range p.embeddedNeeds(p.gram(2)) {
		total += n.bytes()
	}
	// 8 × (2·3·5 + 5·3·2 + 4·5·2 + 2·3·3) bytes: design, labels, weights,
	// two 3×3 Gram systems (m = 3 < N = 5).
	if want := 8.0 * (2*3*5 + 5*3*2 + 4*5*2 + 2*3*3); total != want {
		t.Errorf("total %v, want %v", total, want)
	}
}
