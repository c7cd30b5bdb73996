package app

import (
	"fmt"
	"math"
	"strconv"

	"sparsefs/core/stats"
)

// The p-values and q-values of the ranking shown (fstat, ttest, consensus)
// and the q-value cut (docs/statistics.md#pvalues).

// QCut is the false discovery rate of the page's q-value cut.
const QCut = 0.05

// HasPValues reports whether the ranking shown gives p-values (and so
// q-values).
func (rk *Rank) HasPValues() bool {
	f := rk.focused()
	return f != nil && len(f.Sel.PValues) == len(f.Sel.Features) && len(f.Sel.QValues) == len(f.Sel.Features)
}

// QOnly reports whether the ranking table keeps only the features with
// q ≤ QCut.
func (rk *Rank) QOnly() bool { return rk.qOnly && rk.HasPValues() }

// SetQOnly keeps only the features with q ≤ QCut in the ranking table, or
// all of them.
func (rk *Rank) SetQOnly(on bool) { rk.qOnly = on }

// qSet are the features of the ranking shown with q ≤ QCut, in ranking
// order (stats.QCut, as `sparsefs select -k q0.05`).
func (rk *Rank) qSet() []int {
	f := rk.focused()
	if f == nil || !rk.HasPValues() {
		return nil
	}
	return stats.QCut(f.Sel.Ranking, f.Sel.QValues, QCut)
}

// QText says how many features pass the q-value cut, and what that means.
func (rk *Rank) QText() string {
	if !rk.HasPValues() {
		return ""
	}
	n, d := len(rk.qSet()), len(rk.focused().Sel.Features)
	if n == 0 {
		return fmt.Sprintf("No feature of %d has a q-value of at most %v.", d, QCut)
	}
	return fmt.Sprintf("%d of %d features have a q-value of at most %v: taking all of them, on average at most %.0f%% of such a list are false discoveries.", n, d, QCut, 100*QCut)
}

// pvalueText writes a p-value or q-value: three significant digits, "—"
// where no test could be made.
func pvalueText(p float64) string {
	if math.IsNaN(p) {
		return "—"
	}
	if p != 0 && p < 1e-3 {
		return strconv.FormatFloat(p, 'e', 2, 64)
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}
