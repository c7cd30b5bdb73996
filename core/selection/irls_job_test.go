package selection_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sparsefs/api"
	"sparsefs/core/dataset"
	"sparsefs/core/job"
	"sparsefs/core/selection"
)

// The objective the command line reports (job.Run, which the CLI and the
// worker call) for rfs, mtfs and gsr with r = p = 1 equals the optimum of
// the independent Newton solver (irls_ref_test.go) to 10⁻⁸ relative when
// run with -param tol=1e-12, on two slices of real data (lung_discrete)
// written to CSV files and read back as a user's file would be.
func TestJobObjectiveIsIndependentOptimum(t *testing.T) {
	raw := selection.IRLSRawData(t, "lung_discrete.csv.gz")
	labels := labelsOf(t)
	all := make([]int, 73)
	for i := range all {
		all[i] = i
	}
	var every4 []int
	for i := 0; i < 73; i += 4 {
		every4 = append(every4, i)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		rows []int
		cols int
	}{{"primal", all, 20}, {"dual", every4, 25}} {
		var b strings.Builder
		for j := 0; j < c.cols; j++ {
			fmt.Fprintf(&b, "g%d,", j+1)
		}
		b.WriteString("class\n")
		for _, i := range c.rows {
			for j := 0; j < c.cols; j++ {
				fmt.Fprintf(&b, "%v,", raw.At(i, j))
			}
			b.WriteString(labels[i] + "\n")
		}
		path := filepath.Join(dir, c.name+".csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		// The same problem as job.Run builds: the file read, z-scored on
		// itself, a bias column.
		ds, err := dataset.Parse([]byte(b.String()), dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := &selection.Problem{X: dataset.FitScaler(dataset.ZScore, ds.X).Transform(ds.X), Y: ds.Y, C: len(ds.Classes), Bias: true}
		for _, m := range []struct {
			method string
			params map[string]any
			r      float64
			coding selection.Coding
		}{
			{"rfs", map[string]any{"gamma": "1"}, 1, selection.OneHot},
			{"mtfs", map[string]any{"lambda": "1"}, 2, selection.OneHot},
			{"gsr", map[string]any{"r": "1", "p": "1", "lambda": "1"}, 1, selection.PlusMinus},
		} {
			_, golden := selection.IRLSNewtonOptimum(t, p.Design(), p.Response(m.coding), m.r, 1)
			params := map[string]any{"tol": "1e-12", "max_iter": "100000"}
			for k, v := range m.params {
				params[k] = v
			}
			resp, err := job.Run(context.Background(), &api.Request{Data: api.Data{Path: path}, Method: m.method, Params: params}, job.Input{Raw: []byte(b.String())}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := float64(*resp.Selection.Objective)
			if math.Abs(got-golden) > 1e-8*golden {
				t.Errorf("%s %s: job objective %.15g, independent optimum %.15g", c.name, m.method, got, golden)
			}
		}
	}
}

// labelsOf returns lung_discrete's class labels as text (class index + 1:
// numeric labels keep their order when the job sorts them).
func labelsOf(t *testing.T) []string {
	y := selection.IRLSRealProblem(t, "lung_discrete.csv.gz").Y
	out := make([]string, len(y))
	for i, k := range y {
		out[i] = strconv.Itoa(k + 1)
	}
	return out
}
