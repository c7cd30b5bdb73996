package lab

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// The two selectors of viewReport at K = 2, worked by hand. fisher's
// ranking across the splits: f1, f4 (both splits' top 2), f2, f3 (see
// TestEvalView). rfs's splits rank f2 f1 f3 f4 and f2 f3 f1 f4: f2 in
// both top 2, f1 and f3 in one each with the same mean rank 2.5 (f1
// first, by column), f4 in none: f2, f1, f3, f4. Overlap of {f1, f4} and
// {f2, f1}: 1/3. Robust rank aggregation of the normalised ranks
// (n = 4): f1 (1/4, 2/4) ρ = min(1 − (3/4)², (2/4)²) = 1/4; f2 (3/4, 1/4)
// ρ = min(1 − (3/4)², (3/4)²) = 7/16; f4 (2/4, 1) ρ = min(1 − (2/4)², 1) =
// 3/4; f3 (1, 3/4) ρ = min(1 − (1/4)², 1) = 15/16; p = min(1, 2ρ).
func TestCompare(t *testing.T) {
	c := NewEvalView(viewReport(), nil).Compare(1)
	if c == nil || c.K != 2 || !reflect.DeepEqual(c.Labels, []string{"fisher", "rfs"}) {
		t.Fatalf("comparison %+v", c)
	}
	if got := c.Top(); !reflect.DeepEqual(got, [][]string{{"f1 (2/2)", "f2 (2/2)"}, {"f4 (2/2)", "f1 (1/2)"}}) {
		t.Errorf("side by side %q", got)
	}
	if math.Abs(c.Overlap[0][1]-1.0/3) > 1e-15 || c.Overlap[0][0] != 1 || c.Overlap[1][0] != c.Overlap[0][1] {
		t.Errorf("overlap %v", c.Overlap)
	}
	var got []string
	for _, r := range c.Consensus {
		got = append(got, fmt.Sprintf("%d %s p=%.4f top=%d ranks=%v", r.Rank, r.Name, r.P, r.InTop, r.Ranks))
	}
	want := []string{"1 f1 p=0.5000 top=2 ranks=[1 2]", "2 f2 p=0.8750 top=1 ranks=[3 1]", "3 f4 p=1.0000 top=1 ranks=[2 4]", "4 f3 p=1.0000 top=0 ranks=[4 3]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("consensus\n%q\nwant\n%q", got, want)
	}
	csv := c.CSV()
	if !strings.HasPrefix(csv, "consensus_rank,feature,index,consensus_p,in_top_2_of_selectors,fisher rank,fisher splits,rfs rank,rfs splits\n1,f1,0,0.5,2,1,2,2,1\n") {
		t.Errorf("csv %q", csv)
	}
	fig := c.OverlapChart()
	if !strings.Contains(fig.SVG, "0.33") || fig.ID != "compare-overlap" {
		t.Errorf("overlap chart %s", fig.SVG)
	}
	// One selector alone has nothing to be compared with.
	rep := viewReport()
	rep.Results = rep.Results[:1]
	if NewEvalView(rep, nil).Compare(1) != nil {
		t.Error("a comparison of one selector")
	}
}
