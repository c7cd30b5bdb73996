// Package linalg holds the dense kernels of sparsefs: products with a
// diagonal weight in the middle (A·D·Aᵀ and Aᵀ·D·A, SYRK-style: only one
// triangle is computed, then mirrored), a general product (GEMM), and the
// Cholesky factorisation with its solve. They are what the iteratively
// reweighted solvers spend their time in. Packed keeps op(A) packed for
// repeated products op(A)·B with a fixed A and a new thin B each time,
// which is what the first-order solvers (l20, topk, exl21's fista) spend
// theirs in.
//
// # Why not just gonum
//
// gonum's native speed comes from its amd64 assembly; compiled to
// WebAssembly (GOOS=js GOARCH=wasm) it runs its generic Go code, and in a
// browser worker that is 5–15× slower than natively
// (docs/wasm.md#wasm-speed). The kernels here are plain Go written so that
// both compilers do well: the operands are packed into contiguous panels (as
// in GotoBLAS: K in blocks of kc, rows in blocks of mc, columns in blocks of
// nc, so a block of each operand stays in cache), and an inner kernel keeps
// an mr×nr tile of the result in registers while it streams the panels. No
// bounds checks survive in the inner loops. The tile is chosen per build
// from measurements (kernel.go): in wasm a 4×4 tile in SIMD128 (the simd
// package of Go 1.27, kernel_simd.go) when built with GOEXPERIMENT=simd,
// else 4×3; natively a 4×8 tile in AVX/FMA3 assembly (kernel_amd64.s)
// where the processor has it, else 4×2. The dot products of the Cholesky
// factorisation and the row updates of its solve have SIMD128 forms too
// (vec_simd.go). The portable tiles are compiled in every build and tested
// in both; the assembly one wherever it runs; the SIMD128 ones in the wasm
// build with the experiment, against the scalar ones (simd_test.go).
//
// Each exported function documents which implementation runs in which
// build; dispatch_js.go and dispatch_other.go hold the measurements that
// decided it (BenchmarkKernels and BenchmarkCholesky in bench_test.go
// measure again).

// # Conventions
//
// Matrices are blas64.General values: row-major, Rows×Cols, Stride ≥ Cols,
// Data holding at least (Rows−1)·Stride+Cols elements — the layout of
// gonum's mat.Dense (use its RawMatrix), so the two mix freely. A shape
// mismatch is a programming mistake and panics with ErrShape. A
// factorisation reports whether it succeeded. Nothing here allocates on the
// heap in steady state: packing buffers come from a pool.
//
// In wasm everything runs on the calling goroutine (a worker has one
// thread). Natively, products above about 2·10⁶ multiply-adds are split
// between two goroutines, as gonum's Dgemm and numpy's BLAS split theirs.
package linalg
