package httpx_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/httpx"
)

// writeTestError is a service error shape like the clip service's:
// {"error":{"status":N,"message":"..."}}.
func writeTestError(w http.ResponseWriter, r *http.Request, err error) {
	status := httpx.ErrorStatus(err)
	b := []byte(`{"error":{"status":`)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, `,"message":`...)
	b = catalog.AppendJSONString(b, catalog.ErrorMessage(err))
	b = append(b, `}}`...)
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, r, status, b)
}

type testErrorBody struct {
	Error struct {
		Status  int    `json:"status"`
		Message string `json:"message"`
	} `json:"error"`
}

// decodeError checks that rec holds an error in writeTestError's shape
// with status and returns its message.
func decodeError(t testing.TB, rec *httptest.ResponseRecorder, status int) string {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status = %d, want %d (body %s)", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("Content-Type = %q, want application/json; charset=utf-8", ct)
	}
	var body testErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("body %q is not the error shape: %v", rec.Body, err)
	}
	if body.Error.Status != status {
		t.Errorf("body status = %d, want %d", body.Error.Status, status)
	}
	return body.Error.Message
}

func TestErrorStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want int
	}{
		{catalog.Errorf(catalog.EINVALID, "x"), 400},
		{catalog.Errorf(catalog.EUNAUTHORIZED, "x"), 401},
		{catalog.Errorf(catalog.EFORBIDDEN, "x"), 403},
		{catalog.Errorf(catalog.ENOTFOUND, "x"), 404},
		{catalog.Errorf(httpx.EMETHOD, "x"), 405},
		{catalog.Errorf(catalog.ECONFLICT, "x"), 409},
		{catalog.Errorf(catalog.ETOOLARGE, "x"), 413},
		{catalog.Errorf(catalog.EUNSUPPORTED, "x"), 415},
		{catalog.Errorf(catalog.ETOOMANY, "x"), 429},
		{catalog.Errorf(catalog.EINTERNAL, "x"), 500},
		{catalog.Errorf(catalog.EUNAVAILABLE, "x"), 503},
		{catalog.Errorf("no-such-code", "x"), 500},
		{&wrapped{catalog.Errorf(catalog.ENOTFOUND, "x")}, 404},
		{http.ErrBodyNotAllowed, 500},
	}
	for _, tt := range tests {
		if got := httpx.ErrorStatus(tt.err); got != tt.want {
			t.Errorf("ErrorStatus(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

var errNotFound = catalog.Errorf(catalog.ENOTFOUND, "not found")

type wrapped struct{ err error }

func (w *wrapped) Error() string { return "wrapped: " + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }
