package clipapi

import (
	"net/http"

	"catalog/internal/edge"
	"catalog/internal/httpx"
	"catalog/internal/web"
)

// routes is every route of the clip service, in the order of contract
// 3.4, 3.6 and 5.
func (s *server) routes() http.Handler {
	rt := httpx.NewRouter(s.writeError)

	rt.Handle("GET", "/api/health", s.read(httpx.Health(s.store.Ping, s.version)))
	rt.Handle("GET", "/api/clips", s.read(edge.WithKeys(s.api(s.listClips), edge.Clips)))
	rt.Handle("GET", "/api/clips/{id}", s.read(edge.ItemKeys(edge.Clips, edge.ClipKey, s.api(s.getClip))))
	rt.Handle("GET", "/api/platforms", s.read(s.api(s.listPlatforms)))

	rt.Handle("POST", "/api/clips", s.api(s.createClip))
	rt.Handle("PATCH", "/api/clips/{id}", s.api(s.updateClip))
	rt.Handle("DELETE", "/api/clips/{id}", s.api(s.deleteClip))
	rt.Handle("POST", "/api/import/{kind}", s.api(s.importRecords))

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

	// The public pages (/, /clips/{id}) and the static files that they
	// and the admin pages share.
	web.New(web.Config{Store: s.store, Platforms: s.platforms, Logger: s.log}).Register(rt)

	return rt
}

// read adds the headers of the public read endpoints (contract 3.4):
// any origin may read, without credentials, and edges may cache for a
// minute. Error responses replace the Cache-Control with no-store.
func (s *server) read(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Cache-Control", "public, max-age=60")
		h.ServeHTTP(w, r)
	})
}

// api adapts a handler that returns its error, so that every failure
// goes through the one error writer.
func (s *server) api(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}
