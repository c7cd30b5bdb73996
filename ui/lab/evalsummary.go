package lab

import (
	"fmt"
	"math"
	"strconv"
)

// The summary at the top of an evaluation's results: for each measure
// (each classifier's accuracy, or the RMSE) which selector is best, with
// how many features, its mean ± standard deviation over the splits, the
// same measure with all the features when the K list holds their
// number, and how stable that selector's choice of features is there.

// Finding is one sentence of the summary with the numbers behind it.
type Finding struct {
	// Variant and KIndex locate the best mean (a row of the report and
	// an index into its K list).
	Variant, KIndex int
	// Text is the sentence.
	Text string
}

// stabilityWords reads a stability index as Fleiss' agreement scale
// (docs/statistics.md#stability).
func stabilityWords(x float64) string {
	switch {
	case x >= 0.75:
		return "excellent"
	case x >= 0.40:
		return "fair to good"
	}
	return "poor"
}

// Summary says, in words, what the evaluation found: one Finding per
// classifier (or one for the RMSE of regression data), the best among the
// K below the number of features (a selection), compared with all the
// features when the K list holds their number; none before any unit has
// finished.
func (v *EvalView) Summary() []Finding {
	var out []Finding
	byMeasure := map[int][]measure{}
	var order []int
	for _, m := range v.measures() {
		if _, seen := byMeasure[m.classifier]; !seen {
			order = append(order, m.classifier)
		}
		byMeasure[m.classifier] = append(byMeasure[m.classifier], m)
	}
	d := len(v.Rep.Features)
	all := -1 // the index of K = every feature
	for ki, k := range v.Rep.K {
		if k == d {
			all = ki
		}
	}
	for _, q := range order {
		var best measure
		bk := -1
		for _, m := range byMeasure[q] {
			ki := m.bestSelection(d)
			if ki < 0 {
				continue
			}
			x, b := at(m.s.Mean, ki), math.NaN()
			if bk >= 0 {
				b = at(best.s.Mean, bk)
			}
			if bk < 0 || (m.lower && x < b) || (!m.lower && x > b) || (x == b && v.Rep.K[ki] < v.Rep.K[bk]) {
				best, bk = m, ki
			}
		}
		if bk < 0 {
			continue
		}
		what, unit := "accuracy", "%"
		if best.classifier >= 0 {
			what = "accuracy with " + classifierWords(ClassifierName(v.Rep.Classifiers[q]))
		} else {
			what, unit = "lowest RMSE (least squares)", ""
		}
		val := func(m measure, ki int) string {
			return meanStdText(at(m.s.Mean, ki), at(m.s.Std, ki), func(x float64) string { return m.format(x) + unit })
		}
		head := "Best " + what
		if best.lower {
			head = "The " + what
		}
		text := fmt.Sprintf("%s: %s, keeping %d of %d features — %s (mean ± standard deviation over the %s).",
			head, v.Labels[best.variant], v.Rep.K[bk], d, val(best, bk), v.splitsText())
		switch {
		case all == bk:
			text += " (No smaller K was evaluated.)"
		case all >= 0:
			text += fmt.Sprintf(" With all %d features: %s.", d, val(best, all))
		default:
			text += fmt.Sprintf(" All %d features together were not measured (add K = %d to the list to compare).", d, d)
		}
		if st := v.Rep.Results[best.variant].Stability; st != nil {
			if x := at(st.Index, bk); !math.IsNaN(x) {
				text += fmt.Sprintf(" How alike its %d features are from split to split: stability %s (95%% interval %s to %s), %s.",
					v.Rep.K[bk], num2(x), num2(at(st.CILow, bk)), num2(math.Min(1, at(st.CIHigh, bk))), stabilityWords(x))
			}
		}
		out = append(out, Finding{Variant: best.variant, KIndex: bk, Text: text})
	}
	return out
}

// bestSelection is the index of K with the best mean among the K below d
// (a selection: fewer than all d features), or best's when the list has
// no such K.
func (m measure) bestSelection(d int) int {
	if m.s.Mean == nil {
		return -1
	}
	sel := m
	sel.s.Mean = append([]float64(nil), m.s.Mean...)
	fewer := false
	for ki := range sel.s.Mean {
		if ki < len(m.ks) && m.ks[ki] >= d {
			sel.s.Mean[ki] = math.NaN()
		} else if ki < len(m.ks) {
			fewer = true
		}
	}
	if !fewer {
		return m.best()
	}
	return sel.best()
}

// num2 writes a number with two decimals.
func num2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// classifierWords names a classifier for people.
func classifierWords(name string) string {
	switch name {
	case "svm":
		return "the linear SVM"
	case "knn":
		return "k-nearest neighbours"
	case "svm-vote":
		return "a linear SVM per class, voting"
	case "knn-vote":
		return "k-nearest neighbours per class, voting"
	}
	return name
}
