package snapshot

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/testdb"
)

// newTestStore is the one place tests get a store: a fresh, migrated,
// empty database of the engine CATALOG_TEST_ENGINE names (testdb).
func newTestStore(t testing.TB) catalog.Store {
	t.Helper()
	return testdb.Open(t)
}

// addNumbered adds movies first..last named "Movie N" with a list field.
func addNumbered(t testing.TB, store catalog.MovieStore, first, last int) {
	t.Helper()
	var movies []catalog.Movie
	for id := first; id <= last; id++ {
		m := catalog.Movie{ID: int64(id), Name: fmt.Sprintf("Movie %d", id), Year: "2020"}
		m.Lists[0] = catalog.NewList([]string{"Drama", "Thai"})
		if err := m.Normalize(); err != nil {
			t.Fatalf("normalize: %v", err)
		}
		movies = append(movies, m)
	}
	if err := store.UpsertMovies(context.Background(), movies); err != nil {
		t.Fatalf("upsert: %v", err)
	}
}

var generated = time.Date(2026, 11, 21, 13, 45, 7, 0, time.UTC)

func TestWrite(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	var buf bytes.Buffer
	if err := Write(context.Background(), store, &buf, generated); err != nil {
		t.Fatalf("write empty: %v", err)
	}
	// Contract 4.4: an empty catalog's pagecount is 0, as in 4.2.
	want := `{"code":1,"msg":"data list","page":1,"pagecount":0,"limit":"0","total":0,"list":[],"generated_at":"2026-11-21T13:45:07Z"}`
	if buf.String() != want {
		t.Errorf("empty catalog: got %s, want %s", buf.String(), want)
	}

	addNumbered(t, store, 1, 3)
	buf.Reset()
	if err := Write(context.Background(), store, &buf, generated.In(time.FixedZone("x", 7*3600))); err != nil {
		t.Fatalf("write: %v", err)
	}
	// The empty document above is the snapshot's golden; here the
	// members, and the records by id and title (their form is the movie
	// JSON of /api/movies, pinned there).
	var doc struct {
		Code        int
		Msg         string
		Page        int64
		PageCount   int64 `json:"pagecount"`
		Limit       string
		Total       int64
		GeneratedAt string `json:"generated_at"`
		List        []struct {
			ID         int64
			Title      string
			Categories []string
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("decode %s: %v", buf.Bytes(), err)
	}
	if doc.Code != 1 || doc.Msg != "data list" || doc.Page != 1 || doc.PageCount != 1 || doc.Limit != "3" || doc.Total != 3 ||
		doc.GeneratedAt != "2026-11-21T13:45:07Z" || len(doc.List) != 3 {
		t.Fatalf("got %s, want page 1 of 1, limit \"3\", total 3, generated_at in UTC and 3 records", buf.Bytes())
	}
	for i, m := range doc.List {
		id := int64(3 - i)
		if m.ID != id || m.Title != fmt.Sprintf("Movie %d", id) || !slices.Equal(m.Categories, []string{"Drama", "Thai"}) {
			t.Errorf("record %d: got %+v, want movie %d", i, m, id)
		}
	}
}

// racingStore reports one movie more than it streams, as if a movie was
// deleted between CountMovies and EachMovie.
type racingStore struct{ catalog.MovieStore }

func (r racingStore) CountMovies(ctx context.Context) (int64, error) {
	n, err := r.MovieStore.CountMovies(ctx)
	return n + 1, err
}

func TestWriteCatalogChanged(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 1, 2)
	err := Write(context.Background(), racingStore{store}, io.Discard, generated)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("got %v, want ErrChanged", err)
	}
	dir := t.TempDir()
	err = WriteFile(context.Background(), racingStore{store}, filepath.Join(dir, "s.json"), generated)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("WriteFile: got %v, want ErrChanged after retries", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("failed WriteFile left %d files behind", len(entries))
	}
}

