package catalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Error codes. Each HTTP service maps a code to a status in exactly one
// place (internal/httpx); everything below the HTTP layer speaks codes.
const (
	EINVALID      = "invalid"      // 400: bad input
	EUNAUTHORIZED = "unauthorized" // 401: not logged in
	EFORBIDDEN    = "forbidden"    // 403: cross-origin write and the like
	ENOTFOUND     = "not_found"    // 404
	ECONFLICT     = "conflict"     // 409: unique key already taken
	ETOOLARGE     = "too_large"    // 413: body over the limit
	EUNSUPPORTED  = "unsupported"  // 415: wrong content type
	ETOOMANY      = "too_many"     // 429: throttled
	EUNAVAILABLE  = "unavailable"  // 503: database or snapshot not ready
	EINTERNAL     = "internal"     // 500: anything unexpected
)

// Error is an error whose message is safe to show to a client.
// Anything that is not an *Error is treated as internal and never shown.
type Error struct {
	Code    string
	Message string
	// Fields names every failing field of a validation error.
	Fields map[string]string
}

func (e *Error) Error() string {
	return fmt.Sprintf("catalog error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with a formatted client-safe message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, EINTERNAL for foreign errors and ""
// for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the client-safe message of err.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	}
	return "internal error"
}

// FieldErrors collects validation failures, one message per field.
type FieldErrors map[string]string

// Add records msg for field unless the field already failed.
func (f FieldErrors) Add(field, msg string) {
	if _, ok := f[field]; !ok {
		f[field] = msg
	}
}

// AddError records the field errors of a validation error err, or its
// message under field when it names no field; nil adds nothing.
func (f FieldErrors) AddError(field string, err error) {
	var e *Error
	if errors.As(err, &e) && len(e.Fields) > 0 {
		for k, v := range e.Fields {
			f.Add(k, v)
		}
	} else if err != nil {
		f.Add(field, ErrorMessage(err))
	}
}

// Err returns nil when nothing failed, else an EINVALID *Error whose
// message names every failing field in a stable order.
func (f FieldErrors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Code: EINVALID, Message: f.Describe(" "), Fields: map[string]string(f)}
}

// Describe lists every failure as field, sep, problem, in field order,
// joined with "; " ("title is required; year must be ...").
func (f FieldErrors) Describe(sep string) string {
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + sep + f[n]
	}
	return strings.Join(parts, "; ")
}

// Reworded returns an error that reads msg, a one-line message written
// for people, but still unwraps to cause, so that errors.Is and
// errors.As see what went wrong underneath (a driver's multi-line text
// is replaced, never lost).
func Reworded(msg string, cause error) error { return &reworded{msg: msg, cause: cause} }

type reworded struct {
	msg   string
	cause error
}

func (e *reworded) Error() string { return e.msg }
func (e *reworded) Unwrap() error { return e.cause }

// WithCause returns e that also unwraps to cause: clients see only e's
// message, while logs and errors.Is/As still reach what went wrong
// underneath (a driver's error, a parser's).
func WithCause(e *Error, cause error) error { return &withCause{e: e, cause: cause} }

type withCause struct {
	e     *Error
	cause error
}

func (w *withCause) Error() string   { return w.e.Error() + ": " + w.cause.Error() }
func (w *withCause) Unwrap() []error { return []error{w.e, w.cause} }
