package selection

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
)

// DefaultReliefNeighbours is k, the number of nearest hits and of nearest
// misses per other class of relieff (docs/methods.md#relieff: k = 10).
const DefaultReliefNeighbours = 10

// ReliefF is the ReliefF filter of M. Robnik-Šikonja & I. Kononenko,
// "Theoretical and empirical analysis of ReliefF and RReliefF", Machine
// Learning 53 (2003) 23–69, §2.2 (the ReliefF algorithm and its weight
// update), with every sample a probe (m iterations) as
// docs/methods.md#relieff requires:
//
//	W(f) = (1/m) Σ_i [ − (1/|H_i|) Σ_{h∈H_i} diff(f, x_i, x_h)
//	                   + Σ_{C ≠ y_i} P(C)/(1 − P(y_i)) · (1/|M_i(C)|) Σ_{h∈M_i(C)} diff(f, x_i, x_h) ],
//
// where H_i are the k nearest hits of x_i (samples of its class other than
// itself) and M_i(C) its k nearest misses in class C — fewer when the class
// is smaller, the average being over those found (a sample alone in its
// class has no hits and its hit term is 0) —, P(C) = m_C/m the class prior
// on the data given, and
//
//	diff(f, a, b) = |a_f − b_f| / (max_f − min_f),   d(a, b) = Σ_f diff(f, a, b)
//
// the range-normalised difference of the paper's §2.1 and the Manhattan
// distance on it. Neighbours are ordered by distance, then by lower
// row index, so the result is deterministic. A constant feature has
// max = min: its diff is 0/0 = 0 everywhere and it scores 0. Scores lie in
// [−1, 1]; larger is better.
//
// Arithmetic: each feature is first mapped to z = (x − min)/(max − min) ∈
// [0, 1] and diff is computed as |z_a − z_b| (equal to the definition up
// to one rounding). The neighbours are chosen by exact distances when the
// data lie on a lattice — whole numbers and their affine images, as the
// z-scored copy of genotypes, counts or pixels: distances are then whole
// numbers over a common denominator, computed exactly, so that equal
// distances tie and the order (distance, row) holds (relieff_exact.go);
// otherwise d(a, b) is the sum of the diffs accumulated in increasing
// feature order, d(a, b) and d(b, a) the same number.
//
// Cost: O(m²n) time — each pair of samples is compared once when the
// neighbour lists of all probes fit in the memory of X (the usual case;
// otherwise the probes go in chunks and pairs across chunks are compared
// twice) — in tiles of rows that stay in cache; memory O(mn) for the scaled
// copy of X plus the bounded neighbour lists, O(m·min(ck, m)), kept
// within O(mn) by the chunking. No m×m (let alone m×m×n) array is built.
type ReliefF struct {
	// K is the number of nearest hits and of nearest misses taken from
	// each other class (DefaultReliefNeighbours if zero).
	K int
	// chunk, if positive, caps the probes searched at once (tests use it
	// to exercise the chunked search on small data).
	chunk int
}

var _ Selector = ReliefF{}

// Fit scores every feature, reporting progress and honouring cancellation
// as it goes through the pairs of samples.
func (r ReliefF) Fit(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	k := r.K
	if k <= 0 {
		k = DefaultReliefNeighbours
	}
	m, n := p.X.Dims()
	counts := make([]int, p.C)
	for _, y := range p.Y {
		counts[y]++
	}
	if err := p.CheckMemory("relieff", reliefNeeds(m, n, counts, k)...); err != nil {
		return nil, err
	}
	scores := make([]float64, n)
	z, keep, lo, hi := rangeScaled(p.X)
	if len(keep) == 0 {
		return tiedFilterResult(scores), nil
	}
	nz := len(keep)
	// Neighbours by exact distances where the data lie on a lattice
	// (relieff_exact.go), else by the floating-point sums of z.
	dz := latticeScaled(p.X, lo, hi, keep)
	if dz == nil {
		dz = z
	}
	nb := newReliefSearch(ctx, s, dz, nz, p.Y, counts, k, r.chunk)
	w := make([]float64, nz)
	for a := 0; a < m; a += nb.chunk {
		b := min(m, a+nb.chunk)
		if err := nb.search(a, b); err != nil {
			return nil, err
		}
		// The weight update: the hit term and the prior-weighted miss
		// terms of every probe of the chunk, each an average over the
		// neighbours found.
		for i := a; i < b; i++ {
			zi := z[i*nz : (i+1)*nz]
			yi := p.Y[i]
			for class := range counts {
				hj := nb.neighbours(i-a, yi, class)
				if len(hj) == 0 {
					continue
				}
				coef := -1 / float64(len(hj))
				if class != yi {
					// P(C)/(1 − P(y_i)) = m_C/(m − m_{y_i}).
					coef = float64(counts[class]) / float64(m-counts[yi]) / float64(len(hj))
				}
				for _, j := range hj {
					zj := z[int(j)*nz : (int(j)+1)*nz]
					for f, v := range zi {
						w[f] += coef * math.Abs(v-zj[f])
					}
				}
			}
		}
	}
	for t, j := range keep {
		scores[j] = w[t] / float64(m)
	}
	res := tiedFilterResult(scores)
	if largest := slices.Max(counts); k > largest {
		res.Notes = append(res.Notes, fmt.Sprintf("relieff: k = %d neighbours reaches past every class (the largest has %d samples): every sample of a class is a neighbour", k, largest))
	}
	return res, nil
}

