package httpx

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"catalog/internal/catalog"
)

// StatusClientClosed is the status logged and counted for a request
// whose connection went away before its answer was complete: the
// client hung up, or the shutdown cut the connection. nginx's
// convention; it never goes on the wire (contract 1).
const StatusClientClosed = 499

// ClientGone reports whether r's connection went away: net/http cancels
// the request's context when the client closes the connection or the
// server closes it at shutdown. A read deadline (ReadDeadline) cancels a
// context of its own inside, never this one.
func ClientGone(r *http.Request) bool {
	return errors.Is(r.Context().Err(), context.Canceled)
}

// Common wraps a service handler with what every response needs:
// X-Content-Type-Options, a request id (X-Request-Id, see RequestID),
// panic recovery into the service's error shape (the stack goes to the
// log, never to the client) and one log line per request.
func Common(h http.Handler, log *slog.Logger, writeErr ErrorWriter) http.Handler {
	log = slog.New(LogHandler(log.Handler()))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r.Header.Get(RequestIDHeader))
		r = r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
		rec := Record(w, r)
		rec.Header().Set("X-Content-Type-Options", "nosniff")
		rec.Header().Set(RequestIDHeader, id)
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if rec.Status() == 0 {
					// Headers the handler set for the response it never
					// sent would describe the error body wrongly (length,
					// encoding) or let an edge cache keep it.
					ClearForError(rec.Header())
					writeErr(rec, r, catalog.Errorf(catalog.EINTERNAL, "internal error"))
				}
			}
			logRequest(log, r, rec, time.Since(start))
		}()
		h.ServeHTTP(rec, r)
	})
}

// logRequest writes the request line. Its status is what the client
// got: StatusClientClosed when the connection went away first, with
// the status the handler had begun to send, if any, as sent_status.
func logRequest(log *slog.Logger, r *http.Request, rec *Response, took time.Duration) {
	status := rec.Status()
	if status == 0 {
		status = http.StatusOK // net/http sends 200 for a handler that wrote nothing
	}
	attrs := []slog.Attr{
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", status),
		slog.Int("bytes", rec.Bytes()),
		slog.Duration("duration", took),
		slog.String("remote", r.RemoteAddr),
	}
	if ClientGone(r) {
		attrs[2] = slog.Int("status", StatusClientClosed)
		if rec.SentBeforeGone() {
			attrs = append(attrs, slog.Int("sent_status", rec.Status()))
		}
	}
	// Straight to the handler: Logger.LogAttrs would take a stack trace
	// for a source no handler of ours writes.
	if h := log.Handler(); h.Enabled(r.Context(), slog.LevelInfo) {
		line := slog.NewRecord(time.Now(), slog.LevelInfo, "request", 0)
		line.AddAttrs(attrs...)
		h.Handle(r.Context(), line)
	}
}

// LogError logs err when it is a server-side failure; client errors are
// not worth a log line beyond the request line, and neither is work
// stopped because the client went away (its request line says 499). A
// 503 (database away, snapshot not built yet) is expected to pass, so
// it is a warning.
func LogError(log *slog.Logger, r *http.Request, err error) {
	if ClientGone(r) {
		return
	}
	switch status := ErrorStatus(err); {
	case status == http.StatusServiceUnavailable:
		log.WarnContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	case status >= 500:
		log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
}

// MaxHeaderBytes bounds the request line and headers (contract 2); a
// larger request is answered 431 by net/http.
const MaxHeaderBytes = 64 << 10

// headerSlack is what net/http reads beyond Server.MaxHeaderBytes before
// it answers 431 (its "bufio slop", net/http's initialReadLimitSize).
const headerSlack = 4096

// NewServer returns an http.Server with sane timeouts and header limit
// for h.
func NewServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		MaxHeaderBytes:    MaxHeaderBytes - headerSlack,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      5 * time.Minute, // the snapshot can be large
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
