package admin_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/collect"
	"catalog/internal/fetchguard"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// The Sources page (contract 10): administrators add and remove sources
// with the console's rules (session, same origin), see each one's last
// run and ask for a run now, without JavaScript.
func TestConsoleSources(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := storeWithAnn(t)
	source := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"code":1,"page":1,"pagecount":1,"total":2,"list":[{"vod_id":1,"vod_name":"One","vod_year":"2001"},{"vod_id":2,"vod_name":"","vod_year":"2002"}]}`)
	}))
	defer source.Close()
	runs := make(chan catalog.SourceRun, 4)
	runner := collect.NewRunner(collect.RunnerConfig{Store: store, Fetch: fetchguard.Options{AllowPrivate: true}, Observe: func(r catalog.SourceRun) { runs <- r }})
	go runner.Run(ctx)
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Collector: runner}))
	defer srv.Close()

	anon := &console{t: t, store: store, url: srv.URL, client: newConsoleClient()}
	if res, _ := anon.get("/admin/sources"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous page: got %d, want 303 to the login", res.StatusCode)
	}
	form := url.Values{"name": {"peer"}, "url": {source.URL + "/api.php/provide/vod/"}, "every": {""}, "hours": {"24"}}
	if res, _ := anon.post("/admin/sources", form); res.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous add: got %d, want 303 to the login", res.StatusCode)
	}
	c := loggedIn(t, store, srv.URL)
	if res, _ := c.post("/admin/sources", form, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin add: got %d, want 403", res.StatusCode)
	}
	if list, _ := store.ListSources(ctx); len(list) != 0 {
		t.Fatalf("sources after refused adds: %+v", list)
	}

	res, body := c.post("/admin/sources", url.Values{"name": {"bad name"}, "url": {"ftp://x"}, "every": {"soon"}, "hours": {"-1"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad add: got %d, want 422", res.StatusCode)
	}
	for _, f := range []string{"name", "url", "every", "hours"} {
		if !strings.Contains(body, `data-error-for="`+f+`"`) {
			t.Errorf("bad add: no error beside %s", f)
		}
	}
	if res, _ := c.post("/admin/sources", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: got %d, want 303", res.StatusCode)
	}
	if res, body := c.post("/admin/sources", form); res.StatusCode != http.StatusConflict || !strings.Contains(body, `a source named &#34;peer&#34; already exists`) {
		t.Errorf("second add: got %d", res.StatusCode)
	}

	if res, _ := c.post("/admin/sources/peer/collect", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("collect now: got %d, want 303", res.StatusCode)
	}
	select {
	case <-runs:
	case <-time.After(20 * time.Second):
		t.Fatal("the run asked for did not finish within 20 s")
	}
	if src, _ := store.SourceByName(ctx, "peer"); src.LastRun.Started.IsZero() {
		t.Errorf("the finished run is not recorded: %+v", src.LastRun)
	}
	_, body = c.get("/admin/sources")
	if !strings.Contains(body, "1 pages, 2 read, 1 written, 0 unchanged, 1 rejected") || !strings.Contains(body, `action="/admin/sources/peer/collect"`) {
		t.Errorf("page after the run does not show it: %s", body)
	}
	if res, _ := c.post("/admin/sources/nobody/collect", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("collect an unknown source: got %d, want 404", res.StatusCode)
	}

	// The settings form: match fields, preferred, interval.
	if !strings.Contains(body, `action="/admin/sources/peer/settings"`) || !strings.Contains(body, `name="match" value="year" checked`) {
		t.Errorf("the page has no settings form with the default match fields checked")
	}
	set := url.Values{"match": {"name", "actor"}, "preferred": {"on"}, "interval": {"2s"}}
	if res, _ := c.post("/admin/sources/peer/settings", set); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("settings: got %d, want 303", res.StatusCode)
	}
	want := catalog.SourceSettings{Match: catalog.MatchName | catalog.MatchActor, Preferred: true, Interval: 2 * time.Second}
	if src, _ := store.SourceByName(ctx, "peer"); src.SourceSettings != want {
		t.Errorf("settings stored: got %+v, want %+v", src.SourceSettings, want)
	}
	for _, bad := range []url.Values{{"match": {"year"}}, {"match": {"name", "area"}}, {"match": {"name"}, "interval": {"soon"}}, {"match": {"name"}, "interval": {"3h"}}} {
		res, body := c.post("/admin/sources/peer/settings", bad)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-error-for="`) {
			t.Errorf("settings %v: got %d, want 422 with the problem beside its field", bad, res.StatusCode)
		}
	}
	if src, _ := store.SourceByName(ctx, "peer"); src.SourceSettings != want {
		t.Errorf("settings after refused forms: got %+v, want %+v", src.SourceSettings, want)
	}
	if res, _ := c.post("/admin/sources/nobody/settings", set); res.StatusCode != http.StatusNotFound {
		t.Errorf("settings of an unknown source: got %d, want 404", res.StatusCode)
	}

	if res, _ := c.post("/admin/sources/peer/remove", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: got %d, want 303", res.StatusCode)
	}
	if list, _ := store.ListSources(ctx); len(list) != 0 {
		t.Errorf("after remove: %+v", list)
	}
	if n, _ := store.CountMovies(ctx); n != 1 {
		t.Errorf("movies after remove: %d, want the collected one kept", n)
	}
}

