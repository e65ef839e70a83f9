package browsertest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"catalog/internal/catalog"
	"catalog/internal/cli"
	"catalog/internal/search/searchtest"
	"catalog/internal/testdb"
	"catalog/internal/testenv"
)

const (
	adminName     = "editor"
	adminPassword = "correct horse battery"
)

// findChromium returns the browser to drive: CATALOG_CHROMIUM, else the
// first of the usual names in PATH.
func findChromium() string {
	if p := os.Getenv("CATALOG_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is one headless Chromium tab on a running clip service.
type browser struct {
	t         *testing.T
	ctx       context.Context
	base      string
	artifacts string
	store     catalog.Store
}

func start(t *testing.T) *browser {
	t.Helper()
	testenv.Long(t)
	chromium := findChromium()
	if chromium == "" {
		testenv.SkipOrFail(t, "no Chromium found: install it (apt-get install chromium) or set CATALOG_CHROMIUM to its path to run the browser tests")
	}
	ctx := context.Background()
	store := testdb.Open(t)
	hash, err := bcrypt.GenerateFromPassword([]byte(adminPassword), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateAdmin(ctx, &catalog.Admin{Username: adminName, PasswordHash: string(hash)}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(cli.ClipService(cli.ServiceDeps{
		Store:       store,
		Logger:      slog.New(slog.DiscardHandler),
		Version:     "browser-test",
		ClipSearch:  searchtest.Start(t, store, catalog.SearchClips),
		MovieSearch: searchtest.Start(t, store, catalog.SearchMovies),
	}))
	t.Cleanup(srv.Close)

	artifacts := os.Getenv("CATALOG_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	} else {
		artifacts = filepath.Join(artifacts, "browser")
		if err := os.MkdirAll(artifacts, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots in %s", artifacts)

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		// Every other host fails at once, so the test never waits on the
		// network: covers fall back to the placeholder, players stay empty.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelTab)
	// The first run starts the browser; it must not carry a timeout.
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatalf("start %s: %v", chromium, err)
	}
	return &browser{t: t, ctx: tabCtx, base: srv.URL, artifacts: artifacts, store: store}
}

// do runs steps with a deadline so that a missing element fails the test
// instead of hanging it.
func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// text is the visible text of the first element matching css.
func (b *browser) text(css string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(document.querySelector(%q) || {innerText: ""}).innerText`, css))
}

// waitFor checks a JavaScript predicate until it holds. It keeps asking
// across page loads (a form that navigates when done), where a single
// in-page poll would be cut off by the navigation.
func (b *browser) waitFor(what, predicate string) {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](predicate))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond) // Chromium is another process, across page loads: poll
	}
	b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
	b.t.Fatalf("%s: %s did not become true", what, predicate)
}

// shot saves a full-page PNG of the current page. A page of the API
// reference is tens of thousands of pixels tall, and encoding it on a
// busy machine takes far longer than any one interaction should.
func (b *browser) shot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, time.Minute)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(b.artifacts, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
	}
}

// open navigates to a path of the service and waits for the load.
func (b *browser) open(path string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.base+path))
}

// clickAndLoad clicks a button or link that loads a new page and waits for it.
func (b *browser) clickAndLoad(what, css string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(css))); err != nil {
		b.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *browser) path() string {
	return eval[string](b, `location.pathname + location.search`)
}

// noSideScroll reports whether the page is wider than the window.
func (b *browser) noSideScroll(page string) {
	b.t.Helper()
	overflow := eval[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	if overflow > 0 {
		b.t.Errorf("%s at phone width scrolls sideways by %dpx", page, overflow)
	}
}

// logIn signs in as the test's administrator through the login form.
func (b *browser) logIn() {
	b.t.Helper()
	b.open("/admin/login")
	b.do("log in",
		chromedp.SendKeys(chromedp.ID("username"), adminName),
		chromedp.SendKeys(chromedp.ID("password"), adminPassword),
	)
	b.clickAndLoad("log in", `form[action="/admin/login"] button[type=submit]`)
}
