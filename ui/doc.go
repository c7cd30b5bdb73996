// Command ui is the sparsefs web page, a Vugu application built with
// GOOS=js GOARCH=wasm (see build.sh). It reads the user's file with the
// browser's File API, shows a preview, and leaves all computing to a Web
// Worker (wasm/): the page never runs a selector itself, so it stays
// responsive.
//
// root.vugu is the template and root_gen.go its generated code (go tool
// vugugen); app.go holds the page's state and logic, browser_js.go the only
// code that talks to the browser (files, the worker).
package main
