package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The page must not link the solvers: of the module, ui.wasm may depend on
// the job format (api), the plan's checks (core/plan, which imports only
// api) and the leaf core/stats, besides its own packages, and on no gonum.
func TestPageLinksNoSolver(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}`, "sparsefs/ui")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{"sparsefs/api": true, "sparsefs/core/plan": true, "sparsefs/core/stats": true}
	seen := 0
	for _, p := range strings.Fields(string(out)) {
		switch {
		case strings.HasPrefix(p, "gonum.org/"):
			t.Errorf("the page (sparsefs/ui) depends on %s", p)
		case strings.HasPrefix(p, "sparsefs/ui"):
		case strings.HasPrefix(p, "sparsefs/"):
			if !allowed[p] {
				t.Errorf("the page depends on %s", p)
			}
			seen++
		}
	}
	if seen == 0 {
		t.Error("the page uses no package of the module: api at least was expected (is the list right?)")
	}
}
