package logbatch

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
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

// Lines reach the log within the flush interval, without Flush or
// Close, and not before it.
func TestFlushesPeriodically(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var out recordingWriter
		l := New(&out, 100*time.Millisecond)
		defer l.Close()
		l.Write([]byte("one\n"))
		l.Write([]byte("two\n"))
		time.Sleep(99 * time.Millisecond)
		synctest.Wait()
		if got := out.String(); got != "" {
			t.Fatalf("before the interval: got %q written, want nothing", got)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got := out.String(); got != "one\ntwo\n" {
			t.Fatalf("after the interval: got %q, want %q", got, "one\ntwo\n")
		}
	})
}

func TestBatchesUntilFlushOrClose(t *testing.T) {
	t.Parallel()
	var out recordingWriter
	l := New(&out, time.Hour)
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

func TestNeverSplitsALine(t *testing.T) {
	t.Parallel()
	var out recordingWriter
	l := New(&out, time.Hour)
	line := []byte(strings.Repeat("x", 999) + "\n")
	var want bytes.Buffer
	for range 3 * bufferSize / len(line) {
		l.Write(line)
		want.Write(line)
	}
	huge := []byte(strings.Repeat("y", 2*bufferSize) + "\n")
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
		if len(c) > bufferSize && c != string(huge) {
			t.Errorf("write %d: %d bytes, more than the %d-byte batch", i+1, len(c), bufferSize)
		}
	}
	if got := out.String(); got != want.String() {
		t.Errorf("got %d bytes, want the %d written, in order", len(got), want.Len())
	}
}
