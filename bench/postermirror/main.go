// Command postermirror runs the poster mirror of `catalog serve
// --mirror-posters` over a catalog whose posters are on a local image
// server, kills serve (SIGKILL) part way, starts it again, and reports
// what issue 41 asks of the mirror: serve's peak RSS, how many times
// each poster URL was fetched (every stored poster once), and that the
// restart resumed the queue.
//
// The image server, in this process, counts the fetches of each URL. It
// serves ordinary posters (400x600 JPEG, 800x450 JPEG), and among them
// one in a hundred large (a 4000x3000 JPEG, a 4096x4096 PNG: the largest a
// poster may decode to), and a few the mirror must refuse: a PNG that
// announces 100,000 x 100,000 pixels, an 11 MiB body, a page that is not
// an image.
//
//	go build -o /tmp/catalog ./cmd/catalog
//	go run ./bench/postermirror -catalog /tmp/catalog -movies 10000 -kill-at 0.4
package main

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "modernc.org/sqlite"

	"catalog/internal/catalog"
	"catalog/internal/sqlite"
)

func main() {
	bin := flag.String("catalog", "catalog", "the catalog binary")
	movies := flag.Int("movies", 10000, "movies, two posters each")
	killAt := flag.Float64("kill-at", 0.4, "share of the posters stored when serve is killed")
	big := flag.Bool("big", true, "put a large poster (4000x3000 JPEG, 4096x4096 PNG) on every 100th movie")
	flag.Parse()
	if err := run(context.Background(), *bin, *movies, *killAt, *big); err != nil {
		fmt.Fprintln(os.Stderr, "postermirror:", err)
		os.Exit(1)
	}
}

// Every badEvery-th movie has a poster the mirror refuses; every
// bigEvery-th a large one.
const (
	badEvery = 500
	bigEvery = 100
)

type images struct {
	mu    sync.Mutex
	hits  map[string]int
	bytes map[string][]byte
}

func (im *images) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	im.mu.Lock()
	im.hits[r.URL.Path]++
	im.mu.Unlock()
	kind := r.URL.Path[strings.LastIndexByte(r.URL.Path, '-')+1:]
	switch kind {
	case "fake.jpg":
		w.Header().Set("Content-Type", "image/jpeg")
		fmt.Fprint(w, "<html>not an image</html>")
		return
	case "huge.jpg":
		w.Header().Set("Content-Type", "image/jpeg")
		w.Write(bytes.Repeat([]byte{0xff}, 11<<20))
		return
	}
	b, ok := im.bytes[kind]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Write(b)
}

func picture(w, h int, asPNG bool) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 5), uint8(x ^ y), 255})
		}
	}
	var b bytes.Buffer
	if asPNG {
		png.Encode(&b, img)
	} else {
		jpeg.Encode(&b, img, &jpeg.Options{Quality: 85})
	}
	return b.Bytes()
}

