package movieapi

import (
	"catalog/internal/cache"
	"catalog/internal/catalog"
)

// RoutePatterns lists the patterns of the route table, for the test that
// holds it to the OpenAPI document.
func RoutePatterns(store catalog.Store) []string {
	s := &server{store: store, reads: cache.ForStore(store, catalog.SearchMovies)}
	return s.routes("test").Patterns()
}
