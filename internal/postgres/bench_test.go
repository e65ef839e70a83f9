package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"catalog/internal/catalog"
	"catalog/internal/postgres/pgtest"
)

// Run with: go test -run '^$' -bench . -benchtime 1x ./internal/postgres
// (CATALOG_TEST_POSTGRES set). Each op writes 100 000 rows.
const benchRows = 100_000

func benchClips(n int) []catalog.Clip {
	platforms := []string{"", "JAV", "JAVJAV", "คลิปหลุด", "ทวิต"}
	clips := make([]catalog.Clip, n)
	for i := range clips {
		clips[i] = catalog.Clip{
			Title:     fmt.Sprintf("Sunset over the bay number %d ภาษาไทย", i),
			IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
			CoverURL:  "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
			Platform:  platforms[i%len(platforms)],
			Notes:     "some notes",
		}
	}
	return clips
}

func benchMovies(n int) []catalog.Movie {
	movies := make([]catalog.Movie, n)
	for i := range movies {
		m := catalog.Movie{
			Name:     fmt.Sprintf("A movie called number %d", i),
			Year:     "2019",
			IDCode:   fmt.Sprintf("ABC-%d", i),
			Release:  "2019-05-01",
			Synopsis: "A long synopsis of the movie that goes on for a while.",
		}
		m.Slug = catalog.Slugify(m.Name)
		m.Lists[0] = catalog.NewList([]string{"drama", "comedy"})
		m.Lists[1] = catalog.NewList([]string{"Someone", "Someone Else"})
		movies[i] = m
	}
	return movies
}

func BenchmarkImportClips(b *testing.B) {
	s := openStore(b, pgtest.DSN(b))
	ctx := context.Background()
	for b.Loop() {
		if err := s.ImportClips(ctx, benchClips(benchRows)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}

// BenchmarkUpsertMovies inserts 100k movies, then upserts the same 100k
// by id_code with one field changed.
func BenchmarkUpsertMovies(b *testing.B) {
	s := openStore(b, pgtest.DSN(b))
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		movies := benchMovies(benchRows)
		if i%2 == 1 {
			for j := range movies {
				movies[j].Year = "2020"
			}
		}
		if err := s.UpsertMovies(ctx, movies); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}
