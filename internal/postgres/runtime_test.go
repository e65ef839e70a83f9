package postgres_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"catalog/internal/postgres/pgtest"
)

// TestRuntimeMigrationDown: migration 00012's down step removes the
// runtime_minutes column it added, so the trial can be taken back.
func TestRuntimeMigrationDown(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("pgx", pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, os.DirFS("migrations"), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 12); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `SELECT runtime_minutes FROM movies`); err != nil {
		t.Fatalf("after up: %v", err)
	}
	if _, err := p.Down(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `SELECT runtime_minutes FROM movies`); err == nil {
		t.Fatal("after down: runtime_minutes is still there")
	}
}
