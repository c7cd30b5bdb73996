// Command serve serves the built sparsefs site (dist/) on localhost:
//
//	go run serve.go [-addr 127.0.0.1:8080] [-dir dist] [-base /] [-plain] [-log]
//
// It sends .wasm as application/wasm (so browsers compile it while it
// downloads), gzip-compresses what compresses, and puts a strict
// Content-Security-Policy on every response — the page, the scripts, the
// service worker and the rest: only the page's own origin, plus
// 'wasm-unsafe-eval' for Go's WebAssembly. With -base the site is served
// under a sub-path, as a static host would place it (the app uses relative
// URLs only). -plain sends no security headers at all, as a bare static host
// would (the page's meta policy must then do the work; the tests use it);
// -log prints every request to standard error (method, path and query,
// and the Service-Worker header the browser sends when it fetches sw.js).
// Only regular files inside the folder are served (a link leading out of
// it is not followed), and no file or folder whose name starts with a dot.
//
// When the port is taken, serve picks a free one; it prints the URL to open.
package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// csp allows nothing beyond the page's own origin. Go's wasm needs
// 'wasm-unsafe-eval'; fetching the .wasm and the demo needs connect-src
// 'self'. Two uses of blob: URLs, both of content the page itself makes and
// never of anything from elsewhere: worker-src blob: for the computing
// workers, which the page starts from a blob: URL holding their script so
// that they inherit this policy even on hosts that send no headers (a worker
// loaded from a URL does not inherit the page's policy), and img-src blob:
// for drawing a chart's SVG onto a canvas to save it as PNG. The same policy
// is in assets/index.html as a meta tag for hosts that send no headers
// (frame-ancestors only works as a header).
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob:; " +
	"connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'none'; frame-ancestors 'none'"

var types = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".csv":  "text/csv; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".json": "application/json",
	".gz":   "application/gzip",

	".webmanifest": "application/manifest+json",
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on; if the port is taken a free one is used")
	dir := flag.String("dir", "dist", "the built site (./build.sh makes it)")
	base := flag.String("base", "/", "URL path under which to serve the site")
	plain := flag.Bool("plain", false, "send no security headers (as a bare static host)")
	logRequests := flag.Bool("log", false, "print every request to standard error")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		log.Fatalf("serve: %s/index.html not found: build the site first with ./build.sh", *dir)
	}
	prefix := "/" + strings.Trim(*base, "/") + "/"
	if prefix == "//" {
		prefix = "/"
	}
	for ext, t := range types {
		mime.AddExtensionType(ext, t)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil && isAddrInUse(err) {
		host, _, _ := net.SplitHostPort(*addr)
		ln, err = net.Listen("tcp", net.JoinHostPort(host, "0"))
	}
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	root, err := os.OpenRoot(*dir)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	h := &site{root: root, prefix: prefix, plain: *plain, log: *logRequests, gz: map[string]gzEntry{}}
	go h.precompress()
	mux := http.NewServeMux()
	mux.Handle(prefix, h)
	if prefix != "/" {
		mux.Handle("/", http.RedirectHandler(prefix, http.StatusFound))
	}
	url := fmt.Sprintf("http://%s%s", ln.Addr(), prefix)
	abs, _ := filepath.Abs(*dir)
	fmt.Printf("sparsefs: serving %s at %s\n", abs, url)
	fmt.Printf("Open %s in a browser and press \"Try the demo\". Ctrl-C stops the server.\n", url)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

func isAddrInUse(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && strings.Contains(op.Err.Error(), "address already in use")
}

// site serves the files of a folder (root) under prefix.
type site struct {
	root       *os.Root
	prefix     string
	plain, log bool
	mu         sync.Mutex
	gz         map[string]gzEntry // compressed bodies by path
}

type gzEntry struct {
	mod  time.Time
	body []byte
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.log {
		// The browser marks its fetches of a service worker's script (at
		// registration and at each check for a new version) with the header
		// "Service-Worker: script"; the tests tell them apart by it. The
		// status tells a download (200) from a revalidation (304).
		sw := ""
		if v := r.Header.Get("Service-Worker"); v != "" {
			sw = " service-worker=" + v
		}
		st := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			fmt.Fprintf(os.Stderr, "serve: %s %s%s status=%d\n", r.Method, r.URL.RequestURI(), sw, st.status)
		}()
		w = st
	}
	hdr := w.Header()
	if !s.plain {
		hdr.Set("Content-Security-Policy", csp)
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Referrer-Policy", "no-referrer")
		hdr.Set("Cross-Origin-Resource-Policy", "same-origin")
	}
	hdr.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	rel := strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(r.URL.Path, s.prefix)), "/")
	if rel == "" || strings.HasSuffix(r.URL.Path, "/") {
		rel = path.Join(rel, "index.html")
	}
	f, st, ok := s.open(rel)
	if !ok {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	if t, ok := types[path.Ext(rel)]; ok {
		hdr.Set("Content-Type", t)
	}
	hdr.Add("Vary", "Accept-Encoding")
	if compressible(rel) && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		body, err := s.compressed(rel, st.ModTime())
		if err == nil {
			hdr.Set("Content-Encoding", "gzip")
			http.ServeContent(w, r, rel, st.ModTime(), bytes.NewReader(body))
			return
		}
	}
	http.ServeContent(w, r, rel, st.ModTime(), f)
}

// statusWriter remembers the status of a response, for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// open opens the file at rel (slash-separated, relative to the folder) if
// it may be served: a regular file inside the folder (os.Root refuses a
// path or a link that leads out of it), with no dot-named part.
func (s *site) open(rel string) (*os.File, os.FileInfo, bool) {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") {
			return nil, nil, false
		}
	}
	f, err := s.root.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, nil, false
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, st, true
}

// precompress compresses every compressible file once, at start-up and in
// the background, as a static host would have them ready: the first visitor
// does not wait for ui.wasm to be compressed.
func (s *site) precompress() {
	fs.WalkDir(s.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && compressible(p) {
			if st, err := d.Info(); err == nil {
				s.compressed(p, st.ModTime())
			}
		}
		return nil
	})
}

func compressible(file string) bool {
	switch path.Ext(file) {
	case ".wasm", ".js", ".html", ".css", ".svg", ".csv", ".txt", ".json", ".webmanifest":
		return true
	}
	return false
}

// compressed returns the gzip body of a file (slash-separated, relative
// to the folder), compressing it once per modification.
func (s *site) compressed(file string, mod time.Time) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.gz[file]; ok && e.mod.Equal(mod) {
		return e.body, nil
	}
	raw, err := s.root.ReadFile(filepath.FromSlash(file))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	s.gz[file] = gzEntry{mod: mod, body: buf.Bytes()}
	return buf.Bytes(), nil
}
