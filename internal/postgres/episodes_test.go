package postgres_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"catalog/internal/postgres/pgtest"
	"catalog/internal/storetest"
)

// TestEpisodesMigration: migration 00008 turns each stored link_embed
// into server Main with episode Full, stored byte for byte as the
// store itself writes episodes.
func TestEpisodesMigration(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, os.DirFS("migrations"), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatalf("migrate to 5: %v", err)
	}
	for id, link := range storetest.MigratedLinks {
		if _, err := db.ExecContext(ctx, `INSERT INTO movies (id, name, name_fold, link_embed, updated_at) VALUES ($1, 'M', 'm', $2, now())`, id, link); err != nil {
			t.Fatal(err)
		}
	}
	s := openStore(t, dsn)
	storetest.CheckMigratedEpisodes(t, s, func(id int64) (string, int64) {
		var text string
		var kinds int64
		if err := db.QueryRowContext(ctx, `SELECT episodes, play_kinds FROM movies WHERE id = $1`, id).Scan(&text, &kinds); err != nil {
			t.Fatal(err)
		}
		return text, kinds
	})
}
