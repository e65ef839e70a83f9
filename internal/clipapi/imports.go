package clipapi

import (
	"context"
	"errors"
	"io"
	"net/http"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/importer"
)

// importRecords answers POST /api/import/movies and /api/import/clips
// (contract 8): the body, JSON Lines, a JSON array or CSV by its
// Content-Type, is streamed through the importer like a file given to
// `catalog import`, and the answer is the same report as JSON.
func (s *API) importRecords(w http.ResponseWriter, r *http.Request) error {
	kind := r.PathValue("kind")
	scope := map[string]string{"movies": catalog.ScopeMoviesWrite, "clips": catalog.ScopeClipsWrite}[kind]
	if scope == "" {
		return catalog.Errorf(catalog.ENOTFOUND, "nothing to import at %s: use /api/import/movies or /api/import/clips", r.URL.Path)
	}
	if err := s.authorize(r, scope); err != nil {
		return err
	}
	name, err := importer.NameForContentType(r.Header.Get("Content-Type"))
	if err != nil {
		return err
	}
	if r.ContentLength > importer.MaxUpload {
		return tooLarge()
	}
	if err := s.imports.Acquire(); err != nil {
		return err
	}
	defer s.imports.Release()
	// The body is read under a minimum transfer rate rather than the
	// server's ReadTimeout, so a slow link finishes and a stalled one is
	// cut; either way the answer reports what was committed.
	upload := httpx.NewUploadBody(w, r, s.uploadMax)
	defer upload.Answer()
	body := http.MaxBytesReader(w, upload, importer.MaxUpload)
	sum, err := s.runImport(r, kind, name, body)
	s.imported.Observe(kind, sum)
	var big *http.MaxBytesError
	if errors.As(err, &big) {
		err = catalog.Errorf(catalog.ETOOLARGE, "the body must be at most %d bytes; %d records were imported before the limit",
			int64(importer.MaxUpload), sum.Imported)
	}
	if err != nil {
		return &importer.Failed{Err: err, Report: importer.NewReport(sum)}
	}
	w.Header().Set("Cache-Control", httpx.NoStore)
	httpx.WriteJSON(w, r, http.StatusOK, importer.NewReport(sum).JSON())
	return nil
}

// runImport imports body. A body that breaks off stops the import
// (net/http also cancels the request's context then), but the batch
// already being written still commits, so that the report is the truth.
func (s *API) runImport(r *http.Request, kind, name string, body io.Reader) (importer.Summary, error) {
	ctx := context.WithoutCancel(r.Context())
	if kind == "clips" {
		return importer.Clips(ctx, s.store, s.platforms, name, body, importer.Options{})
	}
	return importer.Movies(ctx, s.store, name, body, importer.Options{})
}

func tooLarge() error {
	return catalog.Errorf(catalog.ETOOLARGE, "the body must be at most %d bytes", int64(importer.MaxUpload))
}
