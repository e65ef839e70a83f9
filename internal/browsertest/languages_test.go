package browsertest

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"catalog/internal/catalog"
	"catalog/internal/testenv"
)

// languagePages are the pages the languages test opens, each by path.
var languagePages = []string{
	"/", "/clips/1", "/clips/999", "/admin/login", "/admin", "/admin/clips/1/edit", "/admin/clips/1/delete",
	"/admin/movies", "/admin/movies/new", "/admin/movies/1/edit", "/admin/movies/1/delete",
	"/admin/import", "/admin/snapshot", "/admin/tokens", "/admin/sources", "/api/docs",
	"/?facet=actor", "/admin/movies?facet=actor", "/admin/movies?actor=x&year=2020-2024&sort=score",
}

// wrappedButtons lists the buttons of the page whose label breaks onto
// a second line or does not fit in the button, and those past the
// window's right edge. Labels read out only to screen readers
// (.visually-hidden) are not looked at.
const wrappedButtons = `(() => {
  const bad = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll("button, .button, .pager__step")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || el.closest("[hidden]")) continue;
    const tops = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim() || n.parentElement.closest(".visually-hidden")) continue;
      const r = document.createRange();
      r.selectNodeContents(n);
      for (const rect of r.getClientRects()) if (rect.width > 0) tops.push(Math.round(rect.top));
    }
    tops.sort((a, b) => a - b);
    const lines = tops.filter((t, i) => i === 0 || t - tops[i - 1] > 3).length;
    const label = el.innerText.trim().split("\n")[0].slice(0, 40);
    if (lines > 1) bad.push(label + ": " + lines + " lines");
    if (el.scrollWidth > el.clientWidth + 1) bad.push(label + ": wider than its button");
    if (box.right > width + 1) bad.push(label + ": past the window's edge");
  }
  return bad;
})()`

// requireFonts fails (under CI) or skips when the machine has no Thai
// or Chinese font: the screenshots would show boxes.
func requireFonts(t *testing.T) {
	t.Helper()
	for _, lang := range []string{"th", "zh-cn"} {
		out, err := exec.Command("fc-list", ":lang="+lang, "family").Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			testenv.SkipOrFail(t, "no font for "+lang+": apt-get install fonts-thai-tlwg fonts-noto-cjk")
		}
	}
}

// TestPagesInThreeLanguages opens every page in English, Thai and
// Chinese, chosen with the switcher, at a phone's width (390 px) and a
// laptop's (1280 px), and takes a screenshot of each: the page does not
// scroll sideways and no button's label wraps or overflows.
func TestPagesInThreeLanguages(t *testing.T) {
	b := start(t)
	requireFonts(t)
	ctx := context.Background()
	for _, c := range []catalog.Clip{
		{Title: "ฝนตกที่เชียงใหม่ ช่วงหน้ามรสุมกับตลาดนัดริมทางยามค่ำคืน", Actor: "สมศรี ใจดี", Platform: "ทวิต", Studio: "ค่ายเหนือ"},
		{Title: "上海外滩夜景：黄浦江两岸的灯光秀完整版", Actor: "李安娜", Platform: "JAV"},
		{Title: "Harbour lights at dusk", Actor: "Ann Lee", Platform: "คลิปหลุด"},
	} {
		c.IframeURL = "https://www.youtube.com/embed/dQw4w9WgXcQ"
		c.CoverURL = catalog.DeriveCover(c.IframeURL)
		if err := b.store.CreateClip(ctx, &c); err != nil {
			t.Fatal(err)
		}
	}
	movies := []catalog.Movie{{Name: "เพื่อนรักเพื่อนร้าย ภาคพิเศษ", Year: "2024", IDCode: "ABC-123", Release: "2024-05-01",
		Episodes: []catalog.Server{{Name: "หลัก", Episodes: []catalog.Episode{{Name: "ตอนที่ 1", LinkEmbed: "https://player.example/e/1"}}}}}}
	if err := b.store.UpsertMovies(ctx, movies); err != nil {
		t.Fatal(err)
	}
	src, err := catalog.NewSource("peer", "https://peer.example/api.php/provide/vod/", time.Hour, 24)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.store.AddSource(ctx, &src); err != nil {
		t.Fatal(err)
	}
	tok, err := catalog.NewAPIToken("สคริปต์นำเข้า", "clips:write")
	if err != nil {
		t.Fatal(err)
	}
	tok.TokenHash = strings.Repeat("cd", 32)
	if err := b.store.CreateToken(ctx, &tok); err != nil {
		t.Fatal(err)
	}

	b.logIn()

	// The clip form goes to the JSON API, which answers in English; in
	// Thai the script hands the form to the console, whose field errors
	// are Thai.
	b.do("laptop viewport", chromedp.EmulateViewport(1280, 900))
	b.open("/admin")
	b.clickAndLoad("switch to th", `form.lang-switch button[value="th"]`)
	b.do("fill a bad clip",
		chromedp.SendKeys(chromedp.ID("title"), "ทดสอบ"),
		chromedp.SendKeys(chromedp.ID("iframe_url"), "ftp://x"),
		chromedp.Click(chromedp.CSS(`form.clip-form button[type=submit]`)),
	)
	b.waitFor("Thai field error", `(document.querySelector("[data-error-for=iframe_url]") || {textContent: ""}).textContent.includes("ต้องเป็น URL")`)
	b.shot("lang-th-clip-form-errors")

	for _, lang := range []string{"en", "th", "zh-Hans"} {
		b.do("laptop viewport", chromedp.EmulateViewport(1280, 900))
		b.open("/admin")
		b.clickAndLoad("switch to "+lang, fmt.Sprintf(`form.lang-switch button[value=%q]`, lang))
		for _, width := range []int64{390, 1280} {
			if width == 390 {
				b.do("phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
			} else {
				b.do("laptop viewport", chromedp.EmulateViewport(1280, 900))
			}
			for _, path := range languagePages {
				b.open(path)
				name := fmt.Sprintf("lang-%s-%d%s", lang, width, strings.NewReplacer("/", "-", "?", "-", "&", "-", "=", "-").Replace(path))
				if got := eval[string](b, `document.documentElement.lang`); got != lang {
					t.Errorf("%s: <html lang=%q>, want %q", name, got, lang)
				}
				if path == "/api/docs" {
					b.waitFor("reference of "+name, `!document.querySelector("#reference .loading")`)
				} else {
					b.shot(name)
				}
				if overflow := eval[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); overflow > 0 {
					t.Errorf("%s scrolls sideways by %dpx", name, overflow)
				}
				for _, bad := range eval[[]string](b, wrappedButtons) {
					t.Errorf("%s: button %s", name, bad)
				}
			}
		}
	}
}
