package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/postgres/pgtest"
	"catalog/internal/testdb"
)

// collectedFields are the fields a MacCMS source carries (contract 10);
// studio has no vod_ member and ids are the collector's own.
const collectedFields = "title,slug,year,poster1_url,poster2_url,categories,actor,director,genre,country,synopsis,id_code,release,score,douban_id,episodes"

// sourceMovies are a source catalog's movies, last changed three hours
// ago, so that a run with h=1 reads only later changes.
func sourceMovies(t *testing.T, n int) []catalog.Movie {
	t.Helper()
	old := time.Now().Add(-3 * time.Hour).UTC().Truncate(time.Second)
	movies := make([]catalog.Movie, n)
	for i := range movies {
		m := catalog.Movie{
			Name: fmt.Sprintf("Film number %d", i+1), Year: fmt.Sprint(1990 + i%30), IDCode: fmt.Sprintf("FN-%03d", i+1),
			Poster1URL: fmt.Sprintf("https://img.example.com/%d/slide.jpg", i), Poster2URL: fmt.Sprintf("https://img.example.com/%d/poster.jpg", i),
			Synopsis: fmt.Sprintf("Story %d.\nSecond line.", i), Release: fmt.Sprintf("20%02d-0%d-1%d", i%25, 1+i%9, i%10),
			// Every fourth has no score and no Douban id; the others
			// range over the scale, 0.0 and 10.0 included. A Douban id
			// is one film's: records sharing it join (contract 10).
			Score: []string{"", "0.0", "7.5", "10.0"}[i%4], DoubanID: []string{"", fmt.Sprint(1292052 + i), fmt.Sprint(30166972 + i), fmt.Sprint(7 + i)}[i%4],
			Episodes: []catalog.Server{
				{Name: "Main", Episodes: []catalog.Episode{{Name: "Episode 1", LinkEmbed: fmt.Sprintf("https://play.example.com/%d/1", i),
					LinkM3U8: fmt.Sprintf("https://cdn.example.com/%d/1/index.m3u8", i)},
					{Name: "Episode 2", LinkEmbed: fmt.Sprintf("https://play.example.com/%d/2", i)}}},
				{Name: "Backup", Episodes: []catalog.Episode{{Name: "Episode 1", LinkM3U8: fmt.Sprintf("https://backup.example.com/%d/1/index.m3u8", i)}}},
			},
			UpdatedAt: old,
		}
		if i%7 == 0 { // no portrait poster
			m.Poster2URL = ""
		}
		*catalog.MovieList(&m, "categories") = catalog.NewList([]string{[]string{"Drama", "Comedy", "Action"}[i%3]})
		*catalog.MovieList(&m, "actor") = catalog.NewList([]string{"Ann Lee", fmt.Sprintf("Actor %d", i)})
		*catalog.MovieList(&m, "director") = catalog.NewList([]string{"Kim Park"})
		*catalog.MovieList(&m, "genre") = catalog.NewList([]string{"Thriller", "Mystery"})
		*catalog.MovieList(&m, "country") = catalog.NewList([]string{"Korea"})
		if err := m.Normalize(); err != nil {
			t.Fatalf("movie %d: %v", i, err)
		}
		movies[i] = m
	}
	return movies
}

// moviesBySlug pages through /api/movies?fields=collectedFields and
// returns every movie by slug, as raw JSON.
func moviesBySlug(t *testing.T, base string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for page := 1; ; page++ {
		var env struct {
			PageCount int               `json:"pagecount"`
			List      []json.RawMessage `json:"list"`
		}
		u := fmt.Sprintf("%s/api/movies?fields=%s&limit=100&page=%d", base, collectedFields, page)
		if code := getJSON(t, http.DefaultClient, u, &env); code != 200 {
			t.Fatalf("GET %s: %d", u, code)
		}
		for _, raw := range env.List {
			var m struct{ Slug string }
			json.Unmarshal(raw, &m)
			out[m.Slug] = string(raw)
		}
		if page >= env.PageCount {
			return out
		}
	}
}

