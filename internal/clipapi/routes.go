package clipapi

import (
	"net/http"

	"catalog/internal/edge"
	"catalog/internal/httpx"
)

// routes is every route of the clip service, in the order of contract
// 3.4, 3.6 and 5: the JSON API (this package), the admin console
// (internal/admin), the public pages (internal/web) and the static files
// they share (internal/html). Nothing else registers a route.
func (s *server) routes() http.Handler {
	rt := httpx.NewRouter(s.writeError)

	rt.Handle("GET", "/api/health", s.read(httpx.Health(s.store.Ping, s.search.Ready, s.version)))
	rt.Handle("GET", "/api/clips", s.read(edge.WithKeys(s.api(s.listClips), edge.Clips)))
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

	rt.HandleFunc("GET", "/admin/login", s.admin.LoginPage)
	rt.HandleFunc("POST", "/admin/login", s.admin.Login)
	rt.HandleFunc("POST", "/admin/logout", s.admin.Logout)
	rt.HandleFunc("GET", "/admin", s.admin.Dashboard)
	rt.HandleFunc("POST", "/admin/clips", s.admin.AddClip)
	rt.HandleFunc("GET", "/admin/clips/{id}/edit", s.admin.EditClip)
	rt.HandleFunc("POST", "/admin/clips/{id}", s.admin.UpdateClip)
	rt.HandleFunc("GET", "/admin/clips/{id}/delete", s.admin.ConfirmDelete)
	rt.HandleFunc("POST", "/admin/clips/{id}/delete", s.admin.DeleteClip)
	rt.HandleFunc("GET", "/admin/cover", s.admin.Cover)
	rt.HandleFunc("GET", "/admin/movies", s.admin.Movies)
	rt.HandleFunc("GET", "/admin/movies/new", s.admin.NewMovie)
	rt.HandleFunc("POST", "/admin/movies", s.admin.AddMovie)
	rt.HandleFunc("GET", "/admin/movies/{id}/edit", s.admin.EditMovie)
	rt.HandleFunc("POST", "/admin/movies/{id}", s.admin.UpdateMovie)
	rt.HandleFunc("GET", "/admin/movies/{id}/delete", s.admin.ConfirmDeleteMovie)
	rt.HandleFunc("POST", "/admin/movies/{id}/delete", s.admin.DeleteMovie)
	rt.HandleFunc("GET", "/admin/import", s.admin.ImportPage)
	rt.HandleFunc("POST", "/admin/import", s.admin.Import)
	rt.HandleFunc("GET", "/admin/snapshot", s.admin.SnapshotPanel)
	rt.HandleFunc("POST", "/admin/snapshot/rebuild", s.admin.RebuildSnapshot)
	rt.HandleFunc("GET", "/admin/tokens", s.admin.Tokens)
	rt.HandleFunc("POST", "/admin/tokens", s.admin.CreateToken)
	rt.HandleFunc("POST", "/admin/tokens/{id}/revoke", s.admin.RevokeToken)
	rt.HandleFunc("GET", "/admin/sources", s.admin.Sources)
	rt.HandleFunc("GET", "/admin/links", s.admin.DeadLinks)
	rt.HandleFunc("POST", "/admin/links/{id}/recheck", s.admin.Recheck)
	rt.HandleFunc("POST", "/admin/sources", s.admin.AddSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/remove", s.admin.RemoveSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/collect", s.admin.CollectSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/cancel", s.admin.CancelSource)

	rt.HandleFunc("POST", "/language", s.admin.SetLanguage)
	rt.HandleFunc("GET", "/{$}", s.pages.Index)
	rt.HandleFunc("GET", "/clips/{id}", s.pages.Clip)

	// GET /static/{name}.{hash}.{ext}: one route per embedded file, under
	// its content-hashed name, so that any other /static/ path gets the
	// service's 404.
	for _, f := range s.assets.Files() {
		rt.Handle("GET", f.URL, f)
	}

	return rt
}

// readPolicy is the header policy of the public read endpoints
// (contract 3.4): any origin may read, without credentials; edges may
// cache a success for a minute, an error not at all.
var readPolicy = &httpx.Policy{Success: "public, max-age=60"}

// read applies readPolicy to h.
func (s *server) read(h http.Handler) http.Handler { return readPolicy.Wrap(h) }

// api adapts a handler that returns its error, so that every failure
// goes through the one error writer.
func (s *server) api(h httpx.HandlerFunc) http.Handler {
	return httpx.ErrorWriter(s.writeError).Handler(h)
}
