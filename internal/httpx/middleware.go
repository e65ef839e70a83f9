package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"slices"
	"strings"
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

// RequestIDHeader carries a request's id: taken from the request when
// a proxy or client set a usable one, else generated, and always sent
// back, so that one id joins the proxy's log, ours and the client's
// report.
const RequestIDHeader = "X-Request-Id"

// maxRequestIDBytes bounds an id taken from a request; a longer one is
// replaced, so that a client cannot fill the log.
const maxRequestIDBytes = 128

type requestIDKey struct{}

// RequestID is the id Common gave r's context ("" outside Common).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestID keeps a sent id made of the characters ids are written in
// (UUIDs, hex, base64, "Root=1-..." trace ids), else makes a new one.
func requestID(sent string) string {
	if sent != "" && len(sent) <= maxRequestIDBytes && validID(sent) {
		return sent
	}
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func validID(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-' || c == '_' || c == '.' || c == ':' || c == '=' || c == '+' || c == '/' || c == '@':
		default:
			return false
		}
	}
	return true
}

// LogHandler adds the request id of the record's context, as
// request_id, to every line logged with one (log.InfoContext and the
// like), so that every line of a request carries it. Wrapping twice
// adds it once.
func LogHandler(h slog.Handler) slog.Handler {
	if _, ok := h.(requestIDHandler); ok {
		return h
	}
	return requestIDHandler{h}
}

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}

// LogOptions are the options of every log handler the program builds:
// a duration attribute KEY becomes KEY_ms, a number of milliseconds
// (to the microsecond), one form that people and log tools both read,
// instead of slog's nanosecond integers in JSON beside "1.5s" strings
// in text.
func LogOptions(level slog.Leveler) *slog.HandlerOptions {
	return &slog.HandlerOptions{Level: level, ReplaceAttr: millis}
}

func millis(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() != slog.KindDuration {
		return a
	}
	d := a.Value.Duration()
	return slog.Float64(a.Key+"_ms", float64(d.Round(time.Microsecond).Microseconds())/1000)
}

// DefaultReadTimeout is the deadline of a read request when the service
// is given none (contract 1: --read-timeout defaults to 5s).
const DefaultReadTimeout = 5 * time.Second

// ReadDeadline gives every GET and HEAD request that h serves a context
// deadline d after it starts (contract 2; d <= 0: DefaultReadTimeout).
// The database work of a request past it is cancelled, and the engines
// and caches turn that into catalog.ContextError, which the service's
// error writer answers 503 in its own shape. Writes are not bounded
// here: cutting one short would leave the client unsure whether it
// happened. Nor are the paths in except.
func ReadDeadline(h http.Handler, d time.Duration, except ...string) http.Handler {
	if d <= 0 {
		d = DefaultReadTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead || slices.Contains(except, r.URL.Path) {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// NoStore is the Cache-Control of every error answer and of answers no
// cache may keep (health, writes).
const NoStore = "no-store"

// Policy is a service's one header policy for its public reads, decided
// when the status is known: every answer carries
// Access-Control-Allow-Origin: * (reads carry no credentials); an error
// (4xx, 5xx) is NoStore; a successful GET or HEAD gets Success unless
// the handler chose its own Cache-Control (health, the snapshot).
type Policy struct {
	Success string // Cache-Control of a successful read
}

// Wrap applies the policy to every answer of h.
func (p *Policy) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := Record(w, r)
		rec.Header().Set("Access-Control-Allow-Origin", "*")
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		rec.OnHeader(func(status int, h http.Header) {
			switch {
			case status >= 400:
				h.Set("Cache-Control", NoStore)
			case read && h.Get("Cache-Control") == "":
				h.Set("Cache-Control", p.Success)
			}
		})
		h.ServeHTTP(rec, r)
	})
}

// HandlerFunc is the one handler shape of both services: it writes its
// answer, or returns the error that the service's ErrorWriter answers,
// so that no handler writes an error of its own.
type HandlerFunc func(http.ResponseWriter, *http.Request) error

// Handler adapts h to net/http: an error that h returns goes through
// writeErr, the service's one error writer.
func (writeErr ErrorWriter) Handler(h HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeErr(w, r, err)
		}
	})
}

// routeSlotKey finds the slot that Router fills with the pattern that
// matched, for middleware outside the router (metrics) that must label a
// request by its route, never by its raw path.
type routeSlotKey struct{}

// WithRouteSlot returns r carrying an empty slot; after the request has
// been served the slot holds the ServeMux pattern that handled it ("GET
// /api/clips/{id}"), or "" when no Router ran. The slot travels in the
// context because middleware between here and the router may replace
// the request (WithContext), and with it r.Pattern.
func WithRouteSlot(r *http.Request) (*http.Request, *string) {
	slot := new(string)
	return r.WithContext(context.WithValue(r.Context(), routeSlotKey{}, slot)), slot
}

// recordRoute copies the pattern the mux chose into r's slot, if any.
func recordRoute(r *http.Request) {
	if slot, ok := r.Context().Value(routeSlotKey{}).(*string); ok {
		*slot = r.Pattern
	}
}

// ParseTrustedProxies reads a comma-separated list of addresses or CIDR
// prefixes of the load balancers and proxies in front of the services.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an IP address or CIDR prefix", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// BehindProxies makes r.RemoteAddr the client's address when the request
// came through trusted proxies: the right-most X-Forwarded-For hop that
// is not one of them. Behind a load balancer every request would
// otherwise come from the balancer, and the per-address login
// throttling would lock everybody out after a few failures. The header
// is ignored from anyone else, since a client can write anything in it.
func BehindProxies(next http.Handler, trusted []netip.Prefix) http.Handler {
	if len(trusted) == 0 {
		return next
	}
	isTrusted := func(a netip.Addr) bool {
		a = a.Unmap()
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, err := netip.ParseAddrPort(r.RemoteAddr)
		if err != nil || !isTrusted(peer.Addr()) {
			next.ServeHTTP(w, r)
			return
		}
		var hops []string
		for _, v := range r.Header.Values("X-Forwarded-For") {
			hops = append(hops, strings.Split(v, ",")...)
		}
		client := netip.Addr{}
		for i := len(hops) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break
			}
			client = a.Unmap()
			if !isTrusted(client) {
				break
			}
		}
		if client.IsValid() {
			r = r.WithContext(r.Context())
			r.RemoteAddr = net.JoinHostPort(client.String(), "0")
		}
		next.ServeHTTP(w, r)
	})
}
