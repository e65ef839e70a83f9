package edge_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/edge"
	"catalog/internal/search/searchtest"
	"catalog/internal/snapshot"
	"catalog/internal/snapshot/snapshottest"
	"catalog/internal/storetest"
	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

// TestVarnish puts the movie service behind varnishd running the
// shipped deploy/varnish/catalog.vcl (its backend address replaced by
// the test server's) and checks what the edge does with the service's
// headers and purges. It skips when varnishd is not installed, and fails
// then under CI (.ci/run installs Debian's varnish and varnish-modules).
func TestVarnish(t *testing.T) {
	testenv.Long(t)
	varnishd, err := exec.LookPath("varnishd")
	if err != nil {
		testenv.SkipOrFail(t, "varnishd not installed (apt-get install varnish varnish-modules); skipping the Varnish integration test")
	}
	ctx := context.Background()
	st := testdb.Open(t)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedMovies(ctx, st, demo.NewGenerator(7, platforms, time.Now().Add(-time.Hour), time.Second, 0), 40); err != nil {
		t.Fatal(err)
	}

	cfg := snapshot.Config{Store: st, Dir: t.TempDir()}
	firstBuild := snapshottest.Watch(&cfg)
	snapshots := snapshot.New(cfg)
	runCtx, stop := context.WithCancel(ctx)
	built := make(chan struct{})
	go func() { snapshots.Run(runCtx); close(built) }()
	t.Cleanup(func() { stop(); <-built })

	vport := freePort(t)
	purges := make(chan purged, 16)
	purger := edge.NewPurger(edge.PurgerConfig{URL: "http://127.0.0.1:" + vport + "/",
		Done: func(keys []string, err error) { purges <- purged{keys, err} }})
	t.Cleanup(func() { purger.Close(ctx) })
	writes := edge.Announcing(st, purger)

	backend := httptest.NewServer(cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, writes, catalog.SearchMovies), Store: writes,
		Snapshots: snapshots}))
	t.Cleanup(backend.Close)
	clipBackend := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, writes, catalog.SearchClips), MovieSearch: searchtest.Start(t, writes, catalog.SearchMovies), Store: writes}))
	t.Cleanup(clipBackend.Close)

	cport := freePort(t)
	startVarnish(t, varnishd, map[string]string{"movies": vport, "clips": cport},
		map[string]string{"8081": port(backend.URL), "8080": port(clipBackend.URL)})
	edgeURL := "http://127.0.0.1:" + vport
	clipEdge := "http://127.0.0.1:" + cport

	first, _ := storetest.Movies(t, st, catalog.MovieFilter{Paging: catalog.Paging{Page: 1, Limit: 1}})
	if len(first) == 0 {
		t.Fatal("no movie to read")
	}
	movie := first[0]
	detail := edgeURL + "/api/movies/" + strconv.FormatInt(movie.ID, 10)

	t.Run("second read is a hit", func(t *testing.T) {
		a := get(t, detail, false)
		b := get(t, detail, false)
		if a.status != 200 || a.cache != "MISS" || b.status != 200 || b.cache != "HIT" {
			t.Fatalf("two reads: got %d %s then %d %s, want 200 MISS then 200 HIT", a.status, a.cache, b.status, b.cache)
		}
		if a.body != b.body {
			t.Errorf("the hit's body differs from the miss's")
		}
		if got := a.header.Get("Surrogate-Key"); got != "movies movie-"+strconv.FormatInt(movie.ID, 10) {
			t.Errorf("Surrogate-Key through the edge: got %q", got)
		}
	})

	t.Run("plain client from a gzip-cached object", func(t *testing.T) {
		list := edgeURL + "/api/movies?limit=40"
		z := get(t, list, true)
		if z.status != 200 || z.cache != "MISS" || z.header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("gzip read: got %d %s Content-Encoding %q, want a 200 gzip miss", z.status, z.cache, z.header.Get("Content-Encoding"))
		}
		p := get(t, list, false)
		if p.status != 200 || p.cache != "HIT" || p.header.Get("Content-Encoding") != "" {
			t.Fatalf("plain read: got %d %s Content-Encoding %q, want a 200 plain hit", p.status, p.cache, p.header.Get("Content-Encoding"))
		}
		if p.header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("plain read: Vary %q, want Accept-Encoding restored for caches further on", p.header.Get("Vary"))
		}
		var l struct{ List []struct{ ID int64 } }
		if err := json.Unmarshal([]byte(p.body), &l); err != nil || len(l.List) != 40 {
			t.Errorf("plain body: %d movies, err %v; want 40 movies of plain JSON", len(l.List), err)
		}
	})

	t.Run("the clips socket fronts the clip service", func(t *testing.T) {
		clip := catalog.Clip{Title: "Behind the edge", IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
		if err := writes.CreateClip(ctx, &clip); err != nil {
			t.Fatal(err)
		}
		key := "clips clip-" + strconv.FormatInt(clip.ID, 10)
		if p := waitPurge(t, purges); strings.Join(p.keys, " ") != key || p.err != nil {
			t.Fatalf("purge after the create: got %v %v, want %s", p.keys, p.err, key)
		}
		u := clipEdge + "/api/clips/" + strconv.FormatInt(clip.ID, 10)
		a, b := get(t, u, false), get(t, u, false)
		if a.status != 200 || b.cache != "HIT" || !strings.Contains(b.body, "Behind the edge") {
			t.Fatalf("clip detail twice: got %d %s then %d %s %.100s, want a hit with the clip", a.status, a.cache, b.status, b.cache, b.body)
		}
		if _, err := writes.UpdateClip(ctx, clip.ID, func(c *catalog.Clip) error { c.Title = "Renamed behind the edge"; return nil }); err != nil {
			t.Fatal(err)
		}
		if p := waitPurge(t, purges); strings.Join(p.keys, " ") != key || p.err != nil {
			t.Fatalf("purge after the edit: got %v %v, want %s", p.keys, p.err, key)
		}
		if r := get(t, u, false); !strings.Contains(r.body, "Renamed behind the edge") {
			t.Errorf("clip after the edit: got %s %.100s, want the new title", r.cache, r.body)
		}
		// Health is no-store, the login form a POST: never from the cache.
		for range 2 {
			if r := get(t, clipEdge+"/api/health", false); r.status != 200 || r.cache != "MISS" {
				t.Errorf("health through the edge: got %d %s, want 200 MISS", r.status, r.cache)
			}
		}
	})

	t.Run("snapshot ranges reach the service", func(t *testing.T) {
		snapshottest.WaitBuilt(t, firstBuild)
		u := edgeURL + "/api/movies/snapshot"
		if r := get(t, u, true); r.status != 200 || r.header.Get("Surrogate-Key") != "snapshot" {
			t.Fatalf("snapshot: got %d Surrogate-Key %q", r.status, r.header.Get("Surrogate-Key"))
		}
		// A plain client's Range on the gzip-cached object: the service
		// answers it from its full-flush index (the edge could only
		// gunzip the whole file and ignore the Range).
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Range", "bytes=0-9")
		resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusPartialContent || string(b) != `{"code":1,` {
			t.Errorf("Range bytes=0-9 through the edge: got %d %.80q, want 206 {\"code\":1,", resp.StatusCode, b)
		}
		if got := resp.Header.Get("X-Cache"); got != "MISS" {
			t.Errorf("plain Range on the snapshot: X-Cache %s, want it passed to the service (MISS)", got)
		}
		// A gzip client's Range is served from the cached gzip bytes.
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err = (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusPartialContent || resp.Header.Get("X-Cache") != "HIT" {
			t.Errorf("gzip Range on the snapshot: got %d %s, want a 206 HIT", resp.StatusCode, resp.Header.Get("X-Cache"))
		}
	})

	t.Run("errors are never cached", func(t *testing.T) {
		for _, path := range []string{"/api/movies/987654321", "/api/movies?page=abc", "/api/movies?fields=nope", "/no/such/path"} {
			for i := range 3 {
				r := get(t, edgeURL+path, false)
				if r.status < 400 || r.cache != "MISS" {
					t.Errorf("%s read %d: got %d %s, want an error that is never a hit", path, i+1, r.status, r.cache)
				}
			}
		}
	})

	t.Run("an edit is visible on the very next read", func(t *testing.T) {
		list := edgeURL + "/api/movies?limit=40"
		for _, u := range []string{detail, list} {
			get(t, u, false)
			if r := get(t, u, false); r.cache != "HIT" {
				t.Fatalf("%s: not cached before the edit (%s)", u, r.cache)
			}
		}
		if len(purges) > 0 {
			t.Fatalf("purges left over from earlier writes: %v", (<-purges).keys)
		}
		edited := movie
		edited.Name = "Renamed at the edge " + strconv.FormatInt(time.Now().UnixNano(), 36)
		if err := writes.UpsertMovies(ctx, []catalog.Movie{edited}); err != nil {
			t.Fatal(err)
		}
		// The purge completes asynchronously; wait for the purger to
		// report it answered, never for a fixed time.
		p := waitPurge(t, purges)
		if p.err != nil {
			t.Fatalf("purge %v failed: %v", p.keys, p.err)
		}
		if strings.Join(p.keys, " ") != "movies movie-"+strconv.FormatInt(movie.ID, 10) {
			t.Errorf("purged keys: got %v", p.keys)
		}
		for _, u := range []string{detail, list} {
			r := get(t, u, false)
			if !strings.Contains(r.body, edited.Name) {
				t.Errorf("%s after the edit: got %s %.200s, want the new title", u, r.cache, r.body)
			}
		}
	})
}

// purged is one purge the purger reported finished.
type purged struct {
	keys []string
	err  error
}

// waitPurge waits for the purger to report a purge answered (or given
// up): the deterministic point after which the edge has dropped the keys.
func waitPurge(tb testing.TB, purges chan purged) purged {
	tb.Helper()
	select {
	case p := <-purges:
		return p
	case <-time.After(30 * time.Second):
		tb.Fatal("no purge within 30 s")
		return purged{}
	}
}

func port(rawURL string) string {
	_, p, _ := net.SplitHostPort(strings.TrimPrefix(rawURL, "http://"))
	return p
}

type edgeReply struct {
	status int
	cache  string
	header http.Header
	body   string
}

// get reads u through the edge; gzip says whether the client accepts
// gzip (the body is returned as sent).
func get(tb testing.TB, u string, gzip bool) edgeReply {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("GET %s: %v", u, err)
	}
	return edgeReply{status: resp.StatusCode, cache: resp.Header.Get("X-Cache"), header: resp.Header, body: string(b)}
}

