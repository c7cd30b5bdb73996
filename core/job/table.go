package job

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"sparsefs/api"
	"sparsefs/core/dataset"
)

// Table is a dataset read once and shared by the requests that run on it
// (nothing may modify it), with what every request computes of it again
// remembered: its constant features and its SHA-256. A worker runs an
// evaluation's units as separate requests on one table, and for a fast
// filter on a wide dataset these facts took more than half of each unit.
// Its owner — the command line for one command, a worker for as long as it
// keeps the file — decides how long it lives.
type Table struct {
	Data *dataset.Dataset

	constOnce sync.Once
	constant  []int
	shaOnce   sync.Once
	sha       string
}

// NewTable wraps a dataset read elsewhere.
func NewTable(ds *dataset.Dataset) *Table { return &Table{Data: ds} }

// Constant returns the 0-based features constant over all samples.
func (t *Table) Constant() []int {
	t.constOnce.Do(func() { t.constant = dataset.FitScaler(dataset.None, t.Data.X).Constant })
	return t.constant
}

// SHA256 returns the SHA-256 (hex) of the data as read: feature names,
// values (IEEE bits, row by row), class of each sample, target names and
// values. It does not depend on the file's formatting.
func (t *Table) SHA256() string {
	t.shaOnce.Do(func() { t.sha = dataHash(t.Data) })
	return t.sha
}

// Info describes the table for a response (named as d says).
func (t *Table) Info(d *api.Data) api.DatasetInfo {
	ds := t.Data
	info := api.DatasetInfo{
		Name: dataName(d), Samples: ds.Rows(), Features: len(ds.Features), Label: ds.Label, Header: ds.Header, Sheet: ds.Sheet,
		Classes: nonNil(ds.Classes), Counts: ds.ClassCounts(),
		Constant: nonNil(append([]int(nil), t.Constant()...)), Missing: ds.Missing, MissingColumns: nonNil(ds.MissingColumns),
		Targets: ds.TargetNames, ID: ds.IDName,
	}
	if ds.Delimiter != 0 {
		info.Delimiter = string(ds.Delimiter)
	}
	if ds.Format != dataset.CSV {
		info.Format = string(ds.Format)
	}
	return info
}

func dataHash(ds *dataset.Dataset) string {
	h := sha256.New()
	var buf [8]byte
	num := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	text := func(s string) {
		num(uint64(len(s)))
		h.Write([]byte(s))
	}
	matrix := func(x *mat.Dense) {
		if x == nil {
			num(0)
			return
		}
		r, c := x.Dims()
		num(uint64(r))
		num(uint64(c))
		for i := 0; i < r; i++ {
			for _, v := range x.RawRowView(i) {
				num(math.Float64bits(v))
			}
		}
	}
	num(uint64(len(ds.Features)))
	for _, f := range ds.Features {
		text(f)
	}
	matrix(ds.X)
	num(uint64(len(ds.Y)))
	for _, y := range ds.Y {
		text(ds.Classes[y])
	}
	num(uint64(len(ds.TargetNames)))
	for _, t := range ds.TargetNames {
		text(t)
	}
	matrix(ds.Targets)
	return hex.EncodeToString(h.Sum(nil))
}
