package lab

import (
	"strings"
	"testing"

	"sparsefs/core/selection"
)

// Every method the workers offer has a sentence in words, and every
// parameter a line — or a name the page has no words for is listed here
// as such, deliberately.
func TestGuideCoversEveryMethod(t *testing.T) {
	noWords := map[string]bool{"m1": true, "m2": true, "m3": true, "m4": true, "e_rows": true, "rho": true, "rho_rel": true, "mu0": true, "sigma": true, "epsilon": true, "stage_iter": true, "mu": true, "lipschitz": true, "swaps": true}
	for _, m := range selection.Catalog() {
		if Plain(m.Name) == "" {
			t.Errorf("%s has no sentence in words", m.Name)
		}
		for _, p := range m.Params {
			if w := ParamWords(m.Name, p.Name); w == "" && !noWords[p.Name] {
				t.Errorf("%s.%s has no line in words", m.Name, p.Name)
			} else if w != "" && !strings.HasSuffix(w, ".") {
				t.Errorf("%s.%s: %q is not a sentence", m.Name, p.Name, w)
			}
		}
	}
	for _, name := range Recommended {
		if Plain(name) == "" {
			t.Errorf("recommended %s is not a method", name)
		}
	}
}
