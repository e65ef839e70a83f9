package cli

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingWriter keeps every Write it gets, as separate chunks.
type recordingWriter struct {
	mu     sync.Mutex
	chunks []string
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chunks = append(r.chunks, string(p))
	return len(p), nil
}

func (r *recordingWriter) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.chunks, "")
}

func (r *recordingWriter) Chunks() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.chunks...)
}

func TestLogWriterFlushesPeriodically(t *testing.T) {
	var out recordingWriter
	l := newLogWriter(&out, time.Millisecond)
	defer l.Close()
	l.Write([]byte("one\n"))
	l.Write([]byte("two\n"))
	// No deadline on speed: the lines must arrive without Flush or Close.
	for out.String() != "one\ntwo\n" {
		if got := out.String(); got != "" && got != "one\n" {
			t.Fatalf("got %q, want %q", got, "one\ntwo\n")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLogWriterBatchesUntilFlushOrClose(t *testing.T) {
	var out recordingWriter
	l := newLogWriter(&out, time.Hour)
	for _, line := range []string{"a\n", "b\n", "c\n"} {
		l.Write([]byte(line))
	}
	if got := out.String(); got != "" {
		t.Fatalf("before any flush: got %q written, want nothing (one write per line is what this avoids)", got)
	}
	l.Flush()
	if got, want := out.Chunks(), []string{"a\nb\nc\n"}; !slices.Equal(got, want) {
		t.Fatalf("after Flush: got writes %q, want %q", got, want)
	}
	l.Write([]byte("last\n"))
	l.Close()
	if got, want := out.String(), "a\nb\nc\nlast\n"; got != want {
		t.Fatalf("after Close: got %q, want %q", got, want)
	}
	l.Write([]byte("after\n"))
	if got, want := out.String(), "a\nb\nc\nlast\nafter\n"; got != want {
		t.Fatalf("a line after Close: got %q, want %q", got, want)
	}
}

func TestLogWriterNeverSplitsALine(t *testing.T) {
	var out recordingWriter
	l := newLogWriter(&out, time.Hour)
	line := []byte(strings.Repeat("x", 999) + "\n")
	var want bytes.Buffer
	for range 3 * logBufferSize / len(line) {
		l.Write(line)
		want.Write(line)
	}
	huge := []byte(strings.Repeat("y", 2*logBufferSize) + "\n")
	l.Write(huge)
	want.Write(huge)
	l.Close()
	chunks := out.Chunks()
	if len(chunks) < 3 {
		t.Errorf("got %d writes, want the batch written whenever it filled (>= 3)", len(chunks))
	}
	for i, c := range chunks {
		if !strings.HasSuffix(c, "\n") {
			t.Errorf("write %d of %d ends mid-line: ...%q", i+1, len(chunks), c[max(0, len(c)-20):])
		}
		if len(c) > logBufferSize && c != string(huge) {
			t.Errorf("write %d: %d bytes, more than the %d-byte batch", i+1, len(c), logBufferSize)
		}
	}
	if got := out.String(); got != want.String() {
		t.Errorf("got %d bytes, want the %d written, in order", len(got), want.Len())
	}
}
