package lab

import (
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"sparsefs/ui/chart"
)

// One feature's values by class, from the data restricted to that feature
// (a worker's reduce: the feature's column, then the label), as the file
// holds them: before any preprocessing.

// FeatureValues are a feature's values grouped by class.
type FeatureValues struct {
	Feature int
	Name    string
	Classes []string
	Values  [][]float64
}

// ReadFeatureValues reads the CSV of a reduce with one column: a header,
// then rows of a value and a class. The classes come in the order of
// classes (the data's), then any other in order of appearance; a cell that
// is not a number (a missing value) counts as none.
func ReadFeatureValues(feature int, text string, classes []string) (*FeatureValues, error) {
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) < 2 || len(recs[0]) != 2 {
		return nil, errors.New("the data restricted to one feature should have two columns and a row of names")
	}
	fv := &FeatureValues{Feature: feature, Name: recs[0][0], Classes: append([]string(nil), classes...)}
	fv.Values = make([][]float64, len(fv.Classes))
	for _, r := range recs[1:] {
		c := slices.Index(fv.Classes, r[1])
		if c < 0 {
			fv.Classes = append(fv.Classes, r[1])
			fv.Values = append(fv.Values, nil)
			c = len(fv.Classes) - 1
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(r[0]), 64)
		if err != nil {
			x = math.NaN()
		}
		fv.Values[c] = append(fv.Values[c], x)
	}
	return fv, nil
}

// Chart is the strip chart of the values by class.
func (fv *FeatureValues) Chart() Figure {
	c := &chart.StripChart{Frame: chart.Frame{ID: "values", Title: fmt.Sprintf("%s by class", fv.Name), XLabel: "class", YLabel: fv.Name},
		Classes: fv.Classes, Values: fv.Values}
	return NewFigure(c.ID, c.Title, c, "Each dot a sample, as the file holds it (before preprocessing); the bar is the class's median.")
}
