package chart

import (
	"cmp"
	"math"
)

// Every chart's values as a table, for whoever cannot hover the marks (a
// keyboard, a screen reader) or wants the numbers.

// Table is a chart's values: column heads and rows of text.
type Table struct {
	Head []string
	Rows [][]string
}

// cell writes a value, "—" where there is none.
func cell(v float64, format func(float64) string) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v >= math.MaxFloat64 || math.IsInf(v, 1):
		return "∞"
	}
	return format(v)
}

// Table holds the line chart's points: one row per x value, one column per
// series shown (its value, with its band "(lo to hi)" when it has one).
func (c *LineChart) Table() Table {
	format := c.Format
	if format == nil {
		format = Num
	}
	t := Table{Head: []string{cmp.Or(c.HoverX, c.XLabel, "x")}}
	var xs []float64
	seen := map[float64]bool{}
	var shown []Series
	for _, s := range c.Series {
		if s.Hidden {
			continue
		}
		shown = append(shown, s)
		t.Head = append(t.Head, s.Name)
		for _, x := range s.X {
			if !seen[x] {
				seen[x] = true
				xs = append(xs, x)
			}
		}
	}
	at := make([]map[float64]int, len(shown)) // at[s][x]: the index of x in series s
	for k, s := range shown {
		at[k] = make(map[float64]int, len(s.X))
		for i := len(s.X) - 1; i >= 0; i-- {
			at[k][s.X[i]] = i
		}
	}
	for _, x := range xs {
		row := []string{Num(x)}
		for k, s := range shown {
			text := "—"
			if i, ok := at[k][x]; ok && i < len(s.Y) {
				text = cell(s.Y[i], format)
				if i < len(s.Lo) && i < len(s.Hi) && finite(s.Lo[i]) && finite(s.Hi[i]) && finite(s.Y[i]) {
					text += " (" + format(s.Lo[i]) + " to " + format(s.Hi[i]) + ")"
				}
			}
			row = append(row, text)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Table holds the bar chart's bars: one row per category, one column per
// series (its value, "± error" when it has one).
func (c *BarChart) Table() Table {
	format := c.Format
	if format == nil {
		format = Num
	}
	t := Table{Head: []string{""}}
	for _, s := range c.Series {
		t.Head = append(t.Head, cmp.Or(s.Name, c.XLabel, c.YLabel, "value"))
	}
	for k, cat := range c.Categories {
		row := []string{cat}
		for _, s := range c.Series {
			text := "—"
			if k < len(s.Values) {
				text = cell(s.Values[k], format)
				if k < len(s.Err) && finite(s.Err[k]) && s.Err[k] != 0 && finite(s.Values[k]) {
					text += " ± " + format(math.Abs(s.Err[k]))
				}
			}
			row = append(row, text)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// Table holds the heat map's cells: a row per row, a column per column.
func (c *HeatMap) Table() Table {
	format := c.Format
	if format == nil {
		format = Num
	}
	t := Table{Head: append([]string{""}, c.Cols...)}
	for i, r := range c.Rows {
		row := []string{r}
		for j := range c.Cols {
			v := math.NaN()
			if i < len(c.Values) && j < len(c.Values[i]) {
				v = c.Values[i][j]
			}
			row = append(row, cell(v, format))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
