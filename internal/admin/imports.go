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
func (s *Service) ImportPage(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	kind := r.URL.Query().Get("kind")
	if kind != "clips" {
		kind = "movies"
	}
	s.render(w, r, http.StatusOK, "import", importPage{chrome: s.chrome(r, sess, "import"), Kind: kind})
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
func (s *Service) Import(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.pageSession(w, r)
	if !ok {
		return
	}
	page := importPage{chrome: s.chrome(r, sess, "import"), Kind: "movies"}
	l := page.l
	failed := func(status int, msg string) {
		page.Message = msg
		s.render(w, r, status, "import", page)
	}
	if err := s.imports.Acquire(); err != nil {
		failed(http.StatusConflict, l.Problem(catalog.ErrorMessage(err)))
		return
	}
	defer s.imports.Release()

	// As on the API: a minimum transfer rate instead of ReadTimeout.
	upload := httpx.NewUploadBody(w, r, s.uploadMax)
	defer upload.Answer()
	r.Body = upload
	mr, err := r.MultipartReader()
	if err != nil {
		failed(http.StatusBadRequest, l.T("import.not_multipart"))
		return
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			failed(http.StatusBadRequest, l.T("import.choose_file"))
			return
		}
		if err != nil {
			failed(http.StatusBadRequest, l.T("import.unreadable"))
			return
		}
		switch part.FormName() {
		case "kind":
			b, _ := io.ReadAll(io.LimitReader(part, 16))
			page.Kind = strings.TrimSpace(string(b))
			if page.Kind != "movies" && page.Kind != "clips" {
				failed(http.StatusBadRequest, l.T("import.choose_kind"))
				return
			}
		case "file":
			s.importFile(w, r, sess, &page, part)
			return
		}
	}
}

// importFile streams the file part of an upload through the importer
// and answers with the report, also when the upload stopped early.
func (s *Service) importFile(w http.ResponseWriter, r *http.Request, sess catalog.Session, page *importPage, part *multipart.Part) {
	l := page.l
	failed := func(status int, msg string) {
		page.Message = msg
		s.render(w, r, status, "import", *page)
	}
	name := part.FileName()
	if name == "" {
		failed(http.StatusBadRequest, l.T("import.choose_file"))
		return
	}
	if err := importer.CheckName(name); err != nil {
		failed(http.StatusUnsupportedMediaType, l.Problem(catalog.ErrorMessage(err)))
		return
	}
	body := &limitedPart{r: part, n: importer.MaxUpload}
	// As on the API: a cut upload stops reading, the batch in flight
	// still commits.
	ctx := context.WithoutCancel(r.Context())
	var sum importer.Summary
	var err error
	if page.Kind == "clips" {
		sum, err = importer.Clips(ctx, s.store, s.platforms, name, body, importer.Options{})
	} else {
		sum, err = importer.Movies(ctx, s.store, name, body, importer.Options{})
	}
	s.imported.Observe(page.Kind, sum)
	page.Report = &importReport{Kind: page.Kind, File: name, Summary: sum, Unreported: sum.Rejected - len(sum.Rejects)}
	switch {
	case errors.Is(err, errUploadTooLarge):
		failed(http.StatusRequestEntityTooLarge, l.T("import.too_large"))
	case err != nil && catalog.ErrorCode(err) != catalog.EINTERNAL:
		failed(httpx.ErrorStatus(err), l.Problem(catalog.ErrorMessage(err)))
	case err != nil:
		s.fail(w, r, sess, err)
	default:
		s.log.Info("import uploaded", "kind", page.Kind, "file", name, "read", sum.Read, "imported", sum.Imported,
			"rejected", sum.Rejected, "admin", sess.Username)
		s.render(w, r, http.StatusOK, "import", *page)
	}
}
