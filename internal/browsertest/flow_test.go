package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"catalog/internal/catalog"
)

// TestAdminAndPublicFlow is the whole life of a clip through the
// browser: log in, a rejected add with the error beside the field, a
// good add found on the public page, an edit, a confirmed delete, log
// out; then search and phone width on the public pages.
func TestAdminAndPublicFlow(t *testing.T) {
	b := start(t)
	platforms := catalog.DefaultPlatforms()
	for i, title := range []string{"Harbour lights at dusk", "ฝนตกที่เชียงใหม่", "Mountain trail run", "Night market food tour"} {
		platform := platforms[i%len(platforms)]
		c := catalog.Clip{Title: title, IframeURL: "https://www.youtube.com/embed/dQw4w9WgXc" + fmt.Sprint(i), Platform: platform, Actor: "Ann Lee"}
		c.CoverURL = catalog.DeriveCover(c.IframeURL)
		if err := b.store.CreateClip(context.Background(), &c); err != nil {
			t.Fatal(err)
		}
	}

	// Anonymous visitors are sent to the login form.
	b.open("/admin")
	if p := b.path(); p != "/admin/login" {
		t.Fatalf("anonymous /admin: got %s, want /admin/login", p)
	}
	b.shot("01-login")
	b.do("log in",
		chromedp.SendKeys(chromedp.ID("username"), adminName),
		chromedp.SendKeys(chromedp.ID("password"), adminPassword),
	)
	b.clickAndLoad("log in", `form[action="/admin/login"] button[type=submit]`)
	if got := b.text(".site-nav__user"); !strings.Contains(got, adminName) {
		t.Fatalf("signed-in name: got %q, want it to show %q", got, adminName)
	}
	b.shot("02-admin-clips")

	// The cover preview follows the player URL as it is typed.
	player := "https://www.youtube.com/watch?v=aqz-KE-bpKQ"
	b.do("type the player URL", chromedp.SendKeys(chromedp.ID("iframe_url"), player))
	b.waitFor("derived cover preview", `document.querySelector("[data-cover-preview]").dataset.source === "derived"`)
	if got := b.text("[data-cover-note]"); !strings.Contains(got, "derived from the player URL") {
		t.Errorf("cover note: got %q", got)
	}

	// Without a title the API refuses; the message sits next to the field.
	b.do("submit without title", chromedp.Click(chromedp.CSS(`#add form button[type=submit]`)))
	b.waitFor("title error", `!!document.querySelector('[data-error-for="title"]')`)
	if got := b.text(`[data-error-for="title"]`); !strings.Contains(got, "is required") {
		t.Errorf("title error: got %q, want \"is required\"", got)
	}
	if got := eval[string](b, `document.getElementById("title").getAttribute("aria-invalid") || ""`); got != "true" {
		t.Errorf("title aria-invalid: got %q, want true", got)
	}
	if got := eval[string](b, `document.activeElement.id`); got != "title" {
		t.Errorf("focus after the error: got #%s, want #title", got)
	}
	b.shot("03-admin-add-error")

	title := "Browser test: sunrise over the bay"
	b.do("fill the title",
		chromedp.SendKeys(chromedp.ID("title"), title),
		chromedp.SetValue(chromedp.ID("platform"), "ทวิต"),
		chromedp.SendKeys(chromedp.ID("actor"), "Mai"),
		chromedp.Click(chromedp.CSS(`#add form button[type=submit]`)),
	)
	b.waitFor("added notice", `location.search.startsWith("?added=")`)
	b.do("wait for the list", chromedp.WaitVisible(chromedp.CSS(".notice--ok")))
	id := strings.TrimPrefix(b.path(), "/admin?added=")
	if got := b.text(".notice--ok"); !strings.Contains(got, "Clip #"+id+" was added") {
		t.Errorf("notice: got %q", got)
	}
	stored := b.clip(id)
	if stored.Title != title || stored.Platform != "ทวิต" || stored.CoverURL != "https://i.ytimg.com/vi/aqz-KE-bpKQ/hqdefault.jpg" {
		t.Errorf("stored clip: %+v", stored)
	}

	// The public catalog finds it.
	b.open("/")
	b.shot("04-public-grid")
	b.do("search", chromedp.SendKeys(chromedp.ID("q"), "SUNRISE bay"))
	b.clickAndLoad("search", `form.search button[type=submit]`)
	if p := b.path(); p != "/?q=SUNRISE+bay&platform=" {
		t.Errorf("search URL: got %s", p)
	}
	if got := eval[int](b, `document.querySelectorAll(".grid .card").length`); got != 1 {
		t.Fatalf("search results: got %d cards, want 1", got)
	}
	if got := b.text(".card__title"); got != title {
		t.Errorf("result title: got %q, want %q", got, title)
	}
	b.shot("05-public-search")
	b.clickAndLoad("open the clip", ".card__link")
	if p := b.path(); p != "/clips/"+id {
		t.Errorf("clip page: got %s, want /clips/%s", p, id)
	}
	if got := eval[string](b, `document.querySelector(".player iframe").getAttribute("sandbox")`); got != "allow-scripts allow-same-origin allow-presentation" {
		t.Errorf("iframe sandbox: got %q", got)
	}
	b.shot("06-public-clip")

	// Edit: the form sends PATCH /api/clips/{id}.
	b.open("/admin/clips/" + id + "/edit")
	b.shot("07-admin-edit")
	eval[string](b, `document.getElementById("title").value = ""`)
	b.do("change the title",
		chromedp.SendKeys(chromedp.ID("title"), "Edited in the browser"),
		chromedp.Click(chromedp.CSS(`form.clip-form button[type=submit]`)),
	)
	b.waitFor("saved notice", `location.search === "?saved=`+id+`"`)
	if got := b.clip(id).Title; got != "Edited in the browser" {
		t.Errorf("after edit: got title %q", got)
	}

	// Delete, after the confirmation page.
	b.open("/admin")
	b.do("wait for the list", chromedp.WaitVisible(chromedp.CSS(`a[href="/admin/clips/`+id+`/delete"]`)))
	b.clickAndLoad("delete link", `a[href="/admin/clips/`+id+`/delete"]`)
	if got := b.text("h1"); got != "Delete this clip?" {
		t.Errorf("confirmation page heading: got %q", got)
	}
	b.shot("08-admin-delete-confirm")
	if _, err := b.store.GetClip(context.Background(), b.clipID(id)); err != nil {
		t.Fatalf("the clip is gone before the confirmation: %v", err)
	}
	b.clickAndLoad("confirm delete", `form[action="/admin/clips/`+id+`/delete"] button[type=submit]`)
	if got := b.text(".notice--ok"); !strings.Contains(got, "was deleted") {
		t.Errorf("delete notice: got %q", got)
	}
	if _, err := b.store.GetClip(context.Background(), b.clipID(id)); catalog.ErrorCode(err) != catalog.ENOTFOUND {
		t.Errorf("after delete: got %v, want not found", err)
	}

	// The read-only movie list.
	b.open("/admin/movies")
	b.shot("09-admin-movies")

	// Log out.
	b.clickAndLoad("log out", `form[action="/admin/logout"] button[type=submit]`)
	if p := b.path(); p != "/admin/login" {
		t.Errorf("after logout: got %s, want /admin/login", p)
	}
	b.open("/admin")
	if p := b.path(); p != "/admin/login" {
		t.Errorf("/admin after logout: got %s, want the login form", p)
	}

	// The public page no longer lists it; a bad parameter is a friendly 400.
	b.open("/?q=sunrise")
	if got := b.text(".result-count"); !strings.Contains(got, "No clips match") {
		t.Errorf("search after delete: got %q", got)
	}
	b.open("/?page=0")
	if got := b.text(".error-page__message"); !strings.Contains(got, "page must be a positive integer") {
		t.Errorf("bad page parameter: got %q", got)
	}
	b.shot("10-public-bad-request")

	// Phone width: no sideways scrolling, two columns of covers.
	b.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.open("/")
	b.noSideScroll("/")
	if cols := eval[int](b, `getComputedStyle(document.querySelector(".grid")).gridTemplateColumns.split(" ").length`); cols != 2 {
		t.Errorf("grid columns at 390px: got %d, want 2", cols)
	}
	b.shot("11-phone-grid")
	b.open("/clips/1")
	b.noSideScroll("/clips/1")
	b.shot("12-phone-clip")
	b.logIn()
	b.noSideScroll("/admin")
	b.shot("13-phone-admin")
}

func (b *browser) clipID(id string) int64 {
	b.t.Helper()
	n, err := catalog.ParseID(id)
	if err != nil {
		b.t.Fatalf("clip id %q: %v", id, err)
	}
	return n
}

func (b *browser) clip(id string) catalog.Clip {
	b.t.Helper()
	c, err := b.store.GetClip(context.Background(), b.clipID(id))
	if err != nil {
		b.t.Fatalf("clip %s: %v", id, err)
	}
	return c
}
