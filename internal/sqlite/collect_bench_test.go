package sqlite_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"catalog/internal/catalog"
)

// BenchmarkCollectPage writes pages of 100 new records of one source,
// each with an id_code and a slug, into a catalog that grows as it runs:
// the per-page cost of the identity rule and the key checks.
func BenchmarkCollectPage(b *testing.B) {
	s := openStore(b, filepath.Join(b.TempDir(), "catalog.db"))
	ctx := context.Background()
	page := make([]catalog.CollectedMovie, 100)
	vod := int64(0)
	for b.Loop() {
		for i := range page {
			vod++
			n := strconv.FormatInt(vod, 10)
			m := catalog.Movie{Name: "Film " + n, Year: "2020", IDCode: "CODE-" + n,
				Episodes: []catalog.Server{{Name: "m3u8", Episodes: []catalog.Episode{{Name: "Full", LinkM3U8: "https://cdn.example/" + n + ".m3u8"}}}}}
			if err := m.Normalize(); err != nil {
				b.Fatal(err)
			}
			page[i] = catalog.CollectedMovie{VodID: vod, Movie: m}
		}
		if err := s.CollectMovies(ctx, "bench", page); err != nil {
			b.Fatal(err)
		}
	}
}
