package edge_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/search/searchtest"
	"catalog/internal/snapshot"
	"catalog/internal/snapshot/snapshottest"
	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

// TestVarnishSnapshot fetches a snapshot of several MiB through varnishd
// running the shipped VCL. Varnish checks a gzip body as it stores it and
// decodes only one member (contract 4.4): a file of several members is a
// "FetchError: Junk after gzip data", a truncated 200 and no cached object.
// Here the whole body must reach gzip and plain clients, from the cache.
func TestVarnishSnapshot(t *testing.T) {
	testenv.Long(t)
	varnishd, err := exec.LookPath("varnishd")
	if err != nil {
		testenv.SkipOrFail(t, "varnishd not installed (apt-get install varnish varnish-modules); skipping the Varnish snapshot test")
	}
	ctx := context.Background()
	st := testdb.Open(t)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedMovies(ctx, st, demo.NewGenerator(13, platforms, time.Now().Add(-time.Hour), time.Second, 0), 8000); err != nil {
		t.Fatal(err)
	}
	cfg := snapshot.Config{Store: st, Dir: t.TempDir()}
	builds := snapshottest.Watch(&cfg)
	snapshots := snapshot.New(cfg)
	runCtx, stop := context.WithCancel(ctx)
	built := make(chan struct{})
	go func() { snapshots.Run(runCtx); close(built) }()
	t.Cleanup(func() { stop(); <-built })
	backend := httptest.NewServer(cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, st, catalog.SearchMovies), Store: st, Snapshots: snapshots}))
	t.Cleanup(backend.Close)
	snapshottest.WaitBuilt(t, builds)
	plain := get(t, backend.URL+"/api/movies/snapshot", false)
	if plain.status != 200 || len(plain.body) < 3<<20 {
		t.Fatalf("snapshot from the service: got %d with %d bytes, want 200 with over 3 MiB", plain.status, len(plain.body))
	}

	vport := freePort(t)
	work := startVarnish(t, varnishd, map[string]string{"movies": vport}, map[string]string{"8081": port(backend.URL)})
	u := "http://127.0.0.1:" + vport + "/api/movies/snapshot"

	for i, want := range []string{"MISS", "HIT"} {
		z := get(t, u, true)
		if z.status != 200 || z.cache != want || z.header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("gzip read %d: got %d %s Content-Encoding %q, want 200 %s gzip", i+1, z.status, z.cache, z.header.Get("Content-Encoding"), want)
		}
		if got := firstGzipMember(t, []byte(z.body)); got != plain.body {
			t.Fatalf("gzip read %d: the first gzip member holds %d bytes, want the %d-byte document", i+1, len(got), len(plain.body))
		}
	}
	// A plain client is served from the cached gzip object, which
	// Varnish decompresses whole.
	if p := get(t, u, false); p.status != 200 || p.cache != "HIT" || p.body != plain.body {
		t.Errorf("plain read: got %d %s with %d bytes, want a 200 HIT with the %d-byte document", p.status, p.cache, len(p.body), len(plain.body))
	}
	out, err := exec.Command("varnishlog", "-n", work, "-d", "-g", "raw", "-i", "FetchError").CombinedOutput()
	if err != nil {
		t.Fatalf("varnishlog: %v: %s", err, out)
	}
	if s := strings.TrimSpace(string(out)); s != "" {
		t.Errorf("varnishd logged fetch errors:\n%s", s)
	}
}

// firstGzipMember decodes the first gzip member of b, as Varnish and
// browsers do, and fails the test when anything follows it.
func firstGzipMember(tb testing.TB, b []byte) string {
	tb.Helper()
	r := bytes.NewReader(b)
	zr, err := gzip.NewReader(r)
	if err != nil {
		tb.Fatalf("gzip header: %v", err)
	}
	zr.Multistream(false)
	got, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatalf("first gzip member: %v", err)
	}
	if r.Len() != 0 {
		tb.Fatalf("%d bytes follow the first gzip member of a %d-byte body, want none", r.Len(), len(b))
	}
	return string(got)
}
