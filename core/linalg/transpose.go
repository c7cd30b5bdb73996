package linalg

// TransposeInPlace turns a, a rows×cols matrix stored row-major in
// a[:rows·cols], into its transpose (cols×rows, row-major) in the same
// memory. Its scratch is one bit per min(rows, cols)-long unit of the
// matrix and at most min(rows, cols)² values; a copy would take the whole
// matrix again. Every value is moved, not recomputed: transposing back
// gives the same bits.
//
// For a wide matrix (rows ≤ cols; cols = q·rows + r, 0 ≤ r < rows) it
//
//  1. moves the last r columns out (to the scratch) and closes the gaps,
//     leaving the first q·rows columns as one rows × q·rows block;
//  2. transposes each of that block's q square rows×rows sub-blocks in
//     place (with the block's stride);
//  3. moves the rows-long pieces of the block — row i of sub-block k,
//     after step 2 column i of the original's sub-block k — from
//     place (i, k) of a rows × q arrangement of pieces to place (k, i):
//     a transposition of pieces, each moved once along the permutation's
//     cycles;
//  4. writes the r columns from the scratch as the transpose's last r
//     rows.
//
// A tall matrix is transposed by the same steps undone in reverse order:
// its transpose is the wide matrix whose transpose it is.
func TransposeInPlace(a []float64, rows, cols int) {
	if rows <= 1 || cols <= 1 {
		return // a row or a column: the same values in the same order
	}
	if rows <= cols {
		wideToTall(a, rows, cols)
	} else {
		tallToWide(a, cols, rows)
	}
}

// wideToTall transposes the r×c row-major matrix in a (r ≤ c) into the
// c×r one.
func wideToTall(a []float64, r, c int) {
	q, rem := c/r, c%r
	w := q * r
	var strip []float64
	if rem > 0 {
		strip = make([]float64, r*rem)
		for i := 0; i < r; i++ {
			copy(strip[i*rem:(i+1)*rem], a[i*c+w:(i+1)*c])
		}
		// Row i moves left from i·c to i·w: its new place ends before the
		// next row's old one starts, so going down the rows overwrites
		// only rows already moved.
		for i := 1; i < r; i++ {
			copy(a[i*w:(i+1)*w], a[i*c:i*c+w])
		}
	}
	for k := 0; k < q; k++ {
		transposeSquare(a[k*r:], r, w)
	}
	transposePieces(a, r, q, r)
	for j := 0; j < rem; j++ {
		row := a[(w+j)*r : (w+j+1)*r]
		for i := range row {
			row[i] = strip[i*rem+j]
		}
	}
}

// tallToWide undoes wideToTall(a, r, c): a holds a c×r row-major matrix
// (r ≤ c), which becomes the r×c one.
func tallToWide(a []float64, r, c int) {
	q, rem := c/r, c%r
	w := q * r
	var strip []float64
	if rem > 0 {
		strip = make([]float64, r*rem)
		for j := 0; j < rem; j++ {
			row := a[(w+j)*r : (w+j+1)*r]
			for i, v := range row {
				strip[i*rem+j] = v
			}
		}
	}
	transposePieces(a, q, r, r)
	for k := 0; k < q; k++ {
		transposeSquare(a[k*r:], r, w)
	}
	if rem > 0 {
		// Row i moves right from i·w to i·c: going up the rows, a row's
		// new place starts after the old places of the rows above it.
		for i := r - 1; i >= 1; i-- {
			copy(a[i*c:i*c+w], a[i*w:(i+1)*w])
		}
		for i := 0; i < r; i++ {
			copy(a[i*c+w:(i+1)*c], strip[i*rem:(i+1)*rem])
		}
	}
}

// transposeSquare transposes in place the n×n matrix at a with row
// stride ld, in tiles so that both the rows and the columns it swaps stay
// in cache.
func transposeSquare(a []float64, n, ld int) {
	const tile = 32
	for ib := 0; ib < n; ib += tile {
		ie := min(ib+tile, n)
		for jb := ib; jb < n; jb += tile {
			je := min(jb+tile, n)
			for i := ib; i < ie; i++ {
				j0 := jb
				if jb == ib {
					j0 = i + 1
				}
				row := a[i*ld : i*ld+je]
				for j := j0; j < je; j++ {
					row[j], a[j*ld+i] = a[j*ld+i], row[j]
				}
			}
		}
	}
}

// transposePieces treats a[:p·q·u] as a p×q row-major matrix whose
// entries are pieces of u values and rearranges it into the q×p one,
// following each cycle of the permutation: the piece at place
// k = i·q + j goes to j·p + i = k·p mod (p·q − 1).
func transposePieces(a []float64, p, q, u int) {
	n := p * q
	if p == 1 || q == 1 {
		return
	}
	last := n - 1
	done := make([]uint64, (n+63)/64)
	held, next := make([]float64, u), make([]float64, u)
	for start := 1; start < last; start++ {
		if done[start>>6]&(1<<(start&63)) != 0 {
			continue
		}
		copy(held, a[start*u:(start+1)*u])
		k := start
		for {
			d := k * p % last
			done[d>>6] |= 1 << (d & 63)
			piece := a[d*u : (d+1)*u]
			copy(next, piece)
			copy(piece, held)
			held, next = next, held
			k = d
			if k == start {
				break
			}
		}
	}
}
