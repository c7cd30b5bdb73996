//go:build !purego

package linalg

// kern4x8fma is the 4×8 tile in AVX/FMA3 assembly (kernel_amd64.s): t
// receives the 32 sums row by row; the panel's four values of inner index
// p are a[p·lda], …, a[p·lda+3] (lda = 4 for a packed panel).
//
//go:noescape
func kern4x8fma(k int, a *float64, lda int, b, t *float64)

// kern4x8rowsfma is kern4x8fma reading the four rows of A in place.
//
//go:noescape
func kern4x8rowsfma(k int, a0, a1, a2, a3, b, t *float64)

//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasFMA reports whether the processor has AVX and FMA3 and the operating
// system saves the 256-bit registers (CPUID leaf 1: FMA is ECX bit 12,
// OSXSAVE bit 27, AVX bit 28; XGETBV: XMM and YMM state, bits 1 and 2).
func hasFMA() bool {
	_, _, c, _ := cpuid(1, 0)
	if c&(1<<12) == 0 || c&(1<<27) == 0 || c&(1<<28) == 0 {
		return false
	}
	eax, _ := xgetbv()
	return eax&6 == 6
}

// kern4x8 is the 4×8 tile kernel on amd64 with FMA3.
func kern4x8(a, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	k := min(len(a)/4, len(b)/8)
	var t [32]float64
	if k > 0 {
		kern4x8fma(k, &a[0], 4, &b[0], &t[0])
	}
	store4x8(&t, alpha, c, ldc, rows, cols)
}

// kern4x8rows is kern4x8 reading the four rows of A in place (a0…a3, the
// panel's length each).
func kern4x8rows(a0, a1, a2, a3, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	k := min(len(a0), len(a1), len(a2), len(a3), len(b)/8)
	var t [32]float64
	if k > 0 {
		kern4x8rowsfma(k, &a0[0], &a1[0], &a2[0], &a3[0], &b[0], &t[0])
	}
	store4x8(&t, alpha, c, ldc, rows, cols)
}

// kern4x8strided is kern4x8 reading its panel in place in Aᵀ: a[p·lda+i]
// is row i of the panel at inner index p (see tile.strided).
func kern4x8strided(a []float64, lda int, b []float64, alpha float64, c []float64, ldc, rows, cols int) {
	k := len(b) / 8
	var t [32]float64
	if k > 0 {
		_ = a[(k-1)*lda+3] // the last four values read
		kern4x8fma(k, &a[0], lda, &b[0], &t[0])
	}
	store4x8(&t, alpha, c, ldc, rows, cols)
}

// store4x8 adds alpha times the valid rows×cols part of the 4×8 tile t to c.
func store4x8(t *[32]float64, alpha float64, c []float64, ldc, rows, cols int) {
	if rows == 4 && cols == 8 {
		for i := 0; i < 4; i++ {
			r := c[i*ldc : i*ldc+8 : i*ldc+8]
			ti := t[8*i : 8*i+8 : 8*i+8]
			for j := range r {
				r[j] += alpha * ti[j]
			}
		}
		return
	}
	storeTile(t[:], 8, alpha, c, ldc, rows, cols)
}

// tile4x8 is the assembly tile; the zero tile when the processor cannot
// run it.
var tile4x8 = func() tile {
	if hasFMA() {
		return tile{nr: 8, kern: kern4x8, rows: kern4x8rows, strided: kern4x8strided}
	}
	return tile{}
}()