func TestWriteFile(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 1, 3)
	dir := t.TempDir()
	var want bytes.Buffer
	if err := Write(context.Background(), store, &want, generated); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"snap.json", "snap.json.gz"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := WriteFile(context.Background(), store, path, generated); err != nil {
				t.Fatalf("WriteFile: %v", err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(name, ".gz") {
				got = gunzip(t, got)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("got %s, want %s", got, want.Bytes())
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("got %d files in the directory, want 2 (no temporary files left)", len(entries))
	}
	if err := WriteFile(context.Background(), store, filepath.Join(dir, "missing", "x.json"), generated); err == nil {
		t.Errorf("WriteFile into a missing directory: got no error")
	}
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return out
}

func newTestService(t testing.TB, store catalog.MovieStore) *Service {
	t.Helper()
	s := New(Config{Store: store, Dir: t.TempDir(), Every: time.Hour})
	s.nextRefresh.Store(time.Now().Add(time.Hour).UnixNano())
	return s
}

func refresh(t testing.TB, s *Service) {
	t.Helper()
	if err := s.refresh(context.Background()); err != nil {
		t.Fatalf("refresh: %v", err)
	}
}

type response struct {
	status int
	header http.Header
	body   []byte
	err    error // what Serve left for the movie service's error writer
}

func serve(t testing.TB, s *Service, method string, header ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, "/api/movies/snapshot", nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	err := s.Serve(rec, req)
	return response{status: rec.Code, header: rec.Result().Header, body: rec.Body.Bytes(), err: err}
}

func TestServeNotReady(t *testing.T) {
	t.Parallel()
	s := newTestService(t, newTestStore(t))
	// The body and headers of the 503 are the movie service's (see
	// internal/movieapi); here: the error and the Retry-After hint.
	r := serve(t, s, http.MethodGet)
	if code, msg := catalog.ErrorCode(r.err), catalog.ErrorMessage(r.err); code != catalog.EUNAVAILABLE || msg != "snapshot not ready" {
		t.Errorf("got error %q %q, want %q %q", code, msg, catalog.EUNAVAILABLE, "snapshot not ready")
	}
	if r.header.Get("Retry-After") == "" {
		t.Errorf("no Retry-After")
	}
	if len(r.body) != 0 {
		t.Errorf("Serve wrote a body with its error: %s", r.body)
	}
}

func TestServe(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 1, 40)
	s := newTestService(t, store)
	refresh(t, s)

	plain := serve(t, s, http.MethodGet)
	if plain.status != http.StatusOK {
		t.Fatalf("got status %d, want 200: %s", plain.status, plain.body)
	}
	var doc struct {
		Code        int
		Page        int
		PageCount   int
		Limit       string
		Total       int
		List        []struct{ ID int }
		GeneratedAt string `json:"generated_at"`
	}
	if err := json.Unmarshal(plain.body, &doc); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if doc.Code != 1 || doc.Page != 1 || doc.PageCount != 1 || doc.Limit != "40" || doc.Total != 40 || len(doc.List) != 40 {
		t.Errorf("got envelope %+v, want code 1, page 1, pagecount 1, limit \"40\", total 40, 40 movies", doc)
	}
	if doc.List[0].ID != 40 || doc.List[39].ID != 1 {
		t.Errorf("list not id descending: first %d, last %d", doc.List[0].ID, doc.List[39].ID)
	}
	if _, err := time.Parse(time.RFC3339, doc.GeneratedAt); err != nil {
		t.Errorf("generated_at %q: %v", doc.GeneratedAt, err)
	}
	for name, want := range map[string]string{
		"Content-Type":   "application/json; charset=utf-8",
		"Vary":           "Accept-Encoding",
		"Content-Length": strconv.Itoa(len(plain.body)),
		"Accept-Ranges":  "bytes",
	} {
		if got := plain.header.Get(name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	if plain.header.Get("Content-Encoding") != "" {
		t.Errorf("plain response has Content-Encoding %q", plain.header.Get("Content-Encoding"))
	}
	lastModified := plain.header.Get("Last-Modified")
	if lastModified == "" {
		t.Errorf("no Last-Modified")
	}

	zipped := serve(t, s, http.MethodGet, "Accept-Encoding", "gzip, deflate")
	if zipped.status != http.StatusOK || zipped.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("gzip: got %d with Content-Encoding %q", zipped.status, zipped.header.Get("Content-Encoding"))
	}
	if got := zipped.header.Get("Content-Length"); got != strconv.Itoa(len(zipped.body)) {
		t.Errorf("gzip Content-Length: got %s, want %d", got, len(zipped.body))
	}
	if !bytes.Equal(gunzip(t, zipped.body), plain.body) {
		t.Errorf("gzip body does not decompress to the plain body")
	}
	plainTag, gzipTag := plain.header.Get("ETag"), zipped.header.Get("ETag")
	if plainTag == "" || gzipTag == "" || plainTag == gzipTag || strings.HasPrefix(plainTag, "W/") {
		t.Errorf("got ETags %q and %q, want two different strong tags", plainTag, gzipTag)
	}

	t.Run("conditional", func(t *testing.T) {
		tests := []struct {
			name   string
			header []string
			want   int
		}{
			{"If-None-Match plain", []string{"If-None-Match", plainTag}, http.StatusNotModified},
			{"If-None-Match gzip", []string{"If-None-Match", gzipTag, "Accept-Encoding", "gzip"}, http.StatusNotModified},
			{"If-None-Match other", []string{"If-None-Match", `"x"`}, http.StatusOK},
			{"If-Modified-Since", []string{"If-Modified-Since", lastModified}, http.StatusNotModified},
			{"If-Modified-Since gzip", []string{"If-Modified-Since", lastModified, "Accept-Encoding", "gzip"}, http.StatusNotModified},
			{"If-Modified-Since older", []string{"If-Modified-Since", "Mon, 02 Jan 2006 15:04:05 GMT"}, http.StatusOK},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := serve(t, s, http.MethodGet, tt.header...)
				if r.status != tt.want {
					t.Fatalf("got %d, want %d", r.status, tt.want)
				}
				if tt.want == http.StatusNotModified && len(r.body) != 0 {
					t.Errorf("304 with a %d-byte body", len(r.body))
				}
				if !strings.HasPrefix(r.header.Get("Cache-Control"), "public, max-age=") {
					t.Errorf("got Cache-Control %q", r.header.Get("Cache-Control"))
				}
			})
		}
	})

	t.Run("range", func(t *testing.T) {
		n := len(plain.body)
		tests := []struct {
			name, rng string
			gzip      bool
			want      []byte
			first     int
		}{
			{"plain start", "bytes=0-9", false, plain.body[:10], 0},
			{"plain middle", "bytes=100-1099", false, plain.body[100:1100], 100},
			{"plain suffix", "bytes=-7", false, plain.body[n-7:], n - 7},
			{"plain open", fmt.Sprintf("bytes=%d-", n-20), false, plain.body[n-20:], n - 20},
			{"unit in capitals", "BYTES=0-9", false, plain.body[:10], 0},
			{"empty suffix dropped", "bytes=-0, 2-3", true, zipped.body[2:4], 2},
			{"gzip start", "bytes=0-9", true, zipped.body[:10], 0},
			{"gzip middle", "bytes=20-59", true, zipped.body[20:60], 20},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				header := []string{"Range", tt.rng}
				size := n
				if tt.gzip {
					header = append(header, "Accept-Encoding", "gzip")
					size = len(zipped.body)
				}
				r := serve(t, s, http.MethodGet, header...)
				if r.status != http.StatusPartialContent {
					t.Fatalf("got status %d, want 206: %s", r.status, r.body)
				}
				if !bytes.Equal(r.body, tt.want) {
					t.Errorf("got %q, want %q", r.body, tt.want)
				}
				wantRange := fmt.Sprintf("bytes %d-%d/%d", tt.first, tt.first+len(tt.want)-1, size)
				if got := r.header.Get("Content-Range"); got != wantRange {
					t.Errorf("Content-Range: got %q, want %q", got, wantRange)
				}
			})
		}
		t.Run("plain multi-range gives the whole document", func(t *testing.T) {
			r := serve(t, s, http.MethodGet, "Range", "bytes=0-0,10-10")
			if r.status != http.StatusOK || !bytes.Equal(r.body, plain.body) {
				t.Errorf("got %d with %d bytes, want 200 with the document", r.status, len(r.body))
			}
		})
		t.Run("unknown unit is ignored", func(t *testing.T) {
			// RFC 9110 14.2: a server ignores a range unit it does not know.
			r := serve(t, s, http.MethodGet, "Range", "items=0-1")
			if r.status != http.StatusOK || !bytes.Equal(r.body, plain.body) {
				t.Errorf("got %d with %d bytes, want 200 with the document", r.status, len(r.body))
			}
		})
		for _, rng := range []string{"bytes=-0", "bytes=x", "bytes=5-1", "bytes= -0 , -00"} {
			t.Run("unsatisfiable "+rng, func(t *testing.T) {
				// RFC 9110 15.5.17: every 416 names the size.
				for _, enc := range []string{"", "gzip"} {
					r := serve(t, s, http.MethodGet, "Range", rng, "Accept-Encoding", enc)
					size := n
					if enc == "gzip" {
						size = len(zipped.body)
					}
					if code := catalog.ErrorCode(r.err); code != httpx.ERANGE || len(r.body) != 0 {
						t.Errorf("Accept-Encoding %q: got error code %q and %d bytes, want %q", enc, code, len(r.body), httpx.ERANGE)
					}
					if got, want := r.header.Get("Content-Range"), fmt.Sprintf("bytes */%d", size); got != want {
						t.Errorf("Accept-Encoding %q: Content-Range: got %q, want %q", enc, got, want)
					}
				}
			})
		}
		t.Run("past the end", func(t *testing.T) {
			// The 416 is left to the movie service's error writer; the
			// Content-Range that says the size stays on the response.
			r := serve(t, s, http.MethodGet, "Range", fmt.Sprintf("bytes=%d-", n+10))
			if code := catalog.ErrorCode(r.err); code != httpx.ERANGE {
				t.Errorf("got error code %q, want %q", code, httpx.ERANGE)
			}
			if len(r.body) != 0 {
				t.Errorf("Serve wrote %q with its error", r.body)
			}
			if got, want := r.header.Get("Content-Range"), fmt.Sprintf("bytes */%d", n); got != want {
				t.Errorf("Content-Range: got %q, want %q", got, want)
			}
		})
	})

	t.Run("HEAD", func(t *testing.T) {
		r := serve(t, s, http.MethodHead)
		if r.status != http.StatusOK || len(r.body) != 0 {
			t.Errorf("got %d with %d bytes, want 200 without body", r.status, len(r.body))
		}
		if got := r.header.Get("Content-Length"); got != strconv.Itoa(len(plain.body)) {
			t.Errorf("Content-Length: got %s, want %d", got, len(plain.body))
		}
	})
}

