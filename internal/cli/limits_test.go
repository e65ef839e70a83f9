package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"catalog/internal/postgres/pgtest"
	"catalog/internal/testdb"
)

// rawRequest sends a GET whose request line and headers (up to and
// including the blank line) are exactly size bytes, and returns the
// status of the answer.
func rawRequest(t *testing.T, addr string, size int) int {
	t.Helper()
	head := "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: "
	pad := size - len(head) - len("\r\n\r\n")
	req := head + strings.Repeat("a", pad) + "\r\n\r\n"
	if len(req) != size {
		t.Fatalf("built %d bytes, want %d", len(req), size)
	}
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatalf("write %d bytes: %v", size, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read answer to %d bytes: %v", size, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Contract 2: the request line and headers are at most 64 KiB; larger is
// 431. net/http allows 4096 bytes beyond Server.MaxHeaderBytes, so this
// runs against a real serve listener, with the numbers as literals.
func TestHeaderLimit431(t *testing.T) {
	t.Parallel()
	db := testdb.New(t)
	srv := startServe(t, map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_CLIPS_ADDR": "127.0.0.1:0", "CATALOG_MOVIES_ADDR": "127.0.0.1:0"})
	for _, addr := range []string{srv.addrs.Clips.String(), srv.addrs.Movies.String()} {
		for _, tc := range []struct {
			size, want int
		}{
			{1024, http.StatusOK},
			{65536, http.StatusOK},
			{65537, http.StatusRequestHeaderFieldsTooLarge},
			{70000, http.StatusRequestHeaderFieldsTooLarge},
		} {
			t.Run(fmt.Sprintf("%s %d bytes", addr, tc.size), func(t *testing.T) {
				if got := rawRequest(t, addr, tc.size); got != tc.want {
					t.Errorf("got status %d, want %d", got, tc.want)
				}
			})
		}
	}
}

func TestReadTimeoutFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"zero", nil, []string{"serve", "--read-timeout=0s"}, "--read-timeout must be positive"},
		{"negative", nil, []string{"serve", "--read-timeout=-1s"}, "--read-timeout must be positive"},
		{"bad env", map[string]string{"CATALOG_READ_TIMEOUT": "soon"}, []string{"serve"}, "CATALOG_READ_TIMEOUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.env, "", tc.args...)
			wantExit(t, r, 2)
			if !strings.Contains(r.err.Error(), tc.want) {
				t.Errorf("got %q, want it to mention %q", r.err, tc.want)
			}
		})
	}

	// CATALOG_READ_TIMEOUT reaches both services: with 1ns every read is
	// past its deadline, so it is a 503 in each service's shape.
	db := testdb.New(t)
	srv := startServe(t, map[string]string{"CATALOG_DB": db.DSN(), "CATALOG_CLIPS_ADDR": "127.0.0.1:0",
		"CATALOG_MOVIES_ADDR": "127.0.0.1:0", "CATALOG_READ_TIMEOUT": "1ns"})
	for _, tc := range []struct{ url, want string }{
		{"http://" + srv.addrs.Clips.String() + "/api/clips", "clip error 503: request timed out"},
		{"http://" + srv.addrs.Movies.String() + "/api/movies", "movie error 0: request timed out"},
	} {
		resp, err := http.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Error *struct {
				Status  int
				Message string
			}
			Code *int
			Msg  string
		}
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		var got string
		switch {
		case err != nil:
			got = err.Error()
		case e.Error != nil:
			got = fmt.Sprintf("clip error %d: %s", e.Error.Status, e.Error.Message)
		case e.Code != nil:
			got = fmt.Sprintf("movie error %d: %s", *e.Code, e.Msg)
		}
		if resp.StatusCode != http.StatusServiceUnavailable || got != tc.want {
			t.Errorf("GET %s: got %d %s, want 503 %s", tc.url, resp.StatusCode, got, tc.want)
		}
	}
}

// No log line of serve, and no error of a command, carries a database
// password, whichever of the three forms holds it (contract: passwords
// never in logs). The URL forms run against the test PostgreSQL server
// (its trust authentication ignores the password); a key=value string is
// a SQLite file name to --db, and its folder and snapshot paths are
// logged.
func TestNoPasswordInLogs(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-Pa55"
	withPassword := func(t *testing.T, form string) string {
		if form == "key=value" {
			return filepath.Join(t.TempDir(), "host=db user=app password="+secret+" dbname=catalog")
		}
		u, err := url.Parse(pgtest.EmptyDSN(t))
		if err != nil {
			t.Fatal(err)
		}
		switch form {
		case "URL user part":
			u.User = url.UserPassword(u.User.Username(), secret)
		case "password query parameter":
			q := u.Query()
			q.Set("password", secret)
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	for _, form := range []string{"URL user part", "password query parameter", "key=value"} {
		t.Run(form, func(t *testing.T) {
			dsn := withPassword(t, form)
			srv := startServe(t, map[string]string{"CATALOG_DB": dsn, "CATALOG_CLIPS_ADDR": "127.0.0.1:0", "CATALOG_MOVIES_ADDR": "127.0.0.1:0"})
			resp, err := http.Get("http://" + srv.addrs.Clips.String() + "/api/health")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if err := srv.stop(t); err != nil {
				t.Fatalf("serve: %v", err)
			}
			logs := srv.stderr.String()
			if !strings.Contains(logs, `"database"`) {
				t.Fatalf("no database in the start line:\n%s", logs)
			}
			if strings.Contains(logs, secret) {
				t.Errorf("the password is in the log:\n%s", logs)
			}
		})
	}
	// Errors name the server, never the password.
	for _, dsn := range []string{
		"postgres://app:" + secret + "@127.0.0.1:1/catalog?sslmode=disable&connect_timeout=2",
		"postgres://app@127.0.0.1:1/catalog?sslmode=disable&connect_timeout=2&password=" + secret,
		filepath.Join(t.TempDir(), "missing", "host=db password="+secret),
	} {
		r := run(t, nil, "", "migrate", "--db", dsn)
		if r.err == nil {
			t.Fatalf("migrate %s: want an error", dsn)
		}
		if strings.Contains(r.err.Error(), secret) || strings.Contains(r.stderr, secret) {
			t.Errorf("the password is in the error %q (stderr %q)", r.err, r.stderr)
		}
	}
}