func wantSameMovies(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d movies, want %d", what, len(got), len(want))
	}
	for slug, w := range want {
		if !reflect.DeepEqual(got[slug], w) {
			t.Fatalf("%s: movie %q\n got %s\nwant %s", what, slug, got[slug], w)
		}
	}
}

// Collecting from a second catalog reproduces its movies field for
// field (episodes of two servers with both kinds of link, and an empty
// portrait poster included), and a later run with h reads only what
// changed and shows the change, on both engines.
func TestCollectFromCatalog(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		collectFromCatalog(t, filepath.Join(dir, "source.db"), filepath.Join(dir, "collected.db"))
	})
	t.Run("postgres", func(t *testing.T) { collectFromCatalog(t, pgtest.EmptyDSN(t), pgtest.EmptyDSN(t)) })
}

func collectFromCatalog(t *testing.T, srcDSN, dstDSN string) {
	ctx := context.Background()
	srcEnv := map[string]string{"CATALOG_DB": srcDSN}
	dstEnv := map[string]string{"CATALOG_DB": dstDSN}
	wantExit(t, run(t, srcEnv, "", "migrate"), 0)
	src := openDSN(t, srcDSN)
	movies := sourceMovies(t, 250)
	if err := src.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	source := "http://" + startServe(t, srcEnv, serveArgs()...).addrs.Movies.String()

	wantExit(t, run(t, dstEnv, "", "migrate"), 0)
	// The second instance is on this machine: a private address.
	wantExit(t, run(t, dstEnv, "", "source", "add", "peer", source+"/api.php/provide/vod/", "--hours", "1", "--fetch-allow-private"), 0)
	r := run(t, dstEnv, "", "collect", "peer", "--quiet", "--fetch-allow-private", "--collect-interval", "0")
	wantExit(t, r, 0)
	// The source's types (Drama, Comedy, Action) match no local
	// category, rule or synonym: every record is kept, not shown.
	if want := "peer: 3 pages, 250 read, 0 written, 0 unchanged, 0 rejected, 250 unbound\n"; r.stdout != want {
		t.Errorf("first run: got %q, want %q", r.stdout, want)
	}
	collected := "http://" + startServe(t, dstEnv, serveArgs()...).addrs.Movies.String()
	if n := len(moviesBySlug(t, collected)); n != 0 {
		t.Errorf("first run: %d movies shown, want none (every type unbound)", n)
	}
	// Binding each type by hand publishes its kept records, from the
	// store: a bind reads nothing from the source.
	r = run(t, dstEnv, "", "source", "types", "peer")
	wantExit(t, r, 0)
	published := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) != 5 || f[2] != "(unbound)" {
			t.Fatalf("source types: line %q, want TYPE_ID NAME (unbound) - KEPT", line)
		}
		b := run(t, dstEnv, "", "source", "bind", "peer", f[0], f[1])
		wantExit(t, b, 0)
		if want := fmt.Sprintf("source peer: type %s bound to %s; %s kept records published, 0 movies moved\n", f[0], f[1], f[4]); b.stdout != want {
			t.Errorf("bind: got %q, want %q", b.stdout, want)
		}
		n, _ := strconv.Atoi(f[4])
		published += n
	}
	if published != 250 {
		t.Errorf("bind: %d published, want 250", published)
	}
	wantSameMovies(t, "first run", moviesBySlug(t, collected), moviesBySlug(t, source))

	// Two movies change on the source; the next run reads only them.
	edits := []catalog.Movie{movies[3], movies[230]}
	edits[0].Synopsis, edits[0].UpdatedAt = "Rewritten.", time.Time{}
	edits[1].Episodes, edits[1].UpdatedAt = edits[1].Episodes[:1], time.Time{}
	if err := src.UpsertMovies(ctx, edits); err != nil {
		t.Fatal(err)
	}
	r = run(t, dstEnv, "", "collect", "peer", "--quiet", "--fetch-allow-private", "--collect-interval", "0")
	wantExit(t, r, 0)
	if want := "peer: 1 pages, 2 read, 2 written, 0 unchanged, 0 rejected, 0 unbound\n"; r.stdout != want {
		t.Errorf("run with h: got %q, want %q", r.stdout, want)
	}
	after := moviesBySlug(t, collected)
	wantSameMovies(t, "run with h", after, moviesBySlug(t, source))
	if !strings.Contains(after[movies[3].Slug], `"synopsis":"Rewritten."`) {
		t.Errorf("edited movie: got %s, want the new synopsis", after[movies[3].Slug])
	}
	r = run(t, dstEnv, "", "source", "list")
	wantExit(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f) != 14 || f[0] != "peer" || f[4] != "name,year" || f[5] != "default" || f[6] != "keep" || strings.Join(f[8:], " ") != "1 2 2 0 0 0" {
		t.Errorf("source list: got %q, want peer's default settings and last run (1 page, 2 read, 2 written, 0 unchanged, 0 rejected, 0 unbound, no error)", r.stdout)
	}
	// source set changes the flags given and keeps the others.
	r = run(t, dstEnv, "", "source", "set", "peer", "--match", "name, douban_id", "--interval", "2s")
	wantExit(t, r, 0)
	r = run(t, dstEnv, "", "source", "set", "peer", "--preferred")
	wantExit(t, r, 0)
	if want := "source peer: match name,douban_id, preferred true, interval 2s\n"; r.stdout != want {
		t.Errorf("source set: got %q, want %q", r.stdout, want)
	}
	for _, bad := range [][]string{{"peer", "--match", "year"}, {"peer", "--match", "name,area"}, {"peer", "--interval", "2h"}, {"nobody", "--preferred"}} {
		r = run(t, dstEnv, "", append([]string{"source", "set"}, bad...)...)
		if r.err == nil {
			t.Errorf("source set %q: no error", bad)
		}
	}

	// Write only what changed: a run that reads everything again finds
	// every record as it was, and writes nothing (no movie, no
	// updated_at, no announced key).
	dst := openDSN(t, dstDSN)
	version, err := dst.DataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r = run(t, dstEnv, "", "collect", "peer", "--quiet", "--fetch-allow-private", "--collect-interval", "0", "--hours", "0")
	wantExit(t, r, 0)
	if want := "peer: 3 pages, 250 read, 0 written, 250 unchanged, 0 rejected, 0 unbound\n"; r.stdout != want {
		t.Errorf("unchanged run: got %q, want %q", r.stdout, want)
	}
	if now, err := dst.DataVersion(ctx); err != nil || now != version {
		t.Errorf("unchanged run: data version %d, %v; want %d (nothing written)", now, err, version)
	}
	wantSameMovies(t, "unchanged run", moviesBySlug(t, collected), after)
}

