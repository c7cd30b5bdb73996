//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "this is the sparsefs web page: build it with GOOS=js GOARCH=wasm (see build.sh)")
	os.Exit(2)
}
