package cli_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"catalog/internal/testdb"
)

// logLines parses the JSON log lines serve wrote.
func logLines(tb testing.TB, log string) []map[string]any {
	tb.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatalf("log line is not one JSON object: %q: %v", sc.Text(), err)
		}
		lines = append(lines, l)
	}
	return lines
}

func requestLines(tb testing.TB, log, path string) int {
	tb.Helper()
	n := 0
	for _, l := range logLines(tb, log) {
		if l["msg"] == "request" && l["path"] == path {
			n++
		}
	}
	return n
}

// The request log is batched in memory (one write per batch, not per
// request): every request still gets its line, while serving and at
// shutdown.
func TestServeLogsEveryRequestLine(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	env := map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_CLIPS_ADDR": "127.0.0.1:0", "CATALOG_MOVIES_ADDR": "127.0.0.1:0"}
	srv := startServe(t, env)
	clips := "http://" + srv.addrs.Clips.String()
	c := &http.Client{Timeout: 10 * time.Second}

	getJSON(t, c, clips+"/api/clips", nil)
	// While serving, the line arrives without any further request.
	srv.stderr.waitFor(t, "the request line for /api/clips", func(text string) bool { return requestLines(t, text, "/api/clips") == 1 })

	const n = 25
	for range n {
		getJSON(t, c, clips+"/api/clips/1", nil)
	}
	if err := srv.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	// Run has returned: whatever was still batched is written by now.
	log := srv.stderr.String()
	if got := requestLines(t, log, "/api/clips/1"); got != n {
		t.Errorf("request lines for /api/clips/1 after shutdown: got %d, want %d", got, n)
	}
	lines := logLines(t, log)
	if last := lines[len(lines)-1]; last["msg"] != "stopped" {
		t.Errorf("last log line: got %v, want the shutdown's %q", last, "stopped")
	}
}

// serve's log is read by people and machines: durations as duration_ms
// numbers, kinds by name, a request id in the request line and the
// response, and --log-level / --log-format choose what and how.
func TestServeLogFormat(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	env := map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_LOG_LEVEL": "warn"}
	srv := startServe(t, env, serveArgs()...)
	c := &http.Client{Timeout: 10 * time.Second}
	getJSON(t, c, "http://"+srv.addrs.Clips.String()+"/api/clips", nil)
	if err := srv.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	if n := requestLines(t, srv.stderr.String(), "/api/clips"); n != 0 {
		t.Errorf("--log-level warn: got %d INFO request lines, want none", n)
	}

	env["CATALOG_LOG_LEVEL"] = "info"
	srv = startServe(t, env, serveArgs()...)
	req, _ := http.NewRequest("GET", "http://"+srv.addrs.Movies.String()+"/api/movies", nil)
	req.Header.Set("X-Request-Id", "edge-4f2a")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("X-Request-Id"); got != "edge-4f2a" {
		t.Errorf("X-Request-Id: got %q, want the sent edge-4f2a", got)
	}
	srv.stderr.waitFor(t, "the request line", func(text string) bool { return strings.Contains(text, `"kind":"movies"`) })
	if err := srv.stop(t); err != nil {
		t.Fatalf("serve: %v", err)
	}
	var request map[string]any
	for _, l := range logLines(t, srv.stderr.String()) {
		if _, ok := l["duration"]; ok {
			t.Errorf("line %v has a nanosecond duration", l)
		}
		if l["msg"] == "request" && l["path"] == "/api/movies" {
			request = l
		}
		if l["msg"] == "shutting down" && l["timeout_ms"] != float64(10000) {
			t.Errorf("shutdown line %v, want timeout_ms 10000", l)
		}
	}
	if _, ok := request["duration_ms"].(float64); !ok || request["request_id"] != "edge-4f2a" {
		t.Errorf("request line %v, want a numeric duration_ms and request_id edge-4f2a", request)
	}

	for _, bad := range [][]string{{"--log-level", "loud"}, {"--log-format", "xml"}, {"--log-level", "info+2"}} {
		r := run(t, env, "", append([]string{"serve"}, bad...)...)
		wantExit(t, r, 2)
	}
}
