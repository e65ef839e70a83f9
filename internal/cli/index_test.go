package cli_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// waitSearchReady waits until both services' search indexes are ready:
// their log lines say so once a search would be answered from them.
func waitSearchReady(t *testing.T, s *server) {
	t.Helper()
	s.stderr.waitLog(t, 2, "search index ready")
}

// TestServeRestartsFromIndexFiles: serve writes both search indexes to
// files beside the SQLite database when it stops, and the next serve
// starts from them (no build from the database, its log says) with
// what another process imported meanwhile.
func TestServeRestartsFromIndexFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := migrated(t, filepath.Join(dir, "catalog.db"))
	clips := filepath.Join(dir, "clips.jsonl")
	os.WriteFile(clips, []byte(`{"title": "Rain on the window", "iframe_url": "https://dai.ly/x8abc"}`+"\n"), 0o644)
	wantExit(t, run(t, nil, "", "import", "clips", "--db", db, clips), 0)
	args := []string{"--db", db, "--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0"}

	first := startServe(t, nil, args...)
	waitSearchReady(t, first)
	if err := first.stop(t); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"clips.idx", "movies.idx"} {
		if _, err := os.Stat(filepath.Join(db+".index", f)); err != nil {
			t.Fatalf("no index file after serve stopped: %v", err)
		}
	}
	if !strings.Contains(first.stderr.String(), `"msg":"search index ready"`) {
		t.Fatalf("first serve did not build its index:\n%s", first.stderr.String())
	}

	os.WriteFile(clips, []byte(`{"title": "Later arrival", "iframe_url": "https://dai.ly/x8abd"}`+"\n"), 0o644)
	wantExit(t, run(t, nil, "", "import", "clips", "--db", db, clips), 0)

	second := startServe(t, nil, args...)
	waitSearchReady(t, second)
	var page struct {
		Meta struct{ Total int64 }
	}
	if code := getJSON(t, http.DefaultClient, "http://"+second.addrs.Clips.String()+"/api/clips?q=later", &page); code != 200 || page.Meta.Total != 1 {
		t.Fatalf("q=later after the restart: status %d, total %d, want 200 and 1", code, page.Meta.Total)
	}
	// Stopped first: serve batches its log lines, and stop writes them.
	if err := second.stop(t); err != nil {
		t.Fatal(err)
	}
	logs := second.stderr.String()
	if strings.Count(logs, "search index ready from its file") != 2 || strings.Contains(logs, `"msg":"search index ready"`) {
		t.Fatalf("second serve should start both indexes from their files, building none:\n%s", logs)
	}
}
