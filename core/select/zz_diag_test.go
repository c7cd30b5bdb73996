package selection_test

import (
	"context"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	selection "sparsefs/core/select"
)

func TestZZDiag(t *testing.T) {
	*selection.PolishExactFit = true
	defer func() { *selection.PolishExactFit = false }()
	for split := 1; split <= 3; split++ {
		p := demoFold(t, split)
		wOpt, jOpt := selection.IRLSNewtonOptimum(t, p.Design(), p.Response(selection.OneHot), 1, 1)
		{
			var e mat.Dense
			e.Mul(p.Design(), wOpt)
			e.Sub(&e, p.Response(selection.OneHot))
			m, _ := e.Dims()
			type rn struct {
				i int
				n float64
			}
			var rs []rn
			for i := 0; i < m; i++ {
				rs = append(rs, rn{i, mat.Norm(e.RowView(i), 2)})
			}
			sort.Slice(rs, func(a, b int) bool { return rs[a].n < rs[b].n })
			t.Logf("optimum smallest residuals %v", rs[20:30])
			nr, _ := wOpt.Dims()
			k := 0
			for j := 0; j < nr; j++ {
				if mat.Norm(wOpt.RowView(j), 2) > 1e-6 {
					k++
				}
			}
			t.Logf("optimum support %d", k)
		}
		*selection.PolishDebug = func(f string, a ...any) { t.Logf(f, a...) }
		res, err := selection.RFS{}.Fit(context.Background(), p, nil)
		*selection.PolishDebug = nil
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("J* %.12g", jOpt)
		t.Logf("split %d: J-J* %.3g cert %+v top %v", split, (res.Objective-jOpt)/jOpt, *res.Certificate, res.Ranking[:12])
	}
}
