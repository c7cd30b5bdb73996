package app

import "testing"

// dataWorkers, by hand: 200 × 100,000 is a float64 matrix of
// 8·2·10⁷ B = 152.59 MiB, so a worker needs 100 + 3·152.59 = 558 MiB;
// 2048 MiB hold three of them, 8192 fourteen, 500 still one.
func TestDataWorkers(t *testing.T) {
	for _, c := range []struct{ m, n, budget, want, each int }{
		{200, 100000, 2048, 3, 558},
		{200, 100000, 8192, 14, 558},
		{200, 100000, 500, 1, 558},
		{45, 8, 2048, 20, 100},
	} {
		if n, each := dataWorkers(c.m, c.n, c.budget); n != c.want || each != c.each {
			t.Errorf("%d × %d within %d MiB: %d workers of %d MiB, want %d of %d", c.m, c.n, c.budget, n, each, c.want, c.each)
		}
	}
}
