package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"catalog/internal/catalog"
)

// translate turns a driver error into a domain error where one applies.
// The driver's text stays reachable for logs (Unwrap) but never becomes
// the client-facing message. what names the operation, e.g. "get clip".
func translate(err error, what string) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if catalog.IsContextDone(err) || (errors.As(err, &se) && se.Code() == sqlite3.SQLITE_INTERRUPT) {
		return catalog.ContextError("sqlite: "+what, err)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return wrapped(catalog.ENOTFOUND, "not found", err)
	}
	if errors.As(err, &se) {
		switch code := se.Code(); {
		case code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return wrapped(catalog.ECONFLICT, what+": already exists", err)
		case code&0xff == sqlite3.SQLITE_BUSY || code&0xff == sqlite3.SQLITE_LOCKED:
			return wrapped(catalog.EUNAVAILABLE, "database is busy, try again", err)
		}
	}
	return fmt.Errorf("sqlite: %s: %w", what, err)
}

// wrapped is a domain error that also unwraps to the driver error, so
// logs keep the cause while clients see only msg.
func wrapped(code, msg string, cause error) error {
	return catalog.WithCause(&catalog.Error{Code: code, Message: msg}, cause)
}

func notFound(what string) error {
	return &catalog.Error{Code: catalog.ENOTFOUND, Message: what + " not found"}
}
