// Package budget is the memory budget a fit or a classifier is checked
// against before it allocates: the needs it declares (groups of equal
// matrices, estimated from the numbers of samples, features and classes),
// their total against the limit, and a refusal that names the estimate,
// the limit, the largest need and what in the data causes it.
package budget

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Default is the default bound on the bytes of the matrices a fit
// allocates: 1 GiB. A browser tab's WebAssembly memory is at most 4 GiB,
// the garbage collector lets the heap grow to about twice what is live,
// and the data and their preprocessed copy are held beside the model.
const Default int64 = 1 << 30

// Need is a group of equal matrices of 8-byte values (float64, int, or a
// slice header counted as its three words) that a fit allocates: Copies
// of Rows × Cols, the rows and columns counting what RowsOf and ColsOf
// name ("samples", "classes", "features").
type Need struct {
	What           string
	Rows, Cols     int
	RowsOf, ColsOf string
	Copies         int
}

// Bytes is the size of the need.
func (n Need) Bytes() float64 {
	return 8 * float64(n.Rows) * float64(n.Cols) * float64(max(n.Copies, 1))
}

// Total is the size of all the needs.
func Total(needs []Need) float64 {
	t := 0.0
	for _, n := range needs {
		t += n.Bytes()
	}
	return t
}

// Limit returns the bytes a budget setting allows: the setting itself when
// positive, Default for 0, and 0 (no bound) when negative.
func Limit(setting int64) int64 {
	switch {
	case setting < 0:
		return 0
	case setting == 0:
		return Default
	}
	return setting
}

// Share returns the budget setting of one of parts that run at the same
// time in one process, so that together they stay within setting: an
// equal part of its limit (at least one byte), or setting itself when
// there is one part or no limit.
func Share(setting int64, parts int) int64 {
	limit := Limit(setting)
	if parts <= 1 || limit == 0 {
		return setting
	}
	return max(1, limit/int64(parts))
}

// Check refuses needs whose total exceeds the budget setting (see Limit):
// the error says who would need how much, the limit, the largest need,
// and, when cause says something about that need, why it is large.
func Check(setting int64, who string, cause func(Need) string, needs ...Need) error {
	limit := Limit(setting)
	if limit == 0 || len(needs) == 0 {
		return nil
	}
	total, largest := Total(needs), 0
	for i, n := range needs {
		if n.Bytes() > needs[largest].Bytes() {
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
		who, Size(total), Size(float64(limit)), big.What, copies, Count(big.Rows), big.RowsOf, Count(big.Cols), big.ColsOf)
	if cause != nil {
		if c := cause(big); c != "" {
			msg += "; " + c
		}
	}
	return &Refusal{msg: strings.TrimPrefix(msg, " ")}
}

// Refusal is Check's error: needs above the budget.
type Refusal struct{ msg string }

func (r *Refusal) Error() string { return r.msg }

// Shared adds to a Refusal among err's causes that parts ran at the same
// time, each with its share of the budget (Share); other errors, and any
// error when parts ≤ 1, are returned as they are.
func Shared(err error, parts int) error {
	var r *Refusal
	if parts <= 1 || !errors.As(err, &r) {
		return err
	}
	return fmt.Errorf("%w (%d ran at a time, each with its share of the budget; one at a time has all of it)", err, parts)
}

// ClassCause says what makes a need counted in classes large: m samples
// with classes y in 0…c−1 (every class a single sample, most of them
// single, or few samples a class).
func ClassCause(m int, y []int, c int) string {
	if c >= m {
		return fmt.Sprintf("%s classes for %s samples: every class has one sample", Count(c), Count(m))
	}
	counts := make([]int, c)
	for _, k := range y {
		if k >= 0 && k < c {
			counts[k]++
		}
	}
	single := 0
	for _, k := range counts {
		if k == 1 {
			single++
		}
	}
	if single*2 > c {
		return fmt.Sprintf("%s classes for %s samples: %s of them have a single sample", Count(c), Count(m), Count(single))
	}
	return fmt.Sprintf("%s classes for %s samples (%.1f samples a class): is the label column the right one?", Count(c), Count(m), float64(m)/float64(c))
}

// Count writes n with commas between groups of three digits.
func Count(n int) string {
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

// Size writes a number of bytes in binary units, with one decimal.
func Size(b float64) string {
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
