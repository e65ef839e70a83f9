package httpx_test

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/httpx"
)

// pipeListener hands out the server ends of net.Pipe connections, so
// that a real http.Server runs inside a synctest bubble.
type pipeListener struct {
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	l.conns <- server
	return client
}

// uploadServer serves one route that reads its body through
// httpx.UploadBody and answers how many bytes arrived, on a server with
// the production timeouts (httpx.NewServer).
func uploadServer(t *testing.T) *pipeListener {
	t.Helper()
	return uploadServerFor(t, 0)
}

// uploadServerFor is uploadServer with an upload's maximum duration (0:
// the default).
func uploadServerFor(t *testing.T, maxDuration time.Duration) *pipeListener {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := httpx.NewUploadBody(w, r, maxDuration)
		defer u.Answer()
		n, err := io.Copy(io.Discard, u)
		if err != nil {
			writeTestError(w, r, err)
			return
		}
		fmt.Fprintf(w, "%d", n)
	})
	srv := httpx.NewServer(h, slog.New(slog.DiscardHandler))
	ln := newPipeListener()
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		// A connection's goroutine lingers up to 500 ms after an answer
		// that left the body unread (net/http's closeWriteAndWait); the
		// bubble must not end before it.
		time.Sleep(time.Second)
	})
	return ln
}

// sendSlowly posts size bytes in chunks of chunk bytes, one every
// every, and returns the answer.
func sendSlowly(t *testing.T, ln *pipeListener, size, chunk int, every time.Duration) (int, string) {
	t.Helper()
	conn := ln.dial()
	done := make(chan struct{})
	defer func() {
		close(done)
		conn.Close()
	}()
	go func() {
		fmt.Fprintf(conn, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", size)
		part := []byte(strings.Repeat("x", chunk))
		for sent := 0; sent < size; sent += chunk {
			select {
			case <-done:
				return
			case <-time.After(every):
			}
			if _, err := conn.Write(part[:min(chunk, size-sent)]); err != nil {
				return
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A slow link that keeps sending finishes however long it takes: 1.7 MB
// at 45 KB/s is 38 s, past the server's 30 s ReadTimeout, which used to
// cut it.
func TestUploadSlowLinkFinishes(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ln := uploadServer(t)
		start := time.Now()
		status, body := sendSlowly(t, ln, 1_700_000, 4500, 100*time.Millisecond)
		if status != http.StatusOK || body != "1700000" {
			t.Fatalf("slow upload: got %d %q, want 200 \"1700000\"", status, body)
		}
		if took := time.Since(start); took < 37*time.Second {
			t.Fatalf("the upload took %s; the test must run past 30 s to mean anything", took)
		}
	})
}

// A link that sends less than 32 KiB in 30 s is cut with a 408 that says
// so; it is not left to hold the import slot.
func TestUploadStalledLinkIsCut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		chunk int
		every time.Duration
	}{
		{"stalled", 1000, time.Hour},
		{"trickling", 1000, time.Second}, // 30,000 bytes in 30 s
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ln := uploadServer(t)
				start := time.Now()
				status, body := sendSlowly(t, ln, 1_000_000, tc.chunk, tc.every)
				if status != http.StatusRequestTimeout || !strings.Contains(body, "less than 32 KiB in 30s") {
					t.Fatalf("got %d %s, want 408 naming the minimum rate", status, body)
				}
				if took := time.Since(start); took < 30*time.Second || took > 31*time.Second {
					t.Fatalf("cut after %s, want 30 s", took)
				}
			})
		})
	}
}

// An upload that keeps the minimum rate is still cut at its maximum
// duration (30 minutes unless set), with a 408 that says so, so that no
// one holds the import slot for days; one that ends before it finishes.
func TestUploadMaxDuration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		max      time.Duration // 0: the default
		size     int
		wantCut  time.Duration // 0: finishes
		wantBody string
	}{
		// 33 KiB every 28 s passes the minimum rate and would take
		// 29 hours for 128 MiB.
		{"default", 0, 128 << 20, 30 * time.Minute, "took longer than 30m0s"},
		{"set", 5 * time.Minute, 128 << 20, 5 * time.Minute, "took longer than 5m0s"},
		{"within", 5 * time.Minute, 33 << 10 * 10, 0, "337920"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ln := uploadServerFor(t, tc.max)
				start := time.Now()
				status, body := sendSlowly(t, ln, tc.size, 33<<10, 28*time.Second)
				took := time.Since(start)
				if tc.wantCut == 0 {
					if status != http.StatusOK || body != tc.wantBody {
						t.Fatalf("got %d %q after %s, want 200 %q", status, body, took, tc.wantBody)
					}
					return
				}
				if status != http.StatusRequestTimeout || !strings.Contains(body, tc.wantBody) {
					t.Fatalf("got %d %s, want 408 saying it %s", status, body, tc.wantBody)
				}
				if took < tc.wantCut || took > tc.wantCut+time.Second {
					t.Fatalf("cut after %s, want %s", took, tc.wantCut)
				}
			})
		})
	}
}
