package httpx

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"catalog/internal/catalog"
)

// statusRecorder remembers the status and size written.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// representationHeaders describe one particular response body.
var representationHeaders = []string{"Content-Length", "Content-Encoding", "Content-Type",
	"Content-Range", "Content-Disposition", "ETag", "Last-Modified", "Cache-Control"}

// Common wraps a service handler with what every response needs:
// X-Content-Type-Options, panic recovery into the service's error shape
// (the stack goes to the log, never to the client) and one log line per
// request.
func Common(h http.Handler, log *slog.Logger, writeErr ErrorWriter) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		rec.Header().Set("X-Content-Type-Options", "nosniff")
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Error("panic serving request", "method", r.Method, "path", r.URL.Path,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if rec.status == 0 {
					// Headers the handler set for the response it never
					// sent would describe the error body wrongly (length,
					// encoding) or let an edge cache keep it.
					for _, k := range representationHeaders {
						rec.Header().Del(k)
					}
					writeErr(rec, r, catalog.Errorf(catalog.EINTERNAL, "internal error"))
				}
			}
			if rec.status == 0 {
				rec.status = http.StatusOK // net/http sends 200 for a handler that wrote nothing
			}
			log.LogAttrs(r.Context(), slog.LevelInfo, "request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.status),
				slog.Int("bytes", rec.bytes),
				slog.Duration("duration", time.Since(start)),
				slog.String("remote", r.RemoteAddr))
		}()
		h.ServeHTTP(rec, r)
	})
}

// LogError logs err when it is a server-side failure; client errors are
// not worth a log line beyond the request line. A 503 (database away,
// snapshot not built yet) is expected to pass, so it is a warning.
func LogError(log *slog.Logger, r *http.Request, err error) {
	switch status := ErrorStatus(err); {
	case status == http.StatusServiceUnavailable:
		log.Warn("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	case status >= 500:
		log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
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
