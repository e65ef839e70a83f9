package browsertest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"catalog/internal/catalog"
)

// TestMovieFormInChromium edits a 24-episode series as an editor would
// (issue 39, item 8): the posters are labelled landscape and portrait,
// each with a preview that follows its URL as it is typed; every
// server's episodes sit in an editor as wide as the form, monospace, one
// episode a line that never wraps, its lines numbered and counted; the
// score and the Douban id are fields; and the console names itself as
// the console of both catalogs. Screenshots at desktop and phone widths.
func TestMovieFormInChromium(t *testing.T) {
	b := start(t)
	ctx := context.Background()
	m := catalog.Movie{Name: "Long series", Poster1URL: b.base + "/favicon-stand-in"}
	var eps []catalog.Episode
	for i := 1; i <= 24; i++ {
		eps = append(eps, catalog.Episode{Name: fmt.Sprintf("Episode %d", i),
			LinkEmbed: fmt.Sprintf("https://player.example/embed/a-rather-long-path/that-goes-on/%d?autoplay=1&quality=1080p", i),
			LinkM3U8:  fmt.Sprintf("https://cdn.example/hls/series/long-series/season-1/episode-%d/master.m3u8", i)})
	}
	m.Episodes = []catalog.Server{{Name: "Main", Episodes: eps}}
	if err := m.Normalize(); err != nil {
		t.Fatal(err)
	}
	batch := []catalog.Movie{m}
	if err := b.store.UpsertMovies(ctx, batch); err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(batch[0].ID, 10)

	b.logIn()
	b.open("/admin/movies/" + id + "/edit")

	// The console's name, on every page of it; the public pages keep
	// theirs.
	if got := eval[string](b, `document.title`); !strings.HasSuffix(got, " · Catalog console") {
		t.Errorf("title %q, want it to end with the console's name", got)
	}
	for _, css := range []string{".brand", ".site-footer"} {
		if got := b.text(css); !strings.Contains(got, "Catalog console") || strings.Contains(got, "Clip catalog") {
			t.Errorf("%s: %q, want the console's name", css, got)
		}
	}

	// The posters, by the seed's names, and the score and Douban id.
	for css, want := range map[string]string{
		`label[for="poster1_url"]`: "Landscape poster URL",
		`label[for="poster2_url"]`: "Portrait poster URL",
		`label[for="score"]`:       "Score",
		`label[for="douban_id"]`:   "Douban id",
	} {
		if got := b.text(css); got != want {
			t.Errorf("%s: %q, want %q", css, got, want)
		}
	}

	// Previews: the saved landscape poster (a stand-in that does not
	// load) falls back to the placeholder and says so; a URL typed into
	// the portrait one shows at once, with its size and a word about
	// its shape (the service's own square icon is not portrait).
	landscape := `document.querySelector('[data-poster="landscape"]')`
	portrait := `document.querySelector('[data-poster="portrait"]')`
	b.waitFor("the saved poster's fallback", landscape+`.querySelector("img").getAttribute("src") === `+landscape+`.querySelector("img").dataset.placeholder`)
	if got := b.text(`[data-poster="landscape"] [data-poster-note]`); !strings.Contains(got, "did not load") {
		t.Errorf("landscape note: %q", got)
	}
	if got := b.text(`[data-poster="portrait"] [data-poster-note]`); !strings.Contains(got, "No poster") {
		t.Errorf("empty portrait note: %q", got)
	}
	icon := eval[string](b, `document.querySelector('link[rel="icon"]').href`)
	b.do("type a portrait poster", chromedp.SendKeys(chromedp.ID("poster2_url"), icon))
	b.waitFor("the typed poster's preview", portrait+`.querySelector("img").src === `+strconv.Quote(icon)+` && `+portrait+`.querySelector("img").naturalWidth > 0`)
	b.waitFor("the typed poster's size", portrait+`.querySelector("[data-poster-note]").textContent.includes("32 × 32 pixels")`)
	if got := b.text(`[data-poster="portrait"] [data-poster-note]`); !strings.Contains(got, "a portrait poster should be") {
		t.Errorf("square image as portrait: note %q", got)
	}
	eval[string](b, `document.getElementById("poster2_url").value = ""`)
	b.do("type a non-web address", chromedp.SendKeys(chromedp.ID("poster2_url"), "javascript:alert(1)"))
	b.waitFor("the refused address", portrait+`.querySelector("[data-poster-note]").textContent.includes("Not an http")`)
	if got := eval[string](b, portrait+`.querySelector("img").getAttribute("src")`); strings.Contains(got, "javascript") {
		t.Errorf("a javascript: address reached the preview: %q", got)
	}
	b.shot("40-movie-form-posters")
	eval[string](b, `document.getElementById("poster2_url").value = ""`)

	// The episode editor: as wide as the form, monospace, one line per
	// episode that scrolls sideways rather than wraps, 24 numbered and
	// counted lines, no scrolling of its own (the frame scrolls).
	type editor struct {
		Width, FormWidth, ScrollWidth, ClientWidth, ScrollHeight, ClientHeight float64
		WhiteSpace, Font, Wrap, Count, LastNumber                              string
		Rows, Numbers                                                          int
	}
	read := func() editor {
		return eval[editor](b, `(() => {
  const ta = document.getElementById("server_data.0");
  const form = document.querySelector("form.movie-form");
  const gutter = ta.closest("[data-code-editor]").querySelector("[data-gutter]");
  const cs = getComputedStyle(ta);
  const numbers = gutter.textContent.split("\n");
  return {Width: ta.closest("[data-code-editor]").getBoundingClientRect().width, FormWidth: form.getBoundingClientRect().width,
    ScrollWidth: ta.scrollWidth, ClientWidth: ta.clientWidth, ScrollHeight: ta.scrollHeight, ClientHeight: ta.clientHeight,
    WhiteSpace: cs.whiteSpace, Font: cs.fontFamily, Wrap: ta.getAttribute("wrap"),
    Count: ta.closest(".field").querySelector("[data-line-count]").textContent,
    LastNumber: numbers[numbers.length - 1], Rows: ta.rows, Numbers: numbers.length};
})()`)
	}
	e := read()
	if e.Width < 0.95*e.FormWidth {
		t.Errorf("editor %.0f px wide in a form of %.0f px, want the form's width", e.Width, e.FormWidth)
	}
	if e.Wrap != "off" || !strings.HasPrefix(e.WhiteSpace, "pre") || e.ScrollWidth <= e.ClientWidth {
		t.Errorf("lines wrap: wrap=%q white-space %q, scroll width %.0f, client width %.0f", e.Wrap, e.WhiteSpace, e.ScrollWidth, e.ClientWidth)
	}
	if !strings.Contains(e.Font, "monospace") {
		t.Errorf("editor font %q, want monospace", e.Font)
	}
	if e.Count != "Lines: 24" || e.Numbers != 24 || e.LastNumber != "24" || e.Rows != 25 {
		t.Errorf("24 episodes: count %q, %d numbers up to %s, %d rows", e.Count, e.Numbers, e.LastNumber, e.Rows)
	}
	if e.ScrollHeight > e.ClientHeight+1 {
		t.Errorf("the editor scrolls on its own: %0.f of %0.f px shown", e.ClientHeight, e.ScrollHeight)
	}
	b.do("add an episode", chromedp.Evaluate[chromedp.Void](`(() => {
  const ta = document.getElementById("server_data.0");
  ta.focus();
  ta.setSelectionRange(ta.value.length, ta.value.length);
})()`), chromedp.SendKeys(chromedp.CSS(`textarea[name="server_data.0"]`), "\nEpisode 25 | https://player.example/embed/25 |"))
	if e := read(); e.Count != "Lines: 25" || e.LastNumber != "25" || e.Rows != 26 {
		t.Errorf("after a new line: count %q, last number %s, %d rows", e.Count, e.LastNumber, e.Rows)
	}
	b.shot("41-movie-form-episodes")

	// Score and Douban id save with the rest.
	b.do("score and Douban id",
		chromedp.SendKeys(chromedp.ID("score"), "8.5"),
		chromedp.SendKeys(chromedp.ID("douban_id"), "1292052"),
	)
	b.clickAndLoad("save", `form.movie-form button[type=submit]`)
	if !strings.HasPrefix(b.path(), "/admin/movies?saved=") {
		t.Fatalf("after save: at %s (%s)", b.path(), b.text(".notice"))
	}
	got := b.movie(id)
	if got.Score != "8.5" || got.DoubanID != "1292052" || got.Poster2URL != "" || len(got.Episodes[0].Episodes) != 25 {
		t.Errorf("stored: score %q, douban %q, poster2 %q, %d episodes", got.Score, got.DoubanID, got.Poster2URL, len(got.Episodes[0].Episodes))
	}

	// The public pages keep their own name.
	b.open("/")
	if got := b.text(".brand"); got != "Clip catalog" {
		t.Errorf("public brand %q", got)
	}

	// Phone width: the form fits, the editor scrolls inside itself.
	b.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.open("/admin/movies/" + id + "/edit")
	b.noSideScroll("the movie form")
	b.shot("42-phone-movie-form")
}