// rangeScaled returns the non-constant features of x mapped to
// z = (x − min)/(max − min) ∈ [0, 1], as an m×len(keep) row-major array,
// the columns kept, and every column's min and max.
func rangeScaled(x *mat.Dense) (z []float64, keep []int, lo, hi []float64) {
	m, n := x.Dims()
	lo, hi = make([]float64, n), make([]float64, n)
	copy(lo, x.RawRowView(0))
	copy(hi, x.RawRowView(0))
	for i := 1; i < m; i++ {
		for j, v := range x.RawRowView(i) {
			lo[j] = math.Min(lo[j], v)
			hi[j] = math.Max(hi[j], v)
		}
	}
	for j := 0; j < n; j++ {
		if hi[j] > lo[j] {
			keep = append(keep, j)
		}
	}
	nz := len(keep)
	z = make([]float64, m*nz)
	for i := 0; i < m; i++ {
		row, xi := z[i*nz:(i+1)*nz], x.RawRowView(i)
		for t, j := range keep {
			row[t] = (xi[j] - lo[j]) / (hi[j] - lo[j])
		}
	}
	return z, keep, lo, hi
}

// reliefSearch finds, for the probes of a chunk [a, b), the nearest
// neighbours in every class under the order (distance, row index). Each
// (probe, class) pair has a bounded max-heap whose root is the farthest of
// the neighbours kept, so that a candidate is rejected by one comparison.
type reliefSearch struct {
	ctx context.Context
	s   *Settings
	z   []float64
	nz  int
	y   []int
	c   int
	// capacity[y·c + C] is how many neighbours of class C a probe of
	// class y keeps (k, or fewer when C is smaller); offset[y·c + C]
	// where they start in the probe's region of stride entries.
	capacity, offset []int
	stride           int
	// chunk is the number of probes whose heaps are held at once; tile
	// the number of rows compared as a block.
	chunk, tile int
	a           int
	dist        []float64
	idx         []int32
	size        []int32
	// bound[li·c + C] is the distance beyond which a candidate of class C
	// cannot enter probe li's heap: +Inf while the heap has room, the
	// root's distance once full, −Inf when the class offers no neighbour.
	bound       []float64
	done, total float64
}

func newReliefSearch(ctx context.Context, s *Settings, z []float64, nz int, y, counts []int, k, chunk int) *reliefSearch {
	m, c := len(y), len(counts)
	r := &reliefSearch{ctx: ctx, s: s, z: z, nz: nz, y: y, c: c,
		capacity: make([]int, c*c), offset: make([]int, c*c)}
	for yc := 0; yc < c; yc++ {
		off := 0
		for class, mc := range counts {
			if class == yc {
				mc-- // a probe is not its own hit
			}
			r.capacity[yc*c+class] = max(0, min(k, mc))
			r.offset[yc*c+class] = off
			off += r.capacity[yc*c+class]
		}
		r.stride = max(r.stride, off)
	}
	r.chunk, r.tile = reliefChunk(m, nz, r.stride)
	if chunk > 0 {
		r.chunk = min(r.chunk, chunk)
	}
	for a := 0; a < m; a += r.chunk {
		sz := float64(min(m, a+r.chunk) - a)
		r.total += sz*(sz-1)/2 + sz*(float64(m)-sz)
	}
	r.dist = make([]float64, r.chunk*r.stride)
	r.idx = make([]int32, r.chunk*r.stride)
	r.size = make([]int32, r.chunk*c)
	r.bound = make([]float64, r.chunk*c)
	return r
}

