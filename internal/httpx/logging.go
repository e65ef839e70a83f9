package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"
)

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
