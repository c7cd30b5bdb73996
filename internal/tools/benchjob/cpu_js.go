//go:build js

package main

import "syscall/js"

// cpuSeconds returns the CPU time node's process has used (user and
// system; process.cpuUsage), which load from other processes inflates far
// less than wall time.
func cpuSeconds() float64 {
	u := js.Global().Get("process").Call("cpuUsage")
	return (u.Get("user").Float() + u.Get("system").Float()) / 1e6
}
