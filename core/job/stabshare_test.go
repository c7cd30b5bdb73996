package job

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sparsefs/api"
)

// One stability selection split into shares of its half-sample fits
// (Request.Halves), in any cut, and their tallies combined
// (Request.Tallies) gives the selection of one request, to the byte.
func TestStabselInShares(t *testing.T) {
	raw, err := os.ReadFile("../../assets/demo/breast-cancer-wisconsin.csv")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]any{"base": "fisher", "pairs": 5.0, "seed": 3.0}
	run := func(req api.Request) *api.Selection {
		t.Helper()
		req.Method, req.Params = "stabsel", params
		resp, err := Run(context.Background(), &req, Input{Raw: raw}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return resp.Selection
	}
	strip := func(s *api.Selection) string {
		s.Seconds = 0
		b, _ := json.Marshal(s)
		return string(b)
	}
	whole := strip(run(api.Request{}))
	for _, cuts := range [][]int{{0, 10}, {0, 3, 10}, {0, 1, 2, 7, 10}} {
		var tallies []api.StabilityTally
		for i := 0; i+1 < len(cuts); i++ {
			share := run(api.Request{Halves: []int{cuts[i], cuts[i+1]}})
			if share.Tally == nil || share.Ranking != nil {
				t.Fatalf("share %v: tally %v, ranking %v", cuts[i:i+2], share.Tally, share.Ranking)
			}
			tallies = append(tallies, *share.Tally)
		}
		// In any order.
		for i, j := 0, len(tallies)-1; i < j; i, j = i+1, j-1 {
			tallies[i], tallies[j] = tallies[j], tallies[i]
		}
		if got := strip(run(api.Request{Tallies: tallies})); got != whole {
			t.Errorf("cut %v: combined\\n%s\\nwant\\n%s", cuts, got, whole)
		}
	}
	// Shares that miss a fit, or count one twice, are refused.
	a := run(api.Request{Halves: []int{0, 4}}).Tally
	b := run(api.Request{Halves: []int{3, 10}}).Tally
	for _, c := range [][]api.StabilityTally{{*a}, {*a, *b}} {
		req := api.Request{Method: "stabsel", Params: params, Tallies: c}
		if _, err := Run(context.Background(), &req, Input{Raw: raw}, nil); err == nil || !strings.Contains(err.Error(), "stabsel: half-sample fit") {
			t.Errorf("tallies %v…: %v", len(c), err)
		}
	}
	req := api.Request{Method: "fisher", Halves: []int{0, 2}}
	if _, err := Run(context.Background(), &req, Input{Raw: raw}, nil); err == nil {
		t.Error("fisher took halves")
	}
	if a.From != 0 || a.To != 4 || b.From != 3 || b.To != 10 {
		t.Errorf("tallies' ranges %d…%d, %d…%d", a.From, a.To, b.From, b.To)
	}
}
