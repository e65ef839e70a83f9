package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"catalog/internal/catalog"
)

// A statement still running at its context's deadline is interrupted
// and reported as the domain's EUNAVAILABLE (a 503), as on PostgreSQL.
func TestDeadlineInterruptsQuery(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	qctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	var n int64
	// Counts to ten billion: hours, unless interrupted.
	err = s.reader.QueryRowContext(qctx, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 10000000000)
		SELECT count(*) FROM c`).Scan(&n)
	err = translate(err, "count")
	elapsed := time.Since(start)
	if catalog.ErrorCode(err) != catalog.EUNAVAILABLE || catalog.ErrorMessage(err) != "request timed out" {
		t.Fatalf("got %v (code %q), want EUNAVAILABLE \"request timed out\"", err, catalog.ErrorCode(err))
	}
	if elapsed > 2*time.Second {
		t.Errorf("query stopped after %v, want soon after the 100ms deadline", elapsed)
	}
}
