package httpx

import (
	"context"
	"io"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"time"

	"catalog/internal/catalog"
)

// NewJSONHandler is slog.NewJSONHandler(w, opts), byte for byte, at a
// fraction of its CPU for the lines serve writes on every request.
//
// slog's JSON handler sends every float and, once a ReplaceAttr is set,
// every level through encoding/json, which costs more than the rest of
// the line. This handler writes a record itself when the record, its
// handler's attributes and what opts.ReplaceAttr makes of them are all
// plain values (strings, numbers, booleans, times, durations) outside
// any group, which is every line serve logs per request. Any other
// record, and every record of a handler with a group (WithGroup) or
// AddSource, is written by slog's handler on the same writer, so the
// output never depends on which of the two wrote it
// (TestJSONHandlerMatchesSlog).
func NewJSONHandler(w io.Writer, opts *slog.HandlerOptions) slog.Handler {
	if opts == nil {
		opts = &slog.HandlerOptions{}
	}
	lw := &lineWriter{w: w}
	return &jsonHandler{
		slow: slog.NewJSONHandler(lw, opts),
		out:  lw,
		rep:  opts.ReplaceAttr,
		fast: !opts.AddSource,
	}
}

// lineWriter serializes the two writers' lines: each Write is one line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type jsonHandler struct {
	slow slog.Handler // slog's handler, with the same attributes and groups
	out  *lineWriter
	rep  func(groups []string, a slog.Attr) slog.Attr
	fast bool   // no group opened, no source: records may be written here
	pre  []byte // the handler's own attributes, formatted, each after a ','
}

func (h *jsonHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.slow.Enabled(ctx, l)
}

func (h *jsonHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.slow = h.slow.WithAttrs(as)
	if c.fast {
		pre, ok := h.appendAttrs(append([]byte(nil), h.pre...), as)
		c.pre, c.fast = pre, ok
	}
	return &c
}

func (h *jsonHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.slow, c.fast = h.slow.WithGroup(name), false
	return &c
}

var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func (h *jsonHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.fast {
		return h.slow.Handle(ctx, r)
	}
	bp := lineBuffers.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 16<<10 {
			lineBuffers.Put(bp)
		}
	}()
	b, ok := h.appendRecord((*bp)[:0], r)
	*bp = b
	if !ok {
		return h.slow.Handle(ctx, r)
	}
	_, err := h.out.Write(b)
	return err
}

// appendRecord appends r's line, or reports that slog must write it.
func (h *jsonHandler) appendRecord(b []byte, r slog.Record) ([]byte, bool) {
	b = append(b, '{')
	ok := true
	if !r.Time.IsZero() {
		b, ok = h.appendBuiltin(b, slog.Time(slog.TimeKey, r.Time.Round(0)), slog.KindTime)
	}
	if ok {
		b, ok = h.appendBuiltin(b, slog.Any(slog.LevelKey, r.Level), slog.KindAny)
	}
	if ok {
		b, ok = h.appendBuiltin(b, slog.String(slog.MessageKey, r.Message), slog.KindString)
	}
	if !ok {
		return b, false
	}
	b = append(b, h.pre...)
	r.Attrs(func(a slog.Attr) bool {
		b, ok = h.appendAttr(b, a)
		return ok
	})
	return append(b, "}\n"...), ok
}

// appendBuiltin appends time, level or message, when opts.ReplaceAttr
// leaves its key and kind as they are (slog writes anything else).
func (h *jsonHandler) appendBuiltin(b []byte, a slog.Attr, kind slog.Kind) ([]byte, bool) {
	key := a.Key
	if h.rep != nil {
		a = h.rep(nil, a)
		a.Value = a.Value.Resolve()
	}
	if a.Key != key || a.Value.Kind() != kind {
		return b, false
	}
	if len(b) > 1 {
		b = append(b, ',')
	}
	b = appendJSONKey(b, key)
	if kind == slog.KindAny {
		l, ok := a.Value.Any().(slog.Level)
		if !ok {
			return b, false
		}
		return catalog.AppendJSONString(b, l.String()), true
	}
	return appendPlainValue(b, a.Value)
}

func (h *jsonHandler) appendAttrs(b []byte, as []slog.Attr) ([]byte, bool) {
	ok := true
	for _, a := range as {
		if b, ok = h.appendAttr(b, a); !ok {
			break
		}
	}
	return b, ok
}

// appendAttr appends ",key:value" for a plain value after
// opts.ReplaceAttr, nothing for the empty attribute, or reports that
// slog must write the record.
func (h *jsonHandler) appendAttr(b []byte, a slog.Attr) ([]byte, bool) {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		return b, false
	}
	if h.rep != nil {
		a = h.rep(nil, a)
		a.Value = a.Value.Resolve()
	}
	if a.Key == "" && a.Value.Kind() == slog.KindAny && a.Value.Any() == nil {
		return b, true // the empty attribute, which slog leaves out
	}
	b = appendJSONKey(append(b, ','), a.Key)
	return appendPlainValue(b, a.Value)
}

// appendJSONKey quotes key as slog does: catalog.AppendJSONString's
// rules are slog's (HTML left alone, U+2028 and U+2029 escaped), which
// TestJSONHandlerMatchesSlog and FuzzJSONHandlerString hold it to.
func appendJSONKey(b []byte, key string) []byte {
	return append(catalog.AppendJSONString(b, key), ':')
}

// appendPlainValue appends v as slog's JSON handler does, for the kinds
// it writes without encoding/json; ok is false for the others.
func appendPlainValue(b []byte, v slog.Value) ([]byte, bool) {
	switch v.Kind() {
	case slog.KindString:
		return catalog.AppendJSONString(b, v.String()), true
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10), true
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10), true
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool()), true
	case slog.KindDuration:
		return strconv.AppendInt(b, int64(v.Duration()), 10), true
	case slog.KindFloat64:
		return appendJSONFloat(b, v.Float64())
	case slog.KindTime:
		t := v.Time()
		if y := t.Year(); y < 0 || y >= 10000 {
			return b, false
		}
		b = append(b, '"')
		b = t.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"'), true
	}
	return b, false
}

// appendJSONFloat writes f as encoding/json does: 'f' form between 1e-6
// and 1e21, else 'e' form without a leading zero in the exponent; NaN
// and the infinities are not JSON.
func appendJSONFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}
