package selection

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"sparsefs/core/internal/budget"
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
	checkRefusals(t, false, []refusal{
		{"100,000 singleton classes, rfs", classProblem(100_000, 1), RFS{},
			"rfs would need about 372.5 GiB for its matrices, above the memory budget of 1 GiB: most of it for the coded labels, residuals and multipliers (5 × 100,000 samples × 100,000 classes); 100,000 classes for 100,000 samples: every class has one sample"},
		{"10,000 classes of 2, rfs", classProblem(20_000, 2), RFS{},
			"rfs would need about 7.5 GiB for its matrices, above the memory budget of 1 GiB: most of it for the coded labels, residuals and multipliers (5 × 20,000 samples × 10,000 classes); 10,000 classes for 20,000 samples (2.0 samples a class)"},
		{"10,000 classes of 2, dso", classProblem(20_000, 2), byName(t, "dso"), "dso would need about"},
		{"10,000 classes of 2, topk", classProblem(20_000, 2), byName(t, "topk"), "topk would need about"},
		{"10,000 classes of 2, l20", classProblem(20_000, 2), byName(t, "l20"), "l20 would need about"},
		{"10,000 classes of 2, exl21", classProblem(20_000, 2), byName(t, "exl21"), "exl21 would need about"},
		{"10,000 classes of 2, gsr", classProblem(20_000, 2), byName(t, "gsr"), "gsr would need about"},
		// By hand: one fit at a time, its half of 2,000 samples copied
		// with room for 101 columns: 2,000 × 101 × 8 bytes = 1.54 MiB.
		{"stabsel's copies of the halves", func() *Problem {
			p := classProblem(4000, 2000)
			p.X = mat.NewDense(4000, 100, nil)
			p.MemoryBudget = 1 << 20
			return p
		}(), byName(t, "stabsel"), "stabsel would need about 1.5 MiB for its matrices, above the memory budget of 1 MiB: most of it for the copies of the half-samples' rows (2,000 samples × 101 features)"},
		{"per-class statistics", func() *Problem {
			p := classProblem(4000, 2)
			p.X = mat.NewDense(4000, 100, nil)
			p.MemoryBudget = 1 << 20
			return p
		}(), Fisher{}, "the method would need about 1.5 MiB for its matrices, above the memory budget of 1 MiB: most of it for the per-class statistics (2,000 classes × 100 features)"},
	})
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

// The estimates of the common needs, by hand: m = 3, n = 4 (+1 bias), c = 2,
// with the design copied twice (Z and its transpose), once (the IRLS
// family's transpose alone) and not at all (X lent to the IRLS family).
func TestEmbeddedNeeds(t *testing.T) {
	p := &Problem{X: mat.NewDense(3, 4, nil), Y: []int{0, 1, 0}, C: 2, Bias: true}
	for _, design := range []int{2, 1, 0} {
		total := 0.0
		for _, n := range p.embeddedNeeds(design, p.gram(2)) {
			total += n.Bytes()
		}
		// 8 × (design·3·5 + 5·3·2 + 4·5·2 + 2·3·3 + 2·328,960) bytes:
		// design, labels, weights, two 3×3 Gram systems (m = 3 < N = 5),
		// and two packing buffers of 128·256 + 256·1031 values
		// (core/linalg's block sizes).
		if want := 8.0 * float64(design*3*5+5*3*2+4*5*2+2*3*3+2*(128*256+256*1031)); total != want {
			t.Errorf("design ×%d: total %v, want %v", design, total, want)
		}
	}
}