// reliefStride is the largest number of neighbours a probe keeps over
// all classes (k of each class, fewer in a class smaller than k, the probe
// not its own hit): the stride of newReliefSearch's heaps.
func reliefStride(counts []int, k int) int {
	all := 0
	for _, mc := range counts {
		all += min(k, mc)
	}
	stride := 0
	for _, my := range counts {
		stride = max(stride, all-min(k, my)+max(0, min(k, my-1)))
	}
	return stride
}

// reliefChunk returns the number of probes whose heaps of stride entries
// are held at once, and the rows compared as a block, for m samples of nz
// features.
func reliefChunk(m, nz, stride int) (chunk, tile int) {
	// Rows per tile: a block of rows of about 128 KiB stays in L2 cache
	// while it is compared with the rows of another block.
	tile = min(64, max(4, (16384/max(nz, 1))/4*4))
	// Keep the heaps within the size of the data (or 1 Mi entries).
	budget := max(m*nz, 1<<20)
	chunk = m
	if stride > 0 && budget/stride < m {
		chunk = max(tile, budget/stride)
	}
	return chunk, tile
}

// reliefNeeds are the arrays ReliefF allocates for m samples of n
// features with the class counts given and k neighbours: the scaled data
// (with the lattice codes and the exact copy of relieff_exact.go), the
// heaps' layout for every pair of classes, and the heaps, sizes and
// bounds of a chunk of probes.
func reliefNeeds(m, n int, counts []int, k int) []Need {
	c := len(counts)
	stride := reliefStride(counts, k)
	chunk, _ := reliefChunk(m, n, stride)
	return []Need{
		{What: "the scaled data, their lattice codes and exact copy", Rows: m, RowsOf: "samples", Cols: n, ColsOf: "features", Copies: 3},
		{What: "the neighbour counts and offsets of every pair of classes", Rows: c, RowsOf: "classes", Cols: c, ColsOf: "classes", Copies: 2},
		{What: "the neighbour heaps of a chunk of probes", Rows: chunk, RowsOf: "samples", Cols: stride, ColsOf: "neighbours", Copies: 2},
		{What: "the heap sizes and bounds of a chunk of probes", Rows: chunk, RowsOf: "samples", Cols: c, ColsOf: "classes", Copies: 2},
	}
}

// search fills the heaps of the probes in [a, b) by comparing them with
// every other sample: the pairs inside the chunk once (both probes get
// the other as a candidate), the others from the probe's side only.
func (r *reliefSearch) search(a, b int) error {
	r.a = a
	clear(r.size)
	for li := 0; li < b-a; li++ {
		yi := r.y[a+li]
		for class := 0; class < r.c; class++ {
			r.bound[li*r.c+class] = math.Inf(1)
			if r.capacity[yi*r.c+class] == 0 {
				r.bound[li*r.c+class] = math.Inf(-1)
			}
		}
	}
	m := len(r.y)
	for i0 := a; i0 < b; i0 += r.tile {
		i1 := min(b, i0+r.tile)
		for _, span := range [3]struct {
			j0, j1 int
			both   bool
		}{{0, a, false}, {i0, b, true}, {b, m, false}} {
			for j0 := span.j0; j0 < span.j1; j0 += r.tile {
				j1 := min(span.j1, j0+r.tile)
				if err := r.ctx.Err(); err != nil {
					return err
				}
				for i := i0; i < i1; i++ {
					js := j0
					if span.both && js <= i {
						js = i + 1
					}
					r.compare(i, js, j1, span.both)
					r.done += float64(max(0, j1-js))
				}
				r.s.Report(Progress{Objective: api.Float(math.NaN()), Fraction: r.done / r.total})
			}
		}
	}
	return nil
}

// compare offers the rows j0 … j1−1 to probe i (and i to them when both).
func (r *reliefSearch) compare(i, j0, j1 int, both bool) {
	nz := r.nz
	zi := r.z[i*nz : (i+1)*nz]
	yi := r.y[i]
	li := i - r.a
	j := j0
	for ; j+4 <= j1; j += 4 {
		var d [4]float64
		d[0], d[1], d[2], d[3] = l1dist4(zi, r.z[j*nz:(j+1)*nz], r.z[(j+1)*nz:(j+2)*nz], r.z[(j+2)*nz:(j+3)*nz], r.z[(j+3)*nz:(j+4)*nz])
		for t, dt := range d {
			r.offer(li, yi, r.y[j+t], dt, int32(j+t))
			if both {
				r.offer(j+t-r.a, r.y[j+t], yi, dt, int32(i))
			}
		}
	}
	for ; j < j1; j++ {
		d := l1dist(zi, r.z[j*nz:(j+1)*nz])
		r.offer(li, yi, r.y[j], d, int32(j))
		if both {
			r.offer(j-r.a, r.y[j], yi, d, int32(i))
		}
	}
}

