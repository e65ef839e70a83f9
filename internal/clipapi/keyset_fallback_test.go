package clipapi_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/clipapi"
	"catalog/internal/testdb"
)

// TestKeysetFallback checks that catalog.KeysetStore is an optimisation
// only: over a store without it (deep pages by OFFSET) the clip service
// answers every list page, shallow, deep and past the end, on every
// platform, byte for byte as over the same store whose deep pages are
// seeks.
func TestKeysetFallback(t *testing.T) {
	store := newTestStore(t)
	ctx := context.Background()
	var clips []catalog.Clip
	for i := range 1600 {
		clips = append(clips, catalog.Clip{Title: fmt.Sprintf("clip %d", i), IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
			Platform: []string{"JAV", "ทวิต"}[i%2], Actor: fmt.Sprintf("actor %d", i%7)})
	}
	if err := store.ImportClips(ctx, clips); err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	seeking := testdb.CountSeeks(t, store)
	withSeeks := clipapi.New(clipapi.Config{Store: seeking, Version: "test-1", Logger: logger})
	withoutSeeks := clipapi.New(clipapi.Config{Store: testdb.PlainStore(store), Version: "test-1", Logger: logger})
	get := func(h http.Handler, target string) *httptest.ResponseRecorder {
		t.Helper()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: status %d, body %s", target, w.Code, w.Body)
		}
		return w
	}

	for _, platform := range []string{"", "JAV", "ทวิต"} {
		// A page from offset 500 to 600: deep, inside every list.
		seeking.SeekWarm(t, func(i int) {
			limit := 51 + i%50
			get(withSeeks, fmt.Sprintf("/api/clips?platform=%s&page=%d&limit=%d", platform, 500/limit+2, limit))
		})
		total := int64(1600) // all platforms; 800 on each
		if platform != "" {
			total = 800
		}
		for _, pg := range []int64{1, 2, 6, 9, 16, 17, 25, 26, 27, 40, 41, 56, 80, 81} {
			for _, limit := range []int64{20, 100} {
				target := fmt.Sprintf("/api/clips?platform=%s&page=%d&limit=%d", platform, pg, limit)
				before := seeking.Count()
				a, b := get(withSeeks, target), get(withoutSeeks, target)
				if !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
					t.Errorf("%s: with seeks\n%s\nwithout\n%s", target, a.Body, b.Body)
				}
				if got, want := a.Header().Get("ETag"), b.Header().Get("ETag"); got != want {
					t.Errorf("%s: ETag %s with seeks, %s without", target, got, want)
				}
				// Deep pages inside the list are the ones a seek serves.
				if offset := (pg - 1) * limit; offset >= 500 && offset < total && seeking.Count() == before {
					t.Errorf("%s: served without a seek; the test does not compare the two paths", target)
				}
			}
		}
	}
}
