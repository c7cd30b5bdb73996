package dataset

// MATLAB's level-5 MAT-file format (versions 5 to 7), as MathWorks
// documents it in "MAT-File Format" (matfile_format.pdf, version 7 and
// later): a 128-byte header (text, subsystem offset, version 0x0100, the
// endian indicator "IM" or "MI"), then tagged data elements. A variable is
// an miMATRIX element, compressed inside an miCOMPRESSED element (zlib) in
// version 7; its subelements are the array flags (class, complex, logical),
// the dimensions, the name and, for a numeric array, its real part stored
// in any numeric element type (MATLAB narrows doubles that are integers to
// the smallest type holding them), column-major; a sparse array has row
// indices ir, column starts jc and values pr instead. Every subelement is
// padded to 8 bytes; one of at most 4 bytes may be packed into its tag.
// Version 7.3 files are HDF5 files with a MAT header, and are refused.

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Data types (Table 1-1 of the format's documentation).
const (
	miINT8       = 1
	miUINT8      = 2
	miINT16      = 3
	miUINT16     = 4
	miINT32      = 5
	miUINT32     = 6
	miSINGLE     = 7
	miDOUBLE     = 9
	miINT64      = 12
	miUINT64     = 13
	miMATRIX     = 14
	miCOMPRESSED = 15
	miUTF8       = 16
	miUTF16      = 17
	miUTF32      = 18
)

// Array classes (Table 1-3).
const (
	mxCELL   = 1
	mxSTRUCT = 2
	mxOBJECT = 3
	mxCHAR   = 4
	mxSPARSE = 5
	mxDOUBLE = 6
	mxUINT64 = 15
	// 16 onwards: function handles and opaque objects.
)

func matTypeSize(t uint32) int {
	switch t {
	case miINT8, miUINT8, miUTF8:
		return 1
	case miINT16, miUINT16, miUTF16:
		return 2
	case miINT32, miUINT32, miSINGLE, miUTF32:
		return 4
	case miDOUBLE, miINT64, miUINT64:
		return 8
	}
	return 0
}

func matTypeName(t uint32) string {
	names := map[uint32]string{miINT8: "int8", miUINT8: "uint8", miINT16: "int16", miUINT16: "uint16", miINT32: "int32", miUINT32: "uint32",
		miSINGLE: "single", miDOUBLE: "double", miINT64: "int64", miUINT64: "uint64", miMATRIX: "matrix", miCOMPRESSED: "compressed",
		miUTF8: "utf8", miUTF16: "utf16", miUTF32: "utf32"}
	if n, ok := names[t]; ok {
		return n
	}
	return "type " + strconv.FormatUint(uint64(t), 10)
}

func matClassName(c uint8) string {
	names := []string{1: "cell array", 2: "struct", 3: "object", 4: "char array", 5: "sparse matrix", 6: "double", 7: "single",
		8: "int8", 9: "uint8", 10: "int16", 11: "uint16", 12: "int32", 13: "uint32", 14: "int64", 15: "uint64"}
	if int(c) < len(names) && names[c] != "" {
		return names[c]
	}
	return "class " + strconv.Itoa(int(c))
}

// matFile is a MAT-file being read.
type matFile struct {
	lim   *limits
	order binary.ByteOrder
	buf   [8]byte
}

// matErr is a damaged or unexpected file, named by the variable when known.
func matErr(v, format string, args ...any) *Error {
	return &Error{Var: v, Msg: fmt.Sprintf(format, args...)}
}

// tag reads an element's tag: its type and size, and the data of a small
// element packed into the tag (then small is true).
func (f *matFile) tag(r io.Reader) (typ, n uint32, data []byte, small bool, err error) {
	if _, err = io.ReadFull(r, f.buf[:]); err != nil {
		return 0, 0, nil, false, err
	}
	w := f.order.Uint32(f.buf[:4])
	if w>>16 != 0 {
		n, typ = w>>16, w&0xFFFF
		if n > 4 {
			return 0, 0, nil, false, fmt.Errorf("a packed element of %d bytes (at most 4 fit)", n)
		}
		return typ, n, append([]byte(nil), f.buf[4:4+n]...), true, nil
	}
	return w, f.order.Uint32(f.buf[4:]), nil, false, nil
}

// small reads a whole subelement of at most limit bytes, and its padding.
func (f *matFile) small(r io.Reader, limit uint32, what string) (uint32, []byte, error) {
	typ, n, data, packed, err := f.tag(r)
	if err != nil {
		return 0, nil, err
	}
	if packed {
		return typ, data, nil
	}
	if n > limit {
		return 0, nil, fmt.Errorf("the %s takes %s, more than it can", what, byteSize(int64(n)))
	}
	data = make([]byte, n+pad8(n))
	if _, err := io.ReadFull(r, data); err != nil {
		return 0, nil, err
	}
	return typ, data[:n], nil
}

func pad8(n uint32) uint32 { return (8 - n%8) % 8 }

// number reads element k of b, of element type t, as a float64.
func (f *matFile) number(t uint32, b []byte) float64 {
	switch t {
	case miINT8:
		return float64(int8(b[0]))
	case miUINT8, miUTF8:
		return float64(b[0])
	case miINT16:
		return float64(int16(f.order.Uint16(b)))
	case miUINT16, miUTF16:
		return float64(f.order.Uint16(b))
	case miINT32:
		return float64(int32(f.order.Uint32(b)))
	case miUINT32, miUTF32:
		return float64(f.order.Uint32(b))
	case miSINGLE:
		return float64(math.Float32frombits(f.order.Uint32(b)))
	case miDOUBLE:
		return math.Float64frombits(f.order.Uint64(b))
	case miINT64:
		return float64(int64(f.order.Uint64(b)))
	case miUINT64:
		return float64(f.order.Uint64(b))
	}
	return math.NaN()
}

// matVar is a variable's header: its subelements before the data.
type matVar struct {
	name    string
	class   uint8
	complex bool
	logical bool
	nzmax   int
	dims    []int
	body    io.Reader // the rest of the variable: its data subelements
}

// header reads a variable's flags, dimensions and name from the content
// of an miMATRIX element.
func (f *matFile) header(r io.Reader) (*matVar, error) {
	typ, flags, err := f.small(r, 64, "array flags")
	if err != nil {
		return nil, err
	}
	if typ != miUINT32 || len(flags) != 8 {
		return nil, fmt.Errorf("the array flags are not two uint32 values")
	}
	w := f.order.Uint32(flags)
	v := &matVar{class: uint8(w), complex: w&0x0800 != 0, logical: w&0x0200 != 0, nzmax: int(f.order.Uint32(flags[4:]))}
	typ, dims, err := f.small(r, 4*64, "dimensions")
	if err != nil {
		return nil, err
	}
	if typ != miINT32 || len(dims) < 8 || len(dims)%4 != 0 {
		return nil, fmt.Errorf("the dimensions are not int32 values")
	}
	for i := 0; i < len(dims); i += 4 {
		d := int32(f.order.Uint32(dims[i:]))
		if d < 0 {
			return nil, fmt.Errorf("a negative dimension")
		}
		v.dims = append(v.dims, int(d))
	}
	typ, name, err := f.small(r, 1<<16, "name")
	if err != nil {
		return nil, err
	}
	if typ != miINT8 && typ != miUINT8 && typ != miUTF8 {
		return nil, fmt.Errorf("the array name is not text")
	}
	v.name = string(name)
	v.body = r
	return v, nil
}

func (v *matVar) shape() string {
	s := make([]string, len(v.dims))
	for i, d := range v.dims {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, "×")
}

func (v *matVar) numeric() bool { return v.class >= mxDOUBLE && v.class <= mxUINT64 }

func readMAT(lim *limits, r io.Reader, opts Options, ds *Dataset) (*Dataset, error) {
	if err := textOnly(opts, "MAT", false); err != nil {
		return nil, err
	}
	switch strings.ToLower(strings.TrimSpace(opts.Label)) {
	case "", "last":
	default:
		return nil, &Error{Msg: fmt.Sprintf("in a MAT-file the labels are a variable (Y, or the one named as the label variable): the label option %s does not apply", quote(opts.Label))}
	}
	if len(opts.Targets) > 0 {
		return nil, &Error{Msg: "a MAT-file's regression targets cannot be read: give them in a table (CSV, XLSX or ARFF)"}
	}
	xName, yName := opts.XVar, opts.YVar
	if xName == "" {
		xName = "X"
	}
	if yName == "" {
		yName = "Y"
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var head [128]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return nil, matErr("", "the MAT-file's 128-byte header is cut short: the file is truncated")
	}
	f := &matFile{lim: lim, order: binary.LittleEndian}
	switch string(head[126:128]) {
	case "IM":
	case "MI":
		f.order = binary.BigEndian
	default:
		return nil, matErr("", "this is not a MATLAB level-5 MAT-file (no endian indicator in its header)")
	}
	text := string(bytes.TrimRight(head[:116], " \x00"))
	if version := f.order.Uint16(head[124:]); version == 0x0200 || strings.HasPrefix(text, "MATLAB 7.3") {
		return nil, matErr("", "this is a MATLAB v7.3 MAT-file, an HDF5 file, which sparsefs cannot read: in MATLAB, save it again as version 7 with save('f.mat','X','Y','-v7') (with your variables' names)")
	} else if version != 0x0100 {
		return nil, matErr("", "this MAT-file has version 0x%04X, which sparsefs cannot read (level 5 files have 0x0100)", version)
	}
	var names []string
	var x *mat.Dense
	var labels []string
	var missing int
	var missingCols []int
	var firstMissing *Error
	for x == nil || labels == nil {
		if err := lim.alive(); err != nil {
			return nil, err
		}
		typ, n, _, packed, err := f.tag(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			if isOurs(err) {
				return nil, err
			}
			return nil, matErr("", "the file is damaged %s: %v", after(names), cutShort(err))
		}
		if packed {
			continue
		}
		el := &io.LimitedReader{R: br, N: int64(n)}
		var body io.Reader = el
		if typ == miCOMPRESSED {
			zr, err := zlib.NewReader(el)
			if err != nil {
				if isOurs(err) {
					return nil, err
				}
				return nil, matErr("", "a compressed variable %s cannot be opened: %v", after(names), cutShort(err))
			}
			zd := lim.data(zr, "MAT-file's compressed")
			typ, n, _, packed, err = f.tag(zd)
			switch {
			case isOurs(err):
				return nil, err
			case err != nil:
				return nil, matErr("", "a compressed variable %s is damaged: %v", after(names), cutShort(err))
			case packed:
				return nil, matErr("", "a compressed element %s holds no variable: the file is damaged", after(names))
			}
			body = &io.LimitedReader{R: zd, N: int64(n)}
		}
		if typ == miMATRIX && n > 0 {
			v, err := f.header(body)
			if err != nil {
				if isOurs(err) {
					return nil, err
				}
				return nil, matErr("", "the header of a variable %s is damaged: %v", after(names), cutShort(err))
			}
			names = append(names, v.name)
			switch v.name {
			case xName:
				if x != nil {
					return nil, matErr(v.name, "the file holds two variables of this name")
				}
				x, missing, missingCols, firstMissing, err = f.matrix(v, yName)
			case yName:
				if labels != nil {
					return nil, matErr(v.name, "the file holds two variables of this name")
				}
				labels, err = f.labels(v)
			}
			if err != nil {
				return nil, err
			}
		}
		// Skip what is left of the element (not decompressing it), and
		// an uncompressed element's padding.
		rest := el.N
		if typ != miCOMPRESSED {
			rest += int64(pad8(n))
		}
		if _, err := io.CopyN(io.Discard, br, rest); err != nil && err != io.EOF {
			return nil, err
		}
	}
	switch {
	case x == nil && labels == nil:
		return nil, matErr("", "the file has neither a variable %s (the data) nor %s (the labels); its variables are %s: name the ones to read", quote(xName), quote(yName), listOrNone(names))
	case x == nil:
		return nil, matErr("", "the file has no variable %s (the data, samples × features); its variables are %s: name the one to read", quote(xName), listOrNone(names))
	case labels == nil:
		return nil, matErr("", "the file has no variable %s (the labels, one per sample); its variables are %s: name the one to read", quote(yName), listOrNone(names))
	}
	m, n := x.Dims()
	if len(labels) != m {
		hint := ""
		if len(labels) == n {
			hint = fmt.Sprintf(": %s has one column per label; if its rows are the features, transpose it (%s = %s';)", xName, xName, xName)
		}
		return nil, matErr(yName, "%d labels for the %d rows (samples) of %s%s", len(labels), m, xName, hint)
	}
	if m < 2 {
		return nil, matErr(xName, "a single sample; selection needs at least two")
	}
	if missing > 0 && opts.Missing == RejectMissing {
		firstMissing.Msg = fmt.Sprintf("%d missing value(s) (NaN), this is the first; fill them in, impute them with the training mean (missing=mean), or leave out the features or the samples that have them (missing=drop-features or drop-samples)", missing)
		return nil, firstMissing
	}
	if missing > 0 && opts.Missing == DropSamples {
		var drop dropped
		var rows []int
		for i := 0; i < m; i++ {
			if slices.ContainsFunc(x.RawRowView(i), math.IsNaN) {
				drop.add(i + 1)
			} else {
				rows = append(rows, i)
			}
		}
		if err := drop.check(ds, len(rows), func(r int) string { return "row " + strconv.Itoa(r) }); err != nil {
			return nil, err
		}
		kept := mat.NewDense(len(rows), n, nil)
		keptLabels := make([]string, len(rows))
		for k, i := range rows {
			kept.SetRow(k, x.RawRowView(i))
			keptLabels[k] = labels[i]
		}
		x, labels, m, missing, missingCols = kept, keptLabels, len(rows), 0, nil
	}
	ds.X, ds.Missing, ds.MissingColumns = x, missing, missingCols
	ds.Features = make([]string, n)
	for j := range ds.Features {
		ds.Features[j] = "f" + strconv.Itoa(j+1)
	}
	ds.Columns = append(append([]string(nil), ds.Features...), yName)
	ds.Label, ds.LabelColumn = yName, n+1
	if opts.Missing == DropFeatures {
		if err := dropMissingFeatures(ds); err != nil {
			return nil, err
		}
	}
	for i := 0; i < min(opts.PreviewRows, m); i++ {
		p := make([]string, 0, n+1)
		for _, v := range x.RawRowView(i) {
			p = append(p, numberText(v))
		}
		ds.Preview = append(ds.Preview, append(p, labels[i]))
	}
	lc := &labeler{name: yName,
		at:    func(line, _ int, _, msg string) *Error { return &Error{Var: yName, Line: line, Msg: msg} },
		where: func(line int) string { return "row " + strconv.Itoa(line) }}
	for i, l := range labels {
		if err := lc.add(l, i+1); err != nil {
			return nil, err
		}
	}
	if err := lc.encode(ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// after says where a problem is among the variables read so far.
func after(names []string) string {
	if len(names) == 0 {
		return "before its first variable"
	}
	return "after its variables " + strings.Join(quoteAll(names), ", ")
}

// cutShort explains an error of reading a MAT-file's bytes.
func cutShort(err error) string {
	if err == nil {
		return "no data"
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return "the file ends there (it is truncated)"
	}
	return err.Error()
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(quoteAll(names), ", ")
}

// matrix reads the data variable: a real numeric or logical 2-D array, dense
// or sparse, into an m×n matrix (rows are samples).
func (f *matFile) matrix(v *matVar, yName string) (x *mat.Dense, missing int, missingCols []int, first *Error, err error) {
	switch {
	case v.complex:
		return nil, 0, nil, nil, matErr(v.name, "the data are complex numbers; selection needs real ones")
	case len(v.dims) != 2:
		return nil, 0, nil, nil, matErr(v.name, "the data have %d dimensions (%s); they must be a matrix, samples × features", len(v.dims), v.shape())
	case !v.numeric() && v.class != mxSPARSE:
		return nil, 0, nil, nil, matErr(v.name, "the data are a %s; they must be a numeric matrix, samples × features", matClassName(v.class))
	}
	m, n := v.dims[0], v.dims[1]
	if m == 0 || n == 0 {
		return nil, 0, nil, nil, matErr(v.name, "the data matrix is empty (%s)", v.shape())
	}
	if err := f.lim.cells(int64(m), int64(n)+1, 0); err != nil {
		err.Var = v.name
		return nil, 0, nil, nil, err
	}
	x = mat.NewDense(m, n, nil)
	raw := x.RawMatrix()
	if v.class == mxSPARSE {
		err = f.sparse(v, raw.Data, m, n)
	} else {
		err = f.dense(v, len(raw.Data), func(k int, val float64) { raw.Data[(k%m)*n+k/m] = val })
	}
	if err != nil {
		return nil, 0, nil, nil, err
	}
	hasMissing := make([]bool, n)
	for i := 0; i < m; i++ {
		for j, val := range raw.Data[i*n : (i+1)*n] {
			switch {
			case math.IsNaN(val):
				missing++
				hasMissing[j] = true
				if first == nil {
					first = &Error{Var: v.name, Line: i + 1, Column: j + 1}
				}
			case math.IsInf(val, 0):
				return nil, 0, nil, nil, &Error{Var: v.name, Line: i + 1, Column: j + 1, Msg: "the value is infinite"}
			}
		}
	}
	for j, h := range hasMissing {
		if h {
			missingCols = append(missingCols, j)
		}
	}
	return x, missing, missingCols, first, nil
}

// dense reads the real part of a dense array of count elements, passing
// element k (column-major) to set.
func (f *matFile) dense(v *matVar, count int, set func(k int, val float64)) error {
	typ, n, data, packed, err := f.tag(v.body)
	if err != nil {
		if isOurs(err) {
			return err
		}
		return matErr(v.name, "the values are cut short: %v", cutShort(err))
	}
	size := matTypeSize(typ)
	if size == 0 || typ == miUTF8 || typ == miUTF16 || typ == miUTF32 {
		return matErr(v.name, "the values are stored as %s, not as numbers", matTypeName(typ))
	}
	if int64(n) != int64(count)*int64(size) {
		return matErr(v.name, "%s values of %d bytes each do not fill the %s declared for them: the file is damaged", thousands(int64(count)), size, byteSize(int64(n)))
	}
	return f.values(v, typ, n, data, packed, set)
}

// values streams the n bytes of values of type typ whose tag has been read
// (data holds them when they were packed into it), passing value k to set.
func (f *matFile) values(v *matVar, typ, n uint32, data []byte, packed bool, set func(k int, val float64)) error {
	size := matTypeSize(typ)
	count := int(n) / size
	if packed {
		for k := 0; k < count; k++ {
			set(k, f.number(typ, data[k*size:]))
		}
		return nil
	}
	buf := make([]byte, 64<<10/size*size)
	for k := 0; k < count; {
		chunk := buf[:min(len(buf), (count-k)*size)]
		if _, err := io.ReadFull(v.body, chunk); err != nil {
			if isOurs(err) {
				return err
			}
			return matErr(v.name, "the values are cut short after %s of %s: the file is truncated or damaged", thousands(int64(k)), thousands(int64(count)))
		}
		for o := 0; o < len(chunk); o += size {
			set(k, f.number(typ, chunk[o:]))
			k++
		}
		if err := f.lim.alive(); err != nil {
			return err
		}
	}
	return nil
}

// sparse reads a sparse array (ir, jc, pr) into the row-major m×n data.
func (f *matFile) sparse(v *matVar, data []float64, m, n int) error {
	ints := func(what string, count int) ([]int, error) {
		typ, b, err := f.small(v.body, uint32(min(4*count+8, math.MaxUint32)), what)
		if err != nil {
			if isOurs(err) {
				return nil, err
			}
			return nil, matErr(v.name, "the sparse matrix's %s are damaged: %v", what, cutShort(err))
		}
		if typ != miINT32 && typ != miUINT32 && typ != miINT64 && typ != miUINT64 {
			return nil, matErr(v.name, "the sparse matrix's %s are %s, not integers", what, matTypeName(typ))
		}
		size := matTypeSize(typ)
		out := make([]int, len(b)/size)
		for i := range out {
			out[i] = int(f.number(typ, b[i*size:]))
		}
		return out, nil
	}
	if v.nzmax < 0 || int64(v.nzmax) > int64(m)*int64(n) {
		return matErr(v.name, "the sparse matrix declares %d nonzeros for %s cells: the file is damaged", v.nzmax, thousands(int64(m)*int64(n)))
	}
	ir, err := ints("row indices", v.nzmax)
	if err != nil {
		return err
	}
	jc, err := ints("column starts", n+1)
	if err != nil {
		return err
	}
	if len(jc) != n+1 || jc[0] != 0 || jc[n] > len(ir) {
		return matErr(v.name, "the sparse matrix's column starts do not fit its %d columns: the file is damaged", n)
	}
	nnz := jc[n]
	for j := 0; j < n; j++ {
		if jc[j+1] < jc[j] {
			return matErr(v.name, "the sparse matrix's column starts decrease: the file is damaged")
		}
	}
	vals := make([]float64, nnz)
	if nnz > 0 {
		typ, nb, data, packed, err := f.tag(v.body)
		if err != nil {
			if isOurs(err) {
				return err
			}
			return matErr(v.name, "the sparse matrix's values are cut short: %v", cutShort(err))
		}
		size := matTypeSize(typ)
		if size == 0 || typ == miUTF8 || typ == miUTF16 || typ == miUTF32 || int(nb)/size < nnz {
			return matErr(v.name, "the sparse matrix's values (%s) do not fill its %d nonzeros: the file is damaged", matTypeName(typ), nnz)
		}
		if err := f.values(v, typ, nb, data, packed, func(k int, val float64) {
			if k < nnz {
				vals[k] = val
			}
		}); err != nil {
			return err
		}
	}
	for j := 0; j < n; j++ {
		for k := jc[j]; k < jc[j+1]; k++ {
			i := ir[k]
			if i < 0 || i >= m {
				return matErr(v.name, "a sparse row index %d lies outside the %d rows: the file is damaged", i, m)
			}
			data[i*n+j] = vals[k]
		}
	}
	return nil
}

// labels reads the label variable: a numeric or logical vector (each value
// a class, written as numberText writes it) or a char matrix (each row a
// class name).
func (f *matFile) labels(v *matVar) ([]string, error) {
	if v.complex {
		return nil, matErr(v.name, "the labels are complex numbers")
	}
	switch {
	case v.class == mxCELL:
		return nil, matErr(v.name, "the labels are a cell array, which sparsefs cannot read: save them as a numeric vector, or a char matrix with one name per row")
	case v.class == mxCHAR:
		if len(v.dims) != 2 {
			return nil, matErr(v.name, "the labels are a char array of %d dimensions (%s): they must be a matrix with one name per row", len(v.dims), v.shape())
		}
		rows, cols := v.dims[0], v.dims[1]
		if err := f.lim.cells(int64(rows), int64(cols), 0); err != nil {
			err.Var = v.name
			return nil, err
		}
		chars := make([]rune, rows*cols)
		if err := f.chars(v, len(chars), func(k int, r rune) { chars[(k%rows)*cols+k/rows] = r }); err != nil {
			return nil, err
		}
		out := make([]string, rows)
		for i := range out {
			out[i] = strings.TrimSpace(string(chars[i*cols : (i+1)*cols]))
			if out[i] == "" {
				return nil, &Error{Var: v.name, Line: i + 1, Msg: "the class label is missing (a blank name)"}
			}
		}
		return out, nil
	case !v.numeric():
		return nil, matErr(v.name, "the labels are a %s; they must be a numeric vector, one per sample", matClassName(v.class))
	}
	if len(v.dims) != 2 || v.dims[0] != 1 && v.dims[1] != 1 {
		return nil, matErr(v.name, "the labels are a %s matrix; they must be a vector, one per sample (a one-hot matrix must be turned into class numbers)", v.shape())
	}
	count := v.dims[0] * v.dims[1]
	if err := f.lim.cells(int64(count), 1, 0); err != nil {
		err.Var = v.name
		return nil, err
	}
	vals := make([]float64, count)
	if err := f.dense(v, count, func(k int, val float64) { vals[k] = val }); err != nil {
		return nil, err
	}
	out := make([]string, count)
	for i, val := range vals {
		switch {
		case math.IsNaN(val):
			return nil, &Error{Var: v.name, Line: i + 1, Msg: "the class label is missing (NaN)"}
		case math.IsInf(val, 0):
			return nil, &Error{Var: v.name, Line: i + 1, Msg: "the class label is infinite"}
		}
		out[i] = numberText(val)
	}
	return out, nil
}

// chars reads a char array's count characters (UTF-16 code units, or
// bytes), column-major.
func (f *matFile) chars(v *matVar, count int, set func(k int, r rune)) error {
	typ, n, data, packed, err := f.tag(v.body)
	if err != nil {
		if isOurs(err) {
			return err
		}
		return matErr(v.name, "the characters are cut short: %v", cutShort(err))
	}
	size := matTypeSize(typ)
	if size == 0 || typ == miSINGLE || typ == miDOUBLE {
		return matErr(v.name, "the characters are stored as %s", matTypeName(typ))
	}
	if typ == miUTF8 && int(n) != count {
		return matErr(v.name, "the names hold characters beyond ASCII in UTF-8, which sparsefs cannot place in their rows: save the labels as numbers")
	}
	if int64(n) != int64(count)*int64(size) {
		return matErr(v.name, "the %d characters do not fill the %s declared for them: the file is damaged", count, byteSize(int64(n)))
	}
	if !packed {
		data = make([]byte, int(n)+int(pad8(n)))
		if _, err := io.ReadFull(v.body, data); err != nil {
			if isOurs(err) {
				return err
			}
			return matErr(v.name, "the characters are cut short: the file is truncated or damaged")
		}
	}
	for k := 0; k < count; k++ {
		set(k, rune(f.number(typ, data[k*size:])))
	}
	return nil
}
