// Package pgtest gives tests a fresh PostgreSQL database of their own
// on the server named by CATALOG_TEST_POSTGRES, and skips them when the
// variable is not set (fails them under CI).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"catalog/internal/testenv"
)

// EnvVar names the server tests may create databases on.
const EnvVar = "CATALOG_TEST_POSTGRES"

// SkipMessage says how to run the PostgreSQL tests.
const SkipMessage = "PostgreSQL tests skipped: set " + EnvVar +
	"=postgres://user@127.0.0.1:PORT/postgres?sslmode=disable (bash .ci/postgres.sh start prints one)"

// ServerDSN returns the server's DSN. When it is unset the test skips, or
// fails under CI (testenv).
func ServerDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvVar)
	if dsn == "" {
		testenv.SkipOrFail(t, SkipMessage)
	}
	return dsn
}

// DSN creates an empty, uniquely named database on the test server,
// drops it (closing any connection left) when the test ends, and
// returns its DSN.
func DSN(t testing.TB) string {
	t.Helper()
	server := ServerDSN(t)
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s is not a URL: %v", EnvVar, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "catalog_test_" + hex.EncodeToString(b[:])

	admin := func(sql string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Fatalf("connect to %s: %v", EnvVar, err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	admin("CREATE DATABASE " + name)
	t.Cleanup(func() { admin("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })

	u.Path = "/" + name
	return u.String()
}
