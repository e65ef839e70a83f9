package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"catalog/internal/catalog"
)

// translate turns a driver error into a domain error: a lost or refused
// connection is EUNAVAILABLE (the HTTP layer answers 503 and the pool
// reconnects by itself), a unique violation is ECONFLICT. The driver
// error stays wrapped for the logs; clients only ever see the domain
// message, never SQL.
func translate(err error, op string) error {
	var ce *catalog.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return err
	case catalog.IsContextDone(err), pgCode(err) == "57014":
		// Before isUnavailable, which would take a deadline for a lost
		// server. 57014 (query_canceled) is the server's side of the
		// same thing: a cancel request or statement_timeout.
		return catalog.ContextError("postgres: "+op, err)
	case isUnavailable(err):
		return withCode(catalog.EUNAVAILABLE, "database unavailable", op, err)
	case pgCode(err) == "23505": // unique_violation
		return withCode(catalog.ECONFLICT, "record already exists", op, err)
	case pgCode(err) == "2200H": // sequence_generator_limit_exceeded
		return withCode(catalog.EUNAVAILABLE, "no record ids left: the operator must renumber the records", op, err)
	case pgCode(err) == "54000", pgCode(err) == "22001": // program_limit_exceeded, string_data_right_truncation
		return withCode(catalog.ETOOLARGE, "a value is too large for the database", op, err)
	case errors.Is(err, pgx.ErrNoRows):
		return withCode(catalog.ENOTFOUND, "not found", op, err)
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// withCode wraps cause under a domain error with a client-safe message.
func withCode(code, msg, op string, cause error) error {
	return catalog.WithCause(&catalog.Error{Code: code, Message: msg}, fmt.Errorf("postgres: %s: %w", op, cause))
}

// notFound is the ENOTFOUND error for a missing record.
func notFound(what string) error {
	return catalog.Errorf(catalog.ENOTFOUND, "%s not found", what)
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// isUnavailable reports whether err means the database cannot be used
// right now (down, restarting, out of connections, unreachable) rather
// than a fault in the request.
func isUnavailable(err error) bool {
	if code := pgCode(err); code != "" {
		switch {
		case strings.HasPrefix(code, "08"), // connection exception
			strings.HasPrefix(code, "53"),                     // insufficient resources, too many connections
			code == "57P01", code == "57P02", code == "57P03": // shutdown, crash, starting up
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.Timeout(err) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE)
}

// connectReason is a one-line reason for a failed connection or
// migration: the server's own message (bad password, unknown database,
// missing privilege), or what the network said. It never includes the
// password or SQL.
func connectReason(err error, timeout time.Duration) string {
	var pe *pgconn.PgError
	var dns *net.DNSError
	var errno syscall.Errno
	switch {
	case errors.As(err, &pe):
		return pe.Message
	case errors.As(err, &dns):
		return "unknown host " + dns.Name
	case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
		return fmt.Sprintf("no answer within %s", timeout)
	case errors.As(err, &errno):
		return errno.Error()
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
