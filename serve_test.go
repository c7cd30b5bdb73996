package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// The server serves the folder's regular files and nothing else: no
// dot-named file or folder, no link leading out of the folder, no folder.
func TestServeOnlyTheFolder(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	dir := filepath.Join(outside, "site")
	for _, d := range []string{dir, filepath.Join(dir, ".git"), filepath.Join(dir, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{secret: "secret", filepath.Join(dir, "index.html"): "<p>home</p>",
		filepath.Join(dir, ".env"): "TOKEN=1", filepath.Join(dir, ".git", "config"): "[core]", filepath.Join(dir, "sub", "a.csv"): "a,b\n1,2\n"}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, filepath.Join(dir, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "a.csv"), filepath.Join(dir, "inside.csv")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := &site{root: root, prefix: "/", gz: map[string]gzEntry{}}
	for path, want := range map[string]int{
		"/": 200, "/index.html": 200, "/sub/a.csv": 200, "/inside.csv": 200,
		"/leak.txt": 404, "/.env": 404, "/.git/config": 404, "/sub": 404, "/../secret.txt": 404, "/nothing.js": 404,
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != want {
			t.Errorf("%s: %d, want %d (%q)", path, rec.Code, want, rec.Body.String())
		}
	}
}
