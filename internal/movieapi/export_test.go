package movieapi

import (
	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// RoutePatterns lists the patterns of the route table, for the test that
// holds it to the OpenAPI document.
func RoutePatterns(store catalog.Store) []string {
	s := &API{store: store, reads: cache.ForStore(store, catalog.SearchMovies)}
	rt := httpx.NewRouter(s.WriteError)
	s.Mount(rt)
	return rt.Patterns()
}
