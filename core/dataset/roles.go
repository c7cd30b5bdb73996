package dataset

import (
	"fmt"
	"strconv"
	"strings"
)

// role is what a column of a table holds.
type role uint8

const (
	roleFeature role = iota
	roleLabel
	roleTarget
	// roleID is the sample-ID column (Options.ID): kept as text in
	// Dataset.IDs, not a feature.
	roleID
	// roleIgnored is a column left out (Options.Ignore).
	roleIgnored
)

// assignRoles resolves Options.Label, Targets, ID and Ignore against
// ds.Columns and records them in ds: the label, the targets, the sample-ID
// column, the columns left out and the features (every other column, in
// file order). It returns each column's role and the 0-based label column
// (−1 for none).
func assignRoles(ds *Dataset, opts Options, hasHeader bool) ([]role, int, error) {
	cols := ds.Columns
	roles := make([]role, len(cols))
	lab, err := labelColumn(opts.Label, cols, hasHeader)
	if err != nil {
		return nil, 0, err
	}
	if lab >= 0 {
		ds.LabelColumn = lab + 1
		ds.Label = cols[lab]
		roles[lab] = roleLabel
	}
	// claim gives column want the role r, refusing a column given two.
	claim := func(want string, r role, what string) (int, error) {
		j, err := findColumn(cols, hasHeader, want, what)
		if err != nil {
			return 0, err
		}
		if roles[j] != roleFeature {
			if roles[j] == r {
				twice := "as " + roleName(r)
				if r == roleIgnored {
					twice = "among the columns left out"
				}
				return 0, &Error{Msg: fmt.Sprintf("column %d (%s) is named twice %s", j+1, quote(cols[j]), twice)}
			}
			return 0, &Error{Msg: fmt.Sprintf("column %d (%s) cannot be both %s and %s", j+1, quote(cols[j]), roleName(roles[j]), roleName(r))}
		}
		roles[j] = r
		return j, nil
	}
	for _, want := range opts.Targets {
		j, err := claim(want, roleTarget, "target")
		if err != nil {
			return nil, 0, err
		}
		ds.TargetColumns = append(ds.TargetColumns, j+1)
		ds.TargetNames = append(ds.TargetNames, cols[j])
	}
	if id := strings.TrimSpace(opts.ID); id != "" && !strings.EqualFold(id, "none") {
		j, err := claim(opts.ID, roleID, "sample-ID")
		if err != nil {
			return nil, 0, err
		}
		ds.IDColumn, ds.IDName = j+1, cols[j]
	}
	for _, want := range opts.Ignore {
		j, err := claim(want, roleIgnored, "left-out")
		if err != nil {
			return nil, 0, err
		}
		ds.Ignored = append(ds.Ignored, j+1)
	}
	if lab < 0 && len(ds.TargetColumns) == 0 {
		return nil, 0, &Error{Msg: "label none needs target columns: name the real-valued targets, or choose a label column"}
	}
	for j, name := range cols {
		if roles[j] == roleFeature {
			ds.Features = append(ds.Features, name)
		}
	}
	if len(ds.Features) == 0 {
		return nil, 0, &Error{Msg: "no feature columns are left besides the label, the targets, the sample IDs and the columns left out"}
	}
	return roles, lab, nil
}

// roleName names a role in a message.
func roleName(r role) string {
	switch r {
	case roleLabel:
		return "the label"
	case roleTarget:
		return "a target"
	case roleID:
		return "the sample IDs"
	case roleIgnored:
		return "left out"
	}
	return "a feature"
}

// labelColumn returns the 0-based label column, or −1 for "none".
func labelColumn(label string, cols []string, hasHeader bool) (int, error) {
	want := strings.TrimSpace(label)
	switch strings.ToLower(want) {
	case "", "last":
		return len(cols) - 1, nil
	case "first":
		return 0, nil
	case "none":
		return -1, nil
	}
	return findColumn(cols, hasHeader, want, "label")
}

// findColumn finds a column by header name (exactly, else uniquely
// case-insensitively) or 1-based number; what says which column is sought,
// for the error message.
func findColumn(cols []string, hasHeader bool, want, what string) (int, error) {
	want = strings.TrimSpace(want)
	if hasHeader {
		for j, c := range cols {
			if c == want {
				return j, nil
			}
		}
		found := -1
		for j, c := range cols {
			if strings.EqualFold(c, want) {
				if found >= 0 {
					found = -2
					break
				}
				found = j
			}
		}
		if found >= 0 {
			return found, nil
		}
	}
	if k, err := strconv.Atoi(want); err == nil {
		if k < 1 || k > len(cols) {
			return 0, &Error{Msg: fmt.Sprintf("%s column %d is out of range: the file has %d columns (numbered from 1)", what, k, len(cols))}
		}
		return k - 1, nil
	}
	names := cols
	more := ""
	if len(names) > 8 {
		names, more = names[:8], fmt.Sprintf(" and %d more", len(cols)-8)
	}
	if !hasHeader {
		how := ""
		if what == "label" {
			how = ", first or last"
		}
		return 0, &Error{Msg: fmt.Sprintf("no column is named %s: the file has no header row, so give the %s column by number (1 to %d)%s", quote(want), what, len(cols), how)}
	}
	return 0, &Error{Msg: fmt.Sprintf("no column is named %s; the columns are %s%s", quote(want), strings.Join(quoteAll(names), ", "), more)}
}
