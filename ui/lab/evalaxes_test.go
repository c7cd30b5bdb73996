package lab

import (
	"regexp"
	"strings"
	"testing"

	"sparsefs/api"
)

// tickText matches the text of an axis tick.
var tickText = regexp.MustCompile(`<text class="tick"[^>]*>(?:<title>[^<]*</title>)?([^<]*)</text>`)

// No axis of a measure that cannot be negative runs below zero, however
// wide its whiskers: the redundancy rate (mean 0.1 ± 0.3) and the fitting
// time (2 ms ± 10 ms).
func TestNoNegativeAxes(t *testing.T) {
	rep := viewReport()
	for i := range rep.Results {
		rep.Results[i].Redundancy = api.Summary{Mean: api.Floats{0.1, 0.1}, Std: api.Floats{0.3, 0.3}}
		rep.Results[i].FitSeconds = api.Scalar{Mean: 0.002, Std: 0.01}
	}
	v := NewEvalView(rep, nil)
	for _, fig := range []Figure{v.RedundancyChart(), v.TimeChart()} {
		ticks := tickText.FindAllStringSubmatch(fig.SVG, -1)
		if len(ticks) == 0 {
			t.Fatalf("%s: no ticks", fig.ID)
		}
		for _, m := range ticks {
			if strings.HasPrefix(m[1], "-") || strings.HasPrefix(m[1], "−") {
				t.Errorf("%s: negative tick %q", fig.ID, m[1])
			}
		}
	}
}