// The filters' and l1svm's own arrays are budgeted beyond the per-class
// statistics that Validate checks: each input below passes Validate's
// c × n check and is refused, before allocating, by the method's own
// estimate (issue 14: "some filters have only the c × n check").
func TestFilterMemoryBudget(t *testing.T) {
	wide := func(m, per, n int, limit int64) *Problem {
		p := classProblem(m, per)
		p.X = lcg(m, n, 3)
		p.MemoryBudget = limit
		return p
	}
	checkRefusals(t, true, []refusal{
		{"relieff, 10,000 classes of 2", classProblem(20_000, 2), ReliefF{},
			"relieff would need about 1.5 GiB for its matrices, above the memory budget of 1 GiB: most of it for the neighbour counts and offsets of every pair of classes (2 × 10,000 classes × 10,000 classes); 10,000 classes for 20,000 samples (2.0 samples a class)"},
		{"mrmr, 100,000 singleton classes", classProblem(100_000, 1), MRMR{},
			"mrmr would need about 1.2 GiB for its matrices, above the memory budget of 1 GiB: most of it for the classes' bit sets over the samples (100,000 classes × 1,567 words); 100,000 classes for 100,000 samples: every class has one sample"},
		// By hand: 8 bytes × (10,000 machines × (3·20,000 + 5·3) values +
		// 3 features × (2·20,000 + 10,000)) = 4.80·10⁹ bytes = 4.47 GiB.
		{"l1svm, 10,000 classes of 2", classProblem(20_000, 2), byName(t, "l1svm"),
			"l1svm would need about 4.5 GiB for its matrices, above the memory budget of 1 GiB: most of it for the machines' labels, margins and weights (10,000 classes × 60,015 values each); 10,000 classes for 20,000 samples (2.0 samples a class)"},
		{"ttest, three copies of c × n", wide(4000, 2, 100, 2<<20), TTest{},
			"ttest would need about 4.6 MiB for its matrices, above the memory budget of 2 MiB: most of it for the per-class sums, means and sums of squares (3 × 2,000 classes × 100 features)"},
		{"infogain, bins × classes", wide(100_000, 1, 2, 4<<20), InfoGain{},
			"infogain would need about 11.4 MiB for its matrices, above the memory budget of 4 MiB: most of it for the joint table of bins and classes (11 bins × 100,000 classes); 100,000 classes for 100,000 samples: every class has one sample"},
	})
}

// refusal is a fit that its memory check must refuse with a message
// containing fragment.
type refusal struct {
	name     string
	p        *Problem
	sel      Selector
	fragment string
}

// checkRefusals fits each case and checks the refusal, and that it came
// before allocating (far less than the need: at most 16 MiB); with
// validates, that Validate's own check passes first.
func checkRefusals(t *testing.T, validates bool, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.p.Validate(); validates && err != nil {
				t.Fatalf("Validate: %v", err)
			}
			var err error
			grew := allocated(func() { _, err = c.sel.Fit(context.Background(), c.p, nil) })
			if err == nil || !strings.Contains(err.Error(), c.fragment) {
				t.Fatalf("got %v, want %q", err, c.fragment)
			}
			if grew > 16<<20 {
				t.Errorf("%d MiB allocated before the refusal", grew>>20)
			}
		})
	}
}

// estimated returns the largest total a method's memory checks estimate
// for p (Validate's and the method's own), read from their refusals under
// budgets raised past each estimate in turn, from one byte.
func estimated(t *testing.T, sel Selector, p *Problem) float64 {
	t.Helper()
	q := *p
	q.MemoryBudget = 1
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a fit past the checks stops at its first look at ctx
	last := 0.0
	for {
		_, err := sel.Fit(ctx, &q, nil)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		i := strings.Index(msg, "would need about ")
		if !strings.Contains(msg, "above the memory budget") || i < 0 {
			if last == 0 {
				t.Fatalf("not refused under a budget of one byte: %v", err)
			}
			return last
		}
		var v float64
		var unit string
		if _, err := fmt.Sscanf(msg[i+len("would need about "):], "%g %s", &v, &unit); err != nil {
			t.Fatalf("%q: %v", msg, err)
		}
		scale := map[string]float64{"bytes": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit]
		if scale == 0 {
			t.Fatalf("unit %q in %q", unit, msg)
		}
		if v*scale <= last {
			t.Fatalf("refused again at %v: %q", last, msg)
		}
		last = v * scale
		q.MemoryBudget = int64(last*1.06) + 1024 // past the rounding of the message
	}
}