// A console whose runs refuse private addresses (serve without
// --fetch-allow-private) refuses a source that names one, beside its
// URL field, and says which flag allows it.
func TestConsoleRefusesPrivateSource(t *testing.T) {
	t.Parallel()
	store := storeWithAnn(t)
	runner := collect.NewRunner(collect.RunnerConfig{Store: store})
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Collector: runner}))
	defer srv.Close()
	c := loggedIn(t, store, srv.URL)
	for _, addr := range []string{"http://127.0.0.1:8081/api.php/provide/vod/", "http://169.254.169.254/latest/", "http://localhost/vod"} {
		res, body := c.post("/admin/sources", url.Values{"name": {"near"}, "url": {addr}})
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-error-for="url"`) ||
			!strings.Contains(body, "refused: private address") || !strings.Contains(body, "--fetch-allow-private") {
			t.Errorf("%s: got %d, want 422 naming the flag", addr, res.StatusCode)
		}
	}
	if list, _ := store.ListSources(context.Background()); len(list) != 0 {
		t.Errorf("sources: %+v, want none", list)
	}
	// Finding 12: a source's address is shown with its query values
	// hidden.
	src, _ := catalog.NewSource("keyed", "https://s.example/api.php/provide/vod/?apikey=S3CR3T&at=xml", 0, 0)
	if err := store.AddSource(context.Background(), &src); err != nil {
		t.Fatal(err)
	}
	if _, body := c.get("/admin/sources"); strings.Contains(body, "S3CR3T") || !strings.Contains(body, "apikey=xxxxx") {
		t.Errorf("the page shows the key, or no address: %s", body)
	}
}

// Finding 7 of issue 35: the Sources page shows every run in progress
// with a Cancel button; cancelling stops the run at its page and records
// why, with the console's rules (session, same origin).
func TestConsoleCancelsRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := storeWithAnn(t)
	asked := make(chan struct{}, 1)
	source := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		<-r.Context().Done() // never answers
	}))
	defer source.Close()
	src, _ := catalog.NewSource("slow", source.URL+"/vod", 0, 0)
	if err := store.AddSource(ctx, &src); err != nil {
		t.Fatal(err)
	}
	runs := make(chan catalog.SourceRun, 1)
	runner := collect.NewRunner(collect.RunnerConfig{Store: store, Fetch: fetchguard.Options{AllowPrivate: true},
		Limits: collect.Limits{PageTimeout: time.Hour}, Observe: func(r catalog.SourceRun) { runs <- r }})
	go runner.Run(ctx)
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Collector: runner}))
	defer srv.Close()
	c := loggedIn(t, store, srv.URL)
	if res, _ := c.post("/admin/sources/slow/cancel", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("cancel with nothing running: got %d, want 404", res.StatusCode)
	}
	if res, _ := c.post("/admin/sources/slow/collect", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("collect now: got %d", res.StatusCode)
	}
	select {
	case <-asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the run did not start")
	}
	_, body := c.get("/admin/sources")
	if !strings.Contains(body, `data-collect-running="slow"`) || !strings.Contains(body, `action="/admin/sources/slow/cancel"`) {
		t.Fatalf("the page does not show the run with its Cancel button: %s", body)
	}
	anon := &console{t: t, store: store, url: srv.URL, client: newConsoleClient()}
	if res, _ := anon.post("/admin/sources/slow/cancel", nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous cancel: got %d, want 303 to the login", res.StatusCode)
	}
	if res, _ := c.post("/admin/sources/slow/cancel", nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin cancel: got %d, want 403", res.StatusCode)
	}
	if res, _ := c.post("/admin/sources/slow/cancel", nil); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: got %d, want 303", res.StatusCode)
	}
	select {
	case run := <-runs:
		if run.Err != "stopped after 0 pages: cancelled by an administrator" {
			t.Errorf("cancelled run: %+v", run)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the cancelled run did not stop")
	}
	if got, _ := store.SourceByName(ctx, "slow"); got.LastRun.Err != "stopped after 0 pages: cancelled by an administrator" {
		t.Errorf("recorded: %q", got.LastRun.Err)
	}
}

// storeWithAnn is a test database with the administrator loggedIn
// logs in as.
func storeWithAnn(t *testing.T) catalog.Store {
	t.Helper()
	store := testdb.Open(t)
	hash, _ := bcrypt.GenerateFromPassword([]byte("a long enough password"), bcrypt.MinCost)
	if err := store.CreateAdmin(context.Background(), &catalog.Admin{Username: "ann", PasswordHash: string(hash)}); err != nil {
		t.Fatal(err)
	}
	return store
}

// The Sources page's bindings (contract 10): each source's types with
// their bindings and kept records; binding an unbound type publishes its
// kept records; the choice for records gone at the source is saved.
func TestConsoleBindings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := storeWithAnn(t)
	source := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"code":1,"page":1,"pagecount":1,"total":3,"list":[`+
			`{"vod_id":1,"vod_name":"One","vod_year":"2001","type_id":1,"type_name":"电影片","vod_play_url":"Full$https://play.example.com/1"},`+
			`{"vod_id":2,"vod_name":"Two","vod_year":"2002","type_id":7,"type_name":"Horror","vod_play_url":"Full$https://play.example.com/2"},`+
			`{"vod_id":3,"vod_name":"Three","vod_year":"2003","type_id":7,"type_name":"Horror","vod_play_url":"Full$https://play.example.com/3"}]}`)
	}))
	defer source.Close()
	src, _ := catalog.NewSource("peer", source.URL+"/api.php/provide/vod/", 0, 0)
	if err := store.AddSource(ctx, &src); err != nil {
		t.Fatal(err)
	}
	run, _, err := collect.Run(ctx, store, collect.Options{Source: "peer", URL: src.URL, Fetch: fetchguard.Options{AllowPrivate: true}})
	if err != nil || run.Written != 1 || run.Unbound != 2 {
		t.Fatalf("run: %+v, %v; want 1 written, 2 unbound", run, err)
	}
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store}))
	defer srv.Close()
	c := loggedIn(t, store, srv.URL)
	_, body := c.get("/admin/sources")
	for _, want := range []string{"2 types, 1 unbound, 2 records kept", `<tr data-source-type="7" data-unbound>`, `action="/admin/sources/peer/types/7"`,
		`name="gone" value="keep" checked`, "2 unbound"} {
		if !strings.Contains(body, want) {
			t.Errorf("page does not show %q", want)
		}
	}
	if res, body := c.post("/admin/sources/peer/types/7", url.Values{"category": {" "}}); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-error-for="category"`) {
		t.Errorf("empty category: got %d, want 422 with the problem beside it", res.StatusCode)
	}
	if res, _ := c.post("/admin/sources/nobody/types/7", url.Values{"category": {"x"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown source: got %d, want 404", res.StatusCode)
	}
	res, _ := c.post("/admin/sources/peer/types/7", url.Values{"category": {"恐怖"}})
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "published=2") {
		t.Fatalf("bind: got %d to %q, want 303 saying 2 published", res.StatusCode, res.Header.Get("Location"))
	}
	if n, err := store.CountMovies(ctx); err != nil || n != 3 {
		t.Errorf("movies after bind: %d, %v; want 3", n, err)
	}
	if res, _ := c.post("/admin/sources/peer/gone", url.Values{"gone": {"purge"}}); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("bad gone: got %d, want 422", res.StatusCode)
	}
	if res, _ := c.post("/admin/sources/peer/gone", url.Values{"gone": {"hide"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("gone: got %d, want 303", res.StatusCode)
	}
	if s, _ := store.SourceByName(ctx, "peer"); s.Gone != catalog.GoneHide {
		t.Errorf("gone stored: %q, want hide", s.Gone)
	}
	_, body = c.get("/admin/sources")
	if !strings.Contains(body, "2 types, 0 unbound, 0 records kept") || !strings.Contains(body, `name="gone" value="hide" checked`) {
		t.Errorf("page after bind and gone does not show them")
	}
}
