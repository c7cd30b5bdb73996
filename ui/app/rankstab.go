package app

import (
	"encoding/json"
	"fmt"

	"sparsefs/api"
	"sparsefs/core/plan"
	"sparsefs/ui/pool"
)

// A stability selection in the ranking mode is 2B fits of its base on
// half-samples, independent of each other: the page spreads them over
// its workers — a share of the fits on each (api.Request.Halves), then one
// more job combining their tallies (api.Request.Tallies) into the
// selection one job would have given (core/job's TestStabselInShares).

// shares cuts a unit's request into ranges of stabsel's half-sample fits,
// one per worker (nil: the unit runs as one job).
func (rk *Rank) shares(req api.Request) [][]int {
	size := rk.a.Data.Workers()
	if req.Method != "stabsel" || size < 2 {
		return nil
	}
	m, err := plan.Lookup(rk.a.Config.methods, req.Method)
	if err != nil || m.Param("pairs") == nil {
		return nil
	}
	pairs := m.Param("pairs").Default
	if v, ok := req.Params["pairs"]; ok {
		if pairs, err = api.Number(v); err != nil {
			return nil // the worker's answer will say why
		}
	}
	total := 2 * int(pairs)
	n := min(size, total)
	if n < 2 {
		return nil
	}
	out := make([][]int, n)
	for s := range out {
		out[s] = []int{s * total / n, (s + 1) * total / n}
	}
	return out
}

// submitShares submits unit i of run r as its shares, and returns the job
// that stands for the unit until the shares are combined.
func (rk *Rank) submitShares(r *runState, i int, label string, req api.Request, shares [][]int, data int) *pool.Job {
	a := rk.a
	tallies := make([]api.StabilityTally, len(shares))
	left := len(shares)
	ended := false
	var first *pool.Job
	for s, span := range shares {
		share := req
		share.Halves = span
		j := a.pool.Submit(fmt.Sprintf("%s · half-samples %d–%d of %d", label, span[0]+1, span[1], shares[len(shares)-1][1]), api.Task{Run: &share}, data, false, nil, func(j *pool.Job) {
			if ended {
				return
			}
			var sel api.Selection
			if j.State == pool.Done {
				if err := json.Unmarshal(j.Response, &sel); err != nil || sel.Tally == nil {
					j.State, j.Err = pool.Failed, "unexpected answer from the worker"
				}
			}
			if j.State != pool.Done {
				// The unit ends with its first share that does not.
				ended = true
				r.jobs[i] = j
				rk.jobDone(r, i, j)
				return
			}
			tallies[s] = *sel.Tally
			if left--; left > 0 {
				return
			}
			combine := req
			combine.Tallies = tallies
			r.jobs[i] = a.pool.Submit(label, api.Task{Run: &combine}, data, false, nil, func(j *pool.Job) { rk.jobDone(r, i, j) })
		})
		r.parts = append(r.parts, j)
		if first == nil {
			first = j
		}
	}
	return first
}