// The estimates against what the fits allocate (runtime.MemStats'
// TotalAlloc, everything the fit allocates, kept or not) on cases where
// the estimated arrays dominate: within a factor of 2 either way.
func TestMemoryEstimatesMatchAllocations(t *testing.T) {
	for _, c := range []struct {
		name string
		p    *Problem
		sel  Selector
		s    *Settings
	}{
		{"relieff, 2,000 classes of 2", cyclic(4000, 4, 2000, 5), ReliefF{}, nil},
		{"mrmr, 6,400 singleton classes", cyclic(6400, 10, 6400, 5), MRMR{}, nil},
		{"ttest, 2,000 classes × 100 features", cyclic(4000, 100, 2000, 5), TTest{}, nil},
		{"infogain, 2,000 singleton classes", cyclic(2000, 3, 2000, 5), InfoGain{}, nil},
		{"l1svm, 20 classes, one pass", cyclic(200, 50, 20, 5), byName(t, "l1svm"), &Settings{MaxIterations: 1}},
		{"rfs, dual form", cyclic(200, 3000, 3, 5), RFS{}, &Settings{MaxIterations: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := estimated(t, c.sel, c.p)
			q := *c.p
			q.MemoryBudget = -1
			var err error
			got := float64(allocated(func() { _, err = c.sel.Fit(context.Background(), &q, c.s) }))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("estimated %.0f bytes, allocated %.0f (ratio %.2f)", want, got, got/want)
			if got > 2*want || got < want/2 {
				t.Errorf("allocated %.0f bytes, estimated %.0f: not within a factor of 2", got, want)
			}
		})
	}
}

// Fits run side by side (stabsel's halves, consensus's members, on
// Settings.Workers goroutines) share the budget: each gets its part (for
// stabsel, of what the copies of the halves' rows leave), so that a
// budget one l1svm fit on a half fits in is refused with two at a time,
// naming the half's share and saying that it is one.
func TestParallelFitsShareTheBudget(t *testing.T) {
	p := cyclic(400, 60, 40, 5)
	half := p.rows(func() []int {
		idx := make([]int, 200)
		for i := range idx {
			idx[i] = 2 * i
		}
		return idx
	}())
	need := estimated(t, byName(t, "l1svm"), half)
	q := *p
	q.MemoryBudget = int64(1.5 * need)
	for _, c := range []struct {
		name   string
		params map[string]any
	}{
		{"stabsel", map[string]any{"base": "l1svm", "pairs": 2, "q": 3, "base.max_iter": 2}},
		{"consensus", map[string]any{"m1": "l1svm", "m2": "l1svm", "m1.max_iter": 2, "m2.max_iter": 2}},
	} {
		sel, s := newSelector(t, c.name, c.params)
		s.Workers = 1
		if c.name == "consensus" {
			q.MemoryBudget = int64(1.5 * estimated(t, byName(t, "l1svm"), p))
		}
		if _, err := sel.Fit(context.Background(), &q, &s); err != nil {
			t.Errorf("%s, one worker: %v", c.name, err)
		}
		s.Workers = 2
		_, err := sel.Fit(context.Background(), &q, &s)
		rest := q.MemoryBudget
		if c.name == "stabsel" {
			// Less the two fits' copies of their half's rows: 2 × 200
			// samples × (60 features + the bias row's room) × 8 bytes.
			rest -= 2 * 200 * 61 * 8
		}
		share := "above the memory budget of " + budget.Size(float64(rest/2))
		const note = "(2 ran at a time, each with its share of the budget; one at a time has all of it)"
		if err == nil || !strings.Contains(err.Error(), "l1svm would need about") || !strings.Contains(err.Error(), share) || !strings.HasSuffix(err.Error(), note) {
			t.Errorf("%s, two workers: %v, want %q and %q", c.name, err, share, note)
		}
	}
}
