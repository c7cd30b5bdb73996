// Package rng is the toolkit's one source of pseudo-random numbers: a PCG
// generator (math/rand/v2's PCG, whose output sequence is specified) with
// the few derived draws the toolkit needs written out here, so that a seed
// gives the same splits, permutations and synthetic data on every platform
// and Go release. Integer draws (shuffles, splits) are bit-for-bit portable;
// Normal uses math.Log and math.Cos, whose last bit may differ between
// architectures.
package rng

import (
	"math"
	"math/rand/v2"
)

// Source draws pseudo-random numbers. It is not safe for concurrent use.
type Source struct {
	pcg *rand.PCG
}

// New returns a generator for a seed and a stream: different streams of one
// seed give independent sequences (used to give each split, each inner
// cross-validation and each solver its own sequence).
func New(seed, stream uint64) *Source {
	return &Source{pcg: rand.NewPCG(seed, stream)}
}

// Uint64 returns 64 uniformly distributed bits.
func (s *Source) Uint64() uint64 { return s.pcg.Uint64() }

// Intn returns a uniform integer in [0, n). It panics if n ≤ 0. The draw is
// unbiased: values below 2⁶⁴ mod n are rejected.
func (s *Source) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn of a non-positive bound")
	}
	bound := uint64(n)
	threshold := -bound % bound // 2⁶⁴ mod n
	for {
		if v := s.pcg.Uint64(); v >= threshold {
			return int(v % bound)
		}
	}
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (s *Source) Float64() float64 { return float64(s.pcg.Uint64()>>11) * 0x1p-53 }

// Uniform returns a uniform number in [a, b).
func (s *Source) Uniform(a, b float64) float64 { return a + (b-a)*s.Float64() }

// Normal returns a standard normal number by the Box–Muller transform
// (one value per pair of uniforms; the second is discarded so that the
// sequence has no hidden state).
func (s *Source) Normal() float64 {
	u1 := 1 - s.Float64() // in (0, 1]
	u2 := s.Float64()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// Shuffle permutes a in place (Fisher–Yates).
func (s *Source) Shuffle(a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := s.Intn(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// Perm returns a random permutation of 0…n−1.
func (s *Source) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	s.Shuffle(p)
	return p
}
