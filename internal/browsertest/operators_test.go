package browsertest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"catalog/internal/catalog"
)

// TestOperatorsTools drives the console's operator pages (contract 8) as
// an operator would: add, edit and delete a movie; upload a file with two
// bad lines and read the report; create an API token, use it from Go's
// HTTP client, revoke it and see a 401. Screenshots at desktop and phone
// widths.
func TestOperatorsTools(t *testing.T) {
	b := start(t)
	b.logIn()

	// Add a movie, first with a field error beside its field.
	b.open("/admin/movies/new")
	b.do("bad release",
		chromedp.SendKeys(chromedp.ID("name"), "ฝนตกที่เชียงใหม่ (The Rain)"),
		chromedp.SendKeys(chromedp.ID("release"), "2024-02-30"),
		chromedp.SendKeys(chromedp.ID("categories"), "Drama\nRomance"),
	)
	b.clickAndLoad("submit", `form.movie-form button[type=submit]`)
	if got := b.text(`[data-error-for="release"]`); !strings.Contains(got, "YYYY-MM-DD") {
		t.Fatalf("release error: got %q", got)
	}
	b.shot("20-movie-add-error")
	eval[string](b, `document.getElementById("release").value = "2024-02-29"`)
	b.clickAndLoad("submit again", `form.movie-form button[type=submit]`)
	if !strings.HasPrefix(b.path(), "/admin/movies?added=") {
		t.Fatalf("after add: at %s", b.path())
	}
	id := strings.TrimPrefix(b.path(), "/admin/movies?added=")
	b.shot("21-movie-list")
	m := b.movie(id)
	if m.Release != "2024-02-29" || m.Lists[0].JSON != `["Drama","Romance"]` {
		t.Errorf("stored movie: %+v", m)
	}

	// Edit it.
	b.clickAndLoad("edit link", `a[href="/admin/movies/`+id+`/edit"]`)
	b.shot("22-movie-edit")
	eval[string](b, `document.getElementById("name").value = ""`)
	b.do("rename", chromedp.SendKeys(chromedp.ID("name"), "Edited movie"))
	b.clickAndLoad("save", `form.movie-form button[type=submit]`)
	if got := b.movie(id).Name; got != "Edited movie" {
		t.Errorf("after edit: name %q", got)
	}

	// Delete it after the confirmation page.
	b.open("/admin/movies/" + id + "/delete")
	b.shot("23-movie-delete-confirm")
	b.clickAndLoad("confirm", `form[action="/admin/movies/`+id+`/delete"] button[type=submit]`)
	if _, err := b.store.GetMovie(context.Background(), b.clipID(id)); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("after delete: %v", err)
	}

	// Upload a file with two bad lines; the report names them.
	file := filepath.Join(t.TempDir(), "movies.jsonl")
	os.WriteFile(file, []byte(`{"name":"Uploaded one"}
{"name":""}
{"name":"Uploaded two","poster1_url":"ftp://nope"}
{"name":"Uploaded three"}
`), 0o644)
	b.open("/admin/import")
	b.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("file"), []string{file}))
	b.do("submit", chromedp.Click(chromedp.CSS(`form[data-upload] button[type=submit]`)))
	b.waitFor("the report", `!!document.querySelector("[data-import-report]")`)
	report := b.text("[data-import-report]")
	for _, want := range []string{"4 read, 2 imported, 2 rejected", "2: name: is required", "3: poster1_url: must be an absolute http or https URL"} {
		if !strings.Contains(report, want) {
			t.Errorf("report %q does not say %q", report, want)
		}
	}
	b.shot("24-import-report")

	// A token: created, shown once, used from Go, revoked.
	b.open("/admin/tokens")
	b.do("fill the token form",
		chromedp.SendKeys(chromedp.ID("name"), "browser test"),
		chromedp.Click(chromedp.CSS(`input[name=scope][value="clips:write"]`)),
	)
	b.clickAndLoad("create", `form[action="/admin/tokens"] button[type=submit]`)
	secret := b.text("[data-secret]")
	if !strings.HasPrefix(secret, "catalog_") {
		t.Fatalf("token shown: %q", secret)
	}
	b.shot("25-token-created")
	post := func() int {
		req, _ := http.NewRequest(http.MethodPost, b.base+"/api/clips", strings.NewReader(`{"title":"By token","iframe_url":"https://dai.ly/x8abc"}`))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post(); got != http.StatusCreated {
		t.Fatalf("POST with the new token: got %d, want 201", got)
	}
	b.open("/admin/tokens")
	if got := b.text("tbody tr"); !strings.Contains(got, "browser test") || strings.Contains(got, "never") {
		t.Errorf("token row after use: %q, want its last use shown", got)
	}
	b.clickAndLoad("revoke", `tbody form button[type=submit]`)
	if got := post(); got != http.StatusUnauthorized {
		t.Errorf("POST with the revoked token: got %d, want 401", got)
	}

	// Phone width.
	b.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	for i, page := range []string{"/admin/movies", "/admin/movies/new", "/admin/import", "/admin/tokens"} {
		b.open(page)
		b.noSideScroll(page)
		b.shot("2" + string(rune('6'+i)) + "-phone" + strings.ReplaceAll(page, "/", "-"))
	}
}

func (b *browser) movie(id string) catalog.Movie {
	b.t.Helper()
	m, err := b.store.GetMovie(context.Background(), b.clipID(id))
	if err != nil {
		b.t.Fatalf("movie %s: %v", id, err)
	}
	return m
}