// The command line: bad sources are usage errors, an unknown name is
// neither a source nor an address, rejections and stopped runs exit 1.
func TestSourceCommands(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": testdb.New(t).DSN()}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"source"}, "add, set, list, types, bind or remove"},
		{[]string{"source", "add", "s1", "https://s.example/vod", "--match", "year"}, "--match: the match fields must hold name or douban_id"},
		{[]string{"source", "add", "s1", "https://s.example/vod", "--interval", "-1s"}, "--interval must be between 0"},
		{[]string{"source", "set", "s1", "--match", "name,area"}, `--match: match field "area" is not one of`},
		{[]string{"source", "add", "s1", "https://s.example/vod", "--gone", "purge"}, "--gone must be keep, hide or delete"},
		{[]string{"source", "add", "s1", "https://s.example/vod", "--synonyms", "电影"}, "--synonyms: synonym"},
		{[]string{"source", "bind", "s1", "x", "电影"}, "REMOTE_TYPE_ID must be a positive integer"},
		{[]string{"source", "add", "x"}, "give NAME and URL"},
		{[]string{"source", "add", "bad name", "https://s.example/vod"}, "NAME may hold only ASCII letters"},
		{[]string{"source", "add", "s1", "ftp://s.example/vod"}, "URL must be an http:// or https:// provide/vod address"},
		{[]string{"source", "add", "s1", "https://s.example/vod", "--every", "10s"}, "--every must be 0 (only on request) or at least 1m0s"},
		{[]string{"source", "add", "s1", "https://s.example/vod", "--hours", "8761"}, "--hours must be between 0 (read everything) and 8760"},
		{[]string{"collect"}, "give one source NAME or provide/vod URL"},
		{[]string{"collect", "nothing-here"}, `"nothing-here" is neither a source`},
		{[]string{"collect", "https://s.example/vod", "--pages", "-1"}, "--pages must be 0"},
	} {
		r := run(t, env, "", tt.args...)
		wantExit(t, r, 2)
		if !strings.Contains(r.err.Error(), tt.want) {
			t.Errorf("%q: error %q does not say %q", tt.args, r.err, tt.want)
		}
	}
	wantExit(t, run(t, env, "", "source", "add", "s1", "https://s.example/vod", "--every", "1h"), 0)
	if r := run(t, env, "", "source", "add", "s1", "https://s.example/other"); cliExit(r) != 1 || !strings.Contains(r.err.Error(), `a source named "s1" already exists`) {
		t.Errorf("duplicate: got %v", r.err)
	}
	wantExit(t, run(t, env, "", "source", "remove", "s1"), 0)
	if r := run(t, env, "", "source", "remove", "s1"); cliExit(r) != 1 || !strings.Contains(r.err.Error(), `no source is named "s1"`) {
		t.Errorf("second remove: got %v", r.err)
	}

	// A source with one bad record: reported, written others, exit 1.
	srv := startFixtureSource(t, `{"code":1,"page":1,"pagecount":1,"total":2,"list":[`+
		`{"vod_id":1,"vod_name":"Good","vod_year":"2001"},{"vod_id":2,"vod_name":"","vod_year":"2002"}]}`)
	r := run(t, env, "", "collect", srv+"/api.php/provide/vod/", "--quiet", "--fetch-allow-private")
	wantExit(t, r, 1)
	if !strings.Contains(r.stderr, `: record 2: vod_id "2": name: is required`) || !strings.Contains(r.stdout, "1 pages, 2 read, 1 written, 0 unchanged, 1 rejected") {
		t.Errorf("rejection: stdout %q, stderr %q", r.stdout, r.stderr)
	}
	// A stopped run: exit 1 with the page and the reason.
	bad := startFixtureSource(t, `<html><title>Down</title></html>`)
	r = run(t, env, "", "collect", bad+"/vod", "--quiet", "--fetch-allow-private")
	wantExit(t, r, 1)
	if !strings.Contains(r.err.Error(), `page 1: answer is not the JSON of a provide API`) {
		t.Errorf("stopped run: %v", r.err)
	}
}