// farther orders candidates by distance, then row index.
func farther(d1 float64, j1 int32, d2 float64, j2 int32) bool {
	return d1 > d2 || (d1 == d2 && j1 > j2)
}

// offer proposes row j at distance d as a neighbour of class `class` to the
// probe at chunk position li, of class yi. The common case — a full heap
// whose farthest neighbour is nearer — is one comparison with the heap's
// bound, inlined here; the rest goes to insert.
func (r *reliefSearch) offer(li, yi, class int, d float64, j int32) {
	if d <= r.bound[li*r.c+class] {
		r.insert(li, yi, class, d, j)
	}
}

// insert puts (d, j) into the heap of the probe at chunk position li (of
// class yi) for class `class`: pushed while the heap is not full, else in
// place of the root (the farthest kept) if it is nearer under the order
// (distance, row). It keeps the heap's bound: +Inf while the heap is not
// full, then the distance of its root.
func (r *reliefSearch) insert(li, yi, class int, d float64, j int32) {
	q := yi*r.c + class
	capacity := r.capacity[q]
	base := li*r.stride + r.offset[q]
	hd, hj := r.dist[base:base+capacity], r.idx[base:base+capacity]
	size := &r.size[li*r.c+class]
	if int(*size) < capacity {
		// Sift up from the new leaf.
		pos := int(*size)
		*size++
		for pos > 0 {
			parent := (pos - 1) / 2
			if !farther(d, j, hd[parent], hj[parent]) {
				break
			}
			hd[pos], hj[pos] = hd[parent], hj[parent]
			pos = parent
		}
		hd[pos], hj[pos] = d, j
		if int(*size) == capacity {
			r.bound[li*r.c+class] = hd[0]
		}
		return
	}
	if !farther(hd[0], hj[0], d, j) {
		return // as far as the root, with a higher row
	}
	// Replace the root and sift down.
	pos := 0
	for {
		child := 2*pos + 1
		if child >= capacity {
			break
		}
		if child+1 < capacity && farther(hd[child+1], hj[child+1], hd[child], hj[child]) {
			child++
		}
		if !farther(hd[child], hj[child], d, j) {
			break
		}
		hd[pos], hj[pos] = hd[child], hj[child]
		pos = child
	}
	hd[pos], hj[pos] = d, j
	r.bound[li*r.c+class] = hd[0]
}

// neighbours returns the rows of the neighbours of class `class` found for
// the probe at chunk position li (of class yi), in heap order.
func (r *reliefSearch) neighbours(li, yi, class int) []int32 {
	base := li*r.stride + r.offset[yi*r.c+class]
	return r.idx[base : base+int(r.size[li*r.c+class])]
}

// l1dist returns Σ_f |x_f − a_f|, accumulated in increasing f.
func l1dist(x, a []float64) float64 {
	a = a[:len(x)]
	d := 0.0
	for f, v := range x {
		d += math.Abs(v - a[f])
	}
	return d
}

// l1dist4 returns l1dist(x, a), …, l1dist(x, d) in one pass over x, each
// accumulated in increasing f exactly as l1dist does (the four sums are
// independent chains, which the processor runs in parallel).
func l1dist4(x, a, b, c, d []float64) (da, db, dc, dd float64) {
	n := len(x)
	a, b, c, d = a[:n], b[:n], c[:n], d[:n]
	for f, v := range x {
		da += math.Abs(v - a[f])
		db += math.Abs(v - b[f])
		dc += math.Abs(v - c[f])
		dd += math.Abs(v - d[f])
	}
	return da, db, dc, dd
}

func init() {
	Register(&Spec{
		Name:  "relieff",
		Title: "ReliefF",
		Doc:   "how much each feature separates every sample from its nearest misses rather than its nearest hits",
		Paper: "Robnik-Šikonja & Kononenko, Machine Learning 53 (2003) §2.2",
		Kind:  Filter,
		Params: []Param{
			{Name: "k", Default: DefaultReliefNeighbours, Min: 1, Max: 1e6, Integer: true, Doc: "nearest hits, and nearest misses per other class, of each sample (fewer when a class is smaller)"},
		},
		New: func(p Params) (Selector, error) { return ReliefF{K: int(p["k"])}, nil },
	})
}
