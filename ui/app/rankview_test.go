package app

import (
	"strings"
	"testing"

	"sparsefs/api"
)

// The summary says an answer is proven optimal only where its certificate
// meets the certified stop's goal (a gap of at most 10⁻⁶: lymphoma's rfs
// fit certifies 7.8·10⁻⁷); a loose certificate (ORL's 1.3·10⁻³) or none
// says nothing, its warning does.
func TestCertText(t *testing.T) {
	for _, c := range []struct {
		cert  *api.Certificate
		proof bool
	}{{nil, false}, {&api.Certificate{Gap: 7.8e-7}, true}, {&api.Certificate{Gap: 1e-6}, true}, {&api.Certificate{Gap: 1.3e-3}, false}, {&api.Certificate{Gap: -2e-16}, true}} {
		if got := certText(c.cert); strings.Contains(got, "proven optimal") != c.proof {
			t.Errorf("certificate %+v: %q", c.cert, got)
		}
	}
}
