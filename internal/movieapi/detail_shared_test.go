package movieapi_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"

	"catalog/internal/catalog"
)

// The detail endpoints read their movie in a keyed read (MoviesByID
// with the request's fields), many at a time: every body must be
// the one the movie's own point read (GetMovie) encodes, in both forms,
// series and missing ids included, however the requests were grouped.
func TestDetailsFromSharedReads(t *testing.T) {
	store := newTestStore(t)
	const n = 60
	seedDemo(t, store, 3, n)
	h := newService(t, store, nil)
	want := func(id int64, legacy bool) string {
		m, err := store.GetMovie(context.Background(), id)
		if catalog.ErrorCode(err) == catalog.ENOTFOUND {
			return `{"code":0,"msg":"movie not found"}`
		}
		if err != nil {
			t.Fatal(err)
		}
		b := []byte(`{"code":1,"msg":"data detail","data":`)
		return string(append(m.AppendJSON(b, catalog.AllFields(legacy), legacy), '}'))
	}
	var wg sync.WaitGroup
	for round := range 3 {
		for i := range n {
			for _, legacy := range []bool{false, true} {
				id := int64(i + 1)
				if i%10 == 9 {
					id += 1000 // none
				}
				wg.Go(func() {
					path := fmt.Sprintf("/api/movies/%d", id)
					if legacy {
						path = fmt.Sprintf("/api/jav/%d", id)
					}
					// Not through do: its OpenAPI check of every answer
					// would take seconds here, and details are checked
					// against it elsewhere.
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
					if got, w := rec.Body.String(), want(id, legacy); got != w {
						t.Errorf("round %d, %s: %d\n%.300s\nwant\n%.300s", round, path, rec.Code, got, w)
					}
				})
			}
		}
		wg.Wait()
	}
}