// Private addresses (contract 13): refused by source add and collect
// unless --fetch-allow-private (or CATALOG_FETCH_ALLOW_PRIVATE) says
// otherwise, with the flag named.
func TestFetchAllowPrivate(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": testdb.New(t).DSN()}
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `{"code":1,"page":1,"pagecount":1,"total":1,"list":[{"vod_id":1,"vod_name":"Good","vod_year":"2001"}]}`)
	}))
	defer srv.Close()
	addr := srv.URL + "/api.php/provide/vod/"
	r := run(t, env, "", "source", "add", "near", addr)
	wantExit(t, r, 2)
	if want := "source add: URL refused: private address 127.0.0.1 (loopback); --fetch-allow-private allows it"; r.err.Error() != want {
		t.Errorf("source add: got %q, want %q", r.err, want)
	}
	r = run(t, env, "", "source", "add", "near", "http://localhost:1/vod")
	wantExit(t, r, 2)
	r = run(t, env, "", "collect", addr, "--quiet")
	wantExit(t, r, 1)
	if want := "page 1: refused: private address 127.0.0.1 (loopback); --fetch-allow-private allows it"; !strings.Contains(r.err.Error(), want) || hits.Load() != 0 {
		t.Errorf("collect: got %q after %d requests, want %q and none", r.err, hits.Load(), want)
	}
	wantExit(t, run(t, env, "", "source", "add", "near", addr, "--fetch-allow-private"), 0)
	env["CATALOG_FETCH_ALLOW_PRIVATE"] = "true"
	wantExit(t, run(t, env, "", "collect", "near", "--quiet"), 0)
	if hits.Load() != 1 {
		t.Errorf("allowed: %d requests, want 1", hits.Load())
	}
}

