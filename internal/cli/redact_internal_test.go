package cli

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// The three places a PostgreSQL password can sit in --db, and their
// variants: none may survive safeDSN or hideDSN.
func TestSafeDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, dsn, want string
		secret          string // the password as a driver might quote it
	}{
		{"URL user part", "postgres://app:s3cr3t@db.example:5432/catalog?sslmode=require",
			"postgres://app:xxxxx@db.example:5432/catalog?sslmode=require", `s3cr3t`},
		{"URL user part, escaped", "postgresql://app:p%40ss%2Fw0rd@db/catalog",
			"postgresql://app:xxxxx@db/catalog", `p@ss/w0rd`},
		{"password query parameter", "postgres://app@db/catalog?sslmode=disable&password=s3cr3t",
			"postgres://app@db/catalog?password=xxxxx&sslmode=disable", `s3cr3t`},
		{"password query parameter, upper case", "postgres://app@db/catalog?PASSWORD=s3cr3t",
			"postgres://app@db/catalog?PASSWORD=xxxxx", `s3cr3t`},
		{"password query parameter, escaped key", "postgres://app@db/catalog?pass%77ord=s3cr3t",
			"postgres://app@db/catalog?password=xxxxx", `s3cr3t`},
		{"both", "postgres://app:s3cr3t@db/catalog?password=s3cr3t",
			"postgres://app:xxxxx@db/catalog?password=xxxxx", `s3cr3t`},
		{"unparseable URL", "postgres://app:s3cr3t@db:port/catalog", "postgres://...", `s3cr3t`},
		{"key=value", "host=db user=app password=s3cr3t dbname=catalog",
			"host=db user=app password=xxxxx dbname=catalog", `s3cr3t`},
		{"key=value, quoted", `host=db password='s3 cr\'3t' dbname=catalog`,
			"host=db password=xxxxx dbname=catalog", `s3 cr'3t`},
		{"key=value, spaces around =", "host=db Password = s3cr3t dbname=catalog",
			"host=db Password = xxxxx dbname=catalog", `s3cr3t`},
		{"no password", "postgres://app@db/catalog?sslmode=disable", "postgres://app@db/catalog?sslmode=disable", ``},
		{"SQLite file", "/var/lib/catalog/catalog.db", "/var/lib/catalog/catalog.db", ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := safeDSN(tc.dsn); got != tc.want {
				t.Errorf("safeDSN(%q) = %q, want %q", tc.dsn, got, tc.want)
			}
			if tc.secret == "" {
				return
			}
			msg := "open database: " + tc.dsn + ".snapshots: permission denied (password " + tc.secret + ")"
			got := hideDSN(msg, tc.dsn)
			for _, leak := range []string{tc.secret, "s3cr3t", "p%40ss"} {
				if strings.Contains(got, leak) {
					t.Errorf("hideDSN left %q in %q", leak, got)
				}
			}
		})
	}
}

// Every log line of serve goes through redactHandler when the DSN has a
// password: message, string, error and grouped attributes alike.
func TestRedactHandler(t *testing.T) {
	t.Parallel()
	const dsn = "host=db user=app password=s3cr3t dbname=catalog"
	var buf bytes.Buffer
	r := newRedactor(dsn)
	if !r.secret() {
		t.Fatal("secret() = false for a DSN with a password")
	}
	log := slog.New(redactHandler{next: slog.NewJSONHandler(&buf, nil), r: r})
	log = log.With("database", dsn)
	log.Error("cannot open "+dsn+".snapshots",
		"err", errors.New("mkdir "+dsn+".snapshots: permission denied"),
		"path", dsn+".snapshots/movies.json.gz",
		slog.Group("g", "secret", "s3cr3t"))
	out := buf.String()
	if strings.Contains(out, "s3cr3t") {
		t.Errorf("log line keeps the password:\n%s", out)
	}
	if !strings.Contains(out, "password=xxxxx") {
		t.Errorf("log line lost the rest of the DSN:\n%s", out)
	}
	if newRedactor("postgres://app@db/catalog").secret() || newRedactor("catalog.db").secret() {
		t.Error("secret() = true for a DSN without a password")
	}
}
