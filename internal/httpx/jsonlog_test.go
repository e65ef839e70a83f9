package httpx_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"strings"
	"testing"
	"testing/slogtest"
	"time"

	"catalog/internal/httpx"
)

// group is a LogValuer that resolves to a group, which only slog's
// handler writes.
type group struct{}

func (group) LogValue() slog.Value { return slog.GroupValue(slog.Int("n", 1)) }

// name is a LogValuer that resolves to a plain string.
type name string

func (n name) LogValue() slog.Value { return slog.StringValue("name:" + string(n)) }

// NewJSONHandler writes every line exactly as slog's JSON handler does,
// whichever of the two writes it: the same handler chains and records
// through both, byte for byte.
func TestJSONHandlerMatchesSlog(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 26, 4, 12, 9, 512345678, time.FixedZone("ICT", 7*3600))
	records := []struct {
		name  string
		level slog.Level
		msg   string
		time  time.Time
		attrs []slog.Attr
	}{
		{"request line", slog.LevelInfo, "request", at, []slog.Attr{
			slog.String("method", "GET"), slog.String("path", "/api/clips/7"), slog.Int("status", 200),
			slog.Int("bytes", 5123), slog.Duration("duration", 2118*time.Microsecond), slog.String("remote", "10.0.0.7:51512"),
			slog.String("request_id", "4f9c0d6e1a2b3c4d5e6f7081")}},
		{"no time", slog.LevelWarn, "no time", time.Time{}, []slog.Attr{slog.Int64("n", -3)}},
		{"levels", slog.LevelError + 2, "level", at, nil},
		{"debug", slog.LevelDebug - 1, "", at, []slog.Attr{slog.Bool("b", true), slog.Bool("f", false)}},
		{"escapes", slog.LevelInfo, "quote \" back \\ nl \n cr \r tab \t bell \a del \x7f <&> é \u2028 \u2029 \xff end",
			at, []slog.Attr{slog.String("k \"\n\xc3", "v\x00\x1f"), slog.String("", "empty key")}},
		{"numbers", slog.LevelInfo, "numbers", at, []slog.Attr{
			slog.Uint64("u", math.MaxUint64), slog.Int64("i", math.MinInt64), slog.Float64("zero", 0),
			slog.Float64("neg zero", math.Copysign(0, -1)), slog.Float64("small", 1e-7), slog.Float64("edge", 1e-6),
			slog.Float64("big", 1e21), slog.Float64("below big", 999999999999999999999), slog.Float64("frac", -2.5e-300),
			slog.Float64("pi", math.Pi), slog.Float64("huge", math.MaxFloat64)}},
		{"durations", slog.LevelInfo, "durations", at, []slog.Attr{
			slog.Duration("took", 89729*time.Millisecond), slog.Duration("tiny", time.Nanosecond), slog.Duration("neg", -time.Second)}},
		{"times", slog.LevelInfo, "times", at, []slog.Attr{slog.Time("at", at), slog.Time("utc", at.UTC()), slog.Time("zero", time.Time{})}},
		{"values resolved", slog.LevelInfo, "valuers", at, []slog.Attr{slog.Any("who", name("ann"))}},
		{"empty attribute", slog.LevelInfo, "empty", at, []slog.Attr{{}, slog.Int("after", 1)}},
		// Written by slog's handler.
		{"not a number", slog.LevelInfo, "nan", at, []slog.Attr{slog.Float64("nan", math.NaN()), slog.Float64("inf", math.Inf(-1))}},
		{"error", slog.LevelError, "failed", at, []slog.Attr{slog.Any("err", errors.New("disk \"full\""))}},
		{"any", slog.LevelInfo, "any", at, []slog.Attr{slog.Any("m", map[string]int{"a": 1}), slog.Any("nil", nil)}},
		{"group", slog.LevelInfo, "group", at, []slog.Attr{slog.Group("g", slog.Int("a", 1), slog.String("b", "x")), slog.Group("empty")}},
		{"valuer group", slog.LevelInfo, "valuer group", at, []slog.Attr{slog.Any("v", group{})}},
		{"year 10000", slog.LevelInfo, "far", at, []slog.Attr{slog.Time("t", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))}},
	}
	chains := []struct {
		name  string
		build func(slog.Handler) slog.Handler
	}{
		{"plain", func(h slog.Handler) slog.Handler { return h }},
		{"with attributes", func(h slog.Handler) slog.Handler {
			return h.WithAttrs([]slog.Attr{slog.String("service", "clips"), slog.Duration("budget", 5*time.Second)}).
				WithAttrs([]slog.Attr{slog.Int("n", 2), {}})
		}},
		{"with a group", func(h slog.Handler) slog.Handler {
			return h.WithAttrs([]slog.Attr{slog.String("service", "movies")}).WithGroup("g").WithAttrs([]slog.Attr{slog.Int("n", 2)})
		}},
		{"empty group name", func(h slog.Handler) slog.Handler { return h.WithGroup("") }},
		{"group-valued attribute", func(h slog.Handler) slog.Handler {
			return h.WithAttrs([]slog.Attr{slog.Group("meta", slog.Int("v", 1))})
		}},
		{"request id", httpx.LogHandler},
	}
	renamed := func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.LevelKey {
			return slog.String("severity", a.Value.Any().(slog.Level).String())
		}
		return a
	}
	options := []struct {
		name string
		opts *slog.HandlerOptions
	}{
		{"serve's", httpx.LogOptions(slog.LevelDebug - 4)},
		{"none", nil},
		{"level renamed", &slog.HandlerOptions{Level: slog.LevelDebug - 4, ReplaceAttr: renamed}},
		{"source", &slog.HandlerOptions{Level: slog.LevelDebug - 4, AddSource: true}},
	}
	ctx := context.Background()
	for _, o := range options {
		for _, c := range chains {
			t.Run(o.name+"/"+c.name, func(t *testing.T) {
				var ours, theirs bytes.Buffer
				fast := c.build(httpx.NewJSONHandler(&ours, o.opts))
				slow := c.build(slog.NewJSONHandler(&theirs, o.opts))
				for _, rc := range records {
					r := slog.NewRecord(rc.time, rc.level, rc.msg, 0)
					r.AddAttrs(rc.attrs...)
					ours.Reset()
					theirs.Reset()
					if fast.Enabled(ctx, rc.level) != slow.Enabled(ctx, rc.level) {
						t.Fatalf("%s: Enabled differs", rc.name)
					}
					errOurs, errTheirs := fast.Handle(ctx, r.Clone()), slow.Handle(ctx, r.Clone())
					if (errOurs == nil) != (errTheirs == nil) {
						t.Errorf("%s: error %v, slog's %v", rc.name, errOurs, errTheirs)
					}
					if ours.String() != theirs.String() {
						t.Errorf("%s:\n got %s\nwant %s", rc.name, ours.String(), theirs.String())
					}
				}
			})
		}
	}
}