func cliExit(r result) int { return cli.ExitCode(r.err) }

// startFixtureSource serves body as every page of a source.
func startFixtureSource(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }))
	t.Cleanup(srv.Close)
	return srv.URL
}

// Finding 9 of issue 35: nothing a source wrote reaches the operator's
// terminal as an escape sequence: not a run's error (the source's code
// and msg are not repeated), not a run error stored by an earlier
// version, not a rejected record.
func TestCollectPrintsNoEscapes(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	env := map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_FETCH_ALLOW_PRIVATE": "1"}
	esc := `\u001b]0;PWNED\u0007\u001b[31m`
	for _, body := range []string{
		`{"code":"` + esc + `","msg":"` + esc + `"}`,
		`{"code":1,"page":1,"pagecount":1,"list":[{"vod_id":"` + esc + `","vod_name":"` + esc + `"}]}`,
	} {
		r := run(t, env, "", "collect", startFixtureSource(t, body)+"/vod", "--quiet")
		wantExit(t, r, 1)
		if out := r.stdout + r.stderr + r.err.Error(); strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("collect printed escapes: %q", out)
		}
	}
	wantExit(t, run(t, env, "", "source", "add", "old", "https://s.example/vod?apikey=S3CR3T"), 0)
	st := openDSN(t, db.DSN())
	if err := st.RecordRun(context.Background(), catalog.SourceRun{Source: "old", Started: time.Now(), Finished: time.Now(),
		Err: "page 1: answered code 0: \x1b]0;PWNED\x07\x1b[31m\u202eevil"}); err != nil {
		t.Fatal(err)
	}
	r := run(t, env, "", "source", "list")
	wantExit(t, r, 0)
	if strings.ContainsAny(r.stdout, "\x1b\x07\u202e") || !strings.Contains(r.stdout, "page 1: answered code 0: evil") ||
		strings.Contains(r.stdout, "S3CR3T") || !strings.Contains(r.stdout, "https://s.example/vod?apikey=xxxxx") {
		t.Errorf("source list: %q", r.stdout)
	}
}

// A run stops at --collect-deadline, with the reason.
func TestCollectDeadline(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": testdb.New(t).DSN(), "CATALOG_FETCH_ALLOW_PRIVATE": "1"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer srv.Close()
	r := run(t, env, "", "collect", srv.URL+"/vod", "--quiet", "--collect-deadline", "300ms")
	wantExit(t, r, 1)
	if want := "the run passed its deadline of 300ms (--collect-deadline)"; !strings.Contains(r.err.Error(), want) {
		t.Errorf("got %v, want %q", r.err, want)
	}
}

// A record written with a change (an id_code an import holds) is
// written, counted, and reported on stderr; the run exits 0.
func TestCollectReportsChanges(t *testing.T) {
	t.Parallel()
	env := map[string]string{"CATALOG_DB": testdb.New(t).DSN(), "CATALOG_FETCH_ALLOW_PRIVATE": "1"}
	wantExit(t, run(t, env, `{"name":"Imported","year":"2001","id_code":"ABC-001"}`+"\n", "import", "movies", "-"), 0)
	srv := startFixtureSource(t, `{"code":1,"page":1,"pagecount":1,"total":1,"list":[{"vod_id":7,"vod_name":"Claimer","vod_year":"2020","vod_sub":"ABC-001"}]}`)
	r := run(t, env, "", "collect", srv+"/vod", "--quiet")
	wantExit(t, r, 0)
	if !strings.Contains(r.stdout, "1 read, 1 written, 0 unchanged, 0 rejected") ||
		!strings.Contains(r.stderr, `: record 1 written with a change: vod_id "7": id_code "ABC-001" is movie 1's: written without it`) {
		t.Errorf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
}
