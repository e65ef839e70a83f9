package catalog_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"catalog/internal/catalog"
)

func TestFieldErrors(t *testing.T) {
	var fe catalog.FieldErrors = catalog.FieldErrors{}
	if err := fe.Err(); err != nil {
		t.Fatalf("empty FieldErrors.Err() = %v, want nil", err)
	}
	fe.Add("title", "is required")
	fe.Add("title", "must be at most 300 characters") // first message wins
	fe.Add("iframe_url", "is required")
	err := fe.Err()
	var e *catalog.Error
	if !errors.As(err, &e) {
		t.Fatalf("Err() = %T, want *catalog.Error", err)
	}
	if e.Code != catalog.EINVALID {
		t.Errorf("Code = %q, want %q", e.Code, catalog.EINVALID)
	}
	if want := "iframe_url is required; title is required"; e.Message != want {
		t.Errorf("Message = %q, want %q", e.Message, want)
	}
	if len(e.Fields) != 2 || e.Fields["title"] != "is required" || e.Fields["iframe_url"] != "is required" {
		t.Errorf("Fields = %v, want title and iframe_url, each \"is required\"", e.Fields)
	}

	one := catalog.FieldErrors{}
	one.Add("title", "is required")
	if got, want := catalog.ErrorMessage(one.Err()), "title is required"; got != want {
		t.Errorf("single field message = %q, want %q (contract 3.7)", got, want)
	}
}

func TestErrorCodeAndMessage(t *testing.T) {
	domain := catalog.Errorf(catalog.ENOTFOUND, "clip %d not found", 7)
	tests := []struct {
		name          string
		err           error
		code, message string
	}{
		{"nil", nil, "", ""},
		{"domain", domain, catalog.ENOTFOUND, "clip 7 not found"},
		{"wrapped domain", fmt.Errorf("get: %w", domain), catalog.ENOTFOUND, "clip 7 not found"},
		{"foreign", errors.New("sql: SELECT * FROM clips: /var/lib/db.sqlite locked"), catalog.EINTERNAL, "internal error"},
		{"foreign io", io.ErrUnexpectedEOF, catalog.EINTERNAL, "internal error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := catalog.ErrorCode(tt.err); got != tt.code {
				t.Errorf("ErrorCode = %q, want %q", got, tt.code)
			}
			msg := catalog.ErrorMessage(tt.err)
			if msg != tt.message {
				t.Errorf("ErrorMessage = %q, want %q", msg, tt.message)
			}
			if strings.Contains(msg, "SELECT") || strings.Contains(msg, "/var/") {
				t.Errorf("ErrorMessage leaks internals: %q", msg)
			}
		})
	}
}

func TestReworded(t *testing.T) {
	cause := fmt.Errorf("driver: line one\nline two: %w", os.ErrPermission)
	err := fmt.Errorf("open store: %w", catalog.Reworded("sqlite: cannot open x.db: permission denied", cause))
	if got := err.Error(); got != "open store: sqlite: cannot open x.db: permission denied" {
		t.Errorf("message: got %q", got)
	}
	if !errors.Is(err, os.ErrPermission) || !errors.Is(err, cause) {
		t.Errorf("errors.Is does not see the cause through %v", err)
	}
}

func TestWithCause(t *testing.T) {
	cause := fmt.Errorf("driver: %w", os.ErrDeadlineExceeded)
	err := catalog.WithCause(catalog.Errorf(catalog.ECONFLICT, "record already exists"), cause)
	if got := catalog.ErrorCode(err); got != catalog.ECONFLICT {
		t.Errorf("ErrorCode: got %q, want %q", got, catalog.ECONFLICT)
	}
	if got := catalog.ErrorMessage(err); got != "record already exists" {
		t.Errorf("ErrorMessage: got %q, want the domain message alone", got)
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Error("errors.Is does not reach the cause")
	}
	if !strings.Contains(err.Error(), "driver:") {
		t.Errorf("Error() %q does not keep the cause for the logs", err.Error())
	}
}
