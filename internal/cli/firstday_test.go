package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/postgres/pgtest"
)

// asCatalog, set in a process's environment, makes the test binary the
// catalog program itself (TestMain), for tests that must kill a
// command with SIGKILL.
const asCatalog = "CATALOG_TEST_AS_CATALOG"

func TestMain(m *testing.M) {
	if os.Getenv(asCatalog) == "1" {
		p := &cli.Program{Getenv: os.Getenv, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Version: "test"}
		os.Exit(cli.ExitCode(p.Run(context.Background(), os.Args[1:])))
	}
	os.Exit(m.Run())
}

// TestSiteFirstDay is a new site's first day, on both engines: serve
// starts on an empty catalog, which grows while it serves past several
// blocks and pages of the search index (imports from files, the import
// API, a collect run from a second instance); serve restarts, then
// restarts with its index files damaged; a collect run is killed with
// SIGKILL halfway and run again. After every step the list totals, a
// search and MacCMS's h= agree with the database, serve logs no error,
// and nothing is stored twice.
func TestSiteFirstDay(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		firstDay(t, filepath.Join(t.TempDir(), "site.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		firstDay(t, pgtest.EmptyDSN(t))
	})
}

// day is the site under test and what it must hold.
type day struct {
	t      *testing.T
	dsn    string
	env    map[string]string
	args   []string
	srv    *server
	movies int // stored so far
	harbor int // of them, titled with "harbor"
}

func firstDay(t *testing.T, dsn string) {
	indexDir := t.TempDir()
	d := &day{t: t, dsn: dsn, env: map[string]string{"CATALOG_DB": dsn},
		args: append(serveArgs(), "--index-dir", indexDir)}
	wantExit(t, run(t, d.env, "", "migrate"), 0)
	d.start()
	// As an operator's first import comes: after serve has written its
	// (empty) index files.
	d.srv.stderr.waitLog(t, 2, "search index file written")
	d.check("empty")

	// Imports from files while serving, a second apart as an operator
	// would: past the index's first block of 4,096 keys and page of
	// 4,096 ids.
	dir := t.TempDir()
	for i := range 3 {
		file := filepath.Join(dir, fmt.Sprintf("batch%d.jsonl", i))
		if err := os.WriteFile(file, d.newMovies(fmt.Sprintf("file %d", i), 2000), 0o600); err != nil {
			t.Fatal(err)
		}
		wantExit(t, run(t, d.env, "", "import", "movies", file), 0)
		d.check(fmt.Sprintf("import %d", i+1))
	}

	// The import API, with a token.
	wantExit(t, run(t, d.env, "correct horse battery staple\n", "admin", "create", "--username", "alice"), 0)
	tok := run(t, d.env, "", "token", "create", "--name", "importer", "--scope", "movies:write")
	wantExit(t, tok, 0)
	importMovies(t, d.srv.addrs.Clips.String(), strings.TrimSpace(tok.stdout), d.newMovies("api", 1000))
	d.check("the import API")

	// A collect run from a second instance.
	peer := d.peer("first", 600, nil)
	wantExit(t, run(t, d.env, "", "source", "add", "peer", peer+"/api.php/provide/vod/", "--fetch-allow-private", "--synonyms", identityRules), 0)
	wantExit(t, run(t, d.env, "", "collect", "peer", "--quiet", "--fetch-allow-private"), 0)
	d.movies += 600
	d.check("a collect run")

	// A restart serves from the index files; a restart with them
	// damaged sets them aside and rebuilds.
	d.restart(nil)
	d.check("a restart")
	d.restart(func() {
		files, _ := filepath.Glob(filepath.Join(indexDir, "*.idx"))
		if len(files) != 2 {
			t.Fatalf("index files %v, want two", files)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i := len(b) / 4; i < len(b)/4+64; i++ {
				b[i] ^= 0x5a
			}
			if err := os.WriteFile(f, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	})
	d.check("a restart with damaged index files")
	if bad, _ := filepath.Glob(filepath.Join(indexDir, "*.bad")); len(bad) != 2 {
		t.Fatalf("damaged index files set aside: %v, want two", bad)
	}

	// A collect run killed with SIGKILL halfway, then run again.
	pages := make(chan int, 100)
	var served atomic.Int32
	peer2 := d.peer("second", 1500, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := int(served.Add(1))
			select {
			case pages <- n:
			default:
			}
			next.ServeHTTP(w, r)
		})
	})
	wantExit(t, run(t, d.env, "", "source", "add", "peer2", peer2+"/api.php/provide/vod/", "--fetch-allow-private", "--synonyms", identityRules), 0)
	cmd := exec.Command(os.Args[0], "collect", "peer2", "--quiet", "--fetch-allow-private")
	cmd.Env = append(os.Environ(), asCatalog+"=1", "CATALOG_DB="+dsn)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.After(60 * time.Second); ; {
		select {
		case n := <-pages:
			if n < 8 {
				continue
			}
		case <-deadline:
			t.Fatalf("the collect run did not reach its 8th request\n%s", out.String())
		}
		break
	}
	cmd.Process.Kill() // SIGKILL
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the collect run ended by itself before it was killed\n%s", out.String())
	}
	wantExit(t, run(t, d.env, "", "collect", "peer2", "--quiet", "--fetch-allow-private"), 0)
	d.movies += 1500
	d.check("a collect run killed and run again")
	if err := d.srv.stop(t); err != nil {
		t.Fatal(err)
	}
}

