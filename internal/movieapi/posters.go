package movieapi

import (
	"net/http"
	"strconv"
	"strings"

	"catalog/internal/catalog"
)

// posterPath serves the mirrored posters (contract 13).
const posterPath = "/posters/{id}/{slot}/{file}"

// posterCache is the caching of a copy: its address names its content
// (the key of the original URL), so it never changes.
const posterCache = "public, max-age=31536000, immutable"

// servePoster answers GET /posters/{id}/{1|2}/{KEY}.jpg with the stored
// copy of the movie's poster, when KEY names its current URL; an old KEY
// is a 404.
func (s *API) servePoster(w http.ResponseWriter, r *http.Request) error {
	id, err := catalog.ParseID(r.PathValue("id"))
	if err != nil {
		return err
	}
	slot, _ := strconv.Atoi(r.PathValue("slot"))
	key, ok := strings.CutSuffix(r.PathValue("file"), ".jpg")
	if (slot != 1 && slot != 2) || !ok || len(key) != 16 {
		return catalog.Errorf(catalog.ENOTFOUND, "no such poster")
	}
	m, err := s.store.GetMovie(r.Context(), id)
	if err != nil {
		return err
	}
	orig := m.Poster1URL
	if slot == 2 {
		orig = m.Poster2URL
	}
	if orig == "" || catalog.PosterKey(orig) != key {
		return catalog.Errorf(catalog.ENOTFOUND, "no such poster")
	}
	img, err := s.store.PosterImage(r.Context(), key)
	if err != nil {
		return err
	}
	h := w.Header()
	etag := `"` + key + `"`
	h.Set("Cache-Control", posterCache)
	h.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Length", strconv.Itoa(len(img)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(img)
	}
	return nil
}
