#!/usr/bin/env bash
# sparsefs build script.
#
#   ./build.sh          build the static site into dist/ and the CLI into bin/
#   ./build.sh serve    build, then serve dist/ on localhost (prints the URL)
#   ./build.sh test     install what the tests need if it is missing, build,
#                       and run every test: formatting, vet, Go tests natively
#                       and compiled to wasm under node, the scikit-learn
#                       cross-check, the Snakemake workflow, and the
#                       browser (e2e) tests (Chromium, and a Firefox smoke
#                       test: e2e/firefox.mjs). Only tests: the timing
#                       scripts of e2e/bench/ print figures and are run by
#                       hand
#   ./build.sh e2e      build, then run only the browser tests
#   ./build.sh e2e-site build dist/ and dist-e2e/ (the site plus the test
#                       double) without running a test, e.g. before
#                       `cd e2e && node --test firefox.mjs`
#   ./build.sh deps     only install what the tests need (Debian packages,
#                       Go modules, npm packages)
set -euo pipefail
cd "$(dirname "$0")"

# Every build and test runs Go 1.27.3, which the go command fetches from the
# module proxy on first use (a go command of 1.21 or later does). The
# worker's wasm is built with GOEXPERIMENT=simd: core/linalg's SIMD128
# kernels (docs/wasm.md#go-simd); the page's wasm and the native builds do
# not use the experiment.
export GOTOOLCHAIN=go1.27.3

say() { printf '\n== %s\n' "$*"; }

# as_root runs a command as root (directly, or through sudo).
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "build.sh: need root to run: $*" >&2
		return 1
	fi
}

deps() {
	command -v go >/dev/null || { echo "build.sh: a go command, 1.21 or later, is required (https://go.dev/dl/); it fetches Go 1.27.3" >&2; exit 1; }
	local missing=()
	[ -x /usr/bin/chromium ] || missing+=(chromium)
	[ -x /usr/bin/firefox-esr ] || missing+=(firefox-esr)
	command -v node >/dev/null || missing+=(nodejs)
	command -v npm >/dev/null || missing+=(npm)
	/usr/bin/python3 -c 'import sklearn, numpy' 2>/dev/null || missing+=(python3-sklearn python3-numpy)
	command -v snakemake >/dev/null || missing+=(snakemake)
	if [ ${#missing[@]} -gt 0 ]; then
		say "installing Debian packages: ${missing[*]}"
		as_root apt-get update -q
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
	fi
	say "Go modules"
	go mod download
	if [ ! -d e2e/node_modules/playwright-core ] || [ ! -d e2e/node_modules/puppeteer-core ]; then
		say "npm packages for the browser tests"
		(cd e2e && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund)
	fi
}

build() {
	say "generating the Vugu code"
	go tool vugugen -skip-go-mod -skip-main ./ui ./ui/data ./ui/configure ./ui/run ./ui/results
	gofmt -w ui/*_gen.go ui/*/*_gen.go
	say "building dist/ and bin/"
	rm -rf dist
	mkdir -p dist bin
	local version
	version=$(git describe --always --dirty 2>/dev/null || echo dev)
	# The page's components are compiled without inlining: Go inlines
	# VGNode.AppendChild into every generated Build function smaller than
	# its "big function" size, once per node, which grows ui.wasm by half a
	# megabyte (docs/ui.md#inlining-builds).
	local noinline=()
	for p in ui ui/data ui/configure ui/run ui/results; do
		noinline+=("-gcflags=sparsefs/$p=-l")
	done
	GOOS=js GOARCH=wasm go build -trimpath "${noinline[@]}" -ldflags="-s -w -X main.appVersion=$version" -o dist/ui.wasm ./ui
	# The workers' module with the SIMD128 kernels, and the same program
	# with the scalar kernels for browsers without SIMD128
	# (assets/wasm-load.js chooses).
	GOOS=js GOARCH=wasm GOEXPERIMENT=simd go build -trimpath -ldflags="-s -w" -o dist/worker.wasm ./wasm
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o dist/worker-scalar.wasm ./wasm
	cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/
	go run ./internal/tools/vuguhelper >dist/vugu-render.js
	cp -r assets/. dist/
	stamp_sw dist
	go build -trimpath -o bin/sparsefs ./cmd/sparsefs
	go build -trimpath -o bin/serve serve.go
	for w in dist/ui.wasm dist/worker.wasm dist/worker-scalar.wasm; do
		printf '%s: %s bytes, %s gzip -9\n' "$w" "$(wc -c <"$w")" "$(gzip -9 -c "$w" | wc -c)"
	done
}

# stamp_sw writes the service worker: assets/wasm-load.js (which of the
# workers' modules the browser runs) and assets/sw.js, with the build's
# version (a hash of every file of dist/) and its file list, so that a new
# build replaces the old one in the browsers' caches.
stamp_sw() {
	local dir=$1 files version list
	cat assets/wasm-load.js assets/sw.js >"$dir/sw.js"
	files=$(cd "$dir" && find . -type f ! -name sw.js | sed 's|^\./||' | LC_ALL=C sort)
	version=$(cd "$dir" && printf '%s\n' "$files" | xargs sha256sum | sha256sum | cut -c1-16)
	list=$(printf '%s\n' "$files" | sed 's/.*/"&"/' | paste -sd, -)
	sed -i "s|__SPARSEFS_VERSION__|$version|; s|__SPARSEFS_FILES__|[$list]|" "$dir/sw.js"
}

# build_e2e makes dist-e2e/: the site with a worker that also holds the
# browser tests' test double (wasm/e2e_selector.go, -tags e2e), a slow
# embedded "method" with a parameter, for the tests of grids, cancel,
# convergence plots and heat maps.
build_e2e() {
	say "building dist-e2e/ (the site plus the browser tests' test double)"
	rm -rf dist-e2e
	cp -r dist dist-e2e
	GOOS=js GOARCH=wasm GOEXPERIMENT=simd go build -tags e2e -trimpath -ldflags="-s -w" -o dist-e2e/worker.wasm ./wasm
	GOOS=js GOARCH=wasm go build -tags e2e -trimpath -ldflags="-s -w" -o dist-e2e/worker-scalar.wasm ./wasm
	stamp_sw dist-e2e
}

gotests() {
	say "gofmt and go vet"
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './e2e/*'))
	if [ -n "$unformatted" ]; then
		echo "gofmt would change: $unformatted" >&2
		exit 1
	fi
	go vet ./...
	GOOS=js GOARCH=wasm go vet ./ui/... ./wasm ./core/...
	GOOS=js GOARCH=wasm GOEXPERIMENT=simd go vet ./wasm ./core/...
	GOOS=js GOARCH=wasm GOEXPERIMENT=simd go vet -tags e2e ./wasm
	if grep -rl --include='*.go' '"syscall/js"' core; then
		echo "core/ must not import syscall/js" >&2
		exit 1
	fi
	# -timeout only guards against a hung test binary, so it is generous:
	# go test's default (10 min a package) is not, on a loaded machine —
	# core/select compiled to wasm takes about 2 min under node on two
	# idle cores and took over 10 min with two CPU hogs and other work on
	# them.
	say "Go tests (native)"
	go test -count=1 -timeout 40m ./...
	# The core's wasm tests run twice: the build the site ships (the
	# worker, GOEXPERIMENT=simd: SIMD128 kernels) and the scalar one.
	say "core tests compiled to wasm with the SIMD128 kernels (GOEXPERIMENT=simd), under node"
	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm GOEXPERIMENT=simd go test -count=1 -timeout 40m ./core/...
	say "core tests compiled to wasm without the experiment (scalar kernels), under node"
	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -count=1 -timeout 40m ./core/...
}

