package admin

import "catalog/internal/httpx"

// Mount adds the console's routes to rt (contract 5 and 8), and the
// language switcher's, which the public pages share. Every page but the
// login form is for signed-in administrators only (signedIn, posted).
func (s *Service) Mount(rt *httpx.Router) {
	rt.HandleFunc("GET", "/admin/login", s.LoginPage)
	rt.HandleFunc("POST", "/admin/login", s.Login)
	rt.HandleFunc("POST", "/admin/logout", s.Logout)
	rt.HandleFunc("GET", "/admin", s.signedIn(s.Dashboard))
	rt.HandleFunc("POST", "/admin/clips", s.signedIn(s.AddClip))
	rt.HandleFunc("GET", "/admin/clips/{id}/edit", s.signedIn(s.EditClip))
	rt.HandleFunc("POST", "/admin/clips/{id}", s.signedIn(s.UpdateClip))
	rt.HandleFunc("GET", "/admin/clips/{id}/delete", s.signedIn(s.ConfirmDelete))
	rt.HandleFunc("POST", "/admin/clips/{id}/delete", s.signedIn(s.DeleteClip))
	rt.HandleFunc("GET", "/admin/cover", s.Cover)
	rt.HandleFunc("GET", "/admin/movies", s.signedIn(s.MovieList))
	rt.HandleFunc("GET", "/admin/movies/new", s.signedIn(s.NewMovie))
	rt.HandleFunc("POST", "/admin/movies", s.signedIn(s.AddMovie))
	rt.HandleFunc("GET", "/admin/movies/{id}/edit", s.signedIn(s.EditMovie))
	rt.HandleFunc("POST", "/admin/movies/{id}", s.signedIn(s.UpdateMovie))
	rt.HandleFunc("GET", "/admin/movies/{id}/delete", s.signedIn(s.ConfirmDeleteMovie))
	rt.HandleFunc("POST", "/admin/movies/{id}/delete", s.signedIn(s.DeleteMovie))
	rt.HandleFunc("GET", "/admin/import", s.signedIn(s.ImportPage))
	rt.HandleFunc("POST", "/admin/import", s.signedIn(s.Import))
	rt.HandleFunc("GET", "/admin/snapshot", s.signedIn(s.SnapshotPanel))
	rt.HandleFunc("POST", "/admin/snapshot/rebuild", s.signedIn(s.RebuildSnapshot))
	rt.HandleFunc("GET", "/admin/tokens", s.signedIn(s.Tokens))
	rt.HandleFunc("POST", "/admin/tokens", s.posted(s.CreateToken))
	rt.HandleFunc("POST", "/admin/tokens/{id}/revoke", s.signedIn(s.RevokeToken))
	rt.HandleFunc("GET", "/admin/sources", s.signedIn(s.Sources))
	rt.HandleFunc("GET", "/admin/links", s.signedIn(s.DeadLinks))
	rt.HandleFunc("POST", "/admin/links/{id}/recheck", s.signedIn(s.RecheckLink))
	rt.HandleFunc("POST", "/admin/sources", s.posted(s.AddSource))
	rt.HandleFunc("POST", "/admin/sources/{name}/remove", s.signedIn(s.RemoveSource))
	rt.HandleFunc("POST", "/admin/sources/{name}/collect", s.signedIn(s.CollectSource))
	rt.HandleFunc("POST", "/admin/sources/{name}/cancel", s.signedIn(s.CancelSource))
	rt.HandleFunc("POST", "/admin/sources/{name}/settings", s.posted(s.SetSourceSettings))
	rt.HandleFunc("POST", "/admin/sources/{name}/types/{id}", s.posted(s.BindSourceType))
	rt.HandleFunc("POST", "/admin/sources/{name}/gone", s.posted(s.SetSourceGone))
	rt.HandleFunc("POST", "/language", s.SetLanguage)
}