// newMovies is n movies as JSON Lines, titled after batch, every
// seventh with "harbor" in its title.
func (d *day) newMovies(batch string, n int) []byte {
	var b bytes.Buffer
	for i := range n {
		name := fmt.Sprintf("%s film %d", batch, i)
		if i%7 == 0 {
			name += " harbor"
			d.harbor++
		}
		fmt.Fprintf(&b, `{"name":%q,"year":"%d","categories":"Drama","episodes":[{"server_name":"Main","server_data":[{"name":"1","link_m3u8":"https://cdn.example.com/%d.m3u8"}]}]}`+"\n", name, 1990+i%30, i)
	}
	d.movies += n
	return b.Bytes()
}

// peer serves n movies from a second catalog of its own (wrapped by
// wrap when not nil) and returns its movie service's address.
func (d *day) peer(name string, n int, wrap func(http.Handler) http.Handler) string {
	t := d.t
	dsn := filepath.Join(t.TempDir(), name+".db")
	env := map[string]string{"CATALOG_DB": dsn}
	wantExit(t, run(t, env, "", "migrate"), 0)
	movies := sourceMovies(t, n)
	for i := range movies {
		movies[i].Name = fmt.Sprintf("%s source %s", name, movies[i].Name)
		// Another peer's film of the same number is another film:
		// no key and no Douban id in common.
		movies[i].Slug, movies[i].IDCode, movies[i].DoubanID = "", "", ""
		if i%7 == 0 {
			movies[i].Name += " harbor"
			d.harbor++
		}
		if err := movies[i].Normalize(); err != nil {
			t.Fatal(err)
		}
	}
	if err := openDSN(t, dsn).UpsertMovies(context.Background(), movies); err != nil {
		t.Fatal(err)
	}
	base := "http://" + startServe(t, env, serveArgs()...).addrs.Movies.String()
	if wrap == nil {
		return base
	}
	target, _ := url.Parse(base)
	front := httptest.NewServer(wrap(httputil.NewSingleHostReverseProxy(target)))
	t.Cleanup(front.Close)
	return front.URL
}

func (d *day) start() {
	d.srv = startServe(d.t, d.env, d.args...)
	d.srv.stderr.waitLog(d.t, 2, "search index ready")
}

func (d *day) base() string { return "http://" + d.srv.addrs.Movies.String() }

// restart stops serve, calls between (when not nil) and starts it again.
func (d *day) restart(between func()) {
	if err := d.srv.stop(d.t); err != nil {
		d.t.Fatal(err)
	}
	d.checkLog()
	if between != nil {
		between()
	}
	d.start()
}

// checkLog fails on an error or a panic in serve's log.
func (d *day) checkLog() {
	d.t.Helper()
	if log := d.srv.stderr.String(); strings.Contains(log, `"level":"ERROR"`) || strings.Contains(log, "panic") {
		d.t.Fatalf("serve logged an error:\n%s", log)
	}
}

// check compares the served totals, a search and h= with the database
// and with what the test stored.
func (d *day) check(step string) {
	t := d.t
	t.Helper()
	st := openDSN(t, d.dsn)
	stored, err := st.CountMovies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if stored != int64(d.movies) {
		t.Fatalf("%s: %d movies stored, want %d (nothing twice, nothing lost)", step, stored, d.movies)
	}
	names := map[string]int{}
	if err := st.ExportMovies(context.Background(), func(m *catalog.Movie) error { names[m.Name]++; return nil }); err != nil {
		t.Fatal(err)
	}
	for name, n := range names {
		if n > 1 {
			t.Fatalf("%s: %q stored %d times", step, name, n)
		}
	}
	for _, c := range []struct {
		path string
		want int
	}{
		{"/api/movies?limit=1", d.movies},
		{"/api/movies?limit=1&q=harbor", d.harbor},
		{"/api.php/provide/vod/?ac=list&h=24", d.movies},
		{"/api.php/provide/vod/?ac=detail&h=24&wd=harbor", d.harbor},
	} {
		var env struct {
			Total json.Number `json:"total"`
		}
		if code := getJSON(t, http.DefaultClient, d.base()+c.path, &env); code != http.StatusOK {
			t.Fatalf("%s: GET %s: %d", step, c.path, code)
		}
		if env.Total.String() != fmt.Sprint(c.want) {
			t.Fatalf("%s: GET %s: total %s, want %d", step, c.path, env.Total, c.want)
		}
	}
	d.checkLog()
}

// identityRules bind the types of sourceMovies' catalogs to local
// categories of the same names (contract 10's operator rules), so that
// collected records are shown.
const identityRules = "Drama=Drama,Comedy=Comedy,Action=Action"
