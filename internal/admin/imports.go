package admin

import (
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strings"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
	"catalog/internal/importer"
)

type importPage struct {
	chrome
	Kind    string
	Message string
	Report  *importReport
}

type importReport struct {
	Kind, File string
	importer.Summary
	Unreported int
}

// ImportPage answers GET /admin/import: the upload form.
func (s *Service) ImportPage(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	kind := r.URL.Query().Get("kind")
	if kind != "clips" {
		kind = "movies"
	}
	s.render(w, r, http.StatusOK, "import", importPage{chrome: s.chrome(r, sess, "import"), Kind: kind})
	return nil
}

// errUploadTooLarge stops an upload past importer.MaxUpload.
var errUploadTooLarge = errors.New("upload too large")

// limitedPart reads at most n bytes of a file part and then fails, so
// that the importer stops and nothing past the limit is read.
type limitedPart struct {
	r io.Reader
	n int64
}

func (l *limitedPart) Read(p []byte) (int, error) {
	if l.n < 0 {
		return 0, errUploadTooLarge
	}
	if int64(len(p)) > l.n+1 {
		p = p[:l.n+1]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	if l.n < 0 {
		return n, errUploadTooLarge
	}
	return n, err
}

// Import answers POST /admin/import (multipart/form-data: "kind", then
// "file"). The file part is streamed through the importer as it
// arrives, never held whole, and the answer is the CLI's report: the
// summary and every rejected line as LINE: field: problem (contract 8).
func (s *Service) Import(w http.ResponseWriter, r *http.Request, sess catalog.Session) error {
	page := importPage{chrome: s.chrome(r, sess, "import"), Kind: "movies"}
	l := page.l
	failed := func(status int, msg string) error {
		page.Message = msg
		s.render(w, r, status, "import", page)
		return nil
	}
	if err := s.Imports.Acquire(); err != nil {
		return failed(http.StatusConflict, l.Problem(catalog.ErrorMessage(err)))
	}
	defer s.Imports.Release()

	// As on the API: a minimum transfer rate instead of ReadTimeout.
	upload := httpx.NewUploadBody(w, r, s.UploadMax)
	defer upload.Answer()
	r.Body = upload
	mr, err := r.MultipartReader()
	if err != nil {
		return failed(http.StatusBadRequest, l.T("import.not_multipart"))
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return failed(http.StatusBadRequest, l.T("import.choose_file"))
		}
		if err != nil {
			return failed(http.StatusBadRequest, l.T("import.unreadable"))
		}
		switch part.FormName() {
		case "kind":
			b, _ := io.ReadAll(io.LimitReader(part, 16))
			page.Kind = strings.TrimSpace(string(b))
			if page.Kind != "movies" && page.Kind != "clips" {
				return failed(http.StatusBadRequest, l.T("import.choose_kind"))
			}
		case "file":
			return s.importFile(w, r, sess, &page, part)
		}
	}
}

// importFile streams the file part of an upload through the importer
// and answers with the report, also when the upload stopped early.
func (s *Service) importFile(w http.ResponseWriter, r *http.Request, sess catalog.Session, page *importPage, part *multipart.Part) error {
	l := page.l
	failed := func(status int, msg string) error {
		page.Message = msg
		s.render(w, r, status, "import", *page)
		return nil
	}
	name := part.FileName()
	if name == "" {
		return failed(http.StatusBadRequest, l.T("import.choose_file"))
	}
	if err := importer.CheckName(name); err != nil {
		return failed(http.StatusUnsupportedMediaType, l.Problem(catalog.ErrorMessage(err)))
	}
	body := &limitedPart{r: part, n: importer.MaxUpload}
	// As on the API: a cut upload stops reading, the batch in flight
	// still commits.
	ctx := context.WithoutCancel(r.Context())
	var sum importer.Summary
	var err error
	if page.Kind == "clips" {
		sum, err = importer.Clips(ctx, s.Store, s.Platforms, name, body, importer.Options{})
	} else {
		sum, err = importer.Movies(ctx, s.Store, name, body, importer.Options{})
	}
	s.Imported.Observe(page.Kind, sum)
	page.Report = &importReport{Kind: page.Kind, File: name, Summary: sum, Unreported: sum.Rejected - len(sum.Rejects)}
	switch {
	case errors.Is(err, errUploadTooLarge):
		return failed(http.StatusRequestEntityTooLarge, l.T("import.too_large"))
	case err != nil && catalog.ErrorCode(err) != catalog.EINTERNAL:
		return failed(httpx.ErrorStatus(err), l.Problem(catalog.ErrorMessage(err)))
	case err != nil:
		return err
	}
	s.Logger.Info("import uploaded", "kind", page.Kind, "file", name, "read", sum.Read, "imported", sum.Imported,
		"rejected", sum.Rejected, "admin", sess.Username)
	s.render(w, r, http.StatusOK, "import", *page)
	return nil
}
