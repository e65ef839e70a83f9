package clipapi

import (
	"net/http"

	"catalog/internal/edge"
	"catalog/internal/httpx"
)

// Mount adds every route of the clip API to rt, in the order of
// contract 3.4, 3.6 and 5. The console, the public pages and the static
// files are mounted beside it by the service's assembly (internal/cli).
func (s *API) Mount(rt *httpx.Router) {
	rt.Handle("GET", "/api/health", s.read(httpx.Health(s.store.Ping, s.search.Ready, s.version)))
	rt.Handle("GET", "/api/clips", s.read(edge.WithKeys(s.api(s.listClips), edge.Clips)))
	rt.Handle("GET", "/api/clips/facets", s.read(edge.WithKeys(s.api(s.clipFacets), edge.Clips)))
	rt.Handle("GET", "/api/clips/{id}", s.read(edge.ItemKeys(edge.Clips, edge.ClipKey, s.api(s.getClip))))
	rt.Handle("GET", "/api/platforms", s.read(s.api(s.listPlatforms)))

	rt.Handle("POST", "/api/clips", s.api(s.createClip))
	rt.Handle("PATCH", "/api/clips/{id}", s.api(s.updateClip))
	rt.Handle("DELETE", "/api/clips/{id}", s.api(s.deleteClip))
	rt.Handle("POST", "/api/import/{kind}", s.api(s.importRecords))

	// The OpenAPI document and its reference page.
	for _, d := range s.docs().Routes() {
		rt.Handle("GET", d.Path, s.read(d.Handler))
	}
}

// readPolicy is the header policy of the public read endpoints
// (contract 3.4): any origin may read, without credentials; edges may
// cache a success for a minute, an error not at all.
var readPolicy = &httpx.Policy{Success: "public, max-age=60"}

// read applies readPolicy to h.
func (s *API) read(h http.Handler) http.Handler { return readPolicy.Wrap(h) }

// api adapts a handler that returns its error, so that every failure
// goes through the one error writer.
func (s *API) api(h httpx.HandlerFunc) http.Handler {
	return httpx.ErrorWriter(s.WriteError).Handler(h)
}
