package linalg

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkKernels times the packed kernels of this package (with the
// build's tile, on one goroutine) against gonum's (whose Dgemm uses every
// core) on
// the shapes the solvers meet: the dual Gram A·D·Aᵀ of the microarray sets
// (GLIOMA 50×4435, ALLAML 72×7130, lymphoma 96×4027, and the 203×3312 of
// docs/wasm.md#wasm-speed), the primal Gram Aᵀ·D·A of a tall set (madelon
// 2600×501), a square GEMM, and the thin products W = Zᵀ·Λ and Z·W. gonum's
// SYRK runs on a copy scaled by √d (the scaling is timed too: it is part of
// the work). Run natively and as wasm:
//
//	go test -run - -bench Kernels ./core/linalg
//	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -run - -bench Kernels ./core/linalg
func BenchmarkKernels(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64()
		}
		return v
	}
	dense := func(r, c int) General {
		g := randGeneral(rng, r, c)
		g.Stride = c
		g.Data = g.Data[:0]
		for i := 0; i < r; i++ {
			g.Data = append(g.Data, vec(c)...)
		}
		return g
	}
	report := func(b *testing.B, flops float64) {
		b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	}
	for _, sh := range [][2]int{{50, 4435}, {72, 7130}, {96, 4027}, {203, 3312}} {
		m, n := sh[0], sh[1]
		a, d := dense(m, n), vec(n)
		c, scratch := dense(m, m), dense(m, n)
		flops := float64(m) * float64(m+1) * float64(n) // lower triangle, 2 flops each
		b.Run(fmt.Sprintf("ADAt/%dx%d/packed", m, n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				syrkPacked(buildTile, false, 1, a, d, 0, c)
			}
			report(b, flops)
		})
		b.Run(fmt.Sprintf("ADAt/%dx%d/gonum", m, n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gonumADAt(a, d, c, scratch)
			}
			report(b, flops)
		})
	}
	for _, sh := range [][2]int{{2600, 501}, {1000, 1000}} {
		m, n := sh[0], sh[1]
		a, d := dense(m, n), vec(m)
		c, scratch := dense(n, n), dense(m, n)
		flops := float64(n) * float64(n+1) * float64(m)
		b.Run(fmt.Sprintf("AtDA/%dx%d/packed", m, n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				syrkPacked(buildTile, true, 1, a, d, 0, c)
			}
			report(b, flops)
		})
		b.Run(fmt.Sprintf("AtDA/%dx%d/gonum", m, n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gonumAtDA(a, d, c, scratch)
			}
			report(b, flops)
		})
	}
	for _, sh := range []struct {
		m, n, k int
		tA      bool
	}{{1000, 1000, 1000, false}, {200, 200, 200, false}, {64, 64, 4000, false}, {32, 32, 1000, false}, {4435, 4, 50, true}, {50, 4, 4435, false}, {7130, 2, 72, true}, {96, 9, 4027, false}, {20000, 7, 501, true}, {501, 7, 20000, false}} {
		var a General
		if sh.tA {
			a = dense(sh.k, sh.m)
		} else {
			a = dense(sh.m, sh.k)
		}
		bm, c := dense(sh.k, sh.n), dense(sh.m, sh.n)
		flops := 2 * float64(sh.m) * float64(sh.n) * float64(sh.k)
		name := fmt.Sprintf("Gemm/%dx%dx%d", sh.m, sh.n, sh.k)
		if sh.tA {
			name += "T"
		}
		b.Run(name+"/packed", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gemmWith(buildTile, sh.tA, false, 1, a, nil, bm, 0, c, false)
			}
			report(b, flops)
		})
		b.Run(name+"/gonum", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gonumGemm(sh.tA, false, 1, a, bm, 0, c)
			}
			report(b, flops)
		})
	}
}

