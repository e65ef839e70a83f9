package admin

import "catalog/internal/httpx"

// Mount adds the console's routes to rt (contract 5 and 8), and the
// language switcher's, which the public pages share.
func (s *Service) Mount(rt *httpx.Router) {
	rt.HandleFunc("GET", "/admin/login", s.LoginPage)
	rt.HandleFunc("POST", "/admin/login", s.Login)
	rt.HandleFunc("POST", "/admin/logout", s.Logout)
	rt.HandleFunc("GET", "/admin", s.Dashboard)
	rt.HandleFunc("POST", "/admin/clips", s.AddClip)
	rt.HandleFunc("GET", "/admin/clips/{id}/edit", s.EditClip)
	rt.HandleFunc("POST", "/admin/clips/{id}", s.UpdateClip)
	rt.HandleFunc("GET", "/admin/clips/{id}/delete", s.ConfirmDelete)
	rt.HandleFunc("POST", "/admin/clips/{id}/delete", s.DeleteClip)
	rt.HandleFunc("GET", "/admin/cover", s.Cover)
	rt.HandleFunc("GET", "/admin/movies", s.Movies)
	rt.HandleFunc("GET", "/admin/movies/new", s.NewMovie)
	rt.HandleFunc("POST", "/admin/movies", s.AddMovie)
	rt.HandleFunc("GET", "/admin/movies/{id}/edit", s.EditMovie)
	rt.HandleFunc("POST", "/admin/movies/{id}", s.UpdateMovie)
	rt.HandleFunc("GET", "/admin/movies/{id}/delete", s.ConfirmDeleteMovie)
	rt.HandleFunc("POST", "/admin/movies/{id}/delete", s.DeleteMovie)
	rt.HandleFunc("GET", "/admin/import", s.ImportPage)
	rt.HandleFunc("POST", "/admin/import", s.Import)
	rt.HandleFunc("GET", "/admin/snapshot", s.SnapshotPanel)
	rt.HandleFunc("POST", "/admin/snapshot/rebuild", s.RebuildSnapshot)
	rt.HandleFunc("GET", "/admin/tokens", s.Tokens)
	rt.HandleFunc("POST", "/admin/tokens", s.CreateToken)
	rt.HandleFunc("POST", "/admin/tokens/{id}/revoke", s.RevokeToken)
	rt.HandleFunc("GET", "/admin/sources", s.Sources)
	rt.HandleFunc("GET", "/admin/links", s.DeadLinks)
	rt.HandleFunc("POST", "/admin/links/{id}/recheck", s.Recheck)
	rt.HandleFunc("POST", "/admin/sources", s.AddSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/remove", s.RemoveSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/collect", s.CollectSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/cancel", s.CancelSource)
	rt.HandleFunc("POST", "/admin/sources/{name}/settings", s.SetSourceSettings)
	rt.HandleFunc("POST", "/admin/sources/{name}/types/{id}", s.BindSourceType)
	rt.HandleFunc("POST", "/admin/sources/{name}/gone", s.SetSourceGone)
	rt.HandleFunc("POST", "/language", s.SetLanguage)
}
