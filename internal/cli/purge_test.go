package cli_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/testdb"
)

// purgeLog is a purge endpoint recording the keys of every PURGE.
type purgeLog struct {
	mu   sync.Mutex
	got  []string
	seen chan string
}

func newPurgeLog(t *testing.T) (*purgeLog, string) {
	l := &purgeLog{seen: make(chan string, 256)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "PURGE" {
			t.Errorf("purge request: got method %s, want PURGE", r.Method)
		}
		keys := r.Header.Get("xkey-purge")
		l.mu.Lock()
		l.got = append(l.got, keys)
		l.mu.Unlock()
		l.seen <- keys
	}))
	t.Cleanup(srv.Close)
	return l, srv.URL + "/"
}

// waitFor waits until a purge with exactly keys arrives, skipping others.
func (l *purgeLog) waitFor(t *testing.T, keys string) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case got := <-l.seen:
			if got == keys {
				return
			}
		case <-timeout:
			t.Fatalf("no purge of %q within 30 s; got %q", keys, l.all())
		}
	}
}

func (l *purgeLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.got...)
}

func TestServeSurrogateKeysAndPurges(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	purges, purgeURL := newPurgeLog(t)
	env := map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_PURGE_URL": purgeURL}
	wantExit(t, run(t, env, "correct horse battery staple\n", "admin", "create", "--username", "alice"), 0)

	// import and seed announce once per batch, before they exit.
	r := run(t, env, "", "import", "movies", filepath.Join("..", "..", "examples", "movies.jsonl"))
	wantExit(t, r, 0)
	if got := purges.all(); len(got) != 1 || !strings.HasPrefix(got[0], "movies movie-1 ") {
		t.Errorf("import of one batch: purges %q, want one naming movies and the movie keys", got)
	}
	wantExit(t, run(t, env, "", "seed", "--clips", "3", "--force"), 0)
	if got := purges.all(); len(got) != 2 || got[1] != "clips clip-1 clip-2 clip-3" {
		t.Errorf("seed of 3 clips: purges %q, want a second one naming the clips", got)
	}

	srv := startServe(t, env, serveArgs()...)
	clips, movies := "http://"+srv.addrs.Clips.String(), "http://"+srv.addrs.Movies.String()
	purges.waitFor(t, "snapshot") // each snapshot build

	// Reads carry their keys, in both spellings.
	for _, c := range []struct{ url, keys string }{
		{clips + "/api/clips", "clips"},
		{clips + "/api/clips/2", "clips clip-2"},
		{movies + "/api/movies", "movies"},
		{movies + "/api/movies/1", "movies movie-1"},
		{movies + "/api/jav?limit=2", "movies"},
		{movies + "/api/jav/1", "movies movie-1"},
		{movies + "/api/movies/snapshot", "snapshot"},
	} {
		r := call(t, http.MethodGet, c.url, "", nil)
		if r.status != http.StatusOK || r.header.Get("Surrogate-Key") != c.keys ||
			r.header.Get("Cache-Tag") != strings.ReplaceAll(c.keys, " ", ",") {
			t.Errorf("GET %s: got %d Surrogate-Key %q Cache-Tag %q, want 200 with %q", c.url, r.status,
				r.header.Get("Surrogate-Key"), r.header.Get("Cache-Tag"), c.keys)
		}
	}

	// Health is never cached, on either service (contract 3.4).
	for _, base := range []string{clips, movies} {
		if r := call(t, http.MethodGet, base+"/api/health", "", nil); r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("GET %s/api/health: Cache-Control %q, want no-store", base, r.header.Get("Cache-Control"))
		}
	}

	// Every write through the API announces what it changed.
	cookie := sessionCookie(t, login(t, clips, "alice", "correct horse battery staple"))
	created := call(t, http.MethodPost, clips+"/api/clips",
		`{"title": "Purged", "iframe_url": "https://www.youtube.com/embed/dQw4w9WgXcQ"}`, cookie)
	var c struct{ Data struct{ ID int64 } }
	if created.status != http.StatusCreated || json.Unmarshal([]byte(created.body), &c) != nil {
		t.Fatalf("create: got %d %s", created.status, created.body)
	}
	key := "clips clip-" + itoa(c.Data.ID)
	purges.waitFor(t, key)
	if r := call(t, http.MethodPatch, clips+"/api/clips/"+itoa(c.Data.ID), `{"title": "Purged again"}`, cookie); r.status != http.StatusOK {
		t.Fatalf("patch: got %d %s", r.status, r.body)
	}
	purges.waitFor(t, key)
	if r := call(t, http.MethodDelete, clips+"/api/clips/"+itoa(c.Data.ID), "", cookie); r.status != http.StatusNoContent {
		t.Fatalf("delete: got %d %s", r.status, r.body)
	}
	purges.waitFor(t, key)
}

func TestPurgeURLMustBeHTTP(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	file := filepath.Join(t.TempDir(), "m.jsonl")
	os.WriteFile(file, []byte(`{"name": "x"}`+"\n"), 0o644)
	for _, args := range [][]string{
		append([]string{"serve", "--purge-url", "ftp://edge/"}, serveArgs()...),
		{"import", "movies", "--purge-url", "edge:6081", file},
		{"seed", "--clips", "1", "--purge-url", "http://"},
	} {
		r := run(t, map[string]string{"CATALOG_DB": db.DSN()}, "", args...)
		wantExit(t, r, 2)
		if !strings.Contains(r.err.Error(), "--purge-url") {
			t.Errorf("%v: error %q does not name --purge-url", args, r.err)
		}
	}
}
