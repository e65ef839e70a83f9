package catalog_test

import (
	"testing"
	"time"

	"catalog/internal/catalog"
	"catalog/internal/demo"
)

// demoEpisodes returns the stored forms of a demo shorthand movie's and
// a demo series' episodes (24 episodes on two servers).
func demoEpisodes(b testing.TB) (shorthand, series []byte) {
	b.Helper()
	platforms, err := catalog.NewPlatforms(catalog.DefaultPlatforms())
	if err != nil {
		b.Fatal(err)
	}
	g := demo.NewGenerator(1, platforms, time.Unix(0, 0), time.Second, 1)
	for shorthand == nil || series == nil {
		m := g.Movie()
		text := catalog.AppendEpisodesJSON(nil, m.Episodes)
		switch {
		case len(m.Episodes) == 2 && series == nil:
			series = text
		case len(m.Episodes) == 1 && len(m.Episodes[0].Episodes) == 1 && shorthand == nil:
			shorthand = text
		}
	}
	return shorthand, series
}

// BenchmarkEpisodes times reading a movie's stored episodes (the general
// decoder and the stored-form reader) and writing their served form:
// every movie detail reads and writes them.
func BenchmarkEpisodes(b *testing.B) {
	shorthand, series := demoEpisodes(b)
	for _, bm := range []struct {
		name string
		text []byte
	}{{"shorthand", shorthand}, {"series", series}} {
		servers, err := catalog.ParseEpisodes(bm.text)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("parse/"+bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.text)))
			for b.Loop() {
				if _, err := catalog.ParseEpisodes(bm.text); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("stored/"+bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.text)))
			text := string(bm.text)
			for b.Loop() {
				if _, ok := catalog.ParseStoredEpisodes(text); !ok {
					b.Fatal("not in the stored form")
				}
			}
		})
		b.Run("append/"+bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.text)))
			buf := make([]byte, 0, 2*len(bm.text))
			for b.Loop() {
				buf = catalog.AppendEpisodesJSON(buf[:0], servers)
			}
		})
	}
}
