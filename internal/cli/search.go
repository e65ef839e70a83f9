package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"catalog/internal/catalog"
	"catalog/internal/postgres"
	"catalog/internal/search"
)

// startSearch starts the in-process search indexes of both services in
// the background, from their files in dir when usable ("" = no files),
// else built from the database; each service is "building" (health)
// until its index is ready.
func startSearch(ctx context.Context, st catalog.Store, log *slog.Logger, dir string) (clips, movies *search.Live) {
	clips = search.NewLive(st, catalog.SearchClips, log.With("service", "clips"))
	movies = search.NewLive(st, catalog.SearchMovies, log.With("service", "movies"))
	if dir != "" {
		clips.UseFile(filepath.Join(dir, "clips.idx"))
		movies.UseFile(filepath.Join(dir, "movies.idx"))
	}
	clips.Start(ctx)
	movies.Start(ctx)
	return clips, movies
}

// makeIndexDir makes the folder of the search index files: --index-dir,
// else beside the SQLite file, else (PostgreSQL) a folder per database
// under the user's cache dir, which instances on one host may share
// (each file is replaced whole, and any instance's is current to the
// same database). With no cache dir known, there are no files: every
// start builds.
func (s *serveState) makeIndexDir() error {
	dir := s.c.indexDir
	if dir == "" {
		dir = defaultIndexDir(s.c.db.dsn, s.getenv)
		if dir == "" {
			s.log.Info("no search index files: no user cache dir for them; give --index-dir to keep them")
			return nil
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("search index folder: %s", hideDSN(err.Error(), s.c.db.dsn))
	}
	s.c.indexDir = dir
	return nil
}

// defaultIndexDir is "<db file>.index" for SQLite, and for PostgreSQL
// catalog/index-<hash of the database's address> in the user cache dir
// ($XDG_CACHE_HOME, else ~/.cache), "" when neither is set.
func defaultIndexDir(dsn string, getenv func(string) string) string {
	if !postgres.IsDSN(dsn) {
		return dsn + ".index"
	}
	cache := getenv("XDG_CACHE_HOME")
	if cache == "" && getenv("HOME") != "" {
		cache = filepath.Join(getenv("HOME"), ".cache")
	}
	if cache == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(safeDSN(dsn)))
	return filepath.Join(cache, "catalog", "index-"+hex.EncodeToString(sum[:8]))
}
