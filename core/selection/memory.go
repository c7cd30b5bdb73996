package selection

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultMemoryBudget is the default bound on the bytes of the matrices a
// fit allocates: 1 GiB. A browser tab's WebAssembly memory is at most
// 4 GiB, the garbage collector lets the heap grow to about twice what is
// live, and the data and their preprocessed copy are held beside the model.
const DefaultMemoryBudget int64 = 1 << 30

// Need is a group of equal float64 matrices a fit allocates: Copies of
// Rows × Cols, the rows and columns counting what RowsOf and ColsOf name
// ("samples", "classes", "features").
type Need struct {
	What           string
	Rows, Cols     int
	RowsOf, ColsOf string
	Copies         int
}

func (n Need) bytes() float64 {
	return 8 * float64(n.Rows) * float64(n.Cols) * float64(max(n.Copies, 1))
}

// budget returns p's memory budget in bytes, or 0 for none.
func (p *Problem) budget() int64 {
	switch {
	case p.MemoryBudget < 0:
		return 0
	case p.MemoryBudget == 0:
		return DefaultMemoryBudget
	}
	return p.MemoryBudget
}

// CheckMemory refuses a fit whose matrices would exceed p's memory budget,
// before it allocates them: the message names the method, the total, the
// largest need and what in the data causes it (the classes, the samples,
// the features).
func (p *Problem) CheckMemory(method string, needs ...Need) error {
	limit := p.budget()
	if limit == 0 {
		return nil
	}
	total, largest := 0.0, -1
	for i, n := range needs {
		total += n.bytes()
		if largest < 0 || n.bytes() > needs[largest].bytes() {
			largest = i
		}
	}
	if total <= float64(limit) {
		return nil
	}
	big := needs[largest]
	copies := ""
	if big.Copies > 1 {
		copies = strconv.Itoa(big.Copies) + " × "
	}
	msg := fmt.Sprintf("%s would need about %s for its matrices, above the memory budget of %s: most of it for %s (%s%s %s × %s %s)",
		method, memSize(total), memSize(float64(limit)), big.What, copies, count(big.Rows), big.RowsOf, count(big.Cols), big.ColsOf)
	if cause := p.cause(big); cause != "" {
		msg += "; " + cause
	}
	return fmt.Errorf("%s", strings.TrimPrefix(msg, " "))
}

// cause says what in the data makes a need large.
func (p *Problem) cause(n Need) string {
	m, _ := p.X.Dims()
	if n.RowsOf == "classes" || n.ColsOf == "classes" {
		if p.C >= m {
			return fmt.Sprintf("%s classes for %s samples: every class has one sample", count(p.C), count(m))
		}
		counts := make([]int, p.C)
		for _, y := range p.Y {
			counts[y]++
		}
		single := 0
		for _, k := range counts {
			if k == 1 {
				single++
			}
		}
		if single*2 > p.C {
			return fmt.Sprintf("%s classes for %s samples: %s of them have a single sample", count(p.C), count(m), count(single))
		}
		return fmt.Sprintf("%s classes for %s samples (%.1f samples a class): is the label column the right one?", count(p.C), count(m), float64(m)/float64(p.C))
	}
	if n.RowsOf == n.ColsOf {
		return fmt.Sprintf("a %s × %s system grows with the square of the %s", n.RowsOf, n.ColsOf, n.RowsOf)
	}
	return ""
}

// count writes n with commas between groups of three digits.
func count(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// memSize writes a number of bytes in binary units, with one decimal.
func memSize(b float64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for b >= 1024 && u < len(units)-1 {
		b /= 1024
		u++
	}
	if u == 0 {
		return strconv.FormatFloat(b, 'f', 0, 64) + " bytes"
	}
	return strings.TrimSuffix(strconv.FormatFloat(b, 'f', 1, 64), ".0") + " " + units[u]
}

// classNeeds are the matrices every method that uses class labels
// allocates at least once: per-class statistics (c × n), as the filters
// keep them (anova's class means) and the embedded models' weights are.
func (p *Problem) classNeeds() []Need {
	_, n := p.X.Dims()
	return []Need{{What: "the per-class statistics", Rows: p.C, RowsOf: "classes", Cols: n, ColsOf: "features", Copies: 1}}
}

// embeddedNeeds are the matrices of a regression-based model fitted to p
// with r responses (the coded labels' c, or the targets' t): the design
// Z = [X 1] and a transposed copy (m × N), the response and the residuals
// and multipliers the solvers keep beside it (5 × m × r), the weights and
// their iterates (4 × N × r), and the systems given (the m × m or N × N
// Gram matrices).
func (p *Problem) embeddedNeeds(systems ...Need) []Need {
	m, n := p.X.Dims()
	if p.Bias {
		n++
	}
	r, of := p.C, "classes"
	if p.Targets != nil {
		_, r = p.Targets.Dims()
		of = "targets"
	}
	needs := []Need{
		{What: "the design matrix and its transpose", Rows: m, RowsOf: "samples", Cols: n, ColsOf: "features", Copies: 2},
		{What: "the coded labels, residuals and multipliers", Rows: m, RowsOf: "samples", Cols: r, ColsOf: of, Copies: 5},
		{What: "the weights and their iterates", Rows: n, RowsOf: "features", Cols: r, ColsOf: of, Copies: 4},
	}
	return append(needs, systems...)
}

// gram is the need of k copies of the Gram system of the smaller side of
// the design (m × m when there are fewer samples than features, N × N
// otherwise), as the dual and primal forms use.
func (p *Problem) gram(k int) Need {
	m, n := p.X.Dims()
	if p.Bias {
		n++
	}
	if m <= n {
		return p.bySamples("the Gram systems", k)
	}
	return Need{What: "the Gram systems", Rows: n, RowsOf: "features", Cols: n, ColsOf: "features", Copies: k}
}

// bySamples is the need of k m × m matrices.
func (p *Problem) bySamples(what string, k int) Need {
	m, _ := p.X.Dims()
	return Need{What: what, Rows: m, RowsOf: "samples", Cols: m, ColsOf: "samples", Copies: k}
}
