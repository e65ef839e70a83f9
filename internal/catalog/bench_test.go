package catalog_test

import (
	"net/url"
	"testing"
	"time"

	"catalog/internal/catalog"
)

func BenchmarkDeriveCover(b *testing.B) {
	urls := []string{
		"https://www.youtube.com/embed/dQw4w9WgXcQ",
		"https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ",
		"https://geo.dailymotion.com/player.html?video=x7tgad0",
		"https://player.example/v/123",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		catalog.DeriveCover(urls[i%len(urls)])
	}
}

func BenchmarkParsePaging(b *testing.B) {
	q := url.Values{"page": {"17"}, "limit": {"50"}, "q": {"sunset"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := catalog.ParsePaging(q, "page", "pg"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseFields(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := catalog.ParseFields("id, title,name,slug,release,country,actor", false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClipAppendJSON(b *testing.B) {
	clips := make([]catalog.Clip, 20)
	for i := range clips {
		clips[i] = catalog.Clip{ID: int64(1000 - i), Title: "Sunset over the bay คลิปหลุด \"quoted\"",
			IframeURL: "https://www.youtube.com/embed/dQw4w9WgXcQ", CoverURL: "https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg",
			Actor: "Ann", Studio: "Studio", Platform: "JAV", Notes: "line one\nline two",
			CreatedAt: time.Date(2026, 11, 21, 13, 45, 7, 0, time.UTC)}
	}
	buf := make([]byte, 0, 16<<10)
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for i := range clips {
			buf = clips[i].AppendJSON(buf)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkMovieAppendJSON(b *testing.B) {
	m := testMovie()
	for _, bm := range []struct {
		name   string
		legacy bool
	}{{"movies", false}, {"jav", true}} {
		b.Run(bm.name, func(b *testing.B) {
			fs := catalog.AllFields(bm.legacy)
			buf := make([]byte, 0, 4<<10)
			b.ReportAllocs()
			for b.Loop() {
				buf = m.AppendJSON(buf[:0], fs, bm.legacy)
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}

func BenchmarkSearchTerms(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		catalog.SearchTerms("  Sunset BAY Café คลิปหลุด 東京 sunset ")
	}
}
