package app

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"sparsefs/api"
	"sparsefs/ui/chart"
	"sparsefs/ui/lab"
	"sparsefs/ui/pool"
)

// Chart is a chart ready to show. Key identifies its markup (a hash), so
// that an unchanged chart is not drawn again; table makes its values as a
// table (charttable.go).
type Chart struct {
	ID, Key, Title, SVG, Note string
	table                     func() chart.Table
}

// NewChart makes the Chart of a figure.
func NewChart(f lab.Figure) Chart {
	h := fnv.New64a()
	h.Write([]byte(f.SVG))
	return Chart{ID: f.ID, Key: fmt.Sprintf("%s/%x", f.ID, h.Sum64()), Title: f.Title, SVG: f.SVG, Note: f.Note, table: f.Table}
}

// Charts are the charts of the results shown.
func (a *App) Charts() []Chart { return a.charts }

// ChartFormat is a format a chart is saved in.
type ChartFormat int

const (
	SVG ChartFormat = iota
	PNG
)

// SaveChart saves a chart as an SVG or PNG file.
func (a *App) SaveChart(ch Chart, f ChartFormat) {
	name := lab.FileName("sparsefs", ch.ID)
	if f == PNG {
		a.b.SavePNG(name+".png", ch.SVG)
		return
	}
	a.b.Download(name+".svg", "image/svg+xml", `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+ch.SVG+"\n")
}

// reportName is the file name of a report on the data named name.
func reportName(name string) string {
	name = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, " (demo)"), ".gz"), ".csv")
	return lab.FileName("sparsefs", name, "report") + ".json"
}

// CanSaveReport reports whether there is a report to save.
func (a *App) CanSaveReport() bool {
	if a.showing != lab.ModeEval {
		return a.Rank.run != nil
	}
	return a.Eval.canSave()
}

// ExportReport saves the report: the evaluation's (as `sparsefs eval`
// writes it), or the ranking run's.
func (a *App) ExportReport() {
	if a.showing != lab.ModeEval {
		if a.Rank.run == nil {
			return
		}
		b, err := a.Rank.report().Encode()
		if err != nil {
			a.fail(Elsewhere, "Cannot write the report: "+err.Error())
			return
		}
		a.b.Download(reportName(a.Rank.run.data.Name), "application/json", string(b))
		return
	}
	if !a.CanSaveReport() {
		return
	}
	run := a.Eval.ev.run
	a.b.Download(reportName(run.Report.Dataset.Name), "application/json", string(run.ReportJSON))
}

// ExportRanking saves the ranking shown as CSV.
func (a *App) ExportRanking() {
	if a.showing != lab.ModeEval {
		rk := a.Rank
		f := rk.focused()
		if f == nil {
			return
		}
		k := rk.run.k()
		rs := rk.results()
		a.b.Download(lab.FileName(f.Label, "ranking")+".csv", "text/csv", lab.RankingCSV(*f, lab.Frequency(rs, k), len(rs), k))
		return
	}
	ev := a.Eval
	v := ev.view()
	if v == nil || ev.dv >= len(v.Labels) {
		return
	}
	if ev.ds < 0 {
		a.b.Download(lab.FileName(v.Labels[ev.dv], "ranking")+".csv", "text/csv", lab.FrequencyCSV(v.Frequency(ev.dv, ev.dk), ev.DetailK(), v.Truth != nil))
		return
	}
	var b strings.Builder
	b.WriteString("rank,feature,index,score\n")
	for _, r := range v.SplitRanking(ev.dv, ev.ds, ev.dk) {
		fmt.Fprintf(&b, "%d,%s,%d,%s\n", r.Rank, csvField(r.Name), r.Feature, r.Score)
	}
	a.b.Download(lab.FileName(v.Labels[ev.dv], "split", strconv.Itoa(ev.ds+1), "ranking")+".csv", "text/csv", b.String())
}

// csvField quotes a CSV field when it needs it.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// CanReduce reports whether the reduced data can be written: the data the
// results were computed on are open.
func (a *App) CanReduce() bool {
	d := a.Data
	if a.showing != lab.ModeEval {
		return a.Rank.focused() != nil && d.num != 0 && a.Rank.run.loaded == nil
	}
	e := a.Eval.ev
	return e != nil && !e.loaded && e.dataNum == d.num && d.num != 0 && a.Eval.view() != nil && a.Eval.view().UnitsDone() > 0
}

// ReducedText is the label of the reduced data's button.
func (a *App) ReducedText() string {
	if a.showing == lab.ModeEval {
		return fmt.Sprintf("Data with these top %d features (CSV)", a.Eval.DetailK())
	}
	if a.Rank.QOnly() {
		return fmt.Sprintf("Data with the %d features with q ≤ %v (CSV)", len(a.Rank.qSet()), QCut)
	}
	return fmt.Sprintf("Data with the top %d features (CSV)", a.Rank.TopK())
}

// ExportReduced saves the data restricted to the top K features of the
// ranking shown (in the ranking mode with the q-value cut, the features
// with q ≤ QCut), plus the label (written by a worker).
func (a *App) ExportReduced() {
	if a.showing != lab.ModeEval {
		f := a.Rank.focused()
		if f == nil || a.Data.num == 0 || a.Rank.run.loaded != nil {
			return
		}
		if a.Rank.QOnly() {
			if q := a.Rank.qSet(); len(q) > 0 {
				a.exportReduced(a.Rank.run.cfg, q)
			}
			return
		}
		k := min(a.Rank.run.k(), len(f.Sel.Ranking))
		a.exportReduced(a.Rank.run.cfg, f.Sel.Ranking[:k])
		return
	}
	if !a.CanReduce() {
		return
	}
	a.exportReduced(a.Eval.ev.cfg, a.Eval.top(a.Eval.DetailK()))
}

// top is the first k features of the evaluation's ranking shown.
func (ev *Eval) top(k int) []int {
	v := ev.view()
	var out []int
	if ev.ds < 0 {
		for _, r := range v.Frequency(ev.dv, ev.dk) {
			if len(out) < k {
				out = append(out, r.Feature)
			}
		}
		return out
	}
	for _, r := range v.SplitRanking(ev.dv, ev.ds, ev.dk) {
		if len(out) < k {
			out = append(out, r.Feature)
		}
	}
	return out
}

// exportReduced asks a worker for the data open, read with cfg's
// settings, restricted to the given features plus the label, and saves
// it.
func (a *App) exportReduced(cfg lab.Config, columns []int) {
	a.reduce(cfg, columns, "Cannot write the reduced data: ", func(out api.Reduced) { a.b.Download(out.Name, "text/csv", out.CSV) })
}

// reduce asks a worker for the data open, read with cfg's settings,
// restricted to the given features plus the label, and hands the answer
// to done; a failure is shown after fail.
func (a *App) reduce(cfg lab.Config, columns []int, fail string, done func(api.Reduced)) {
	req := api.Request{Op: api.OpReduce, Data: cfg.Data(strings.TrimSuffix(a.Data.name, " (demo)")),
		Columns: append([]int(nil), columns...)}
	a.pool.Submit("reduced data", api.Task{Run: &req}, a.Data.num, true, nil, func(j *pool.Job) {
		if j.State != pool.Done {
			a.fail(Elsewhere, fail+j.Err)
			return
		}
		var out api.Reduced
		if err := json.Unmarshal(j.Response, &out); err != nil {
			a.fail(Elsewhere, "Unexpected answer from the worker: "+err.Error())
			return
		}
		done(out)
	})
}

// OpenReport starts loading a saved report, and returns what to call with
// the file once read: an evaluation report (the page's or `sparsefs
// eval`'s) or a ranking report. Its results are shown again and its
// configuration restored, ready to run again on the same data.
func (a *App) OpenReport() func(name, text string, err error) {
	a.errMsg, a.notice = "", ""
	return a.openReport
}

func (a *App) openReport(name, text string, err error) {
	if err != nil {
		a.fail(AtData, err.Error())
		return
	}
	if lab.IsEvalReport([]byte(text)) {
		a.Eval.open(name, []byte(text))
		return
	}
	rep, err := lab.DecodeReport([]byte(text))
	if err != nil {
		a.fail(AtData, name+": "+err.Error())
		return
	}
	a.Rank.open(rep)
}

// ReportNote says which data a loaded report was computed on, and whether
// the data open are the same ("" when no report is shown).
func (a *App) ReportNote() string {
	r := a.reportRef
	if r == nil {
		return ""
	}
	d := a.Data
	s := fmt.Sprintf("This report was computed on %s (%d samples × %d features", r.Name, r.Samples, r.Features)
	if r.SHA256 != "" {
		s += ", SHA-256 " + r.SHA256[:min(12, len(r.SHA256))] + "…"
	}
	s += ")."
	switch {
	case d.num == 0:
	case d.name == r.Name && d.inspection != nil && d.inspection.Dataset.Samples == r.Samples && d.inspection.Dataset.Features == r.Features:
		s += " The data now open are the same file: Run repeats it."
	case d.sha256 != "" && d.sha256 == r.SHA256:
		s += " The data now open are the same file: Run repeats it."
	default:
		s += " The data now open are a different file."
	}
	return s
}
