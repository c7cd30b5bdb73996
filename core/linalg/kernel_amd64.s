//go:build !purego

#include "textflag.h"

// The three kernels below share their tile: eight 256-bit accumulators
// (Y0–Y7: row i of the 4×8 tile in Y(2i), Y(2i+1)), the B row of each
// step in Y8, Y9, and the stores of the tile to t (DX).
#define ZERO_TILE \
	VXORPD Y0, Y0, Y0; VXORPD Y1, Y1, Y1; VXORPD Y2, Y2, Y2; VXORPD Y3, Y3, Y3; \
	VXORPD Y4, Y4, Y4; VXORPD Y5, Y5, Y5; VXORPD Y6, Y6, Y6; VXORPD Y7, Y7, Y7

#define LOAD_B \
	VMOVUPD (DI), Y8; VMOVUPD 32(DI), Y9

// ROW adds the value at src, broadcast into x, times the B row to the
// tile row (c0, c1).
#define ROW(src, x, c0, c1) \
	VBROADCASTSD src, x; VFMADD231PD Y8, x, c0; VFMADD231PD Y9, x, c1

#define STORE_TILE \
	VMOVUPD Y0, (DX); VMOVUPD Y1, 32(DX); VMOVUPD Y2, 64(DX); VMOVUPD Y3, 96(DX); \
	VMOVUPD Y4, 128(DX); VMOVUPD Y5, 160(DX); VMOVUPD Y6, 192(DX); VMOVUPD Y7, 224(DX); \
	VZEROUPPER

// func kern4x8fma(k int, a *float64, lda int, b, t *float64)
//
// t[8i+j] = Σ_{p<k} a[p·lda+i]·b[8p+j] for i < 4, j < 8: a 4×8 tile of
// the product of a panel of 4 rows (a: packed, lda = 4, or Aᵀ read in
// place, lda its row stride) and a panel of 8 columns (b), updated by
// fused multiply-adds. Needs AVX and FMA3 (see hasFMA).
TEXT ·kern4x8fma(SB), NOSPLIT, $0-40
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R8
	SHLQ $3, R8
	MOVQ b+24(FP), DI
	MOVQ t+32(FP), DX
	ZERO_TILE
	TESTQ CX, CX
	JEQ   done

loop:
	LOAD_B
	ROW((SI), Y10, Y0, Y1)
	ROW(8(SI), Y11, Y2, Y3)
	ROW(16(SI), Y12, Y4, Y5)
	ROW(24(SI), Y13, Y6, Y7)
	ADDQ R8, SI
	ADDQ $64, DI
	DECQ CX
	JNE  loop

done:
	STORE_TILE
	RET

// func kern4x8rowsfma(k int, a0, a1, a2, a3, b, t *float64)
//
// kern4x8fma with the four rows of A read where they are (a0…a3, k
// values each) instead of from a packed panel.
TEXT ·kern4x8rowsfma(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a0+8(FP), SI
	MOVQ a1+16(FP), R8
	MOVQ a2+24(FP), R9
	MOVQ a3+32(FP), R10
	MOVQ b+40(FP), DI
	MOVQ t+48(FP), DX
	ZERO_TILE
	TESTQ CX, CX
	JEQ   rowsdone

rowsloop:
	LOAD_B
	ROW((SI), Y10, Y0, Y1)
	ROW((R8), Y11, Y2, Y3)
	ROW((R9), Y12, Y4, Y5)
	ROW((R10), Y13, Y6, Y7)
	ADDQ $8, SI
	ADDQ $8, R8
	ADDQ $8, R9
	ADDQ $8, R10
	ADDQ $64, DI
	DECQ CX
	JNE  rowsloop

rowsdone:
	STORE_TILE
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
