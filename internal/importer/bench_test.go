package importer_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"catalog/internal/importer"
)

// BenchmarkImportMovies imports 20,000 movies of about 2 KB each (40 MB,
// more than one batch of input) into a new SQLite file, as `catalog
// import` does.
func BenchmarkImportMovies(b *testing.B) {
	const n = 20000
	var in bytes.Buffer
	synopsis := strings.Repeat("A long synopsis of a movie. ", 60)
	for i := range n {
		fmt.Fprintf(&in, `{"id_code": "BENCH-%06d", "name": "Benchmark movie %d", "year": "2019", "synopsis": %q, `+
			`"actor": ["Ann Lee", "Bo Chen"], "categories": ["Drama"], "link_embed": "https://player.example.com/embed/%d"}`+"\n",
			i, i, synopsis, i)
	}
	b.SetBytes(int64(in.Len()))
	for b.Loop() {
		b.StopTimer()
		s := openStore(b)
		b.StartTimer()
		sum, err := importer.Movies(context.Background(), s, "bench.jsonl", bytes.NewReader(in.Bytes()), importer.Options{})
		if err != nil || sum.Imported != n {
			b.Fatalf("import: %+v, %v", sum, err)
		}
	}
}
