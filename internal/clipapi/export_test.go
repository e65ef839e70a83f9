package clipapi

import (
	"catalog/internal/cache"
	"catalog/internal/catalog"
	"catalog/internal/html"
	"catalog/internal/httpx"
)

// RoutePatterns lists the patterns of the route table, for the test that
// holds it to the OpenAPI document.
func RoutePatterns(store catalog.Store) []string {
	p, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		panic(err)
	}
	s := &server{store: store, platforms: p, reads: cache.ForStore(store, catalog.SearchClips), assets: html.NewAssets()}
	return s.routes().(*httpx.Router).Patterns()
}
