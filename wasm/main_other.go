//go:build !js

package main

import (
	"fmt"
	"os"
)

// The worker runs only in a browser; natively this package exists so that
// its logic can be tested and vetted with the rest.
func main() {
	fmt.Fprintln(os.Stderr, "this is the sparsefs Web Worker: build it with GOOS=js GOARCH=wasm (see build.sh)")
	os.Exit(2)
}