func TestServeCacheControl(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 1, 2)
	s := New(Config{Store: store, Dir: t.TempDir(), Every: 30 * time.Minute})
	builds := watch(s)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitBuilt(t, builds)

	r := serve(t, s, http.MethodGet)
	cc := r.header.Get("Cache-Control")
	rest, ok := strings.CutPrefix(cc, "public, max-age=")
	ageText, swr, ok2 := strings.Cut(rest, ", ")
	age, err := strconv.Atoi(ageText)
	if !ok || !ok2 || err != nil || swr != "stale-while-revalidate=600" {
		t.Fatalf("got Cache-Control %q, want public, max-age=N, stale-while-revalidate=600", cc)
	}
	// The build started at most a few seconds ago and the next one is
	// due 30 minutes after it started.
	if age > 1800 || age < 1800-60 {
		t.Errorf("got max-age %d, want close to 1800", age)
	}
}

// watch makes s report every build it runs on the returned channel; set
// it before Run. Builds come hours apart in these tests, so the buffer
// never fills.
func watch(s *Service) <-chan Build {
	builds := make(chan Build, 16)
	s.cfg.Observe = func(b Build) { builds <- b }
	return builds
}

// waitBuilt waits for the next build reported on builds and fails the
// test unless it succeeded; the deadline only catches a hang.
func waitBuilt(t testing.TB, builds <-chan Build) {
	t.Helper()
	select {
	case b := <-builds:
		if b.Err != nil {
			t.Fatalf("snapshot build: %v", b.Err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no snapshot build within 10 s")
	}
}

func TestRunStopsWithContext(t *testing.T) {
	t.Parallel()
	s := New(Config{Store: newTestStore(t), Dir: filepath.Join(t.TempDir(), "created"), Every: time.Hour})
	builds := watch(s)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	waitBuilt(t, builds)
	cancel()
	<-done
	if _, err := os.Stat(filepath.Join(s.cfg.Dir, FileName)); err != nil {
		t.Errorf("snapshot file: %v", err)
	}
}

func TestAtomicSwap(t *testing.T) {
	t.Parallel()
	store := newTestStore(t)
	addNumbered(t, store, 1, 50)
	s := newTestService(t, store)
	refresh(t, s)
	old := serve(t, s, http.MethodGet).body

	// A reader that opened the old file, as a slow download does.
	f, err := os.Open(filepath.Join(s.cfg.Dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 10)
	if _, err := io.ReadFull(f, head); err != nil {
		t.Fatal(err)
	}

	addNumbered(t, store, 51, 80)
	refresh(t, s)

	rest, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := gunzip(t, append(head, rest...)); !bytes.Equal(got, old) {
		t.Errorf("the old reader got a different document (%d bytes, want %d)", len(got), len(old))
	}
	var doc struct{ Total int }
	if err := json.Unmarshal(serve(t, s, http.MethodGet).body, &doc); err != nil || doc.Total != 80 {
		t.Errorf("after the rebuild: got total %d (%v), want 80", doc.Total, err)
	}
	entries, _ := os.ReadDir(s.cfg.Dir)
	if len(entries) != 1 {
		t.Errorf("got %d files in the snapshot dir, want 1", len(entries))
	}
}

func TestRemoveStaleTemps(t *testing.T) {
	t.Parallel()
	s := newTestService(t, newTestStore(t))
	stale := filepath.Join(s.cfg.Dir, tempPrefix+"1")
	fresh := filepath.Join(s.cfg.Dir, tempPrefix+"2")
	other := filepath.Join(s.cfg.Dir, "keep.txt")
	for _, p := range []string{stale, fresh, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, long, long); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, long, long); err != nil {
		t.Fatal(err)
	}
	s.removeStaleTemps()
	for p, want := range map[string]bool{stale: false, fresh: true, other: true} {
		_, err := os.Stat(p)
		if got := err == nil; got != want {
			t.Errorf("%s exists: got %v, want %v", filepath.Base(p), got, want)
		}
	}
}

func TestGunzipSeeker(t *testing.T) {
	t.Parallel()
	want := bytes.Repeat([]byte("0123456789abcdefghij"), 5000)
	for _, every := range []int64{999, 1 << 62} {
		t.Run(fmt.Sprint(every), func(t *testing.T) {
			var buf bytes.Buffer
			zw, err := newIndexedGzipWriter(&buf, every)
			if err != nil {
				t.Fatal(err)
			}
			zw.Write(want)
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			checkGunzipSeeker(t, want, buf.Bytes(), zw.index)
		})
	}
}

func checkGunzipSeeker(t *testing.T, want, file []byte, index []flushPoint) {
	path := filepath.Join(t.TempDir(), "x.gz")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := &gunzipSeeker{f: f, size: int64(len(want)), index: index}
	if n, err := g.Seek(0, io.SeekEnd); err != nil || n != int64(len(want)) {
		t.Fatalf("seek end: got %d, %v; want %d", n, err, len(want))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		off := rng.IntN(len(want))
		n := rng.IntN(3000)
		if _, err := g.Seek(int64(off), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, n)
		m, err := io.ReadFull(g, got)
		wantPart := want[off:min(off+n, len(want))]
		if !bytes.Equal(got[:m], wantPart) || (err != nil && m != len(wantPart)) {
			t.Fatalf("at %d+%d: got %d bytes (%v), want %d", off, n, m, err, len(wantPart))
		}
	}
	if _, err := g.Seek(-1, io.SeekStart); err == nil {
		t.Errorf("negative seek: got no error")
	}
	g.Seek(0, io.SeekEnd)
	if n, err := g.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		t.Errorf("read at end: got %d, %v; want 0, EOF", n, err)
	}
}

// TestServeFileLost: when the snapshot file is removed (its directory
// cleaned out) or replaced behind the service's back, a request gets the
// not-ready 503 with Retry-After, not a 500, and the file is built again.
func TestServeFileLost(t *testing.T) {
	t.Parallel()
	for _, lose := range []struct {
		name string
		do   func(t *testing.T, dir string)
	}{
		{"directory removed", func(t *testing.T, dir string) {
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
		}},
		{"file replaced", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, FileName)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte("not ours"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(lose.name, func(t *testing.T) {
			store := newTestStore(t)
			addNumbered(t, store, 1, 5)
			s := New(Config{Store: store, Dir: filepath.Join(t.TempDir(), "snaps"), Every: time.Hour})
			builds := watch(s)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { s.Run(ctx); close(done) }()
			defer func() { cancel(); <-done }()
			waitBuilt(t, builds)
			lose.do(t, s.cfg.Dir)

			r := serve(t, s, http.MethodGet)
			if code := catalog.ErrorCode(r.err); code != catalog.EUNAVAILABLE {
				t.Fatalf("got error %v (code %q), want %q", r.err, code, catalog.EUNAVAILABLE)
			}
			if r.header.Get("Retry-After") == "" {
				t.Error("no Retry-After")
			}
			// The 503 asked for a build; the hourly schedule would not
			// build again within the test.
			waitBuilt(t, builds)
			if r = serve(t, s, http.MethodGet); r.err != nil {
				t.Fatalf("after the rebuild: %v", r.err)
			}
			var doc struct{ Total int }
			if err := json.Unmarshal(r.body, &doc); err != nil || doc.Total != 5 {
				t.Errorf("after the rebuild: total %d (%v), want 5", doc.Total, err)
			}
		})
	}
}
