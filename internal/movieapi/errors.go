package movieapi

import (
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// WriteError is the movie service's one error writer (contract 4.2):
// {"code":0,"msg":"..."} with the status of the error's code. Internal
// errors are logged and reach the client only as "internal error".
func (s *API) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	httpx.LogError(s.log, r, err)
	httpx.ClearForError(w.Header()) // a handler may have prepared success headers before failing
	b := append(make([]byte, 0, 64), `{"code":0,"msg":`...)
	b = catalog.AppendJSONString(b, catalog.ErrorMessage(err))
	httpx.WriteJSON(w, r, httpx.ErrorStatus(err), append(b, '}'))
}

// errMovieNotFound is the 404 of both detail endpoints.
func errMovieNotFound() error { return catalog.Errorf(catalog.ENOTFOUND, "movie not found") }
