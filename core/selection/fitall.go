package selection

import (
	"context"
	"sync"
)

// fitAll runs the independent fits fit(0), …, fit(n−1) on up to workers
// goroutines and returns their results in index order, so that the
// outcome does not depend on the number of workers. After the first
// error no new fit starts, and that error is returned (the one of the
// lowest index among those that failed). done, if not nil, is called
// after each successful fit with the number finished so far, never
// concurrently.
func fitAll(ctx context.Context, n, workers int, fit func(ctx context.Context, i int) (*Result, error), done func(finished int)) ([]*Result, error) {
	out := make([]*Result, n)
	errs := make([]error, n)
	var (
		mu       sync.Mutex
		next     int
		finished int
		failed   bool
		wg       sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if failed || next == n || ctx.Err() != nil {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for w := 0; w < max(1, min(workers, n)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := take()
				if !ok {
					return
				}
				res, err := fit(ctx, i)
				mu.Lock()
				if err != nil {
					errs[i], failed = err, true
				} else {
					out[i] = res
					finished++
					if done != nil {
						done(finished)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
