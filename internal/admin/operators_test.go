package admin_test

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/snapshot"
	"catalog/internal/snapshot/snapshottest"
	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

// Contract 8: the console manages movies as it manages clips.
func TestConsoleMovies(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	ctx := context.Background()

	res, body := c.get("/admin/movies/new")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `action="/admin/movies"`) {
		t.Fatalf("add form: got %d", res.StatusCode)
	}
	// The form is derived from the field table: every member but the id
	// has its input, so a new field needs no edit here.
	for _, member := range catalog.MovieMembers()[1:] {
		if member == "episodes" {
			member = "server_data.0" // one block per server
		}
		if !strings.Contains(body, `name="`+member+`"`) {
			t.Errorf("add form has no input for %s", member)
		}
	}

	form := url.Values{
		"name": {"  Nuit   d’été "}, "id_code": {"CON-1"}, "year": {"2021"}, "release": {"2021-07-14"},
		"categories": {"Drama\r\nRomance\r\n\r\nDrama"}, "actor": {"Ann\nนักแสดง"}, "synopsis": {"Line one\r\nLine two"},
		"server_name.0": {"Main"}, "server_data.0": {"Full | https://player.example.com/e/1 |"},
	}
	res, _ = c.post("/admin/movies", form)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/admin/movies?added=") {
		t.Fatalf("add: got %d to %q, want 303 to the list", res.StatusCode, res.Header.Get("Location"))
	}
	id, err := catalog.ParseID(strings.TrimPrefix(res.Header.Get("Location"), "/admin/movies?added="))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.store.GetMovie(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "Nuit d’été" && m.Name != "Nuit   d’été" {
		t.Errorf("name: got %q", m.Name)
	}
	if m.Slug == "" || m.Lists[0].JSON != `["Drama","Romance"]` || m.Lists[1].JSON != `["Ann","นักแสดง"]` || m.Synopsis != "Line one\nLine two" {
		t.Errorf("stored movie: slug %q categories %s actors %s synopsis %q", m.Slug, m.Lists[0].JSON, m.Lists[1].JSON, m.Synopsis)
	}
	_, body = c.get("/admin/movies?added=" + itoa(id))
	if !strings.Contains(body, "Movie #"+itoa(id)+" was added.") || !strings.Contains(body, "/admin/movies/"+itoa(id)+"/edit") {
		t.Errorf("list after add: no notice or edit link")
	}

	// Field errors beside the fields, nothing written.
	before, _ := c.store.CountMovies(ctx)
	res, body = c.post("/admin/movies", url.Values{"name": {""}, "release": {"2021-02-30"}, "poster1_url": {"ftp://x"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad add: got %d, want 422", res.StatusCode)
	}
	for _, f := range []string{"name", "release", "poster1_url"} {
		if !strings.Contains(body, `data-error-for="`+f+`"`) {
			t.Errorf("bad add: no error beside %s", f)
		}
	}
	// An add never overwrites: the code is taken.
	res, body = c.post("/admin/movies", url.Values{"name": {"Other"}, "id_code": {"CON-1"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "is already used by movie #"+itoa(id)) {
		t.Errorf("add with a taken code: got %d", res.StatusCode)
	}
	if n, _ := c.store.CountMovies(ctx); n != before {
		t.Errorf("refused adds wrote movies: %d -> %d", before, n)
	}

	// Edit: the form shows lists one per line; a save replaces them.
	_, body = c.get("/admin/movies/" + itoa(id) + "/edit")
	if !strings.Contains(body, "Drama\nRomance</textarea>") {
		t.Errorf("edit form does not show the categories one per line")
	}
	// The movie service answers from its response cache; a console edit
	// shows in its very next answer.
	movies := cli.MovieService(cli.ServiceDeps{MovieSearch: searchtest.Start(t, c.store, catalog.SearchMovies), Store: c.store})
	readTitle := func() string {
		w := httptest.NewRecorder()
		movies.ServeHTTP(w, httptest.NewRequest("GET", "/api/movies/"+itoa(id)+"?fields=title", nil))
		return w.Body.String()
	}
	if got := readTitle(); !strings.Contains(got, "d’été") {
		t.Fatalf("movie API before the edit: %s", got)
	}
	form.Set("name", "Summer night")
	form.Set("categories", "Comedy")
	res, _ = c.post("/admin/movies/"+itoa(id), form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: got %d", res.StatusCode)
	}
	if got := readTitle(); !strings.Contains(got, `"title":"Summer night"`) {
		t.Errorf("movie API right after the edit: %s", got)
	}
	if m, _ := c.store.GetMovie(ctx, id); m.Name != "Summer night" || m.Lists[0].JSON != `["Comedy"]` {
		t.Errorf("after save: %q %s", m.Name, m.Lists[0].JSON)
	}
	res, body = c.post("/admin/movies/"+itoa(id), url.Values{"name": {"x"}, "release": {"tomorrow"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-error-for="release"`) {
		t.Errorf("bad save: got %d", res.StatusCode)
	}
	if m, _ := c.store.GetMovie(ctx, id); m.Name != "Summer night" {
		t.Errorf("a refused save changed the movie: %q", m.Name)
	}
	if res, _ := c.post("/admin/movies/999999", form); res.StatusCode != http.StatusNotFound {
		t.Errorf("save of a missing movie: got %d, want 404", res.StatusCode)
	}

	// Delete confirms on a page, then deletes.
	res, body = c.get("/admin/movies/" + itoa(id) + "/delete")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `action="/admin/movies/`+itoa(id)+`/delete"`) {
		t.Fatalf("delete page: got %d", res.StatusCode)
	}
	res, _ = c.post("/admin/movies/"+itoa(id)+"/delete", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: got %d", res.StatusCode)
	}
	if _, err := c.store.GetMovie(ctx, id); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("after delete: %v", err)
	}
	if res, _ := c.post("/admin/movies/"+itoa(id)+"/delete", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("second delete: got %d, want 404", res.StatusCode)
	}
}

var secretInPage = regexp.MustCompile(`data-secret>(catalog_[0-9a-f]{64})<`)

func TestConsoleTokens(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	res, body := c.post("/admin/tokens", url.Values{"name": {"nightly"}, "scope": {"movies:write"}})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: got %d", res.StatusCode)
	}
	m := secretInPage.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the created token is not shown")
	}
	// Shown once: the list afterwards never shows it.
	_, body = c.get("/admin/tokens")
	if strings.Contains(body, m[1]) || !strings.Contains(body, "nightly") || !strings.Contains(body, "<code>movies:write</code>") {
		t.Errorf("list: secret shown again or token missing")
	}
	list, _ := c.store.ListTokens(context.Background())
	if len(list) != 1 || list[0].TokenHash == m[1] {
		t.Fatalf("stored tokens: %+v", list)
	}

	res, body = c.post("/admin/tokens", url.Values{"name": {""}, "scope": {"root"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-error-for="name"`) || !strings.Contains(body, `data-error-for="scope"`) {
		t.Errorf("bad create: got %d", res.StatusCode)
	}

	res, _ = c.post("/admin/tokens/"+itoa(list[0].ID)+"/revoke", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoke: got %d", res.StatusCode)
	}
	if list, _ := c.store.ListTokens(context.Background()); len(list) != 1 || list[0].RevokedAt.IsZero() {
		t.Errorf("after revoke: %+v, want the token kept with its revocation time", list)
	}
	if _, body := c.get("/admin/tokens"); !strings.Contains(body, "data-revoked") || strings.Contains(body, "/revoke\"") {
		t.Errorf("tokens page after revoke: want the revocation time and no revoke button")
	}
}

// A token belongs to the administrator who made it in the console:
// deleting that administrator revokes it at once, and it no longer
// imports.
func TestConsoleTokenDiesWithItsAdmin(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	ctx := context.Background()
	res, body := c.post("/admin/tokens", url.Values{"name": {"ann's script"}, "scope": {"movies:write"}})
	m := secretInPage.FindStringSubmatch(body)
	if res.StatusCode != http.StatusCreated || m == nil {
		t.Fatalf("create: got %d", res.StatusCode)
	}
	importWith := func() int {
		req, _ := http.NewRequest("POST", c.url+"/api/import/movies", strings.NewReader(`{"name": "Scripted"}`))
		req.Header.Set("Authorization", "Bearer "+m[1])
		req.Header.Set("Content-Type", "application/x-ndjson")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := importWith(); code != http.StatusOK {
		t.Fatalf("import with ann's token: got %d, want 200", code)
	}
	ann, _ := c.store.AdminByUsername(ctx, "ann")
	if list, _ := c.store.ListTokens(ctx); len(list) != 1 || list[0].AdminID != ann.ID {
		t.Fatalf("stored token: %+v, want it owned by ann (%d)", list, ann.ID)
	}
	revoked, err := c.store.DeleteAdmin(ctx, "ann")
	if err != nil || revoked != 1 {
		t.Fatalf("DeleteAdmin: got %d, %v; want 1 token revoked", revoked, err)
	}
	if code := importWith(); code != http.StatusUnauthorized {
		t.Errorf("import with the token of a deleted administrator: got %d, want 401", code)
	}
}

// upload posts a file to the console's import form.
func (c *console) upload(kind, name, content string) (*http.Response, string) {
	c.t.Helper()
	return c.uploadFrom(kind, name, strings.NewReader(content))
}

// uploadFrom streams the file from r, as a browser sends a large file.
func (c *console) uploadFrom(kind, name string, r io.Reader) (*http.Response, string) {
	c.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		mw.WriteField("kind", kind)
		fw, _ := mw.CreateFormFile("file", name)
		if _, err := io.Copy(fw, r); err != nil {
			pw.CloseWithError(err)
			return
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest(http.MethodPost, c.url+"/admin/import", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", c.url)
	return c.do(req)
}

func TestConsoleImport(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	res, body := c.upload("movies", "new.jsonl", `{"name":"Good one","id_code":"UP-1"}
{"name":""}
{"name":"Good two"}
{"name":"Bad date","release":"2020-13-01"}
`)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("upload: got %d", res.StatusCode)
	}
	for _, want := range []string{"new.jsonl: 4 read, 2 imported, 2 rejected", "2: name: is required\n", "4: release: must be a real date as YYYY-MM-DD\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("report does not say %q", want)
		}
	}
	if n, _ := c.store.CountMovies(context.Background()); n != 2 {
		t.Errorf("movies: got %d, want 2", n)
	}
	res, body = c.upload("clips", "clips.csv", "title,iframe_url\nA clip,https://youtu.be/dQw4w9WgXcQ\n")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, "1 read, 1 imported, 0 rejected") {
		t.Errorf("CSV clips upload: got %d", res.StatusCode)
	}
	if res, _ := c.upload("movies", "notes.txt", "x"); res.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a .txt upload: got %d, want 415", res.StatusCode)
	}
	if res, _ := c.upload("actors", "a.jsonl", "{}"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("an unknown kind: got %d, want 400", res.StatusCode)
	}
}

// The console's upload limit is the API's: 268,435,456 bytes of file
// (contract 8); one byte more is refused with 413 once it arrives.
func TestConsoleImportLimit(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // two bodies of 256 MiB
	c := newConsole(t)
	record := `{"name":"Before the limit"}` + "\n"
	for _, tt := range []struct {
		size   int64
		status int
	}{{268_435_456, http.StatusOK}, {268_435_457, http.StatusRequestEntityTooLarge}} {
		file := io.MultiReader(strings.NewReader(record), io.LimitReader(newlines{}, tt.size-int64(len(record))))
		res, body := c.uploadFrom("movies", "big.jsonl", file)
		if res.StatusCode != tt.status {
			t.Errorf("%d bytes: got %d, want %d\n%.300s", tt.size, res.StatusCode, tt.status, body)
		}
	}
}

// newlines reads as an endless run of blank lines.
type newlines struct{}

func (newlines) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '\n'
	}
	return len(p), nil
}

func TestConsoleSnapshotPanel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := testdb.Open(t)
	hash, _ := bcrypt.GenerateFromPassword([]byte("a long enough password"), bcrypt.MinCost)
	store.CreateAdmin(ctx, &catalog.Admin{Username: "ann", PasswordHash: string(hash)})
	store.UpsertMovies(ctx, []catalog.Movie{{Name: "One", Slug: "one"}, {Name: "Two", Slug: "two"}})
	cfg := snapshot.Config{Store: store, Dir: filepath.Join(t.TempDir(), "snap"), Every: time.Hour}
	built := snapshottest.Watch(&cfg)
	snaps := snapshot.New(cfg)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { snaps.Run(runCtx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	snapshottest.WaitBuilt(t, built)

	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store, Snapshots: snaps}))
	t.Cleanup(srv.Close)
	c := loggedIn(t, store, srv.URL)
	_, body := c.get("/admin/snapshot")
	if !strings.Contains(body, `<dd data-movies>2</dd>`) || !strings.Contains(body, "Next build") || !strings.Contains(body, "Rebuild now") {
		t.Fatalf("panel does not show the build:\n%s", body)
	}

	store.UpsertMovies(ctx, []catalog.Movie{{Name: "Three", Slug: "three"}})
	res, _ := c.post("/admin/snapshot/rebuild", nil)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("rebuild: got %d", res.StatusCode)
	}
	// The rebuilt snapshot is the one that counts the third movie (the
	// hourly schedule would not build again within the test).
	snapshottest.WaitBuilt(t, built)
	if _, body = c.get("/admin/snapshot"); !strings.Contains(body, `<dd data-movies>3</dd>`) {
		t.Errorf("after rebuild the panel does not show 3 movies")
	}
}

func loggedIn(t *testing.T, store catalog.Store, base string) *console {
	t.Helper()
	c := &console{t: t, store: store, url: base, client: newConsoleClient()}
	res, _ := c.post("/admin/login", url.Values{"username": {"ann"}, "password": {"a long enough password"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: got %d", res.StatusCode)
	}
	return c
}
