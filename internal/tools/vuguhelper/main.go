// Command vuguhelper writes Vugu's DOM-renderer helper script (the constant
// jsHelperScript of github.com/vugu/vugu/domrender) to standard output, so
// that build.sh can ship it as a static file.
//
// Vugu installs that script with window.eval, which a Content-Security-Policy
// without 'unsafe-eval' forbids. Loading the same script from the page's
// own origin (dist/vugu-render.js) keeps the policy strict; assets/app.js
// then answers Vugu's eval call. The script is read from the Vugu module in
// use, so it always matches the renderer compiled into ui.wasm.
//
// Usage: go run ./internal/tools/vuguhelper > dist/vugu-render.js
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "vuguhelper:", err)
		os.Exit(1)
	}
}

func run() error {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/vugu/vugu").Output()
	if err != nil {
		return fmt.Errorf("locating the vugu module: %w", err)
	}
	file := filepath.Join(strings.TrimSpace(string(out)), "domrender", "renderer-js-script.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		return err
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if name.Name != "jsHelperScript" || i >= len(vs.Values) {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return fmt.Errorf("%s: jsHelperScript is not a string literal", file)
				}
				script, err := strconv.Unquote(lit.Value)
				if err != nil {
					return err
				}
				_, err = fmt.Printf("// Vugu %s DOM renderer helpers, extracted by internal/tools/vuguhelper.\n%s\n", filepath.Base(filepath.Dir(filepath.Dir(file))), script)
				return err
			}
		}
	}
	return fmt.Errorf("%s: no jsHelperScript constant", file)
}
