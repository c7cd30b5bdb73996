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
// It is patched on the way (see patches): Vugu rewrites every attribute,
// text and innerHTML of the page on every render, which makes the browser
// restyle and lay out the whole page each time (tens of milliseconds for
// ours, many times a second while workers report progress). The patched
// script skips a write whose value is already there. A patch that does not
// apply exactly as often as expected stops the build.
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
				script, err = patch(script)
				if err != nil {
					return fmt.Errorf("%s: %w", file, err)
				}
				_, err = fmt.Printf("// Vugu %s DOM renderer helpers, extracted and patched by internal/tools/vuguhelper.\n%s\n", filepath.Base(filepath.Dir(filepath.Dir(file))), script)
				return err
			}
		}
	}
	return fmt.Errorf("%s: no jsHelperScript constant", file)
}

// patches skip the renderer's writes that would change nothing. Each
// names the minified code it replaces and how many times it occurs.
var patches = []struct {
	old, new string
	count    int
}{
	// opcodeSetAttrStr and opcodeSetAttrNSStr: skip an equal value.
	{`e.setAttribute(t,n),`, `e.getAttribute(t)!==n&&e.setAttribute(t,n),`, 1},
	{`t.setAttributeNS(e,n,s),`, `t.getAttributeNS(e,n)!==s&&t.setAttributeNS(e,n,s),`, 1},
	// opcodeSetInnerHTML: remember the markup an element was given and
	// skip giving it the same again.
	{`x.el.innerHTML=(x.bufferedInnerHTML||"")+e,x.bufferedInnerHTML=null;`,
		`{let h=(x.bufferedInnerHTML||"")+e;if(x.el.__vuguHTML!==h){x.el.innerHTML=h;x.el.__vuguHTML=h}}x.bufferedInnerHTML=null;`, 1},
	// opcodeMoveToFirstChild: the renderer now manages the element's
	// children one by one, so the remembered markup no longer holds.
	{`x.nextElMove="first_child";break}`, `x.nextElMove="first_child";x.el.__vuguHTML=void 0;break}`, 1},
	// opcodeSetText and opcodeSetComment: skip equal text.
	{`else x.el.textContent=e;break}`, `else x.el.textContent!==e&&(x.el.textContent=e);break}`, 2},
	// opcodeSetProperty (.value, .checked): skip an equal value.
	{`e[t]=JSON.parse(n);break}`, `{let v=JSON.parse(n);e[t]!==v&&(e[t]=v)}break}`, 1},
}

func patch(script string) (string, error) {
	for _, p := range patches {
		if n := strings.Count(script, p.old); n != p.count {
			return "", fmt.Errorf("patch %q: found %d times, expected %d (a new Vugu version? update the patches)", p.old, n, p.count)
		}
		script = strings.ReplaceAll(script, p.old, p.new)
	}
	return script, nil
}