func run(ctx context.Context, bin string, n int, killAt float64, withBig bool) error {
	dir, err := os.MkdirTemp("", "postermirror")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bomb := picture(1, 1, true)
	bomb = append(append(append([]byte{}, bomb[:16]...), 0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0), bomb[24:]...)
	im := &images{hits: map[string]int{}, bytes: map[string][]byte{
		"portrait.jpg": picture(400, 600, false), "landscape.jpg": picture(800, 450, false),
		"big.jpg": picture(4000, 3000, false), "max.png": picture(4096, 4096, true), "bomb.png": bomb,
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: im}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/p/"

	db := filepath.Join(dir, "catalog.db")
	st, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		return err
	}
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	good, bad := 0, 0
	movies := make([]catalog.Movie, n)
	for i := range movies {
		p1, p2 := "landscape.jpg", "portrait.jpg"
		switch {
		case withBig && i%bigEvery == 7:
			p1, p2 = "max.png", "big.jpg"
		case i%badEvery == 3:
			p1, p2 = []string{"bomb.png", "huge.jpg", "fake.jpg"}[i/badEvery%3], "portrait.jpg"
			bad++
		}
		good += 2
		if i%badEvery == 3 && !(withBig && i%bigEvery == 7) {
			good--
		}
		movies[i] = catalog.Movie{Name: "Movie " + strconv.Itoa(i),
			Poster1URL: base + strconv.Itoa(i) + "-" + p1, Poster2URL: base + strconv.Itoa(i) + "-" + p2}
		if err := movies[i].Normalize(); err != nil {
			return err
		}
	}
	if err := st.UpsertMovies(ctx, movies); err != nil {
		return err
	}
	st.Close()
	fmt.Printf("%d movies, %d poster URLs: %d images, %d the mirror must refuse\n", n, good+bad, good, bad)

	read, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer read.Close()
	stored := func() int {
		var k int
		read.QueryRowContext(ctx, `SELECT count(*) FROM poster_images`).Scan(&k)
		return k
	}
	serve := func() (*exec.Cmd, error) {
		cmd := exec.Command(bin, "serve", "--db", db, "--clips-addr", "127.0.0.1:0", "--movies-addr", "127.0.0.1:0",
			"--mirror-posters", "--public-url", "https://movies.example", "--fetch-allow-private", "--probe-links=false",
			"--log-format", "json", "--log-level", "warn")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		return cmd, cmd.Start()
	}
	var cpu time.Duration
	// watch waits until until() holds, and returns serve's peak RSS.
	watch := func(cmd *exec.Cmd, until func(int) bool) (string, error) {
		peak := ""
		for {
			if b, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"); err == nil {
				for _, l := range strings.Split(string(b), "\n") {
					if strings.HasPrefix(l, "VmHWM:") {
						peak = strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
					}
				}
			}
			if until(stored()) {
				return peak, nil
			}
			time.Sleep(200 * time.Millisecond) // polls another process
		}
	}
	start := time.Now()
	cmd, err := serve()
	if err != nil {
		return err
	}
	killAfter := int(float64(good) * killAt)
	peak1, _ := watch(cmd, func(k int) bool { return k >= killAfter })
	cmd.Process.Signal(syscall.SIGKILL)
	st1, _ := cmd.Process.Wait()
	cpu += st1.SystemTime() + st1.UserTime()
	before := stored()
	im.mu.Lock()
	fetchedBefore := len(im.hits)
	im.mu.Unlock()
	fmt.Printf("killed (SIGKILL) after %.0f s: %d copies stored, %d URLs fetched; peak RSS %s\n", time.Since(start).Seconds(), before, fetchedBefore, peak1)

	restart := time.Now()
	cmd, err = serve()
	if err != nil {
		return err
	}
	peak2, _ := watch(cmd, func(k int) bool { return k >= good })
	cmd.Process.Signal(syscall.SIGTERM)
	st2, _ := cmd.Process.Wait()
	cpu += st2.SystemTime() + st2.UserTime()
	fmt.Printf("restarted: all %d copies stored %.0f s later; peak RSS %s\n", good, time.Since(restart).Seconds(), peak2)

	im.mu.Lock()
	defer im.mu.Unlock()
	twice, total := 0, 0
	var dup []string
	for path, k := range im.hits {
		total += k
		refused := strings.HasSuffix(path, "bomb.png") || strings.HasSuffix(path, "huge.jpg") || strings.HasSuffix(path, "fake.jpg")
		if k > 1 && !refused {
			twice++
			dup = append(dup, path+" x"+strconv.Itoa(k))
		}
	}
	fmt.Printf("fetches: %d of %d URLs, %d in all; images fetched more than once: %d %v\n", len(im.hits), good+bad, total, twice, dup)
	var size int64
	read.QueryRowContext(ctx, `SELECT coalesce(sum(length(jpeg)), 0) FROM poster_images`).Scan(&size)
	fmt.Printf("stored: %d copies, %.1f KiB a movie; serve's CPU %.1f s in all, %.1f ms a copy\n",
		good, float64(size)/1024/float64(n), cpu.Seconds(), float64(cpu.Milliseconds())/float64(good))
	return nil
}
