#!/usr/bin/env bash
# Peak memory of the command line on large synthetic problems, against the
# size of the data as a float64 matrix:
#
#   scripts/memory.sh [-no-build] [-browser] [-sizes "200x100000 1000x60000"] [-cases "select:rfs select:mtfs select:fisher select:relieff eval"]
#
# For each size M×N it writes the synthetic classification data of
# gsr-fs §5.1 (sparsefs synth: 4 classes, d1 = 100, d2 = N − 300) as CSV
# into a temporary directory (removed at the end), then runs each case
# alone, one after the other, under /usr/bin/time -v and reports its
# maximum resident set size:
#
#   select:METHOD  sparsefs select -method METHOD (default parameters)
#   eval           sparsefs eval -methods fisher,rfs -k 10,50 -classifier svm -cv 3
#
# every run with -workers 1, no cell, byte or memory bound. The table gives
# the peak in MiB and as a multiple of the float64 matrix (8·M·N bytes).
#
# With -browser it then runs the same select and eval cases in a worker of
# headless Chromium (e2e/bench/memory.mjs, on the site in dist/: build it
# first, ./build.sh build; the data go to dist/bench-data/ for the time of
# the run; the evaluation runs a job per unit, as the page runs it), and
# gives the peak of the renderer process hosting the page and its worker,
# less that process's peak before the job (the page and an idle worker),
# and the worker's wasm memory at the end (the high-water mark of Go's
# heap: it never shrinks).
# Each case holds up to a few times the data: run it on a machine with the
# memory to spare, and nothing else large beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.3}

build=1
browser=0
sizes="200x100000 1000x60000"
cases="select:rfs select:mtfs select:fisher select:relieff eval"
while [ $# -gt 0 ]; do
	case "$1" in
	-no-build) build=0 ;;
	-browser) browser=1 ;;
	-sizes) sizes=$2; shift ;;
	-cases) cases=$2; shift ;;
	*) echo "usage: $0 [-no-build] [-browser] [-sizes \"MxN ...\"] [-cases \"select:METHOD ... eval\"]" >&2; exit 2 ;;
	esac
	shift
done
if [ $build = 1 ]; then
	go build -trimpath -o bin/sparsefs ./cmd/sparsefs
fi
bin=$PWD/bin/sparsefs
tmp=$(mktemp -d)
datadir=$tmp
if [ $browser = 1 ]; then
	datadir=$PWD/dist/bench-data
	mkdir -p "$datadir"
fi
trap 'rm -rf "$tmp"; [ $browser = 0 ] || rm -rf "$datadir"' EXIT

echo "| data | case | float64 matrix | peak resident | × matrix | wall time |"
echo "|---|---|---|---|---|---|"
for size in $sizes; do
	m=${size%x*}
	n=${size#*x}
	data=$datadir/synth-$size.csv
	nice -n 10 "$bin" synth -m "$m" -d1 100 -d2 $((n - 300)) -c 4 -task classification -seed 1 -o "$data"
	matrix=$(awk -v m="$m" -v n="$n" 'BEGIN { printf "%.1f", 8 * m * n / 1048576 }')
	for c in $cases; do
		case $c in
		select:*) args=(select -method "${c#select:}") ;;
		eval) args=(eval -methods fisher,rfs -k 10,50 -classifier svm -cv 3) ;;
		*) echo "unknown case $c" >&2; exit 2 ;;
		esac
		if ! nice -n 10 /usr/bin/time -v "$bin" "${args[@]}" -data "$data" -max-cells -1 -max-bytes -1 -memory none \
			-workers 1 -progress off >/dev/null 2>"$tmp/time"; then
			cat "$tmp/time" >&2
			exit 1
		fi
		kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time")
		wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$tmp/time")
		awk -v s="$m × $n" -v c="${args[*]:0:3}" -v mat="$matrix" -v kib="$kib" -v w="$wall" \
			'BEGIN { printf "| %s | %s | %s MiB | %.0f MiB | %.2f | %s |\n", s, c, mat, kib / 1024, kib / 1024 / mat, w }'
	done
	if [ $browser = 1 ]; then
		bcases=$(echo $cases | tr ' ' '\n' | grep -E '^(select:|eval$)' | paste -sd, -)
		nice -n 10 node e2e/bench/memory.mjs --cases "$bcases" "$(basename "$data")" |
			node -e '
				const mat = Number(process.argv[1]);
				for (const line of require("fs").readFileSync(0, "utf8").trim().split("\n")) {
					const r = JSON.parse(line);
					const peak = (r.after.renderer - r.before.renderer) / 1048576;
					console.log(`| ${process.argv[2]} | ${r.case} in Chromium${r.ok ? "" : " (failed)"} | ${mat} MiB | ${peak.toFixed(0)} MiB above the page (${(r.after.renderer / 1048576).toFixed(0)} MiB in all; wasm memory of the worker ${(r.after.wasm / 1048576).toFixed(0)} MiB) | ${(peak / mat).toFixed(2)} | ${r.seconds.toFixed(0)} s |`);
				}' "$matrix" "$m × $n"
	fi
	rm -f "$data"
done
