// Command benchjob times a selection job (core/job) several times
// in one process, after a warm-up on a small synthetic problem. It is how
// scripts/bench_irls.sh times the solvers compiled to wasm under node,
// where the first long call of a kernel runs in V8's baseline tier
// (docs/wasm.md#baseline-tier): the warm-up lets the kernels reach the optimising tier
// before the timed runs, as the browser harness does.
//
// Usage:
//
//	benchjob -data PATH -method NAME [-param NAME=VALUE ...] [-repeat N]
//
// It prints one JSON line per timed run: the fit's wall time in seconds
// (Selection.seconds, preprocessing excluded, as numpy_rfs.py's), the
// process's CPU time over the whole job (cpu_seconds: reading the data
// included, and whatever else the process ran meanwhile, such as the
// garbage collector; on a loaded machine it shows the cost that wall time
// hides), the iterations and the objective.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"sparsefs/api"
	"sparsefs/core/job"
)

type params map[string]any

func (p params) String() string { return "" }

func (p params) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%q is not NAME=VALUE", s)
	}
	p[k] = v
	return nil
}

func main() {
	ps := params{}
	path := flag.String("data", "", "the data file")
	method := flag.String("method", "rfs", "the method")
	repeat := flag.Int("repeat", 3, "timed runs")
	flag.Var(ps, "param", "a method parameter NAME=VALUE (repeatable)")
	flag.Parse()
	if *path == "" {
		fmt.Fprintln(os.Stderr, "benchjob: -data is required")
		os.Exit(2)
	}
	warm := &api.Request{Data: api.Data{Name: "warm-up"}, Method: *method, Params: ps}
	for i := 0; i < 2; i++ {
		if _, err := job.Run(context.Background(), warm, job.Input{Raw: synthetic(60, 600)}, nil); err != nil {
			fmt.Fprintln(os.Stderr, "benchjob: warm-up:", err)
			os.Exit(1)
		}
	}
	raw, err := os.ReadFile(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchjob:", err)
		os.Exit(1)
	}
	req := &api.Request{Data: api.Data{Path: *path}, Method: *method, Params: ps}
	for i := 0; i < *repeat; i++ {
		cpu0 := cpuSeconds()
		resp, err := job.Run(context.Background(), req, job.Input{Raw: raw}, nil)
		cpu := cpuSeconds() - cpu0
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchjob:", err)
			os.Exit(1)
		}
		s := resp.Selection
		line, _ := json.Marshal(map[string]any{"seconds": s.Seconds, "cpu_seconds": cpu, "iterations": s.Iterations, "objective": s.Objective})
		fmt.Println(string(line))
	}
}

// synthetic returns an m×n CSV with three classes whose means differ in
// the first tenth of the features, from a fixed linear congruential
// generator.
func synthetic(m, n int) []byte {
	var b strings.Builder
	for j := 0; j < n; j++ {
		fmt.Fprintf(&b, "f%d,", j)
	}
	b.WriteString("class\n")
	s := uint32(12345)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			s = s*1103515245 + 12345
			v := float64(s>>8) / (1 << 24)
			if j < n/10 {
				v += float64(i%3) * 0.5
			}
			fmt.Fprintf(&b, "%.4f,", v)
		}
		fmt.Fprintf(&b, "%d\n", i%3)
	}
	return []byte(b.String())
}
