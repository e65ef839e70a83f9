package movieapi

import "catalog/internal/catalog"

// RoutePatterns lists the patterns of the route table, for the test that
// holds it to the OpenAPI document.
func RoutePatterns(store catalog.Store) []string {
	s := &server{store: store, reads: newReads(store)}
	return s.table("test", 0).Patterns()
}
