package posters

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
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

// pngOf is a PNG of w x h pixels of the given bit depth and color type
// whose pixels are all zero, compressed: a small file that decodes to a
// large image. Unless whole, it holds one row of pixels: enough for its
// header.
func pngOf(t testing.TB, w, h int, depth, colorType byte, whole bool) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		b.WriteString(kind)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(w)), uint32(h))
	chunk("IHDR", append(ihdr, depth, colorType, 0, 0, 0))
	channels := map[byte]int{0: 1, 2: 3, 4: 2, 6: 4}[colorType]
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	row := make([]byte, 1+w*channels*int(depth)/8) // filter byte 0, then zeros
	if !whole {
		h = 1
	}
	for range h {
		zw.Write(row)
	}
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// jpegHeader is the start of a one-component JPEG of w x h pixels whose
// frame header is sof (0xc0 baseline, 0xc2 progressive), to the start of
// its scan; its pixels are missing.
func jpegHeader(w, h int, sof byte) []byte {
	return []byte{0xff, 0xd8, 0xff, sof, 0, 11, 8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0,
		0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0}
}

// TestResizeLimits: an image over the memory limits is refused from its
// header, before its pixels are decoded.
func TestResizeLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		want string // in the error; "" for none
	}{
		{"RGBA over 64 MiB", pngOf(t, 4097, 4097, 8, 6, true), "over the limit"},
		{"RGBA at 64 MiB", pngOf(t, 4096, 4096, 8, 6, true), ""},
		{"16-bit RGBA over 64 MiB", pngOf(t, 2897, 2897, 16, 6, false), "over the limit"},
		{"16-bit gray of that size", pngOf(t, 2897, 2897, 16, 0, false), "damaged"},
		{"announces 100000 x 100000", pngOf(t, 100000, 100000, 8, 0, false), "over the limit"},
		{"a strip", pngOf(t, 300, 1201, 8, 0, false), "not poster-shaped"},
		{"a wide strip", pngOf(t, 1201, 300, 8, 0, false), "not poster-shaped"},
		{"4 to 1", pngOf(t, 1200, 300, 8, 0, true), ""},
		{"progressive JPEG over the limit", jpegHeader(2100, 2100, 0xc2), "over the limit"},
		{"baseline JPEG of that size", jpegHeader(2100, 2100, 0xc0), "damaged"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Resize(c.data)
			runtime.ReadMemStats(&after)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("got %v, want a copy", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
			// A refused image is never decoded: the pixels of the
			// smallest refused one would take 64 MiB.
			if alloc := after.TotalAlloc - before.TotalAlloc; c.want == "over the limit" && alloc > 1<<20 {
				t.Errorf("refusing it allocated %d bytes, want under 1 MiB", alloc)
			}
			// A copy takes the decoded image and at most 64 MiB more
			// (Resize's bound: 10 MiB, 40 MiB and 2.5 MiB, and the
			// decoder's own buffers).
			if alloc := after.TotalAlloc - before.TotalAlloc; c.want == "" && alloc > MaxDecoded+64<<20 {
				t.Errorf("the copy allocated %d MiB, want at most %d", alloc>>20, (MaxDecoded+64<<20)>>20)
			}
		})
	}
}

