package movieapi_test

import (
	"net/http"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/movieapi/movietest"
)

// The shared helpers (movietest) under the names this package's tests
// use.

var (
	newTestStore      = movietest.Store
	addNumbered       = movietest.AddNumbered
	seedDemo          = movietest.SeedDemo
	newService        = movietest.Service
	objectKeys        = movietest.ObjectKeys
	firstListItemKeys = movietest.FirstListItemKeys
	decodeHealth      = movietest.DecodeHealth
	decodeListPage    = movietest.DecodeListPage
	listIDs           = movietest.ListIDs
	equalKeys         = movietest.EqualKeys
	testLogger        = movietest.Logger
)

const vodPath = movietest.VodPath

type (
	listPage   = movietest.ListPage
	jsonText   = movietest.JSONText
	healthBody = movietest.HealthBody
)

// movieInput is a readable way to write a test movie.
type movieInput struct {
	catalog.Movie
	lists [catalog.NumLists][]string
}

// addMovies normalises and upserts movies the way the importer does.
func addMovies(t testing.TB, store catalog.MovieStore, in ...movieInput) {
	t.Helper()
	movies := make([]movietest.Movie, len(in))
	for i, mi := range in {
		movies[i] = movietest.Movie{Movie: mi.Movie, Lists: mi.lists}
	}
	movietest.Add(t, store, movies...)
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func responseOf(r movietest.Response) response { return response{r.Status, r.Header, r.Body} }

// do sends one request through h; header pairs are name, value.
func do(t testing.TB, h http.Handler, method, target string, header ...string) response {
	t.Helper()
	return responseOf(movietest.Do(t, h, method, target, header...))
}

// get is do for GET, failing unless the status is want.
func get(t testing.TB, h http.Handler, target string, want int, header ...string) response {
	t.Helper()
	return responseOf(movietest.Get(t, h, target, want, header...))
}

// checkError asserts the movie error shape (movietest.CheckError).
func checkError(t testing.TB, r response, wantStatus int, wantMsg string) {
	t.Helper()
	movietest.CheckError(t, movietest.Response{Status: r.status, Header: r.header, Body: r.body}, wantStatus, wantMsg)
}

func checkHeader(t testing.TB, r response, name, want string) {
	t.Helper()
	movietest.CheckHeader(t, movietest.Response{Status: r.status, Header: r.header, Body: r.body}, name, want)
}