// BenchmarkCholesky times the factorisation and a 9-column solve against
// gonum's Dpotrf and Dpotrs.
func BenchmarkCholesky(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	for _, n := range []int{50, 100, 200, 400, 1000} {
		a := randSPD(rng, n)
		work := clone(a)
		rhs := randGeneral(rng, n, 9)
		x := clone(rhs)
		flops := float64(n) * float64(n) * float64(n) / 3
		for _, impl := range []struct {
			name  string
			chol  func(General) bool
			solve func(General, General)
		}{{"packed", choleskyPacked, choleskySolvePacked}, {"gonum", gonumCholesky, gonumCholeskySolve}} {
			b.Run(fmt.Sprintf("%d/%s", n, impl.name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					copy(work.Data, a.Data)
					if !impl.chol(work) {
						b.Fatal("not positive definite")
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
			b.Run(fmt.Sprintf("%d/%s/solve9", n, impl.name), func(b *testing.B) {
				copy(work.Data, a.Data)
				impl.chol(work)
				for i := 0; i < b.N; i++ {
					copy(x.Data, rhs.Data)
					impl.solve(work, x)
				}
			})
		}
	}
}

// BenchmarkTile times the two inner kernels alone on panels in L1
// (kc = 256), the measurement that chose each build's tile.
func BenchmarkTile(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	ap := make([]float64, mr*kc)
	bp := make([]float64, 8*kc)
	for i := range ap {
		ap[i] = rng.Float64()
	}
	for i := range bp {
		bp[i] = rng.Float64()
	}
	c := make([]float64, 4*8)
	for _, tl := range tiles {
		b.Run(tl.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				tl.t.kern(ap, bp[:tl.t.nr*kc], 1, c, 8, mr, tl.t.nr)
			}
			b.ReportMetric(2*float64(mr*tl.t.nr*kc)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkPacked times thin products with op(A) packed once (Packed.Mul)
// against packing it on every product (Gemm), on the shapes of l20 and
// topk on lymphoma (96×4027, 9 classes) and COIL20 (1440×1025, 20).
func BenchmarkPacked(b *testing.B) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, sh := range []struct {
		m, n, k int
		tA      bool
	}{{96, 9, 4027, false}, {4027, 9, 96, true}, {1440, 20, 1025, false}, {1025, 20, 1440, true}} {
		var a General
		if sh.tA {
			a = randGeneral(rng, sh.k, sh.m)
		} else {
			a = randGeneral(rng, sh.m, sh.k)
		}
		bm, c := randGeneral(rng, sh.k, sh.n), randGeneral(rng, sh.m, sh.n)
		p := Pack(a, sh.tA)
		name := fmt.Sprintf("%dx%dx%d", sh.m, sh.n, sh.k)
		if sh.tA {
			name += "T"
		}
		b.Run(name+"/packed-once", func(b *testing.B) {
			for b.Loop() {
				p.Mul(1, bm, 0, c)
			}
		})
		b.Run(name+"/Gemm", func(b *testing.B) {
			for b.Loop() {
				Gemm(sh.tA, false, 1, a, bm, 0, c)
			}
		})
	}
}

// BenchmarkTransposeInPlace: a 200 × 100,000 matrix (the large synthetic
// problem of docs/results.md §4.1) transposed and back, against a
// transposing copy each way.
func BenchmarkTransposeInPlace(b *testing.B) {
	const m, n = 200, 100000
	a := make([]float64, m*n)
	b.Run("in-place", func(b *testing.B) {
		for b.Loop() {
			TransposeInPlace(a, m, n)
			TransposeInPlace(a, n, m)
		}
	})
	b.Run("copy", func(b *testing.B) {
		for b.Loop() {
			t := make([]float64, m*n)
			for i := 0; i < m; i++ {
				for j, v := range a[i*n : (i+1)*n] {
					t[j*m+i] = v
				}
			}
			u := make([]float64, m*n)
			for j := 0; j < n; j++ {
				for i, v := range t[j*m : (j+1)*m] {
					u[i*n+j] = v
				}
			}
		}
	})
}
