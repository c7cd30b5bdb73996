package linalg

import (
	"errors"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
)

// General is a row-major dense matrix, the layout of gonum's mat.Dense
// (mat.Dense.RawMatrix returns one).
type General = blas64.General

// ErrShape is the panic value of a dimension mismatch.
var ErrShape = errors.New("linalg: dimension mismatch")

// Block sizes of the packed products: kc of the inner dimension, mc rows
// of op(A) and nc columns of op(B) at a time, so that a packed block of
// op(A) (mc·kc·8 = 256 KiB) stays in L2 and a kc-row sliver of op(B) in L1
// while the kernels stream them (BenchmarkBlocking measured kc from 128 to
// 512 and mc from 64 to 256 within 5% of each other).
const (
	kc = 256
	mc = 128
	nc = 1024
)

// thinDirect is the widest op(B) (in columns) for which the kernels read
// A's rows in place when the tile has such a kernel (tile.rows).
const thinDirect = 16

// PackingFloats is the size of the packing space of one goroutine
// computing a product: mc·kc for op(A), kc·(nc+7) for op(B) (the last
// panel of the widest tile, 8 columns, may be padded by 7).
const PackingFloats = mc*kc + kc*(nc+7)

// buffers holds packing space, PackingFloats a buffer.
var buffers = sync.Pool{New: func() any {
	b := make([]float64, PackingFloats)
	return &b
}}

// opDims returns the dimensions of op(a).
func opDims(a General, trans bool) (rows, cols int) {
	if trans {
		return a.Cols, a.Rows
	}
	return a.Rows, a.Cols
}

// Gemm sets C = alpha·op(A)·op(B) + beta·C, where op(X) is X or, when the
// flag is set, Xᵀ. C must not overlap A or B. With beta = 0, C need not be
// initialised (NaNs in it are ignored).
//
// In wasm it runs the packed kernels of this package; natively too where
// the assembly tile runs, else only for thin products (fewer than 16 rows
// or columns in C) and gonum's Dgemm otherwise (see gemm in dispatch_js.go
// and dispatch_other.go for the measurements).
func Gemm(transA, transB bool, alpha float64, a, b General, beta float64, c General) {
	m, k := opDims(a, transA)
	kb, n := opDims(b, transB)
	if k != kb || c.Rows != m || c.Cols != n {
		panic(ErrShape)
	}
	gemm(transA, transB, alpha, a, b, beta, c)
}

// gemmWith sets C = alpha·op(A)·diag(d)·op(B) + beta·C with the tile t (d
// nil means the identity). With lower set, only the tiles that meet the
// lower triangle of C are computed (C square): entries above the diagonal
// inside those tiles are written too and must be ignored by the caller.
func gemmWith(t tile, transA, transB bool, alpha float64, a General, d []float64, b General, beta float64, c General, lower bool) {
	gemmPanels(t, transA, transB, alpha, a, d, nil, b, beta, c, lower)
}

