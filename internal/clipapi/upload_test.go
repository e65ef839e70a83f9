package clipapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"catalog/internal/apitest"
)

// cutBody reads as s, then fails as a connection that broke off.
type cutBody struct{ r *strings.Reader }

func (b cutBody) Read(p []byte) (int, error) {
	if b.r.Len() == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	return b.r.Read(p)
}

// An upload that breaks off answers 4xx, never 500, with the report of
// what was committed: the records written and the line where the last
// record read starts, where a retry resumes.
func TestImportBrokenOffReportsWhatWasCommitted(t *testing.T) {
	e := newEnv(t)
	secret, _ := e.newToken("movies:write")
	body := "{\"name\":\"one\"}\n{\"name\":\"two\"}\n{\"name\":\"\"}\n{\"name\":\"four\"}\n{\"name\":\"fi"
	r := httptest.NewRequest("POST", "/api/import/movies", cutBody{strings.NewReader(body)})
	r.Header.Set("Authorization", "Bearer "+secret)
	r.Header.Set("Content-Type", "application/x-ndjson")
	w := httptest.NewRecorder()
	e.handler.ServeHTTP(w, r)
	apitest.Check(t, e.handler, r, w.Code, w.Result().Header, w.Body.Bytes())
	got := wantError(t, w, http.StatusBadRequest)
	if !strings.Contains(got.Error.Message, "the upload broke off after") {
		t.Errorf("message: got %q, want it to say the upload broke off", got.Error.Message)
	}
	var report struct {
		Error struct {
			Report struct {
				Read     int `json:"read"`
				Imported int `json:"imported"`
				Rejected int `json:"rejected"`
				LastLine int `json:"last_line"`
			} `json:"report"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	rep := report.Error.Report
	if rep.Read != 4 || rep.Imported != 3 || rep.Rejected != 1 || rep.LastLine != 4 {
		t.Errorf("report: got %+v, want 4 read, 3 imported, 1 rejected, last line 4", rep)
	}
	if n, _ := e.store.CountMovies(t.Context()); n != 3 {
		t.Errorf("movies stored: got %d, want the 3 the report names", n)
	}
}
