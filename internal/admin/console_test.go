package admin_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
)

// console is the whole clip service on a real listener with a signed-in
// browser-like client (cookie jar, no redirects followed).
type console struct {
	t      *testing.T
	store  catalog.Store
	url    string
	client *http.Client
}

func newConsole(t *testing.T) *console {
	t.Helper()
	return newConsoleOn(t, testdb.Open(t))
}

// newConsoleOn is newConsole on store.
func newConsoleOn(t *testing.T, store catalog.Store) *console {
	t.Helper()
	ctx := context.Background()
	hash, _ := bcrypt.GenerateFromPassword([]byte("a long enough password"), bcrypt.MinCost)
	if err := store.CreateAdmin(ctx, &catalog.Admin{Username: "ann", PasswordHash: string(hash)}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{ClipSearch: searchtest.Start(t, store, catalog.SearchClips), MovieSearch: searchtest.Start(t, store, catalog.SearchMovies), Store: store}))
	t.Cleanup(srv.Close)
	c := &console{t: t, store: store, url: srv.URL, client: newConsoleClient()}
	res, _ := c.post("/admin/login", url.Values{"username": {"ann"}, "password": {"a long enough password"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: got %d", res.StatusCode)
	}
	return c
}

// newConsoleClient is a browser-like client: a cookie jar, no redirects
// followed.
func newConsoleClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func (c *console) do(req *http.Request) (*http.Response, string) {
	c.t.Helper()
	res, err := c.client.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func (c *console) get(path string) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.url+path, nil)
	return c.do(req)
}

// post sends a same-origin form post, as a browser would.
func (c *console) post(path string, form url.Values, header ...string) (*http.Response, string) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.url+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", c.url)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return c.do(req)
}