// lockedBuffer collects varnishd's output while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func freePort(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

// startVarnish runs varnishd in the foreground with the shipped VCL,
// listening on the named sockets (name -> port) and with its backend
// ports replaced (shipped port -> test port); stopped when the test ends.
// It returns varnishd's working directory, for varnishlog -n.
func startVarnish(tb testing.TB, varnishd string, sockets, backends map[string]string) string {
	tb.Helper()
	vcl, err := os.ReadFile(filepath.Join("..", "..", "deploy", "varnish", "catalog.vcl"))
	if err != nil {
		tb.Fatal(err)
	}
	text := string(vcl)
	for shipped, test := range backends {
		from := `.port = "` + shipped + `";`
		if !strings.Contains(text, from) {
			tb.Fatalf("the shipped VCL has no backend on port %s", shipped)
		}
		text = strings.Replace(text, from, `.port = "`+test+`";`, 1)
	}
	dir, err := os.MkdirTemp("", "catalog-varnish-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755) // varnishd's workers must read what the manager compiles there
	vclPath := filepath.Join(dir, "catalog.vcl")
	if err := os.WriteFile(vclPath, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	// The rules it includes, from beside it.
	rules, err := os.ReadFile(filepath.Join("..", "..", "deploy", "varnish", "catalog-rules.vcl"))
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "catalog-rules.vcl"), rules, 0o644); err != nil {
		tb.Fatal(err)
	}
	// Debian ships the xkey vmod apart, in varnish-modules.
	if out, err := exec.Command(varnishd, "-C", "-n", filepath.Join(dir, "check"), "-f", vclPath).CombinedOutput(); err != nil {
		if strings.Contains(string(out), "Could not find VMOD xkey") {
			testenv.SkipOrFail(tb, "the xkey vmod is not installed (apt-get install varnish-modules); skipping the Varnish integration test")
		}
		tb.Fatalf("varnishd -C: %v\n%s", err, out)
	}
	var log lockedBuffer
	work := filepath.Join(dir, "work")
	args := []string{"-F", "-j", "none", "-n", work, "-f", vclPath, "-s", "malloc,32m", "-T", "none"}
	for name, port := range sockets {
		args = append(args, "-a", name+"=127.0.0.1:"+port)
	}
	cmd := exec.Command(varnishd, args...)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	tb.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-exited:
			tb.Fatalf("varnishd exited:\n%s", log.String())
		default:
		}
		ready := true
		for _, port := range sockets {
			c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second)
			if err != nil {
				ready = false
				break
			}
			c.Close()
		}
		if ready {
			return work
		}
		if time.Now().After(deadline) {
			tb.Fatalf("varnishd did not listen within 60 s:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond) // varnishd is another process: poll its sockets
	}
}
