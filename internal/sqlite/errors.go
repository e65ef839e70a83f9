package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

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
	// The driver's *sqlite.Error and the keyed reads' *keyedError.
	var se interface{ Code() int }
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
		if code, msg := storageFault(se.Code()); code != "" {
			return wrapped(code, msg, err)
		}
	}
	return fmt.Errorf("sqlite: %s: %w", what, err)
}

// storageFault names the driver results that are the database's
// condition rather than a fault in the code: a full disk, an id space
// used up (SQLITE_FULL, which AUTOINCREMENT also returns past the
// largest id), a file that cannot be written or read. They are answered
// with what the operator must fix, never as an internal error; the
// driver's own text stays in the log.
func storageFault(code int) (string, string) {
	switch code & 0xff {
	case sqlite3.SQLITE_FULL:
		return catalog.EUNAVAILABLE, "the database is full (no disk space or no record ids left): the operator must free space"
	case sqlite3.SQLITE_READONLY:
		return catalog.EUNAVAILABLE, "the database is read-only: the operator must make it writable"
	case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN:
		return catalog.EUNAVAILABLE, "the database file cannot be read or written: the operator must check its disk"
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return catalog.EUNAVAILABLE, "the database file is damaged: the operator must restore a backup"
	case sqlite3.SQLITE_NOMEM:
		return catalog.EUNAVAILABLE, "the database is out of memory, try again"
	case sqlite3.SQLITE_TOOBIG:
		return catalog.ETOOLARGE, "a value is too large for the database"
	}
	return "", ""
}

// wrapped is a domain error that also unwraps to the driver error, so
// logs keep the cause while clients see only msg.
func wrapped(code, msg string, cause error) error {
	return catalog.WithCause(&catalog.Error{Code: code, Message: msg}, cause)
}

func notFound(what string) error {
	return &catalog.Error{Code: catalog.ENOTFOUND, Message: what + " not found"}
}