// gemmPanels is gemmWith taking the panels of op(A) from pre when it is
// set (op(A) packed once by Pack; d must then be nil) instead of packing
// them on the way.
func gemmPanels(t tile, transA, transB bool, alpha float64, a General, d []float64, pre *panels, b General, beta float64, c General, lower bool) {
	m, k := opDims(a, transA)
	_, n := opDims(b, transB)
	if d != nil && len(d) != k {
		panic(ErrShape)
	}
	scale(c, beta, lower)
	if m == 0 || n == 0 || k == 0 || alpha == 0 {
		return
	}
	bufp := buffers.Get().(*[]float64)
	defer buffers.Put(bufp)
	ap := (*bufp)[:mc*kc]
	bp := (*bufp)[mc*kc:]
	nr := t.nr
	// Thin products (at most thinDirect columns of C) read the rows of A
	// where they are when the tile can: packing them cost as much as the
	// products themselves (W = ZᵀΛ with 9 classes: 7% of rfs's time on
	// lymphoma in wasm, the products 6%).
	// In Aᵀ (transA) they read the four values of each inner index where
	// they lie side by side, when the tile has that kernel (t.strided);
	// a last panel of fewer than four rows is packed.
	direct := pre == nil && d == nil && !transA && t.rows != nil && n <= thinDirect
	strided := pre == nil && d == nil && transA && t.strided != nil && n <= thinDirect
	for j0 := 0; j0 < n; j0 += nc {
		nb := min(nc, n-j0)
		for p0 := 0; p0 < k; p0 += kc {
			kb := min(kc, k-p0)
			packB(bp, b, transB, p0, kb, j0, nb, nr)
			for i0 := 0; i0 < m; i0 += mc {
				mb := min(mc, m-i0)
				if lower && i0+mb <= j0 {
					continue
				}
				if pre == nil && !direct && !strided {
					packA(ap, a, transA, i0, mb, p0, kb, d)
				}
				for p := 0; p < mb; p += mr {
					i := i0 + p
					rows := min(mr, m-i)
					if strided && rows == mr {
						src := a.Data[p0*a.Stride+i:]
						for q := 0; q < nb; q += nr {
							j := j0 + q
							if lower && j >= i+rows {
								break
							}
							t.strided(src, a.Stride, bp[q*kb:(q+nr)*kb], alpha, c.Data[i*c.Stride+j:], c.Stride, rows, min(nr, n-j))
						}
						continue
					}
					if strided {
						packA(ap[p*kb:], a, transA, i, rows, p0, kb, nil)
					}
					if direct {
						// Rows past the end repeat the last (the kernel
						// computes them; they are not stored).
						var r [mr][]float64
						for t := range r {
							off := (i+min(t, rows-1))*a.Stride + p0
							r[t] = a.Data[off : off+kb]
						}
						for q := 0; q < nb; q += nr {
							j := j0 + q
							if lower && j >= i+rows {
								break
							}
							t.rows(r[0], r[1], r[2], r[3], bp[q*kb:(q+nr)*kb], alpha, c.Data[i*c.Stride+j:], c.Stride, rows, min(nr, n-j))
						}
						continue
					}
					var apan []float64
					if pre == nil {
						apan = ap[p*kb : (p+mr)*kb]
					} else {
						apan = pre.panel(p0, kb, i)
					}
					for q := 0; q < nb; q += nr {
						j := j0 + q
						if lower && j >= i+rows {
							break
						}
						t.kern(apan, bp[q*kb:(q+nr)*kb], alpha, c.Data[i*c.Stride+j:], c.Stride, rows, min(nr, n-j))
					}
				}
			}
		}
	}
}

