package posters

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/fetchguard"
	"catalog/internal/testdb"
)

// picture is an encoded test image of w x h.
func picture(t testing.TB, w, h int, asPNG bool) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 5), uint8(x ^ y), 255})
		}
	}
	var b bytes.Buffer
	var err error
	if asPNG {
		err = png.Encode(&b, img)
	} else {
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imageServer serves good, huge, fake and failing images and counts the
// fetches of each path.
type imageServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newImageServer(t *testing.T) *imageServer {
	s := &imageServer{hits: map[string]int{}}
	portrait, landscape, small := picture(t, 600, 900, false), picture(t, 1600, 900, true), picture(t, 120, 80, false)
	bomb := picture(t, 1, 1, true)
	// A PNG header that announces 100000 x 100000 pixels.
	bomb = append(append([]byte{}, bomb[:16]...), append([]byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0}, bomb[24:]...)...)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		n := s.hits[r.URL.Path]
		s.mu.Unlock()
		switch r.URL.Path {
		case "/portrait.jpg":
			w.Write(portrait)
		case "/landscape.png":
			w.Write(landscape)
		case "/small.jpg":
			w.Write(small)
		case "/huge.jpg":
			w.Header().Set("Content-Type", "image/jpeg")
			w.Write(bytes.Repeat([]byte{0xff}, MaxBytes+1))
		case "/bomb.png":
			w.Write(bomb)
		case "/fake.jpg":
			w.Header().Set("Content-Type", "image/jpeg")
			fmt.Fprint(w, "<html>not an image</html>")
		case "/page.jpg":
			w.Header().Set("Content-Type", "text/html")
			w.Write(portrait)
		case "/flaky.jpg":
			if n == 1 {
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			w.Write(portrait)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *imageServer) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func TestResize(t *testing.T) {
	for _, c := range []struct {
		name  string
		data  []byte
		wantW int
		wantH int
	}{
		{"portrait", picture(t, 600, 900, false), 300, 450},
		{"landscape", picture(t, 1600, 900, true), 800, 450},
		{"small stays small", picture(t, 120, 80, false), 120, 80},
	} {
		out, err := Resize(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(out))
		if err != nil || format != "jpeg" || cfg.Width != c.wantW || cfg.Height != c.wantH {
			t.Errorf("%s: got %s %dx%d (%v), want jpeg %dx%d", c.name, format, cfg.Width, cfg.Height, err, c.wantW, c.wantH)
		}
	}
	for _, bad := range [][]byte{nil, []byte("GIF89a broken"), []byte("<html>")} {
		if _, err := Resize(bad); err == nil {
			t.Errorf("Resize(%q): got no error", bad)
		}
	}
}

// TestMirror mirrors posters from a local image server: good ones are
// copied once (a URL two movies share, once), bad ones keep their
// original URL and are retried with backoff until MaxTries, and a new
// mirror over the same database (a restart) resumes the queue.
func TestMirror(t *testing.T) {
	ctx := context.Background()
	srv := newImageServer(t)
	st := testdb.Open(t)
	host := "//" + strings.TrimPrefix(srv.URL, "http://") // a scheme-relative URL is fetched as https:
	movies := []catalog.Movie{
		{Name: "A", Poster1URL: srv.URL + "/landscape.png", Poster2URL: srv.URL + "/portrait.jpg"},
		{Name: "B", Poster2URL: srv.URL + "/portrait.jpg"}, // shared: fetched once
		{Name: "C", Poster1URL: srv.URL + "/huge.jpg", Poster2URL: srv.URL + "/fake.jpg"},
		{Name: "D", Poster1URL: srv.URL + "/bomb.png", Poster2URL: srv.URL + "/page.jpg"},
		{Name: "E", Poster2URL: srv.URL + "/flaky.jpg"},
	}
	for i := range movies {
		if err := movies[i].Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	now := movies[0].UpdatedAt
	clock := func() time.Time { return now }
	newMirror := func() *Mirror {
		m := New(st, Options{PublicURL: "https://movies.example/", Guard: fetchguard.Options{AllowPrivate: true}})
		m.now = clock
		return m
	}
	m := newMirror()
	if n, err := m.Round(ctx); n != 8 || err != nil {
		t.Fatalf("first round: got %d, %v; want 8 posters", n, err)
	}
	read := func(i int) catalog.Movie {
		got, err := st.GetMovie(ctx, movies[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	served := func(i, slot int) string {
		got := read(i)
		return got.ServedPoster(slot)
	}
	mirrored := func(i, slot int) bool { return strings.HasPrefix(served(i, slot), "https://movies.example/posters/") }
	if !mirrored(0, 1) || !mirrored(0, 2) || !mirrored(1, 2) {
		t.Errorf("good posters: got %q %q %q, want the mirror's addresses", served(0, 1), served(0, 2), served(1, 2))
	}
	if want := "https://movies.example" + catalog.PosterPath(movies[0].ID, 2, movies[0].Poster2URL); served(0, 2) != want {
		t.Errorf("mirror address: got %q, want %q", served(0, 2), want)
	}
	if n := srv.count("/portrait.jpg"); n != 1 {
		t.Errorf("a URL two movies share was fetched %d times, want 1", n)
	}
	for _, c := range []struct{ i, slot int }{{2, 1}, {2, 2}, {3, 1}, {3, 2}, {4, 2}} {
		if mirrored(c.i, c.slot) {
			t.Errorf("movie %s poster %d: got the mirror, want the original URL", movies[c.i].Name, c.slot)
		}
	}
	// A scheme-relative URL is fetched as https:, which the plain test
	// server does not speak.
	if _, err := m.Fetch(ctx, host+"/small.jpg"); err == nil || srv.count("/small.jpg") != 0 {
		t.Errorf("Fetch(//host/small.jpg): got %v after %d plain fetches, want an https failure", err, srv.count("/small.jpg"))
	}

	// A restart: a new mirror over the same database resumes the queue.
	// Nothing is due before the backoff has passed.
	m = newMirror()
	if n, _ := m.Round(ctx); n != 0 {
		t.Errorf("round before the backoff: got %d jobs, want 0", n)
	}
	now = now.Add(time.Minute)
	if n, _ := m.Round(ctx); n != 5 {
		t.Errorf("round after a minute: got %d jobs, want the 5 failed", n)
	}
	if !mirrored(4, 2) {
		t.Errorf("the flaky poster on its second try: got %q, want the mirror", served(4, 2))
	}
	for try := 3; try <= MaxTries+2; try++ {
		now = now.Add(24 * time.Hour)
		m.Round(ctx)
	}
	if n := srv.count("/fake.jpg"); n != MaxTries {
		t.Errorf("fake image fetched %d times, want %d (given up after)", n, MaxTries)
	}
	// A changed URL is fetched again; the old copy's address is gone.
	b := read(1)
	b.Poster2URL = srv.URL + "/small.jpg"
	b.UpdatedAt = time.Time{}
	if err := st.UpdateMovie(ctx, &b); err != nil {
		t.Fatal(err)
	}
	if got := served(1, 2); got != srv.URL+"/small.jpg" {
		t.Errorf("changed poster before its copy: got %q, want the new original", got)
	}
	m.Round(ctx)
	if !mirrored(1, 2) || srv.count("/small.jpg") != 1 {
		t.Errorf("changed poster: got %q after %d fetches, want its new copy after 1", served(1, 2), srv.count("/small.jpg"))
	}
}
