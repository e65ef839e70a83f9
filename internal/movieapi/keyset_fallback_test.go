package movieapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"testing"

	"catalog/internal/movieapi"
	"catalog/internal/testdb"
)

// TestKeysetFallback checks that catalog.KeysetStore is an optimisation
// only: over a store without it (deep pages by OFFSET) the movie service
// answers every list page, shallow, deep and past the end, with short
// and long fields, on /api/movies and /api/jav, byte for byte as over the
// same store whose deep pages are seeks.
func TestKeysetFallback(t *testing.T) {
	store := newTestStore(t)
	in := make([]movieInput, 1200)
	for i := range in {
		in[i].ID = int64(i + 1)
		in[i].Name = fmt.Sprintf("Movie %d", i+1)
		in[i].Synopsis = fmt.Sprintf("Synopsis of movie %d.", i+1)
		in[i].Year = fmt.Sprint(1990 + i%30)
		in[i].lists[1] = []string{fmt.Sprintf("Actor %d", i%11), "Ann Lee"} // catalog.ListNames[1]: actor
	}
	addMovies(t, store, in...)
	seeking := testdb.CountSeeks(t, store)
	withSeeks := movieapi.New(movieapi.Config{Store: seeking, Version: "test", Logger: testLogger(t)})
	withoutSeeks := movieapi.New(movieapi.Config{Store: testdb.PlainStore(store), Version: "test", Logger: testLogger(t)})

	// A page from offset 500 to 600: deep, inside the list.
	seeking.SeekWarm(t, func(i int) {
		limit := 51 + i%50
		get(t, withSeeks, fmt.Sprintf("/api/movies?page=%d&limit=%d", 500/limit+2, limit), http.StatusOK)
	})
	const total = 1200
	for _, path := range []string{"/api/movies", "/api/jav"} {
		for _, fields := range []string{"", "&fields=id,title,year", "&fields=title,actor,synopsis"} {
			for _, pg := range []int64{1, 2, 6, 12, 13, 25, 26, 27, 59, 60, 61, 80} {
				for _, limit := range []int64{20, 100} {
					target := fmt.Sprintf("%s?page=%d&limit=%d%s", path, pg, limit, fields)
					before := seeking.Count()
					a, b := get(t, withSeeks, target, http.StatusOK), get(t, withoutSeeks, target, http.StatusOK)
					if !bytes.Equal(a.body, b.body) {
						t.Errorf("%s: with seeks\n%s\nwithout\n%s", target, a.body, b.body)
					}
					if got, want := a.header.Get("ETag"), b.header.Get("ETag"); got != want {
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
}