// The handler keeps slog's rules for handlers (testing/slogtest).
func TestJSONHandlerSlogtest(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	h := httpx.NewJSONHandler(&buf, nil)
	results := func() []map[string]any {
		var ms []map[string]any
		for line := range bytes.Lines(buf.Bytes()) {
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
		}
		return ms
	}
	if err := slogtest.TestHandler(h, results); err != nil {
		t.Fatal(err)
	}
}

// Any string is quoted as slog quotes it.
func FuzzJSONHandlerString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\r\t\x00\x1f\x7f", "é\u2028\u2029\xff\xc3", "<&>", strings.Repeat("ü", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var ours, theirs bytes.Buffer
		r := slog.NewRecord(time.Time{}, slog.LevelInfo, s, 0)
		r.AddAttrs(slog.String(s, s))
		httpx.NewJSONHandler(&ours, nil).Handle(context.Background(), r)
		slog.NewJSONHandler(&theirs, nil).Handle(context.Background(), r)
		if ours.String() != theirs.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, ours.String(), theirs.String())
		}
	})
}

// BenchmarkRequestLine is the request line through serve's handler
// chain: slog's JSON handler against NewJSONHandler.
func BenchmarkRequestLine(b *testing.B) {
	for _, bm := range []struct {
		name string
		new  func(w *bytes.Buffer, opts *slog.HandlerOptions) slog.Handler
	}{
		{"slog", func(w *bytes.Buffer, opts *slog.HandlerOptions) slog.Handler { return slog.NewJSONHandler(w, opts) }},
		{"httpx", func(w *bytes.Buffer, opts *slog.HandlerOptions) slog.Handler { return httpx.NewJSONHandler(w, opts) }},
	} {
		b.Run(bm.name, func(b *testing.B) {
			var out bytes.Buffer
			h := httpx.LogHandler(bm.new(&out, httpx.LogOptions(slog.LevelInfo)))
			log := slog.New(h).With("service", "clips")
			b.ReportAllocs()
			for b.Loop() {
				out.Reset()
				log.LogAttrs(context.Background(), slog.LevelInfo, "request",
					slog.String("method", "GET"), slog.String("path", "/api/clips/123456"), slog.Int("status", 200),
					slog.Int("bytes", 812), slog.Duration("duration", 1234*time.Microsecond), slog.String("remote", "127.0.0.1:51512"))
			}
		})
	}
}
