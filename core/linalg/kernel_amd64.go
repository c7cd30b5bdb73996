//go:build !purego

package linalg

// kern4x8fma is the 4×8 tile in AVX/FMA3 assembly (kernel_amd64.s): t
// receives the 32 sums row by row.
//
//go:noescape
func kern4x8fma(k int, a, b, t *float64)

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
		kern4x8fma(k, &a[0], &b[0], &t[0])
	}
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
		return tile{nr: 8, kern: kern4x8}
	}
	return tile{}
}()
