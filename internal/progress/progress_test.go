package progress_test

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/progress"
)

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// clock is a fake clock moved by the test.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                   { return &clock{t: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)} }
func plain(out io.Writer, c *clock) progress.Config {
	return progress.Config{Out: out, Interval: 5 * time.Second, Now: c.now}
}

func TestPlainLines(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(progress.Config) *progress.Reporter
		input int64 // bytes read by the time of the line
		want  string
	}{
		{"records of a known total", func(c progress.Config) *progress.Reporter { return c.Records("export movies", 1000000) }, 0,
			"export movies: 250000 of 1000000 records (25%), 50000/s, about 15s left"},
		{"bytes of a known input", func(c progress.Config) *progress.Reporter { return c.Bytes("import m.jsonl", 3_900_000_000) }, 1_209_000_000,
			"import m.jsonl: 250000 records, 50000/s, 31% (1.2 GB of 3.9 GB), about 11s left"},
		{"unknown total", func(c progress.Config) *progress.Reporter { return c.Bytes("import stdin", 0) }, 1000,
			"import stdin: 250000 records, 50000/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			c := newClock()
			r := tc.start(plain(&out, c))
			src := r.Reader(io.LimitReader(zeros{}, tc.input))
			if _, err := io.Copy(io.Discard, src); err != nil {
				t.Fatal(err)
			}
			c.advance(5 * time.Second)
			r.Add(250000)
			r.Close()
			if got := out.String(); got != tc.want+"\n" {
				t.Errorf("got  %q\nwant %q", got, tc.want+"\n")
			}
		})
	}
}

// TestPlainInterval: one line per interval however many updates come
// in between, none before the first interval has passed.
func TestPlainInterval(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	r := plain(&out, c).Records("seed clips", 100)
	for range 40 { // 40 updates a second apart: lines at 5, 10, ... 40 s
		c.advance(time.Second)
		r.Add(1)
	}
	r.Close()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 8 {
		t.Fatalf("got %d lines, want 8 (one per 5 s over 40 s):\n%s", len(lines), out.String())
	}
	if want := "seed clips: 5 of 100 records (5%), 1/s, about 1m35s left"; lines[0] != want {
		t.Errorf("first line:\n got %q\nwant %q", lines[0], want)
	}
	r.Restart()
	c.advance(5 * time.Second)
	r.Add(2)
	if !strings.HasSuffix(out.String(), "seed clips: 2 of 100 records (2%), 0/s, about 4m5s left\n") {
		t.Errorf("after Restart: got %q", out.String())
	}
}

func TestQuiet(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	cfg := plain(&out, c)
	cfg.Quiet = true
	cfg.Terminal = true
	r := cfg.Records("export movies", 10)
	if r != nil {
		t.Fatalf("a quiet Config gave a reporter")
	}
	for range 10 {
		c.advance(time.Minute)
		r.Add(1) // a nil reporter ignores calls
	}
	in := strings.NewReader("abc")
	if got := r.Reader(in); got != io.Reader(in) {
		t.Errorf("a nil reporter wrapped the reader")
	}
	r.Close()
	if out.Len() != 0 {
		t.Errorf("quiet: got %q, want nothing", out.String())
	}
}

// TestBar: on a terminal the bar shows the label, a percentage, the
// count and the rate, and its line is ended once.
func TestBar(t *testing.T) {
	var out bytes.Buffer
	r := progress.Config{Out: &out, Terminal: true}.Records("export movies", 1000)
	for range 500 {
		r.Add(1)
	}
	r.Close()
	got := out.String()
	for _, want := range []string{"export movies", "50%", "500/1000", "records/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("bar %q lacks %q", got, want)
		}
	}
	if !strings.HasSuffix(got, "\n") || strings.HasSuffix(got, "\n\n") {
		t.Errorf("bar line not ended exactly once: %q", got)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 999: "999 B", 1000: "1.0 kB", 1_234_567: "1.2 MB", 3_900_000_000: "3.9 GB"} {
		if got := progress.FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d): got %q, want %q", n, got, want)
		}
	}
}

// syncBuffer is written by the bar library's own goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSpinnerStops: without a known total the bar is a spinner that the
// library redraws from a goroutine; after Close nothing more may reach
// the terminal, or it would overwrite the summary.
func TestSpinnerStops(t *testing.T) {
	// In a bubble the library's redraw ticker runs on the fake clock, so
	// the wait below costs no real time.
	synctest.Test(t, func(t *testing.T) {
		var out syncBuffer
		r := progress.Config{Out: &out, Terminal: true}.Bytes("import stdin", 0)
		r.Add(300)
		r.Close()
		closed := out.String()
		if !strings.Contains(closed, "import stdin: 300 records") || !strings.HasSuffix(closed, "\n") {
			t.Errorf("spinner: got %q, want the count and an ended line", closed)
		}
		time.Sleep(300 * time.Millisecond) // three of the library's redraw ticks
		if got := out.String(); got != closed {
			t.Errorf("the spinner drew after Close: %q", strings.TrimPrefix(got, closed))
		}
	})
}
