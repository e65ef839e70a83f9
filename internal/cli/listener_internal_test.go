package cli

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"catalog/internal/metrics"
)

// oneConn is a listener that hands out one net.Pipe connection, so that
// a real http.Server runs inside a synctest bubble.
type oneConn struct {
	conn chan net.Conn
	done chan struct{}
}

func (l *oneConn) Accept() (net.Conn, error) {
	select {
	case c := <-l.conn:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}
func (l *oneConn) Close() error   { return nil }
func (l *oneConn) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// The metrics listener has timeouts like the services': an idle
// keep-alive connection is closed after 2 minutes (it used to stay open
// for ever), and one that never finishes its headers after 10 s.
func TestMetricsServerTimeouts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		request bool
		closeBy time.Duration
	}{
		{"idle keep-alive", true, 121 * time.Second},
		{"headers never sent", false, 11 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := metricsServer(metrics.New(), slog.New(slog.DiscardHandler))
				ln := &oneConn{conn: make(chan net.Conn, 1), done: make(chan struct{})}
				client, server := net.Pipe()
				ln.conn <- server
				go srv.Serve(ln)
				defer func() {
					close(ln.done)
					srv.Close()
				}()
				defer client.Close()
				start := time.Now()
				br := bufio.NewReader(client)
				if tc.request {
					io.WriteString(client, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
					resp, err := http.ReadResponse(br, nil)
					if err != nil || resp.StatusCode != http.StatusOK {
						t.Fatalf("GET /metrics: %v %v", resp, err)
					}
					io.Copy(io.Discard, resp.Body)
					start = time.Now()
				} else {
					io.WriteString(client, "GET /metrics HTTP/1.1\r\n")
				}
				// The server closes the connection: the read ends with
				// EOF (or what the unfinished request was answered with).
				_, err := io.Copy(io.Discard, br)
				if err != nil && !errors.Is(err, io.ErrClosedPipe) {
					t.Fatalf("read: %v", err)
				}
				if took := time.Since(start); took > tc.closeBy {
					t.Fatalf("connection closed after %s, want by %s", took, tc.closeBy)
				}
			})
		})
	}
}
