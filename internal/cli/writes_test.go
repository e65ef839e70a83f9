package cli_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/postgres/pgtest"
)

// Every kind of write reaches MacCMS's h= (contract 6) on a serving
// site, last change first: a replacing import, a merging import, the
// import API creating and replacing, a console edit of the fields and
// one of the episodes, a console add, a delete and re-add, and a
// collect run updating a collected movie. The catalog's other movies
// were last changed three hours before, so h=1 lists exactly what was
// written, in ac=detail and in ac=list.
func TestEveryWriteReachesH(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		everyWriteReachesH(t, filepath.Join(t.TempDir(), "site.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		everyWriteReachesH(t, pgtest.EmptyDSN(t))
	})
}

// vodPage is a page of the resource API, as much of it as the test reads.
type vodPage struct {
	Total int64 `json:"total"`
	List  []struct {
		ID   int64  `json:"vod_id"`
		Time string `json:"vod_time"`
	} `json:"list"`
}

func everyWriteReachesH(t *testing.T, dsn string) {
	ctx := context.Background()
	env := map[string]string{"CATALOG_DB": dsn}
	wantExit(t, run(t, env, "", "migrate"), 0)

	// The catalog before the day: movies 1 to 5, the collected 6, and
	// 7, all last changed three hours ago.
	st := openDSN(t, dsn)
	old := time.Now().Add(-3 * time.Hour).UTC().Truncate(time.Second)
	aged := func(code string) catalog.Movie {
		m := catalog.Movie{Name: "Aged " + code, IDCode: code, UpdatedAt: old}
		if err := m.Normalize(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	first := []catalog.Movie{aged("AGED-1"), aged("AGED-2"), aged("AGED-3"), aged("AGED-4"), aged("AGED-5")}
	if err := st.UpsertMovies(ctx, first); err != nil {
		t.Fatal(err)
	}
	collected := catalog.Movie{Name: "Collected", Year: "2019", Synopsis: "v1", UpdatedAt: old}
	if err := collected.Normalize(); err != nil {
		t.Fatal(err)
	}
	if err := st.CollectMovies(ctx, "peer", []catalog.CollectedMovie{{VodID: 1, Movie: collected}}); err != nil {
		t.Fatal(err)
	}
	if err := st.UpsertMovies(ctx, []catalog.Movie{aged("AGED-7")}); err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]int64{"AGED-1": 1, "AGED-5": 5, "AGED-7": 7} {
		if id, err := st.MovieIDByKey(ctx, code, ""); err != nil || id != want {
			t.Fatalf("seeded %s: id %d (%v), want %d", code, id, err, want)
		}
	}

	// The peer answers the collected record, changed.
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"code":1,"msg":"ok","page":1,"pagecount":1,"limit":"20","total":1,"list":[`+
			`{"vod_id":1,"type_id":1,"type_name":"Drama","vod_name":"Collected","vod_year":"2019","vod_time":"2024-03-01 12:00:00",`+
			`"vod_content":"v2","vod_play_from":"m3u8","vod_play_url":"Ep 1$https://cdn.example.com/c/1/index.m3u8"}]}`)
	}))
	t.Cleanup(peer.Close)
	wantExit(t, run(t, env, "", "source", "add", "peer", peer.URL+"/api.php/provide/vod/", "--fetch-allow-private", "--synonyms", "Drama=Drama"), 0)

	srv := startServe(t, env, serveArgs()...)
	clips, movies := "http://"+srv.addrs.Clips.String(), "http://"+srv.addrs.Movies.String()
	wantExit(t, run(t, env, "correct horse battery staple\n", "admin", "create", "--username", "alice"), 0)
	tok := run(t, env, "", "token", "create", "--name", "writes", "--scope", "movies:write")
	wantExit(t, tok, 0)
	token := strings.TrimSpace(tok.stdout)
	console := consoleClient(t, clips, "alice", "correct horse battery staple")

	dir := t.TempDir()
	importFile := func(content string, args ...string) {
		t.Helper()
		file := filepath.Join(dir, "w.jsonl")
		if err := os.WriteFile(file, []byte(content+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		wantExit(t, run(t, env, "", append(append([]string{"import", "movies", "--quiet"}, args...), file)...), 0)
	}
	importAPI := func(content string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, clips+"/api/import/movies", strings.NewReader(content))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/x-ndjson")
		wantStatus(t, req, http.StatusOK)
	}
	post := func(path string, form url.Values) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, clips+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", clips)
		res, err := console.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: got %d, want 303", path, res.StatusCode)
		}
	}

	// Each write changes a movie with a higher id than the one before,
	// so that the last write is first even within one second.
	writes := []struct {
		name  string
		write func()
		id    int64 // the movie it changes or adds
	}{
		{"replacing import", func() { importFile(`{"id_code": "AGED-1", "name": "Aged AGED-1", "synopsis": "replaced"}`) }, 1},
		{"merge import", func() { importFile(`{"id_code": "AGED-2", "synopsis": "merged"}`, "--merge") }, 2},
		{"import API replacing", func() { importAPI(`{"id_code": "AGED-3", "name": "Replaced through the API"}`) }, 3},
		{"console edit", func() {
			post("/admin/movies/4", url.Values{"name": {"Edited in the console"}, "id_code": {"AGED-4"}})
		}, 4},
		{"console episodes edit", func() {
			post("/admin/movies/5", url.Values{"name": {"Aged AGED-5"}, "id_code": {"AGED-5"}, "slug": {"aged-aged-5"},
				"server_name.0": {"Main"}, "server_data.0": {"Ep 1 | https://p.example.com/e/1 |"}})
		}, 5},
		{"collect update", func() {
			wantExit(t, run(t, env, "", "collect", "peer", "--quiet", "--fetch-allow-private"), 0)
		}, 6},
		{"delete and re-add", func() {
			post("/admin/movies/7/delete", nil)
			importFile(`{"id_code": "AGED-7", "name": "Aged AGED-7"}`)
		}, 8},
		{"import API creating", func() { importAPI(`{"id_code": "NEW-9", "name": "Created through the API"}`) }, 9},
		{"console add", func() { post("/admin/movies", url.Values{"name": {"Added in the console"}}) }, 10},
	}
	var want []int64 // h=1's list, last change first
	for _, w := range writes {
		before := time.Now().UTC().Truncate(time.Second)
		w.write()
		want = append([]int64{w.id}, want...)
		for _, ac := range []string{"detail", "list"} {
			var page vodPage
			u := movies + "/api.php/provide/vod/?ac=" + ac + "&h=1&pagesize=100"
			if code := getJSON(t, http.DefaultClient, u, &page); code != http.StatusOK {
				t.Fatalf("%s: GET %s: %d", w.name, u, code)
			}
			ids := make([]int64, len(page.List))
			for i, v := range page.List {
				ids[i] = v.ID
			}
			if !slices.Equal(ids, want) || page.Total != int64(len(want)) {
				t.Fatalf("%s: ac=%s&h=1 lists %v (total %d), want %v", w.name, ac, ids, page.Total, want)
			}
			changed, err := time.Parse(catalog.VodTimeLayout, page.List[0].Time)
			if err != nil || changed.Before(before) {
				t.Fatalf("%s: ac=%s&h=1: vod_time %q (%v) of movie %d, want at or after %s", w.name, ac, page.List[0].Time, err, w.id,
					before.Format(catalog.VodTimeLayout))
			}
		}
	}
	if got, err := st.GetMovie(ctx, 7); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("movie 7 after its deletion: got %+v, %v", got, err)
	}
}

// consoleClient logs in to the console as username and returns a
// client with the session, redirects not followed.
func consoleClient(t *testing.T, clips, username, password string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(clips+"/admin/login", url.Values{"username": {username}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: got %d, want 303", res.StatusCode)
	}
	return c
}

func wantStatus(t *testing.T, req *http.Request, want int) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != want {
		t.Fatalf("%s %s: got %d, want %d", req.Method, req.URL.Path, res.StatusCode, want)
	}
}