// scale multiplies C (its lower triangle only, when lower) by beta; beta =
// 0 sets it to zero.
func scale(c General, beta float64, lower bool) {
	if beta == 1 {
		return
	}
	for i := 0; i < c.Rows; i++ {
		w := c.Cols
		if lower {
			w = min(i+1, c.Cols)
		}
		row := c.Data[i*c.Stride : i*c.Stride+w]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// packA copies rows i0…i0+mb−1 and inner indices p0…p0+kb−1 of op(A),
// each column scaled by d[p] when d is set, into panels of mr rows: panel
// p/mr holds, for each inner index, its mr values contiguously. Rows past
// the end are zero. Full panels take unrolled paths (packing was 16% of a
// wasm profile before they did).
func packA(dst []float64, a General, trans bool, i0, mb, p0, kb int, d []float64) {
	var dd []float64
	if d != nil {
		dd = d[p0 : p0+kb]
	}
	for p := 0; p < mb; p += mr {
		panel := dst[p*kb : (p+mr)*kb]
		rows := min(mr, mb-p)
		switch {
		case !trans && rows == mr:
			// Four rows of A side by side.
			off := (i0+p)*a.Stride + p0
			r0 := a.Data[off : off+kb]
			r1 := a.Data[off+a.Stride : off+a.Stride+kb]
			r2 := a.Data[off+2*a.Stride : off+2*a.Stride+kb]
			r3 := a.Data[off+3*a.Stride : off+3*a.Stride+kb]
			out := panel[:4*kb]
			if dd == nil {
				for k := range r0 {
					o := out[4*k : 4*k+4 : 4*k+4]
					o[0], o[1], o[2], o[3] = r0[k], r1[k], r2[k], r3[k]
				}
			} else {
				dd := dd[:len(r0)]
				for k, s := range dd {
					o := out[4*k : 4*k+4 : 4*k+4]
					o[0], o[1], o[2], o[3] = r0[k]*s, r1[k]*s, r2[k]*s, r3[k]*s
				}
			}
		case !trans:
			for t := 0; t < mr; t++ {
				if t >= rows {
					for k := 0; k < kb; k++ {
						panel[k*mr+t] = 0
					}
					continue
				}
				off := (i0+p+t)*a.Stride + p0
				src := a.Data[off : off+kb]
				for k, v := range src {
					if dd != nil {
						v *= dd[k]
					}
					panel[k*mr+t] = v
				}
			}
		case rows == mr:
			// Row k of A holds the four values contiguously.
			for k := 0; k < kb; k++ {
				off := (p0+k)*a.Stride + i0 + p
				src := a.Data[off : off+4 : off+4]
				o := panel[4*k : 4*k+4 : 4*k+4]
				if dd == nil {
					o[0], o[1], o[2], o[3] = src[0], src[1], src[2], src[3]
				} else {
					s := dd[k]
					o[0], o[1], o[2], o[3] = src[0]*s, src[1]*s, src[2]*s, src[3]*s
				}
			}
		default:
			for k := 0; k < kb; k++ {
				off := (p0+k)*a.Stride + i0 + p
				src := a.Data[off : off+rows]
				out := panel[k*mr : k*mr+mr]
				s := 1.0
				if dd != nil {
					s = dd[k]
				}
				for t, v := range src {
					out[t] = v * s
				}
				for t := rows; t < mr; t++ {
					out[t] = 0
				}
			}
		}
	}
}

// packB copies inner indices p0…p0+kb−1 and columns j0…j0+nb−1 of op(B)
// into panels of nr columns: panel q/nr holds, for each inner index, its
// nr values contiguously. Columns past the end are zero.
func packB(dst []float64, b General, trans bool, p0, kb, j0, nb, nr int) {
	for q := 0; q < nb; q += nr {
		panel := dst[q*kb : (q+nr)*kb]
		cols := min(nr, nb-q)
		switch {
		case !trans && cols == nr && nr == 3:
			off := p0*b.Stride + j0 + q
			for k := 0; k < kb; k++ {
				src := b.Data[off : off+3 : off+3]
				o := panel[3*k : 3*k+3 : 3*k+3]
				o[0], o[1], o[2] = src[0], src[1], src[2]
				off += b.Stride
			}
		case !trans && cols == nr && nr == 4:
			// The SIMD128 tile's width (copy would call memmove for every
			// four values).
			off := p0*b.Stride + j0 + q
			for k := 0; k < kb; k++ {
				src := b.Data[off : off+4 : off+4]
				o := panel[4*k : 4*k+4 : 4*k+4]
				o[0], o[1], o[2], o[3] = src[0], src[1], src[2], src[3]
				off += b.Stride
			}
		case !trans && cols == nr && nr == 2:
			off := p0*b.Stride + j0 + q
			for k := 0; k < kb; k++ {
				src := b.Data[off : off+2 : off+2]
				o := panel[2*k : 2*k+2 : 2*k+2]
				o[0], o[1] = src[0], src[1]
				off += b.Stride
			}
		case !trans && cols == nr:
			off := p0*b.Stride + j0 + q
			for k := 0; k < kb; k++ {
				copy(panel[k*nr:k*nr+nr], b.Data[off:off+nr])
				off += b.Stride
			}
		case !trans:
			for k := 0; k < kb; k++ {
				off := (p0+k)*b.Stride + j0 + q
				out := panel[k*nr : k*nr+nr]
				copy(out, b.Data[off:off+cols])
				for t := cols; t < nr; t++ {
					out[t] = 0
				}
			}
		default:
			for t := 0; t < nr; t++ {
				if t >= cols {
					for k := 0; k < kb; k++ {
						panel[k*nr+t] = 0
					}
					continue
				}
				off := (j0+q+t)*b.Stride + p0
				for k, v := range b.Data[off : off+kb] {
					panel[k*nr+t] = v
				}
			}
		}
	}
}
