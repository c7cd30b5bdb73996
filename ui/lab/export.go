package lab

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"sparsefs/api"
)

// The report's identity: Format names it, Version its layout.
const (
	ReportFormat  = "sparsefs-lab-report"
	ReportVersion = 1
)

// Report is the full record of a run, as the page exports it: the data it
// read (by name and SHA-256, never the data themselves), the configuration,
// and every job with its request and response. Loading it back shows the
// results again and restores the configuration, so the same run can be
// repeated.
type Report struct {
	Format  string      `json:"format"`
	Version int         `json:"version"`
	Created string      `json:"created"`
	App     string      `json:"app,omitempty"`
	Data    DataRef     `json:"data"`
	Config  Config      `json:"config"`
	Jobs    []JobRecord `json:"jobs"`
}

// DataRef identifies the data a run read.
type DataRef struct {
	Name     string   `json:"name"`
	SHA256   string   `json:"sha256,omitempty"`
	Size     int      `json:"size"`
	Samples  int      `json:"samples"`
	Features int      `json:"features"`
	Label    string   `json:"label"`
	Classes  []string `json:"classes"`
}

// JobRecord is one job of a report.
type JobRecord struct {
	Label   string      `json:"label"`
	Request api.Request `json:"request"`
	// State is done, failed or cancelled.
	State string `json:"state"`
	// Seconds is the job's wall time in its worker.
	Seconds  float64         `json:"seconds"`
	Response json.RawMessage `json:"response,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// Encode writes the report as indented JSON.
func (r *Report) Encode() ([]byte, error) {
	r.Format, r.Version = ReportFormat, ReportVersion
	return json.MarshalIndent(r, "", " ")
}

// DecodeReport reads a report written by Encode, with errors a person can
// act on.
func DecodeReport(b []byte) (*Report, error) {
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.Format != ReportFormat {
		return nil, errors.New("this file is not a sparsefs report (a .json file saved by “Save the report”)")
	}
	if head.Version > ReportVersion {
		return nil, fmt.Errorf("this report has version %d, newer than this page reads (%d); open it with a newer sparsefs", head.Version, ReportVersion)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("the report is damaged: %v", err)
	}
	for i, j := range r.Jobs {
		if j.State != "done" {
			continue
		}
		if _, err := j.Selection(); err != nil {
			return nil, fmt.Errorf("the report is damaged: job %d (%s): %v", i+1, j.Label, err)
		}
	}
	return &r, nil
}

// Selection decodes a finished job's response.
func (j *JobRecord) Selection() (*api.Selection, error) {
	var s api.Selection
	if err := json.Unmarshal(j.Response, &s); err != nil {
		return nil, err
	}
	if len(s.Ranking) != len(s.Features) || len(s.Scores) != len(s.Features) {
		return nil, fmt.Errorf("%d features, %d ranked, %d scores", len(s.Features), len(s.Ranking), len(s.Scores))
	}
	for _, k := range s.Ranking {
		if k < 0 || k >= len(s.Features) {
			return nil, fmt.Errorf("ranking names feature %d of %d", k, len(s.Features))
		}
	}
	return &s, nil
}

// Results returns the report's finished jobs.
func (r *Report) Results() []Result {
	var out []Result
	for i := range r.Jobs {
		if r.Jobs[i].State != "done" {
			continue
		}
		if s, err := r.Jobs[i].Selection(); err == nil {
			out = append(out, Result{Label: r.Jobs[i].Label, Sel: s})
		}
	}
	return out
}

// RankingCSV writes a result's ranking: rank, feature name, 0-based feature
// index, score (+∞ as Inf), when freq is given in how many of runs
// results' top k the feature is, and the p-value and q-value when the
// method gives them (NaN where no test could be made).
func RankingCSV(r Result, freq []FeatureCount, runs, k int) string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"rank", "feature", "index", "score"}
	pq := len(r.Sel.PValues) == len(r.Sel.Features) && len(r.Sel.QValues) == len(r.Sel.Features)
	count := map[int]int{}
	if freq != nil {
		head = append(head, fmt.Sprintf("in_top_%d_of_%d_runs", k, runs))
		for _, f := range freq {
			count[f.Feature] = f.Count
		}
	}
	if pq {
		head = append(head, "p_value", "q_value")
	}
	w.Write(head)
	for pos, j := range r.Sel.Ranking {
		row := []string{strconv.Itoa(pos + 1), r.Sel.Features[j], strconv.Itoa(j), scoreText(r.Sel.Scores[j])}
		if freq != nil {
			row = append(row, strconv.Itoa(count[j]))
		}
		if pq {
			row = append(row, scoreText(r.Sel.PValues[j]), scoreText(r.Sel.QValues[j]))
		}
		w.Write(row)
	}
	w.Flush()
	return buf.String()
}

func scoreText(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case v >= math.MaxFloat64 || math.IsInf(v, 1):
		return "Inf"
	case v <= -math.MaxFloat64 || math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// FileName makes a file name from a label: letters, digits, dots, dashes
// and underscores, the rest replaced.
func FileName(parts ...string) string {
	s := strings.Join(parts, "-")
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r == '.' || r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if ok {
			b.WriteRune(r)
			dash = r == '-'
		} else if !dash {
			b.WriteRune('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-.")
}
