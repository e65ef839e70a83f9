package search

import (
	"os"
	"testing"
	"time"
)

// BenchmarkOpenFile times the parts of opening the index file named by
// CATALOG_BENCH_INDEX (for example a 10M catalog's movies.idx): the
// trailer and checksum, the mapping, and the sections' decoding (which
// ends with the spans' check, timed again on its own): together, how
// long a restart waits before its searches are answered.
func BenchmarkOpenFile(b *testing.B) {
	path := os.Getenv("CATALOG_BENCH_INDEX")
	if path == "" {
		b.Skip("set CATALOG_BENCH_INDEX to an index file")
	}
	var check, mapping, decoding, spans time.Duration
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		_, dirOff, err := checkFile(f)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		data, unmap, err := mapFile(f)
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		ix, err := decode(data, dirOff)
		if err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		if err := ix.checkSpans(); err != nil {
			b.Fatal(err)
		}
		t4 := time.Now()
		check, mapping, decoding, spans = check+t1.Sub(t0), mapping+t2.Sub(t1), decoding+t3.Sub(t2), spans+t4.Sub(t3)
		unmap()
		f.Close()
	}
	n := float64(b.N)
	b.ReportMetric(check.Seconds()/n*1e3, "check-ms/op")
	b.ReportMetric(mapping.Seconds()/n*1e3, "map-ms/op")
	b.ReportMetric(decoding.Seconds()/n*1e3, "decode-ms/op")
	b.ReportMetric(spans.Seconds()/n*1e3, "spans-ms/op")
}