crosscheck() {
	say "cross-check with scikit-learn (Debian's python3-sklearn)"
	/usr/bin/python3 scripts/crosscheck_sklearn.py bin/sparsefs
	/usr/bin/python3 -W ignore::UserWarning scripts/crosscheck_eval.py bin/sparsefs
	say "an evaluation in parts through the Snakemake workflow (Debian's snakemake)"
	scripts/test_workflow.sh bin/sparsefs
	if (. scripts/datadir.sh "") >/dev/null 2>&1; then
		say "the papers' scripts, each in its smallest configuration (scripts/papers/)"
		scripts/test_papers.sh bin/sparsefs
	elif [ -n "${SPARSEFS_REQUIRE_DATA:-}" ]; then
		echo "the shared datasets are required (SPARSEFS_REQUIRE_DATA) but not found" >&2
		exit 1
	else
		echo "WARNING: the shared datasets are not found: the papers' scripts are not run" >&2
	fi
}

e2e() {
	build_e2e
	say "browser tests (Debian's Chromium driven by playwright-core; a Firefox smoke test, firefox-esr driven by puppeteer-core)"
	(cd e2e && node --test --test-concurrency=1 ./*.test.mjs ./firefox.mjs)
}

case "${1:-build}" in
build) build ;;
serve)
	build
	say "serving"
	exec bin/serve -dir dist
	;;
deps) deps ;;
e2e)
	build
	e2e
	;;
e2e-site)
	build
	build_e2e
	;;
test)
	deps
	build
	export SPARSEFS_REQUIRE_DATA=${SPARSEFS_REQUIRE_DATA:-}
	gotests
	crosscheck
	e2e
	say "all tests passed"
	;;
*)
	echo "usage: ./build.sh [build|serve|test|e2e|e2e-site|deps]" >&2
	exit 2
	;;
esac
