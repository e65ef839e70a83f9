// Command episodestore compares the two obvious ways to store a
// movie's episodes, on a seeded SQLite catalog: the JSON column the
// store uses (movies.episodes) and a child table with one row per
// episode, read in one query. It copies every movie's episodes into the
// child table (the write), then reads the episodes of random pages of
// 20 movies both ways (the read), and prints the times. The database is
// changed: use a copy.
//
//	go run ./bench/episodestore -db copy.db -pages 2000
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite"

	"catalog/internal/catalog"
)

func main() {
	db := flag.String("db", "", "a seeded SQLite catalog (changed: use a copy)")
	pages := flag.Int("pages", 2000, "random pages of 20 movies to read each way")
	flag.Parse()
	if err := run(context.Background(), *db, *pages); err != nil {
		fmt.Fprintln(os.Stderr, "episodestore:", err)
		os.Exit(1)
	}
}

const childTable = `CREATE TABLE movie_episodes (
    movie_id    INTEGER NOT NULL,
    server      INTEGER NOT NULL,
    ep          INTEGER NOT NULL,
    server_name TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    slug        TEXT    NOT NULL,
    link_embed  TEXT    NOT NULL,
    link_m3u8   TEXT    NOT NULL,
    PRIMARY KEY (movie_id, server, ep)
) WITHOUT ROWID`

const fillChild = `INSERT INTO movie_episodes
SELECT m.id, s.key, e.key, s.value ->> 'server_name', e.value ->> 'name', e.value ->> 'slug',
       e.value ->> 'link_embed', e.value ->> 'link_m3u8'
FROM movies m, json_each(m.episodes) s, json_each(s.value -> 'server_data') e`

func run(ctx context.Context, path string, pages int) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var maxID int64
	if err := db.QueryRowContext(ctx, `SELECT max(id) FROM movies`).Scan(&maxID); err != nil {
		return err
	}
	start := time.Now()
	if _, err := db.ExecContext(ctx, childTable); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, fillChild)
	if err != nil {
		return err
	}
	n, _ := res.RowsAffected()
	fmt.Printf("child table: %d episode rows written in %v\n", n, time.Since(start).Round(time.Millisecond))
	rng := rand.New(rand.NewPCG(1, 2))
	firsts := make([]int64, pages)
	for i := range firsts {
		firsts[i] = 1 + rng.Int64N(maxID-20)
	}
	for _, way := range []struct {
		name string
		read func(context.Context, *sql.DB, int64) (int, error)
	}{{"JSON column", readJSON}, {"child table", readChild}, {"JSON column", readJSON}, {"child table", readChild}} {
		start := time.Now()
		eps := 0
		for _, first := range firsts {
			k, err := way.read(ctx, db, first)
			if err != nil {
				return err
			}
			eps += k
		}
		d := time.Since(start)
		fmt.Printf("%s: %d pages of 20 movies (%d episodes) in %v, %.1f µs a page\n", way.name, pages, eps,
			d.Round(time.Millisecond), float64(d.Microseconds())/float64(pages))
	}
	return nil
}

// readJSON reads and parses the episodes of movies first..first+19.
func readJSON(ctx context.Context, db *sql.DB, first int64) (int, error) {
	rows, err := db.QueryContext(ctx, `SELECT episodes FROM movies WHERE id BETWEEN ? AND ? ORDER BY id`, first, first+19)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return 0, err
		}
		servers, err := catalog.ParseEpisodes([]byte(text))
		if err != nil {
			return 0, err
		}
		for _, s := range servers {
			n += len(s.Episodes)
		}
	}
	return n, rows.Err()
}

// readChild reads the same episodes from the child table, in one query,
// into the same values.
func readChild(ctx context.Context, db *sql.DB, first int64) (int, error) {
	rows, err := db.QueryContext(ctx, `SELECT movie_id, server, server_name, name, slug, link_embed, link_m3u8
FROM movie_episodes WHERE movie_id BETWEEN ? AND ? ORDER BY movie_id, server, ep`, first, first+19)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	byMovie := map[int64][]catalog.Server{}
	n := 0
	for rows.Next() {
		var id, server int64
		var sname string
		var e catalog.Episode
		if err := rows.Scan(&id, &server, &sname, &e.Name, &e.Slug, &e.LinkEmbed, &e.LinkM3U8); err != nil {
			return 0, err
		}
		servers := byMovie[id]
		if int64(len(servers)) <= server {
			servers = append(servers, catalog.Server{Name: strings.Clone(sname)})
		}
		servers[server].Episodes = append(servers[server].Episodes, e)
		byMovie[id] = servers
		n++
	}
	return n, rows.Err()
}
