package browsertest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/demo"
	"catalog/internal/search/searchtest"
	"catalog/internal/snapshot"
	"catalog/internal/snapshot/snapshottest"
	"catalog/internal/testdb"
)

// TestSnapshotInChromium fetches a snapshot of several MiB from the movie
// service in Chromium, which decodes only the first gzip member of a
// Content-Encoding: gzip body (contract 4.4): the browser must get every
// byte of the plain form.
func TestSnapshotInChromium(t *testing.T) {
	b := start(t)
	movies := startSnapshotService(t, 8000)

	// The plain form, as the service decompresses it for clients that do
	// not accept gzip.
	plainClient := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	resp, err := plainClient.Get(movies + "/api/movies/snapshot")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("plain snapshot: got %d, Content-Encoding %q, %v", resp.StatusCode, resp.Header.Get("Content-Encoding"), err)
	}
	if len(plain) < 3<<20 {
		t.Fatalf("the snapshot has %d bytes, want over 3 MiB for the test to mean anything", len(plain))
	}
	sum := sha256.Sum256(plain)

	b.do("open the movie service", chromedp.Navigate(movies+"/api/health"))
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	type fetched struct {
		Status   int
		Encoding string
		Length   int
		SHA256   string
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[fetched](`(async () => {
		const r = await fetch("/api/movies/snapshot", {cache: "no-store"});
		const body = await r.arrayBuffer();
		const sum = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
		return {status: r.status, encoding: r.headers.get("Content-Encoding") || "", length: body.byteLength,
			sha256: Array.from(sum, x => x.toString(16).padStart(2, "0")).join("")};
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetch in Chromium: %v", err)
	}
	if got.Status != http.StatusOK || got.Encoding != "gzip" {
		t.Fatalf("Chromium got %d with Content-Encoding %q, want 200 gzip", got.Status, got.Encoding)
	}
	if got.Length != len(plain) || got.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("Chromium decoded %d bytes (SHA-256 %s), want the %d-byte plain form (%x)", got.Length, got.SHA256, len(plain), sum)
	}
}

// startSnapshotService serves a movie service whose store holds n demo
// movies, once its first snapshot is built, and returns its base URL.
func startSnapshotService(t *testing.T, n int) string {
	t.Helper()
	ctx := context.Background()
	st := testdb.Open(t)
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.SeedMovies(ctx, st, demo.NewGenerator(11, platforms, time.Now().Add(-time.Hour), time.Second, 0), n); err != nil {
		t.Fatal(err)
	}
	cfg := snapshot.Config{Store: st, Dir: t.TempDir()}
	builds := snapshottest.Watch(&cfg)
	snapshots := snapshot.New(cfg)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { snapshots.Run(runCtx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	srv := httptest.NewServer(cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, st, catalog.SearchMovies), Store: st, Snapshots: snapshots}))
	t.Cleanup(srv.Close)
	snapshottest.WaitBuilt(t, builds)
	return srv.URL
}
