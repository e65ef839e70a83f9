package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"catalog/internal/catalog"
)

var benchWords = []string{"sunset", "ocean", "night", "city", "tokyo", "คลิป", "หลุด", "東京", "café", "river",
	"mountain", "dance", "live", "studio", "session", "summer", "winter", "train", "street", "festival"}

func benchClips(n, seed int) []catalog.Clip {
	clips := make([]catalog.Clip, n)
	platforms := catalog.DefaultPlatforms()
	for i := range clips {
		k := seed + i
		clips[i] = catalog.Clip{
			Title: fmt.Sprintf("%s %s %s episode %d", benchWords[k%len(benchWords)],
				benchWords[(k/7)%len(benchWords)], benchWords[(k/13)%len(benchWords)], k),
			IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ",
			CoverURL:  "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
			Actor:     "Actor " + benchWords[k%11],
			Platform:  platforms[k%len(platforms)],
		}
	}
	return clips
}

// BenchmarkImportClips imports batches of 10,000 clips, one transaction
// each, into one growing file.
func BenchmarkImportClips(b *testing.B) {
	ctx := context.Background()
	s := openStore(b, filepath.Join(b.TempDir(), "bench.db"))
	const batch = 10_000
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		clips := benchClips(batch, i*batch)
		b.StartTimer()
		if err := s.ImportClips(ctx, clips); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "clips/s")
}

func BenchmarkGetClip(b *testing.B) {
	ctx := context.Background()
	s := openStore(b, filepath.Join(b.TempDir(), "bench.db"))
	if err := s.ImportClips(ctx, benchClips(1000, 0)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		id := int64(1)
		for pb.Next() {
			if _, err := s.GetClip(ctx, id); err != nil {
				b.Error(err)
				return
			}
			id = id%1000 + 1
		}
	})
}

func benchMovies(n, seed int) []catalog.Movie {
	movies := make([]catalog.Movie, n)
	for i := range movies {
		k := seed + i
		m := &movies[i]
		m.Name = fmt.Sprintf("%s %s %d", benchWords[k%len(benchWords)], benchWords[(k/7)%len(benchWords)], k)
		m.Slug = catalog.Slugify(m.Name)
		m.IDCode = fmt.Sprintf("BEN-%07d", k)
		m.Year = "2020"
		m.Release = "2020-01-02"
		m.Poster1URL = "https://img.example.com/p1.jpg"
		m.Synopsis = "A synthetic movie for benchmarks."
		for j := range m.Lists {
			m.Lists[j] = catalog.NewList([]string{benchWords[(k+j)%len(benchWords)], "Other"})
		}
	}
	return movies
}

// BenchmarkUpsertMovies upserts batches of 10,000 new movies keyed by
// id_code, one transaction each.
func BenchmarkUpsertMovies(b *testing.B) {
	ctx := context.Background()
	s := openStore(b, filepath.Join(b.TempDir(), "bench.db"))
	const batch = 10_000
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		movies := benchMovies(batch, i*batch)
		b.StartTimer()
		if err := s.UpsertMovies(ctx, movies); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "movies/s")
}
