package evaluate

import (
	"context"
	"math"
	"sync"

	"sparsefs/api"
	"sparsefs/core/internal/budget"
	"sparsefs/core/selection"
)

var nan = math.NaN()

// Run runs every unit on workers goroutines (at least one) and merges them.
// Units are independent and each is deterministic, so the report is the same
// for any number of workers. progress, if not nil, is called with the
// fraction of units done (serialised: never concurrently).
func (e *Evaluation) Run(ctx context.Context, workers int, progress func(selection.Progress)) (*api.Report, error) {
	units, err := e.RunUnits(ctx, nil, workers, progress)
	if err != nil {
		return nil, err
	}
	return Merge(&e.header, units)
}

// RunUnits runs the given units (all of them when list is nil) on workers
// goroutines and returns their results in the order of list. The first
// error cancels the rest.
func (e *Evaluation) RunUnits(ctx context.Context, list []int, workers int, progress func(selection.Progress)) ([]*api.UnitResult, error) {
	if list == nil {
		list = make([]int, e.header.Units)
		for i := range list {
			list[i] = i
		}
	}
	// The workers left over when there are fewer units than workers go
	// to the units' fits (a method made of several fits runs them in
	// goroutines).
	fitWorkers := max(1, workers/max(1, len(list)))
	workers = max(1, min(workers, len(list)))
	// The units run side by side share the memory budget.
	unitBudget := budget.Share(e.MemoryBudget, workers)
	ctx, cancel := withCancel(ctx)
	defer cancel()
	out := make([]*api.UnitResult, len(list))
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	report := func(p selection.Progress) {
		if progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		progress(p)
	}
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				// A unit's own progress is passed on only with one worker
				// (interleaved iterations of several units mean nothing).
				var hook func(selection.Progress)
				if workers == 1 && progress != nil {
					hook = func(p selection.Progress) {
						mu.Lock()
						frac := (float64(done) + p.Fraction) / float64(len(list))
						mu.Unlock()
						p.Fraction = frac
						report(p)
					}
				}
				res, err := e.runUnit(runCtx{ctx: ctx, progress: hook, workers: fitWorkers, budget: unitBudget, inPlace: e.Own && len(list) == 1}, list[i])
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
				} else {
					out[i] = res
					done++
				}
				frac := float64(done) / float64(len(list))
				mu.Unlock()
				report(selection.Progress{Objective: api.Float(nan), Fraction: frac})
			}
		}()
	}
	for i := range list {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, budget.Shared(firstErr, workers)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// withCancel is context.WithCancel whose Err also asks the parent's Err.
// A parent may be done without closing its Done channel: the browser
// worker's warm-up budget checks the clock in Err, because a timer cannot
// fire while a fit computes (a Go wasm program has one thread and does
// not preempt a busy goroutine). context.WithCancel's child learns of its
// parent's end only through Done, so it would hide that budget from the
// units' fits.
func withCancel(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	return parentErr{ctx, parent}, cancel
}

type parentErr struct {
	context.Context
	parent context.Context
}

func (c parentErr) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	return c.parent.Err()
}