func (c *console) addClip(title string) catalog.Clip {
	c.t.Helper()
	clip := catalog.Clip{Title: title, IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ"}
	clip.CoverURL = catalog.DeriveCover(clip.IframeURL)
	if err := c.store.CreateClip(context.Background(), &clip); err != nil {
		c.t.Fatal(err)
	}
	return clip
}

func TestEditWithoutJavaScript(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	clip := c.addClip("Before")
	id := url.PathEscape(itoa(clip.ID))

	res, body := c.get("/admin/clips/" + id + "/edit")
	if res.StatusCode != 200 || !strings.Contains(body, `value="Before"`) || !strings.Contains(body, `data-method="PATCH"`) {
		t.Fatalf("edit page: got %d", res.StatusCode)
	}
	// The derived cover is shown empty, so a new player URL re-derives it.
	if strings.Contains(body, `id="cover_url" name="cover_url" type="url" value="https://i.ytimg.com`) {
		t.Errorf("the derived cover is pre-filled in the cover field")
	}

	form := url.Values{"title": {"After"}, "iframe_url": {"https://dai.ly/x8abc"}, "cover_url": {""},
		"platform": {"JAV"}, "actor": {""}, "studio": {""}, "notes": {""}}
	res, _ = c.post("/admin/clips/"+id, form)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin?saved="+id {
		t.Fatalf("save: got %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	got, _ := c.store.GetClip(context.Background(), clip.ID)
	if got.Title != "After" || got.CoverURL != "https://www.dailymotion.com/thumbnail/video/x8abc" || got.Platform != "JAV" {
		t.Errorf("after save: %+v", got)
	}
	if _, body := c.get("/admin?saved=" + id); !strings.Contains(body, "Clip #"+id+" was saved.") {
		t.Errorf("no saved notice")
	}

	form.Set("title", "")
	form.Set("iframe_url", "ftp://nope")
	res, body = c.post("/admin/clips/"+id, form)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad save: got %d, want 422", res.StatusCode)
	}
	for _, want := range []string{`data-error-for="title">is required`, `data-error-for="iframe_url">must be an absolute http or https URL`} {
		if !strings.Contains(body, want) {
			t.Errorf("edit page lacks %s", want)
		}
	}
	if got, _ := c.store.GetClip(context.Background(), clip.ID); got.Title != "After" {
		t.Errorf("a rejected save changed the clip: %+v", got)
	}
}

func TestDeleteNeedsConfirmation(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	clip := c.addClip(`<b>Going</b>`)
	id := itoa(clip.ID)

	res, body := c.get("/admin/clips/" + id + "/delete")
	if res.StatusCode != 200 || !strings.Contains(body, "Delete this clip?") || !strings.Contains(body, "&lt;b&gt;Going&lt;/b&gt;") {
		t.Fatalf("confirmation page: got %d", res.StatusCode)
	}
	if _, err := c.store.GetClip(context.Background(), clip.ID); err != nil {
		t.Fatalf("showing the confirmation deleted the clip")
	}
	// A cross-site form cannot delete.
	res, _ = c.post("/admin/clips/"+id+"/delete", nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site delete: got %d, want 403", res.StatusCode)
	}
	res, _ = c.post("/admin/clips/"+id+"/delete", nil)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin?deleted="+id {
		t.Fatalf("delete: got %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if _, err := c.store.GetClip(context.Background(), clip.ID); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("after delete: got %v, want not found", err)
	}
	res, body = c.post("/admin/clips/"+id+"/delete", nil)
	if res.StatusCode != http.StatusNotFound || !strings.Contains(body, "There is no clip #"+id) {
		t.Errorf("second delete: got %d, want the 404 page", res.StatusCode)
	}
}

func TestConsolePagesNeedASession(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	clip := c.addClip("Private")
	anon := &http.Client{CheckRedirect: c.client.CheckRedirect}
	for _, path := range []string{"/admin", "/admin/movies", "/admin/clips/" + itoa(clip.ID) + "/edit", "/admin/clips/" + itoa(clip.ID) + "/delete"} {
		res, err := anon.Get(c.url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/admin/login" {
			t.Errorf("%s anonymous: got %d to %q, want 303 to /admin/login", path, res.StatusCode, res.Header.Get("Location"))
		}
	}
}

func TestConsoleListAndErrors(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	for _, title := range []string{"Alpha one", "Beta two", "Alpha three"} {
		c.addClip(title)
	}
	tests := []struct {
		path   string
		status int
		want   []string
	}{
		{"/admin?q=alpha&limit=1", 200, []string{"Showing 1–1 of 2 clips", "Alpha three", `href="/admin?limit=1&amp;page=2&amp;q=alpha"`, "Signed in as <strong>ann</strong>"}},
		{"/admin?page=0", 400, []string{"page must be a positive integer", `href="/admin"`}},
		{"/admin?platform=nope", 400, []string{"platform must be one of"}},
		{"/admin/clips/abc/edit", 400, []string{"id must be a positive integer"}},
		{"/admin/clips/999/edit", 404, []string{"There is no clip #999"}},
		{"/admin/movies?q=x", 200, []string{"No movies match this search."}},
		{"/admin?added=5", 200, []string{"Clip #5 was added."}},
		{"/admin?added=%3Cb%3E", 200, nil},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, body := c.get(tt.path)
			if res.StatusCode != tt.status {
				t.Fatalf("got %d, want %d", res.StatusCode, tt.status)
			}
			if res.Header.Get("X-Frame-Options") != "DENY" || res.Header.Get("Cache-Control") != "no-store" ||
				!strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Errorf("page headers missing: %v", res.Header)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			if strings.Contains(body, "<b>") {
				t.Errorf("unescaped markup from the URL")
			}
		})
	}
}

func TestCoverPreviewEndpoint(t *testing.T) {
	t.Parallel()
	c := newConsole(t)
	tests := map[string]string{
		"https://youtu.be/dQw4w9WgXcQ":            `{"cover_url":"https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg"}`,
		"https://www.dailymotion.com/video/x8abc": `{"cover_url":"https://www.dailymotion.com/thumbnail/video/x8abc"}`,
		"https://example.org/v/1":                 `{"cover_url":""}`,
		"":                                        `{"cover_url":""}`,
	}
	for in, want := range tests {
		res, body := c.get("/admin/cover?iframe_url=" + url.QueryEscape(in))
		if res.StatusCode != 200 || body != want {
			t.Errorf("%q: got %d %s, want %s", in, res.StatusCode, body, want)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
