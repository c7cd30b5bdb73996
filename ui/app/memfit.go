package app

import "fmt"

// How the pool sizes itself to the memory data need as well as to the
// cores: every worker that computes on a dataset holds its own table of
// it, so a large dataset goes to fewer workers (pool.Limit), as many as
// the device's memory holds.
const (
	// workerBaseMiB is a worker's memory before it holds data: its module
	// and Go heap (the page with one idle worker is 189 MiB in Chromium,
	// docs/results.md §4.1).
	workerBaseMiB = 100
	// workerMatrices is a worker's peak on data as a multiple of their
	// float64 matrix: its table, which a job's fit works in (the IRLS
	// family's design too), what a parse and the collector hold beside it
	// (2.0–2.5 in a worker, docs/results.md §4.1), and a margin.
	workerMatrices = 3
	// DefaultMemoryMiB is the memory the workers may use together when the
	// browser does not say how much the device has.
	DefaultMemoryMiB = 2048
)

// dataWorkers returns how many workers may hold data of samples ×
// features at once within budget MiB (at least one), and the MiB each
// needs.
func dataWorkers(samples, features, budget int) (n, each int) {
	each = workerBaseMiB + int(float64(workerMatrices)*8*float64(samples)*float64(features)/(1<<20)+0.5)
	return max(1, budget/each), each
}

// fitWorkers limits the workers that compute on the data open to those
// the memory holds (none when all fit), and returns how many may.
func (d *Data) fitWorkers() int {
	size := d.a.pool.Size()
	ds := d.inspection.Dataset
	n, each := dataWorkers(ds.Samples, ds.Features, d.a.b.Memory())
	d.fit, d.workersNote = 0, ""
	if n >= size {
		d.a.pool.Limit(d.num, 0)
		return size
	}
	d.a.pool.Limit(d.num, n)
	d.fit = n
	d.workersNote = fmt.Sprintf("%d of the %d workers compute on these data (about %s each), so that they fit in this device's memory", n, size, sizeText(each<<20))
	return n
}

// Workers is how many workers compute on the data open: the pool's, or
// fewer where the data's size limits them (fitWorkers).
func (d *Data) Workers() int {
	if n := d.a.pool.Size(); d.fit == 0 || d.fit > n {
		return n
	}
	return d.fit
}