// TestMirrorResumesAfterKill kills a mirror in the middle of a round (its
// context ends, nothing more of it is stored, as with SIGKILL) and starts
// a new one over the same SQLite file: it goes on with the queue at once,
// takes the killed round's posters back when their lease has passed,
// never fetches again a poster whose copy was stored, and mirrors them
// all.
func TestMirrorResumesAfterKill(t *testing.T) {
	ctx := context.Background()
	jpg := picture(t, 60, 90, false)
	killCtx, kill := context.WithCancel(ctx)
	var mu sync.Mutex
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		first := hits[r.URL.Path] == 1
		mu.Unlock()
		if r.URL.Path == "/kill.jpg" && first {
			kill() // the process dies while this fetch is in flight
			<-r.Context().Done()
			return
		}
		w.Write(jpg)
	}))
	t.Cleanup(srv.Close)
	st := testdb.Open(t)
	// Two batches: the first ends with the poster whose fetch kills.
	movies := make([]catalog.Movie, batch+4)
	for i := range movies {
		movies[i] = catalog.Movie{Name: fmt.Sprint("M", i), Poster2URL: fmt.Sprintf("%s/%d.jpg", srv.URL, i)}
		if i == batch-1 {
			movies[i].Poster2URL = srv.URL + "/kill.jpg"
		}
		if err := movies[i].Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	now := movies[0].UpdatedAt
	newMirror := func() *Mirror {
		m := New(st, Options{PublicURL: "https://movies.example", Guard: fetchguard.Options{AllowPrivate: true}})
		m.now = func() time.Time { return now }
		return m
	}
	if n, err := newMirror().Round(killCtx); n != batch || err == nil {
		t.Fatalf("killed round: got %d, %v; want %d jobs and the end of its context", n, err, batch)
	}
	var stored []string
	for _, m := range movies {
		if ok, err := st.HasPosterImage(ctx, catalog.PosterKey(m.Poster2URL)); err != nil {
			t.Fatal(err)
		} else if ok {
			stored = append(stored, m.Poster2URL)
		}
	}
	// Two at a time: when the killing fetch started, at most one other
	// was still in flight.
	if len(stored) < batch-2 {
		t.Fatalf("stored before the kill: %d copies, want at least %d", len(stored), batch-2)
	}

	m := newMirror()
	if n, err := m.Round(ctx); n != 4 || err != nil {
		t.Fatalf("round after the restart: got %d, %v; want the 4 posters the killed round had not claimed", n, err)
	}
	now = now.Add(lease)
	if n, err := m.Round(ctx); n != batch || err != nil {
		t.Fatalf("round after the lease: got %d, %v; want the killed round's %d", n, err, batch)
	}
	for i := range movies {
		got, err := st.GetMovie(ctx, movies[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(got.ServedPoster(2), "https://movies.example/posters/") {
			t.Errorf("movie %d: served %q, want its copy", i, got.ServedPoster(2))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range stored {
		if n := hits[strings.TrimPrefix(u, srv.URL)]; n != 1 {
			t.Errorf("%s, stored before the kill, was fetched %d times, want 1", u, n)
		}
	}
	for path, n := range hits {
		if n > 2 {
			t.Errorf("%s was fetched %d times, want at most 2 (once more when it was in flight at the kill)", path, n)
		}
	}
}

// TestMirrorRefusesInside: the mirror fetches through the guard, which
// refuses posters inside our network, written out or behind a redirect.
func TestMirrorRefusesInside(t *testing.T) {
	ctx := context.Background()
	srv := newImageServer(t) // on 127.0.0.1: inside
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	t.Cleanup(redirector.Close)
	public := netip.MustParseAddrPort(strings.TrimPrefix(redirector.URL, "http://"))
	m := New(testdb.Open(t), Options{PublicURL: "https://movies.example", Guard: fetchguard.Options{
		ConnectTimeout: 300 * time.Millisecond, Exempt: func(ap netip.AddrPort) bool { return ap == public }}})
	for _, u := range []string{
		srv.URL + "/portrait.jpg",
		"http://169.254.169.254/latest/meta-data/",
		redirector.URL + "/?to=" + srv.URL + "/portrait.jpg",
		redirector.URL + "/?to=http://169.254.169.254/latest/meta-data/",
	} {
		_, err := m.Fetch(ctx, u)
		var refused *fetchguard.RefusedError
		if !errors.As(err, &refused) {
			t.Errorf("Fetch(%s): got %v, want the guard's refusal", u, err)
		}
	}
	if n := srv.count("/portrait.jpg"); n != 0 {
		t.Errorf("the server inside was reached %d times, want 0", n)
	}
}
