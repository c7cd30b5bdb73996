package linalg

import (
	"math/rand/v2"
	"testing"
)

// A product with a packed operand agrees with gonum's Dgemm, and with every
// tile is bit for bit the product that packs op(A) on the way (the same
// panels, summed in the same order); Mul agrees with Gemm. The shapes
// straddle the block and tile sizes, and the largest is split between two
// goroutines natively.
func TestPackedMatchesGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sh := range gemmShapes {
		m, n, k := sh[0], sh[1], sh[2]
		for _, tA := range []bool{false, true} {
			a := transposed(randGeneral(rng, m, k), tA)
			p := Pack(a, tA)
			if r, c := p.Dims(); r != m || c != k {
				t.Fatalf("Dims = %d×%d, want %d×%d", r, c, m, k)
			}
			for rep := 0; rep < 2; rep++ { // the packing is reused
				b := randGeneral(rng, k, n)
				c0 := randGeneral(rng, m, n)
				want := clone(c0)
				gonumGemm(tA, false, 1.5, a, b, -0.5, want)
				for _, tl := range tiles {
					got, ref := clone(c0), clone(c0)
					gemmPanels(tl.t, tA, false, 1.5, a, nil, &p.pre, b, -0.5, got, false)
					gemmWith(tl.t, tA, false, 1.5, a, nil, b, -0.5, ref, false)
					if d := maxDiff(got, want); d > productTol {
						t.Errorf("%dx%dx%d tA=%v tile %s: relative difference %g from gonum", m, n, k, tA, tl.name, d)
					}
					for i := range got.Data {
						if got.Data[i] != ref.Data[i] && !(got.Data[i] != got.Data[i] && ref.Data[i] != ref.Data[i]) {
							t.Fatalf("%dx%dx%d tA=%v tile %s: entry %d is %v packed once, %v packed on the way", m, n, k, tA, tl.name, i, got.Data[i], ref.Data[i])
						}
					}
				}
				got, ref := clone(c0), clone(c0)
				p.Mul(1.5, b, -0.5, got)
				Gemm(tA, false, 1.5, a, b, -0.5, ref)
				if d := maxDiff(got, ref); d > productTol {
					t.Errorf("Mul %dx%dx%d tA=%v: relative difference %g from Gemm", m, n, k, tA, d)
				}
			}
		}
	}
}

func TestPackedShapePanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p := Pack(randGeneral(rng, 5, 4), true) // op(A) 4×5
	for _, c := range []struct{ b, c General }{
		{randGeneral(rng, 4, 2), randGeneral(rng, 4, 2)}, // B has 4 rows, not 5
		{randGeneral(rng, 5, 2), randGeneral(rng, 5, 2)}, // C has 5 rows, not 4
		{randGeneral(rng, 5, 2), randGeneral(rng, 4, 3)}, // C has 3 columns, not 2
	} {
		func() {
			defer func() {
				if recover() != ErrShape {
					t.Errorf("B %d×%d, C %d×%d: no ErrShape panic", c.b.Rows, c.b.Cols, c.c.Rows, c.c.Cols)
				}
			}()
			p.Mul(1, c.b, 0, c.c)
		}()
	}
}
