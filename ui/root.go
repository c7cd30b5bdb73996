package main

import (
	"sparsefs/ui/app"
	"sparsefs/ui/data"
	"sparsefs/ui/results"
)

// Backend is what the page needs from the browser (browser_js.go): the
// App's backend (the workers, files made or bundled, downloads, renders),
// the files the user chooses or drops (data.Files) and the charts' boxes
// (results.Painter).
type Backend interface {
	app.Backend
	data.Files
	results.Painter
}

// Root is the whole page: it composes the sections (ui/data,
// ui/configure, ui/run, ui/results), which read the page's state (App)
// and call its methods.
type Root struct {
	Backend Backend  `vugu:"data"`
	App     *app.App `vugu:"data"`
}

// Init is called once by Vugu before the first render: it makes the
// page's state, which starts the workers.
func (c *Root) Init() {
	c.App = app.New(c.Backend, app.Options{Version: appVersion})
}

// appVersion identifies the build in reports (build.sh sets it with
// -ldflags "-X main.appVersion=…").
var appVersion = "dev"
