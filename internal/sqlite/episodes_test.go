package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite"

	"catalog/internal/storetest"
)

// TestEpisodesMigration: migration 00008 turns each stored link_embed
// into server Main with episode Full, stored byte for byte as the
// store itself writes episodes.
func TestEpisodesMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, db, os.DirFS("migrations"), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatalf("migrate to 5: %v", err)
	}
	links := storetest.MigratedLinks
	for id, link := range links {
		if _, err := db.ExecContext(ctx, `INSERT INTO movies (id, name, name_fold, link_embed, updated_at) VALUES (?, 'M', 'm', ?, 100)`, id, link); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := openStore(t, path)
	db, err = sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckMigratedEpisodes(t, s, func(id int64) (string, int64) {
		var text string
		var kinds int64
		if err := db.QueryRowContext(ctx, `SELECT episodes, play_kinds FROM movies WHERE id = ?`, id).Scan(&text, &kinds); err != nil {
			t.Fatal(err)
		}
		return text, kinds
	})
}
