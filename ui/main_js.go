//go:build js && wasm

package main

import (
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/domrender"
)

func main() {
	renderer, err := domrender.New("#vugu_mount_point")
	if err != nil {
		panic(err)
	}
	defer renderer.Release()
	ee := renderer.EventEnv()
	buildEnv, err := vugu.NewBuildEnv(ee)
	if err != nil {
		panic(err)
	}
	b := newBrowser(ee)
	root := &Root{Backend: b}
	first := true
	for ok := true; ok; ok = renderer.EventWait() {
		// Build under the read lock: state changes from worker callbacks
		// take the write lock (see browser.drain).
		ee.RLock()
		results := buildEnv.RunBuild(root)
		ee.RUnlock()
		if err := renderer.Render(results); err != nil {
			panic(err)
		}
		if first {
			// The page is drawn and its controls work
			// (docs/wasm.md#root-rendered: Rendered is not called on
			// the root; do it here).
			first = false
			b.Mark("sparsefs-interactive")
		}
	}
}
